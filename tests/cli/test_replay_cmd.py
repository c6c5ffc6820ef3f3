"""``lehavre replay PATH`` (issue 7, part 3): stepping through a saved game and
``--to N --json``.  Command-line behaviour only (no game rule is asserted, so no
rulebook passage is cited); positions are checked against playing the game.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from core.games import game_names
from core.records import get_ruleset, new_record, new_state, replay, save_record, state_summary
from tests.core import test_records_toygame  # noqa: F401  (registers the toy rule set "toy")

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """Nothing here may touch the real save folder."""
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "100")
    return tmp_path / "data"


def played(name: str, options, seed: int, steps: int, path: Path):
    """A game of ``steps`` random actions saved at ``path``; returns (record, states)."""
    rng = random.Random(seed)
    seats = get_ruleset(name).new_game(seed, options).num_players
    record = new_record(name, options, seed, ["Ann", {"name": "Bot", "agent": "random"}, "Cy", "Di"][:seats])
    state = new_state(record)
    states = [state.clone()]
    for _ in range(steps):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        record.append(str(action), state)
        states.append(state.clone())
    save_record(record, path)
    return record, states


def invoke(*args: str, input_text: str | None = None):
    return runner.invoke(app, ["replay", *args], input=input_text)


@pytest.mark.parametrize("name", ["toy", *[r for r in game_names() if r != "toy"]])
def test_to_n_json_equals_playing_to_n(name, tmp_path):
    options = {"pile": 12} if name == "toy" else None
    record, states = played(name, options, 4, 40, tmp_path / "g.json")
    last = len(states) - 1
    for n in sorted({0, 1, last // 2, last}):
        result = invoke(str(tmp_path / "g.json"), "--to", str(n), "--json")
        assert result.exit_code == 0, result.output
        got = json.loads(result.stdout)
        assert got["state_hash"] == states[n].state_hash()
        assert got["action_number"] == n and got["total_actions"] == last
        assert got["ruleset"] == name
        assert got["current_player"] == (None if states[n].is_terminal() else states[n].current_player())
        assert got["wealth"] == states[n].wealth() and got["terminal"] == states[n].is_terminal()
        assert got["breakdown"] == [states[n].wealth_breakdown(p) for p in range(states[n].num_players)]
        expected = state_summary(replay(record, upto=n), record)
        assert {k: got[k] for k in expected} == expected


def test_json_without_to_is_the_last_position(tmp_path):
    record, states = played("toy", {"pile": 5}, 2, 99, tmp_path / "g.json")
    got = json.loads(invoke(str(tmp_path / "g.json"), "--json").stdout)
    assert got["terminal"] and got["finished"] and got["action_number"] == len(record.actions)
    assert got["winners"] == states[-1].winners()


def test_a_position_beyond_the_record_is_refused(tmp_path):
    played("toy", {"pile": 5}, 2, 3, tmp_path / "g.json")
    result = invoke(str(tmp_path / "g.json"), "--to", "4", "--json")
    assert result.exit_code == 2
    assert "no action 4" in result.output and "0 to 3" in result.output and "g.json" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "content, needle",
    [
        ('{"format_version": 1, "ruleset": "toy"', "invalid JSON"),
        ('{"format_version": 7}', "unknown save format version 7"),
        ("", "empty"),
    ],
)
def test_a_bad_file_exits_2_with_the_file_and_the_problem(tmp_path, content, needle):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    result = invoke(str(bad), "--json")
    assert result.exit_code == 2
    assert needle in result.output and str(bad) in result.output.replace("\n", "")
    assert "Traceback" not in result.output


def test_a_hand_edited_illegal_action_is_named(tmp_path):
    path = tmp_path / "g.json"
    played("toy", {"pile": 6}, 1, 3, path)
    data = json.loads(path.read_text())
    data["actions"][2] = "take 5"
    data["state_hash"] = None
    path.write_text(json.dumps(data))
    result = invoke(str(path), "--to", "1", "--json")
    assert result.exit_code == 2 and "action 3 'take 5' is not legal" in result.output


def test_stepping_forward_back_and_jumping(tmp_path):
    record, _states = played("toy", {"pile": 8}, 3, 6, tmp_path / "g.json")
    result = invoke(str(tmp_path / "g.json"), input_text="\nn\nb\n5\nl 1\ns\nzz\nj 40\nend\nn\nh\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Replay of" in out and "seat 1: Ann" in out and "seat 2: Bot (random)" in out
    assert f"[1/6] Ann: {record.actions[0]}" in out and f"[2/6] Bot (random): {record.actions[1]}" in out
    assert f"Position after action 1: {record.actions[0]} (1/6)" in out  # back from 2
    assert f"Position after action 5: {record.actions[4]} (5/6)" in out
    assert ">    5  " in out and "Unknown command 'zz'" in out
    assert "There is no action 40: this record holds actions 0 to 6." in out
    assert "That was the last action" in out and "Enter, n, next" in out
    assert "pebbles" in out and "total" in out  # the text summary: the toy game has no renderer


def test_end_of_input_ends_the_replay_cleanly(tmp_path):
    played("toy", {"pile": 4}, 3, 2, tmp_path / "g.json")
    result = invoke(str(tmp_path / "g.json"), "--to", "2", input_text="")
    assert result.exit_code == 0 and "Position after action 2" in result.output


def test_inland_replay_uses_its_renderer_in_the_real_entry_point(tmp_path):
    """The installed command in a subprocess (stdout a pipe), with the Inland Port's board."""
    record, states = played("inland", None, 9, 12, tmp_path / "inland.json")
    env = {**os.environ, "COLUMNS": "100", "LEHAVRE_DATA_DIR": str(tmp_path / "data")}
    proc = subprocess.run(
        [sys.executable, "-m", "cli", "replay", str(tmp_path / "inland.json"), "--boards"],
        input="n\nn\nq\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"[2/12] {record.actions[1]}" in proc.stdout
    assert "On offer in round" in proc.stdout  # the Inland Port renderer's board
    proc = subprocess.run(
        [sys.executable, "-m", "cli", "replay", str(tmp_path / "inland.json"), "--to", "7", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=ROOT,
    )
    assert json.loads(proc.stdout)["state_hash"] == states[7].state_hash()
