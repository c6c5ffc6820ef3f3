"""Issue 17 on the command line: measures in playtest/compare (text, JSON, HTML), lehavre skill, building rows of
two games kept apart, and tables written to a pipe that never cut a name."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from cli.app import app
from core.lab.measures import DEFINITIONS

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def test_playtest_json_has_every_measure_and_one_evaluation_per_decision(tmp_path):
    out = tmp_path / "out.json"
    agents = "ai:easy@nodes=40,ai:easy@nodes=40"
    r = invoke(
        "playtest", "inland", "--games", 3, "--agents", agents, "--noise", 2, "--json", out, "--db", tmp_path / "db"
    )
    assert r.exit_code == 0, r.output
    assert "decisiveness" in r.output and "Eventual winner's evaluation lead" in r.output
    data = json.loads(out.read_text())
    m = data["summary"]["measures"]
    assert m["traced"] == 3
    for key in DEFINITIONS:
        assert m[key]["n"] == m["measured"] and "ci95" in m[key]
    assert len(m["curve"]) == 10
    first = data["summary"]["first_seat"]
    assert first["ci"][0] <= first["share_of_decisive"] <= first["ci"][1]
    assert len(data["summary"]["tie_ci95"]) == 2
    for game in data["results"]:
        assert len(game["trace"]) == game["steps"]
        assert (game["measures"] is None) == (len(game["winners"]) != 1)


def test_compare_through_a_pipe_keeps_whole_names_and_the_buildings_of_two_games_apart(tmp_path):
    cmd = [
        sys.executable,
        "-m",
        "cli",
        "compare",
        "--a",
        "inland:agents=random,random",
        "--b",
        "base:players=2;short;agents=random,random",
        "--games",
        "2",
        "--db",
        str(tmp_path / "db.sqlite3"),
        "--json",
        str(tmp_path / "cmp.json"),
        "--report",
        str(tmp_path / "cmp.html"),
    ]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)  # stdout is a pipe
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "…" not in text  # Rich's ellipsis: nothing was cut
    # Clay Mound exists in both games: one row for each
    assert "Clay Mound (Inland Port)" in text and "Clay Mound (base game)" in text
    data = json.loads((tmp_path / "cmp.json").read_text())
    assert {e["game"] for e in data["a"]["summary"]["buildings"].values()} == {"inland"}
    assert {e["game"] for e in data["b"]["summary"]["buildings"].values()} == {"base"}
    assert not [t for t in data["tests"] if t["what"].endswith(": built")]  # no building is compared across games
    assert any(t["what"] == "decisiveness" for t in data["tests"])
    page = (tmp_path / "cmp.html").read_text()
    assert 'id="chart-lead"' in page and "Clay Mound (Inland Port)" in page and "Clay Mound (base game)" in page


def test_skill_plays_a_ladder_and_reports_each_step_and_the_slope(tmp_path):
    out = tmp_path / "skill.json"
    r = invoke("skill", "inland", "--from", 10, "--to", 40, "--games", 2, "--db", tmp_path / "db", "--json", out)
    assert r.exit_code == 0, r.output
    assert "Skill depth: inland" in r.output and "points per doubling" in r.output and "strong won" in r.output
    (ladder,) = json.loads(out.read_text())["ladders"]
    assert [(s["weak_nodes"], s["strong_nodes"]) for s in ladder["steps"]] == [(10, 20), (20, 40)]
    for s in ladder["steps"]:
        assert s["strong_wins"] + s["weak_wins"] + s["ties"] == s["games"] == 2
    assert ladder["games"] == 4 and ladder["fit"]["slope"] is not None
    again = invoke("skill", "inland", "--from", 10, "--to", 40, "--games", 2, "--db", tmp_path / "db", "--json", out)
    assert again.exit_code == 0 and json.loads(out.read_text())["ladders"][0]["steps"] == ladder["steps"]


def test_bad_node_budgets_and_ladders_are_refused_clearly(tmp_path):
    r = invoke("playtest", "inland", "--games", 1, "--agents", "ai@nodes=x,random", "--db", tmp_path / "db")
    assert r.exit_code == 2 and "nodes=N" in r.output
    r = invoke("playtest", "inland", "--games", 1, "--agents", "greedy@nodes=5,random", "--db", tmp_path / "db")
    assert r.exit_code == 2 and "only the ai agent takes a node budget" in r.output
    r = invoke("skill", "inland", "--from", 100, "--to", 150, "--db", tmp_path / "db")
    assert r.exit_code == 2 and "twice --from" in r.output
