"""A watched game is saved like a game at the keyboard: 'lehavre saves' lists it and 'lehavre replay'
reads it; the printed game (text or --json) stays the same, the save's path going to stderr."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cli.app import app
from core import records

runner = CliRunner()


def test_a_watched_game_is_saved_listed_and_replayable(data_dir):
    r = runner.invoke(app, ["inland", "--watch", "--agents", "random,greedy", "--seed", "5"])
    assert r.exit_code == 0, r.output
    saves = sorted((data_dir / "saves").glob("*.json"))
    assert len(saves) == 1
    name = records.save_name(saves[0])
    assert name not in r.stdout and f"lehavre review {name}" in " ".join(r.stderr.split())
    listed = runner.invoke(app, ["saves"])
    assert listed.exit_code == 0 and name in listed.stdout
    shown = runner.invoke(app, ["replay", name, "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)  # the last position, read back from the save
    record = records.load_record(saves[0])
    final = records.replay(record)
    assert final.is_terminal() and final.history == record.actions


def test_json_output_is_unchanged_and_no_save_turns_saving_off(data_dir):
    r = runner.invoke(app, ["inland", "--watch", "--agents", "random,greedy", "--seed", "5", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert "saved" not in out and r.stderr == ""
    assert len(list((data_dir / "saves").glob("*.json"))) == 1
    quiet = runner.invoke(app, ["base", "--watch", "--agents", "random,random", "--seed", "5", "--json", "--no-save"])
    assert quiet.exit_code == 0, quiet.output
    assert len(list((data_dir / "saves").glob("*.json"))) == 1


def test_a_watched_game_is_saved_after_every_action(data_dir, monkeypatch):
    """As every other table does: a crash part way keeps the game up to its last action."""
    saved_at: list[int] = []
    save = records.save_record

    def counting(record, path):
        saved_at.append(len(record.actions))
        return save(record, path)

    monkeypatch.setattr(records, "save_record", counting)
    r = runner.invoke(app, ["base", "--watch", "--agents", "random,random", "--seed", "5", "--short"])
    assert r.exit_code == 0, r.output
    record = records.load_record(next((data_dir / "saves").glob("*.json")))
    assert saved_at[: len(record.actions)] == list(range(1, len(record.actions) + 1))
