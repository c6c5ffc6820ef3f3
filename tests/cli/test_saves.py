"""Saves a person can manage, and everything under LEHAVRE_DATA_DIR (issue 13, points 2 and 5).

``save NAME`` writes NAME.json into the saves folder and the game goes on saving there; a name with a
slash or ending in .json is a path; ``lehavre saves`` lists the games; ``--load`` takes a listed name;
the advice on quitting names the command that continues that very game; ``--resume`` continues the
most recently played unfinished game, even one saved outside the saves folder.  The playtest database
lives in the data directory too.
"""

from __future__ import annotations

import json
import re
import sqlite3

from typer.testing import CliRunner

from cli.app import app
from core.records import load_record, replay

runner = CliRunner()


def invoke(*args: str, input_text: str | None = None):
    return runner.invoke(app, list(args), input=input_text)


def flat(text: str) -> str:
    return " ".join(text.split())


def actions_in(path) -> list[str]:
    return json.loads(path.read_text())["actions"]


def test_save_name_goes_into_the_saves_folder_and_the_game_goes_on_saving_there(data_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing may land in the current folder
    r = invoke(
        "inland", "--opponent", "greedy", "--seat", "first", "--seed", "5", input_text="1\nsave my game\n1\nquit\n"
    )
    assert r.exit_code == 0, r.stdout
    saves = data_dir / "saves"
    named = saves / "my game.json"
    assert named.is_file() and not (tmp_path / "my game").exists()
    # the autosave moved to the name: one file for the game, holding the actions after the save too
    assert sorted(p.name for p in saves.glob("*.json")) == ["my game.json"]
    played = len(actions_in(named))
    assert played >= 2
    out = flat(r.stdout)
    assert "The game goes on saving there" in out
    # the advice on quitting names the command that continues this very game
    # (each command on a line of its own, as it is typed)
    assert "\n  lehavre inland --resume\n" in r.stdout and '\n  lehavre inland --load "my game"\n' in r.stdout
    replayed = invoke("replay", "my game", "--json")  # replay takes the name too
    assert replayed.exit_code == 0 and json.loads(replayed.stdout)["action_number"] == played
    again = invoke("inland", "--load", "my game", input_text="quit\n")
    assert again.exit_code == 0 and f"{played} actions played" in flat(again.stdout)


def test_save_with_a_slash_or_json_is_a_path_and_load_then_resume_finds_that_game(data_dir, tmp_path):
    elsewhere = tmp_path / "elsewhere" / "mine.json"
    first = invoke(
        "inland", "--opponent", "greedy", "--seat", "first", "--seed", "5", input_text=f"1\nsave {elsewhere}\nquit\n"
    )
    assert first.exit_code == 0 and elsewhere.is_file()
    assert not list((data_dir / "saves").glob("*.json"))  # moved out of the saves folder
    before = len(actions_in(elsewhere))
    # an older unfinished game in the saves folder
    invoke("inland", "--opponent", "greedy", "--seat", "first", "--seed", "9", input_text="quit\n")
    # continue the file elsewhere, play on, quit: --resume opens that game, not the older one
    loaded = invoke("inland", "--load", str(elsewhere), input_text="1\n1\nquit\n")
    assert loaded.exit_code == 0 and f"{before} action" in flat(loaded.stdout)
    assert f"--load {elsewhere}" in flat(loaded.stdout)
    after = len(actions_in(elsewhere))
    assert after > before
    resumed = invoke("inland", "--resume", input_text="quit\n")
    assert (
        resumed.exit_code == 0
        and str(elsewhere) in flat(resumed.stdout)
        and f"{after} actions played" in flat(resumed.stdout)
    )


def test_save_refuses_to_overwrite_another_game_and_a_bad_name(data_dir):
    invoke("inland", "--opponent", "greedy", "--seat", "first", "--seed", "5", input_text="save taken\nquit\n")
    before = (data_dir / "saves" / "taken.json").read_text()
    r = invoke(
        "inland",
        "--opponent",
        "greedy",
        "--seat",
        "first",
        "--seed",
        "6",
        input_text="save taken\nsave .hidden\nsave other\nquit\n",
    )
    out = flat(r.stdout)
    assert r.exit_code == 0 and "There is already a saved game 'taken'" in out
    assert (data_dir / "saves" / "taken.json").read_text() == before  # nothing lost
    assert "'.hidden' cannot be a save name" in out
    assert (data_dir / "saves" / "other.json").is_file()


def test_saves_lists_game_players_round_last_played_and_finished(data_dir):
    invoke("inland", "--opponent", "greedy", "--seat", "first", "--seed", "5", input_text="1\nsave inland one\nquit\n")
    invoke(
        "base",
        "--opponent",
        "greedy",
        "--seat",
        "first",
        "--seed",
        "3",
        "--players",
        "3",
        "--short",
        input_text="quit\n",
    )
    invoke("inland", "--opponent", "greedy", "--seat", "second", "--seed", "11", input_text="1\n" * 200)  # to the end
    r = invoke("saves")
    assert r.exit_code == 0
    out = flat(r.stdout)
    assert str(data_dir / "saves") in out
    assert "inland one" in out and "Inland Port" in out and "greedy, You" in out
    assert re.search(r"over: \d+ - \d+", out)
    rows = json.loads(invoke("saves", "--json").stdout)
    assert len(rows) == 3 and [r["finished"] for r in rows].count(True) == 1
    named = next(r for r in rows if r["name"] == "inland one")
    assert named["game"] == "Inland Port" and named["players"] == ["You", "greedy"] and not named["finished"]
    state = replay(load_record(named["file"]))
    assert named["round"] == f"{state.round_letter} of A-L" and named["round"] in out
    assert named["file"].endswith("inland one.json")
    only_base = json.loads(invoke("saves", "base", "--json").stdout)
    assert [(r["game"], r["players"], r["round"]) for r in only_base] == [
        ("base game, short", ["You", "greedy", "greedy"], "1 of 12")
    ]  # the 3-player short game has 12 rounds
    for row in rows:  # the table shows every game by its name, with its round or its result
        assert row["name"] in out and (row["round"] if not row["finished"] else row["status"]) in out
    bad = invoke("saves", "chess")
    assert bad.exit_code == 2 and "inland or base" in flat(bad.output)


def test_load_by_name_that_does_not_exist_says_how_to_find_one(data_dir):
    r = invoke("inland", "--load", "nosuchgame")
    assert r.exit_code == 2
    assert "no saved game named 'nosuchgame'" in flat(r.output) and "lehavre saves" in flat(r.output)


def test_no_saved_games(data_dir):
    r = invoke("saves")
    assert r.exit_code == 0 and "No saved games in" in flat(r.stdout)


# -- point 5: everything under LEHAVRE_DATA_DIR ------------------------------------------------


def test_the_playtest_database_lives_in_the_data_directory(data_dir):
    r = invoke("playtest", "inland", "--agents", "random,random", "--games", "2", "--seed", "1")
    assert r.exit_code == 0, r.output
    db = data_dir / "playtest.sqlite3"
    assert db.is_file() and str(db) in flat(r.output)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    listed = invoke("compare", "--list-runs")
    assert listed.exit_code == 0 and str(db) in flat(listed.output)
    assert "random,random" in listed.output  # the agents of every run


def test_a_data_directory_that_cannot_be_written_warns_and_goes_on(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("LEHAVRE_DATA_DIR", str(blocker))
    r = invoke("playtest", "inland", "--agents", "random,random", "--games", "2", "--seed", "1")
    assert r.exit_code == 0, r.output
    out = flat(r.output)
    assert "Warning: cannot use" in out and "not stored" in out
    assert "2 games stored in memory" in out and "Traceback" not in out


def test_loading_a_save_of_the_other_game_names_both_games_and_the_command(data_dir):
    """A saved Inland Port game given to 'lehavre base --load': the message names both games by their
    titles and the command that continues it."""
    assert invoke("inland", "--watch", "--agents", "random,random", "--seed", "2").exit_code == 0
    saved = sorted((data_dir / "saves").glob("inland-*.json"))
    assert saved
    result = invoke("base", "--load", str(saved[-1]))
    assert result.exit_code == 2
    text = flat(result.output)
    assert "is a saved game of 'Le Havre: The Inland Port', not of 'Le Havre'" in text
    assert "lehavre inland --load" in text
