"""``lehavre saves`` at 80 columns and the games hosted over the network.

A hosted game goes on with ``lehavre host --resume NAME`` (its seats and join codes are kept beside
it): the list marks it and says so, ``--resume`` at the keyboard does not pick it, and ``--load``
says what it is. At 80 columns each game takes two lines and no player's name is split.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from base_game import GameOptions
from cli.app import app
from core import records
from core.net.plan import SeatPlan, TablePlan, new_code, save_plan

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402

runner = CliRunner()


def save_game(ruleset: str, players: list[records.Seat], *, hosted: bool = False) -> str:
    options = GameOptions(players=len(players)) if ruleset == "base" else None
    record = records.new_record(ruleset, options, 7, players)
    path = records.new_save_path(record)
    records.save_record(record, path)
    if hosted:
        seats = [SeatPlan(name=p.name, code=new_code(), host=i == 0) for i, p in enumerate(players)]
        save_plan(TablePlan(record=str(path), seats=seats, watch_code=new_code()))
    return records.save_name(path)


def test_a_hosted_game_is_marked_and_resumed_with_host_resume(data_dir):
    local = save_game("inland", [records.Seat(name="You"), records.Seat.of_agent("ai:normal")])
    hosted = save_game("inland", [records.Seat(name="Host"), records.Seat(name="Player 2")], hosted=True)
    rows = {row["name"]: row for row in json.loads(runner.invoke(app, ["saves", "--json"]).stdout)}
    assert rows[hosted]["hosted"] and not rows[local]["hosted"]
    out = " ".join(runner.invoke(app, ["saves"]).stdout.split())
    assert "hosted" in out and "'lehavre host --resume NAME'" in out
    # --resume at the keyboard takes the game played here, though the hosted one is newer
    again = runner.invoke(app, ["inland", "--resume"], input="quit\n")
    assert again.exit_code == 0 and local in " ".join(again.stdout.split())
    loaded = " ".join(runner.invoke(app, ["inland", "--load", hosted], input="quit\n").stdout.split())
    assert f"'lehavre host --resume {hosted}' continues it there" in loaded


def test_saves_at_80_columns_splits_no_name(tmp_path, monkeypatch):
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(tmp_path))
    seats = [
        records.Seat(name="You"),
        records.Seat.of_agent("ai:normal", "Charlotte"),
        records.Seat.of_agent("ai:hard"),
    ]
    name = save_game("base", seats)
    child = spawn_screen(tmp_path, "saves")
    status, _ = finish(child)
    lines = child.logfile_read.lines
    text = "\n".join(lines)
    assert status == 0
    assert any(name in line and "base game, full" in line for line in lines), text
    for label in ("Charlotte (ai:normal)", "ai:hard", "You"):
        assert any(label in line for line in lines), f"{label!r} is split:\n{text}"
