"""``lehavre balance`` on the toy game of tests/core/test_balance.py (a planted imbalance).

Covers issue 17's point 4 from the command line: the balanced file and its
notes, the HTML report, Ctrl-C of a real process and --resume giving the
result of one uninterrupted run, and clear messages for bad options.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from tests.core.test_balance import TOY, toy_data

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
#: a small search: the toy's games take microseconds, storing them is what takes the time
SMALL = ("--agents", "random", "--games", "40", "--candidates", "4", "--budget", "600", "--seed", "1")


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _data(path: Path) -> dict:
    """A data file's buildings without the notes (which name the command that wrote them)."""
    cards = json.loads(path.read_text())["buildings"]
    return {c["name"]: {k: v for k, v in c.items() if k != "notes"} for c in cards}


def test_balance_writes_the_balanced_file_and_a_report(tmp_path, data_dir):
    toy = toy_data(tmp_path / "toy.json")
    out, report = tmp_path / "out.json", tmp_path / "r.html"
    result = invoke("balance", TOY, "--data", toy, *SMALL, "--check", "30", "--out", out, "--report", report)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Changed data" in text and "Gold Mine." in text and "check random,random, after" in text
    cards = {c["name"]: c for c in json.loads(out.read_text())["buildings"]}
    mine = cards["Gold Mine"]
    assert mine["cost"]["coins"] - mine["value"] > 2 - 8  # made dearer or worth less
    assert mine["notes"]
    for field, note in mine["notes"].items():
        assert mine["provenance"][field] == "reconstructed"
        assert "changed by the balancing run balance-" in note and "seed 1" in note
    assert all("notes" not in c for n, c in cards.items() if n != "Gold Mine")
    page = report.read_text()
    for part in ('id="changes"', 'id="targets"', 'id="chart-first-seat"', 'id="buildings-1"', 'id="path"'):
        assert part in page
    assert "Gold Mine." in page and "check: random,random" in page


def _stored(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_ctrl_c_then_resume_gives_the_result_of_one_run(tmp_path, data_dir):
    toy = toy_data(tmp_path / "toy.json")
    one = invoke("balance", TOY, "--data", toy, *SMALL, "--out", tmp_path / "one.json", "--db", tmp_path / "one.db")
    assert one.exit_code == 0, one.output
    db = tmp_path / "two.db"
    cmd = [sys.executable, "-m", "cli", "balance", TOY, "--data", str(toy), *SMALL, "--db", str(db)]
    proc = subprocess.Popen(
        [*cmd, "--out", str(tmp_path / "never.json")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=dict(os.environ, COLUMNS="100"),
    )
    deadline = time.monotonic() + 120
    while _stored(db) < 10:  # early, so that a loaded machine cannot finish the run before the signal lands
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the search stored no games"
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)  # the whole process group, as a terminal's Ctrl-C does
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    assert not (tmp_path / "never.json").exists()
    two = invoke(*cmd[3:], "--resume", "--out", tmp_path / "two.json")
    assert two.exit_code == 0, two.output
    assert _data(tmp_path / "two.json") == _data(tmp_path / "one.json")
    tables = [r.output[r.output.index("Targets") : r.output.index("Stopped")] for r in (one, two)]
    assert tables[0] == tables[1]


@pytest.mark.parametrize(
    "args, message",
    [
        (["balance", "base"], "declares no tunable data, so it cannot be balanced"),
        (["balance", "--games", "5"], "--games must be a multiple of 2"),
        (["balance", "--budget", "10"], "--budget (10) must allow at least the --games (24)"),
        (["balance", "--first", "60-40"], "--first takes LOW-HIGH in percent with 0 <= LOW <= HIGH <= 100"),
        (["balance", "--first", "half"], "--first takes LOW-HIGH in percent, e.g. 45-55"),
        (["balance", "--check", "ai:normal="], "--check takes GAMES or AGENTS=GAMES"),
        (["balance", "--fields", "Castle.*"], "--fields 'Castle.*' names no numeric field"),
        (["balance", "--agents", "wizard"], "unknown agent 'wizard'"),
        (["balance", "--data", "/no/such/file.json"], "--data '/no/such/file.json' does not exist"),
        (["balance", "--address", "tcp://127.0.0.1:1"], "--address is only used with --backend dask"),
        (["balance", "--candidates", "0"], "Invalid value for '--candidates'"),
        (["balance", "--max-owner-win", "120"], "Invalid value for '--max-owner-win'"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(tmp_path, data_dir, args, message):
    result = invoke(*args, "--db", tmp_path / "e.sqlite3")
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output
