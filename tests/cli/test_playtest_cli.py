"""``lehavre playtest`` and ``lehavre compare`` on the Inland Port (random and greedy agents).

Covers issue 6's acceptance points: per-seat wins and ties add up to the
number of games, the same games for any --jobs, the compare report's charts,
Ctrl-C / kill and --resume with a real subprocess, clear messages for bad input.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from core.lab import playtest as pt
from core.lab import report as rp
from core.lab.playtest import config as pt_config

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def _strip(results):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in results]


def test_playtest_json_adds_up_and_is_identical_for_any_jobs(tmp_path):
    one = invoke(
        "playtest",
        "inland",
        "--games",
        12,
        "--agents",
        "random,greedy",
        "--seed",
        3,
        "--json",
        tmp_path / "one.json",
        "--db",
        tmp_path / "one.sqlite3",
        "--report",
        tmp_path / "one.html",
    )
    assert one.exit_code == 0, one.output
    two = invoke(
        "playtest",
        "inland",
        "--games",
        12,
        "--agents",
        "random,greedy",
        "--seed",
        3,
        "--jobs",
        2,
        "--json",
        tmp_path / "two.json",
        "--db",
        tmp_path / "two.sqlite3",
    )
    assert two.exit_code == 0, two.output
    a = json.loads((tmp_path / "one.json").read_text())
    b = json.loads((tmp_path / "two.json").read_text())
    s = a["summary"]
    assert sum(seat["wins"] for seat in s["seats"]) + s["ties"] == 12
    assert [r["index"] for r in a["results"]] == list(range(12))
    assert _strip(a["results"]) == _strip(b["results"])
    # seat rotation: game i seats the agent list rotated by i
    assert a["results"][0]["seats"] == ["random", "greedy"]
    assert a["results"][1]["seats"] == ["greedy", "random"]
    assert all(len(r["actions"]) == r["steps"] >= r["main_actions"] for r in a["results"])
    assert "seat 1 wins" in one.output and "Buildings" in one.output
    charts = _Charts()
    charts.feed((tmp_path / "one.html").read_text())
    assert set(charts.figures) == set(rp.CHART_IDS)
    assert all(f["bars"] > 0 or f["lines"] > 0 for f in charts.figures.values())


class _Charts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.figures: dict[str, dict[str, int]] = {}
        self.current: str | None = None
        self.external: list[str] = []
        self.scripts = 0
        self.tables: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure" and "chart" in (a.get("class") or ""):
            self.current = a["id"]
            self.figures[self.current] = {"svg": 0, "bars": 0, "errorbars": 0, "lines": 0}
        elif self.current and tag == "svg":
            self.figures[self.current]["svg"] += 1
        elif self.current and tag == "rect" and a.get("class") == "bar":
            self.figures[self.current]["bars"] += 1
        elif self.current and tag == "g" and a.get("class") == "errorbar":
            self.figures[self.current]["errorbars"] += 1
        elif self.current and tag == "polyline":
            self.figures[self.current]["lines"] += 1
        if tag == "script":
            self.scripts += 1
        if tag == "table":
            self.tables.append(a.get("id", ""))
        for key in ("src", "href"):
            if a.get(key):
                self.external.append(a[key])

    def handle_endtag(self, tag):
        if tag == "figure":
            self.current = None


def test_compare_two_inland_configurations_writes_a_self_contained_report(tmp_path):
    report = tmp_path / "r.html"
    result = invoke(
        "compare",
        "--games",
        10,
        "--seed",
        1,
        "--a",
        "inland:agents=random,greedy",
        "--b",
        "inland:agents=greedy,greedy;label=greedy mirror",
        "--report",
        report,
        "--json",
        tmp_path / "c.json",
        "--db",
        tmp_path / "c.sqlite3",
    )
    assert result.exit_code == 0, result.output
    assert "Differences B − A" in result.output and "greedy mirror" in result.output
    html = report.read_text()
    parser = _Charts()
    parser.feed(html)
    assert set(parser.figures) == set(rp.CHART_IDS)
    for chart_id, seen in parser.figures.items():
        # bars, or (the winner's lead over the game) one median line per configuration
        assert seen["svg"] == 1 and (seen["bars"] > 0 or seen["lines"] == 2), chart_id
    # seat and agent win rates carry their Wilson intervals
    assert parser.figures["chart-seats"]["errorbars"] == 2 * 3
    assert parser.figures["chart-agents"]["errorbars"] >= 4
    assert parser.external == [] and parser.scripts == 0
    assert {"summary", "tests", "agents", "buildings"} <= set(parser.tables)
    data = json.loads((tmp_path / "c.json").read_text())
    assert data["a"]["summary"]["games"] == data["b"]["summary"]["games"] == 10
    assert {t["test"] for t in data["tests"]} >= {"two-proportion z-test", "Welch t-test", "Mann-Whitney U test"}
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:
        shot = tmp_path / "shot.png"
        subprocess.run(
            [
                chromium,
                "--headless",
                "--disable-gpu",
                "--no-sandbox",
                f"--screenshot={shot}",
                "--window-size=1200,3000",
                report.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        assert shot.stat().st_size > 10_000


def test_compare_reads_stored_runs_instead_of_playing(tmp_path):
    db = tmp_path / "s.sqlite3"
    for agents in ("random,greedy", "greedy,greedy"):
        assert invoke("playtest", "inland", "--games", 4, "--agents", agents, "--db", db).exit_code == 0
    listing = invoke("compare", "--list-runs", "--db", db)
    assert listing.exit_code == 0 and "4/4" in listing.output
    result = invoke("compare", "--a-run", 1, "--b-run", 2, "--db", db, "--json", tmp_path / "c.json")
    assert result.exit_code == 0, result.output
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 2
    data = json.loads((tmp_path / "c.json").read_text())
    assert (data["a"]["run_id"], data["b"]["run_id"]) == (1, 2)
    # --from-db reuses the stored run of the same configuration and seed
    again = invoke(
        "compare",
        "--games",
        4,
        "--a",
        "inland:agents=random,greedy",
        "--b",
        "inland:agents=greedy,greedy",
        "--from-db",
        "--db",
        db,
    )
    assert again.exit_code == 0, again.output
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 2
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 8


def test_default_compare_without_the_base_game_fails_clearly(tmp_path, monkeypatch):
    import core.games

    installed = core.games._entry_points()
    monkeypatch.setattr(core.games, "_entry_points", lambda: {k: v for k, v in installed.items() if k != "base"})
    monkeypatch.setattr(pt_config, "_IMPORTED", {})  # as in a process that has not looked the games up yet
    result = invoke("compare", "--games", 2, "--db", tmp_path / "x.sqlite3")
    assert result.exit_code == 2
    assert "needs the base game, which is not available" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["playtest", "chess", "--games", 2], "unknown rule set 'chess' (known: base, inland"),
        (["playtest", "inland", "--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["playtest", "inland", "--agents", "random,greedy,greedy"], "played by 2 players here, but 3 agents"),
        (["playtest", "inland", "--short"], "has no option 'short' (allowed: buildings)"),
        (["playtest", "inland", "--variant", "oops"], "--variant needs KEY=VALUE"),
        (["playtest", "inland", "--games", 0], "--games' / '-n': 0 is out of range: give a number of at least 1"),
        (["playtest", "inland", "--jobs", 0], "--jobs' / '-j': 0 is out of range: give a number of at least 1"),
        (["playtest", "inland", "--buildings", "/no/such/file.json"], "does not exist"),
        (["compare", "--a", "inland:agents=greedy,greedy;turbo", "--b", "inland"], "'turbo' is not KEY=VALUE"),
        (["compare", "--a-run", "7", "--b", "inland:agents=greedy,greedy"], "no run 7"),
    ],
)
def test_bad_input_gets_a_clear_message(tmp_path, args, message):
    result = invoke(*args, "--db", tmp_path / "e.sqlite3")
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_a_bad_building_file_is_refused_with_its_reason(tmp_path):
    bad = tmp_path / "b.json"
    bad.write_text('{"buildings": [{"name": ""}]}')
    result = invoke("playtest", "inland", "--games", 2, "--buildings", bad, "--db", tmp_path / "e.sqlite3")
    assert result.exit_code == 2
    assert "b.json" in result.output and "Traceback" not in result.output


# -- a real process, interrupted and resumed ------------------------------------------------


def _stored(db: Path) -> tuple[int, int]:
    if not db.exists():
        return (0, 0)
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return con.execute("SELECT COUNT(*), COUNT(DISTINCT run_id || ':' || idx) FROM games").fetchone()
    except sqlite3.OperationalError:  # tables not created yet
        return (0, 0)


def _start(db: Path, games: int, *extra: str) -> subprocess.Popen:
    cmd = [
        sys.executable,
        "-m",
        "cli",
        "playtest",
        "inland",
        "--games",
        str(games),
        "--agents",
        "random,greedy",
        "--seed",
        "5",
        "--db",
        str(db),
        *extra,
    ]
    env = dict(os.environ, COLUMNS="100")
    return subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, env=env
    )


def _wait_for(db: Path, at_least: int, proc: subprocess.Popen, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while _stored(db)[0] < at_least:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run stored no games"
        time.sleep(0.02)


@pytest.mark.parametrize("sig, jobs", [(signal.SIGINT, "1"), (signal.SIGINT, "2"), (signal.SIGKILL, "2")])
def test_interrupted_run_resumes_to_exactly_n_games(tmp_path, sig, jobs):
    db = tmp_path / "run.sqlite3"
    # enough that the run cannot finish them all in the few milliseconds between the fifth stored game
    # and the signal, and few enough that the resumed run is short
    games = 60
    proc = _start(db, games, "--jobs", jobs)
    _wait_for(db, 5, proc)
    os.killpg(proc.pid, sig)  # the whole process group, as a terminal's Ctrl-C does
    _out, err = proc.communicate(timeout=60)
    stored, distinct = _stored(db)
    assert stored == distinct and 5 <= stored < games
    if sig == signal.SIGINT:
        assert proc.returncode == 130, err
        assert "Traceback" not in err
        assert "--resume" in err and f"{stored} of {games} games stored" in " ".join(err.split())
    else:
        assert proc.returncode == -signal.SIGKILL
    resumed = _start(db, games, "--jobs", "2", "--resume", "--json", str(tmp_path / "r.json"))
    _out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert _stored(db) == (games, games)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 1
    data = json.loads((tmp_path / "r.json").read_text())
    assert [r["index"] for r in data["results"]] == list(range(games))
    assert sum(s["wins"] for s in data["summary"]["seats"]) + data["summary"]["ties"] == games
    # the resumed games are the very games an uninterrupted run plays
    config = pt.make_config("inland", ["random", "greedy"])
    for i in (0, games - 1):
        fresh = pt.play_game(pt.GameJob(config.rules, config.options, config.agents, 5, i))
        assert fresh["actions"] == data["results"][i]["actions"]


def test_dask_backend_on_a_loopback_cluster_plays_the_same_games(tmp_path):
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    local = invoke(
        "playtest", "inland", "--games", 4, "--seed", 8, "--json", tmp_path / "l.json", "--db", tmp_path / "l.sqlite3"
    )
    assert local.exit_code == 0, local.output
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        remote = invoke(
            "playtest",
            "inland",
            "--games",
            4,
            "--seed",
            8,
            "--backend",
            "dask",
            "--address",
            cluster.scheduler_address,
            "--json",
            tmp_path / "d.json",
            "--db",
            tmp_path / "d.sqlite3",
        )
    assert remote.exit_code == 0, remote.output
    a = json.loads((tmp_path / "l.json").read_text())["results"]
    b = json.loads((tmp_path / "d.json").read_text())["results"]
    assert _strip(a) == _strip(b)


def test_base_game_players_short_and_variant_flags(tmp_path):
    """Variant flags go to the rule set's options (seeds/002, rules for advanced players)."""
    result = invoke(
        "playtest",
        "base",
        "--games",
        3,
        "--agents",
        "random,greedy,random",
        "--players",
        3,
        "--short",
        "--variant",
        "expensive_loans=yes",
        "--json",
        tmp_path / "b.json",
        "--db",
        tmp_path / "b.sqlite3",
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "b.json").read_text())
    assert data["config"]["options"]["players"] == 3 and data["config"]["options"]["short"] is True
    assert data["config"]["options"]["expensive_loans"] is True
    assert [r["seats"] for r in data["results"]] == [
        ["random", "greedy", "random"],
        ["greedy", "random", "random"],
        ["random", "random", "greedy"],
    ]
    s = data["summary"]
    assert sum(x["wins"] for x in s["seats"]) + s["ties"] == 3
    bad = invoke("playtest", "base", "--variant", "turbo=yes", "--db", tmp_path / "b.sqlite3")
    assert bad.exit_code == 2 and "has no option 'turbo'" in bad.output
