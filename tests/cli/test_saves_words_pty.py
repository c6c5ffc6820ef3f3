"""Saves and words: '--resume' says which save it passed over and why; the lines typed at a game's
prompt come back after 'quit' and '--resume'; '--no-save' with '--watch' watches without saving; a
local '--watch' in a terminal shows the board at a pace (a pipe gets the game at once, as before);
Tab at the second step offers its ways, not building names; a command or a path a person may copy
is never broken across lines."""

from __future__ import annotations

import json
import re
import time

import pytest
from typer.testing import CliRunner

from cli.app import app

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import finish, spawn, spawn_screen  # noqa: E402

runner = CliRunner()
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def invoke(*args: str, input_text: str | None = None):
    return runner.invoke(app, list(args), input=input_text)


def printed(text: str) -> list[str]:
    return [line.rstrip() for line in ESCAPES.sub("", text).replace("\r", "").split("\n")]


def two_games(data_dir) -> tuple:
    """Two unfinished games, the second one newer; then the newer one's file is cut short."""
    for seed in (4, 5):
        r = invoke("inland", "--opponent", "random", "--seat", "first", "--seed", str(seed), input_text="1\nquit\n")
        assert r.exit_code == 0, r.output
        time.sleep(0.02)  # (two saves, one newer than the other)
    older, newer = sorted((data_dir / "saves").glob("*.json"), key=lambda p: p.stat().st_mtime)
    newer.write_text(newer.read_text()[:100])
    return older, newer


def test_resume_says_which_newer_save_it_skipped_and_why(data_dir):
    older, newer = two_games(data_dir)
    r = invoke("inland", "--resume", input_text="quit\n")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    said = " ".join(r.stdout.split())
    assert "Skipped a save that cannot be read (not a saved game: invalid JSON" in said, said[:600]
    assert f"  {newer}" in lines  # the path whole, on a line of its own
    assert f"  {older}" in lines and "seed 4" in said  # and the older game goes on
    assert said.index("Skipped") < said.index("continuing the game in")


def test_resume_with_only_an_unreadable_save_says_why_there_is_nothing_to_resume(data_dir):
    older, newer = two_games(data_dir)
    older.unlink()
    r = invoke("inland", "--resume")
    assert r.exit_code == 2
    assert "no unfinished inland game to resume" in " ".join(r.output.split())
    assert f"  {newer}" in r.stdout.splitlines()


def test_no_save_with_watch_watches_without_saving(data_dir):
    r = invoke("inland", "--watch", "--agents", "random,random", "--seed", "3", "--no-save")
    assert r.exit_code == 0 and "Final" in r.stdout
    assert not list((data_dir / "saves").glob("*.json")) if (data_dir / "saves").exists() else True


def test_a_watched_game_into_a_pipe_is_unpaced_and_has_no_board(data_dir):
    r = invoke("inland", "--watch", "--agents", "random,random", "--seed", "3", "--no-save")
    assert r.exit_code == 0 and "wheel" not in r.stdout.split("Final")[0]


def test_a_watched_game_in_a_terminal_shows_the_board_after_each_action(tmp_path):
    child = spawn_screen(tmp_path, "inland", "--watch", "--agents", "random,random", "--seed", "3")
    boards = 0
    for _ in range(4):
        child.expect("to play")  # the turn line under each board
        boards += 1
    assert "sold at once" in child.logfile_read.flat  # the board itself (its wheel), at 80 columns
    assert boards == 4
    child.sendintr()  # a paced game is stopped with Ctrl-C; it is saved
    _, text = finish(child)
    assert "Interrupted" in text and "Traceback" not in text


def test_typed_lines_come_back_after_quit_and_resume(tmp_path):
    child = spawn_screen(tmp_path, "inland", "--opponent", "random", "--seat", "first", "--seed", "4")
    child.expect("your move")
    child.sendline("rules Wood Company")
    child.expect("your move")
    child.sendline("quit")
    finish(child)
    again = spawn_screen(tmp_path, "inland", "--resume")
    again.expect("your move")
    again.send("\x1b[A")  # up: the last line typed ('quit'), then the one before
    again.send("\x1b[A")
    deadline = time.monotonic() + 10
    screen = again.logfile_read
    while "rules Wood Company" not in screen.lines[screen.screen.cursor.y] and time.monotonic() < deadline:
        try:
            again.expect(pexpect.TIMEOUT, timeout=0.2)
        except pexpect.EOF:
            break
    assert "rules Wood Company" in screen.lines[screen.screen.cursor.y], "\n".join(screen.lines)
    again.send("\x15")  # (the line emptied)
    again.sendline("quit")
    finish(again)


def test_tab_at_the_second_step_offers_its_ways_and_back_not_building_names(tmp_path):
    child = spawn_screen(tmp_path, "inland", "--opponent", "random", "--seat", "first", "--seed", "908224")
    child.expect("your move")
    child.sendline("build Grocery Store")
    child.expect(r"choose 1-\d+ \(or back\)> ")
    child.send("ba\t\t")
    try:
        child.expect(pexpect.TIMEOUT, timeout=1.0)
    except pexpect.EOF:
        pass
    screen = child.logfile_read
    assert "Bakehouse" not in " ".join(screen.lines[screen.screen.cursor.y - 2 :]), "\n".join(screen.lines)
    assert "back" in screen.lines[screen.screen.cursor.y], "\n".join(screen.lines)
    child.send("\x15")
    child.sendline("quit")
    finish(child)


def test_commands_and_paths_are_never_broken_across_lines_at_120_columns_plain(tmp_path):
    child = spawn(tmp_path, "inland", "--opponent", "random", "--seat", "first", "--seed", "4", "--plain", cols=120)
    child.expect("your move")
    child.sendline("quit")
    status, text = finish(child)
    lines = [line.strip() for line in printed(text)]
    (save,) = (tmp_path / "saves").glob("*.json")
    assert status == 0
    assert str(save) in lines and "lehavre inland --resume" in lines, lines[-12:]
    assert f"lehavre inland --load {save.stem}" in lines
    assert json.loads(save.read_text())["ruleset"] == "inland"
