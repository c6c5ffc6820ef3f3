"""What a player reads when an option is wrong, at 80x24 in a pseudo-terminal rendered by a terminal
emulator: one seat vocabulary in both games, bad values said in the project's words (no library's
prefixes), and no message broken in the middle of a word."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import LEHAVRE, ROOT, finish, spawn_screen  # noqa: E402

#: what pydantic and typer add to a message, which a player should never read
MACHINERY = ("Value error", "Input should", "validation error", "pydantic", "Traceback")


def one_line(tmp_path, *args: str) -> str:
    """What ``lehavre ARGS`` prints when its output is not a terminal (a message is one line there)."""
    env = dict(os.environ, LEHAVRE_DATA_DIR=str(tmp_path))
    r = subprocess.run(
        [LEHAVRE, *args], capture_output=True, text=True, env=env, cwd=str(ROOT), stdin=subprocess.DEVNULL, timeout=60
    )
    return r.stdout + r.stderr


def broken_words(screen_lines: list[str], whole: str) -> list[str]:
    """The pieces of words the screen shows that ``whole`` (the same text on one line) does not have:
    a word the terminal broke across two lines shows as two pieces neither of which is a word of it."""
    words = set(whole.split())
    return [w for line in screen_lines for w in line.split() if w not in words]


def error_lines(lines: list[str]) -> list[str]:
    """The lines of the error message on the screen: from 'Error:' to the next empty line."""
    start = next(i for i, line in enumerate(lines) if line.startswith("Error:"))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def screen_of(tmp_path, *args: str) -> tuple[int | None, list[str]]:
    child = spawn_screen(tmp_path, *args)
    status, _ = finish(child)
    return status, child.logfile_read.lines


@pytest.mark.parametrize(
    "args, says",
    [
        (("inland", "--seat", "third"), "'third' is not a seat: give first, last, random or a seat number"),
        (("base", "--seat", "middle"), "'middle' is not a seat: give first, last, random or a seat number"),
        (("inland", "--seat", "3"), "there is no seat 3: 2 players sit at seats 1-2"),
        (("base", "--players", "9"), "9 is out of range: give a number from 1 to 5"),
        (("inland", "--seed", "abc"), "'abc' is not a whole number"),
        (("inland", "--level", "expert"), "'expert' is not one of 'easy', 'normal', 'hard'"),
        (("host", "inland", "--timeout", "0"), "0 is out of range: give a number of at least 1"),
        (("host", "inland", "--seats", "me"), "1 seat named: the Inland Port takes 2 players"),
    ],
)
def test_a_bad_value_says_what_is_wrong_and_allowed_in_whole_words_at_80x24(tmp_path, args, says):
    status, lines = screen_of(tmp_path, *args)
    shown = error_lines(lines)
    flat = " ".join(" ".join(shown).split())
    assert status == 2, lines
    assert says in flat, lines
    assert not any(m in flat for m in MACHINERY), flat
    assert all(len(line) <= 80 for line in lines)
    whole = one_line(tmp_path, *args)
    assert says in whole  # into a file or a pipe: the message on one line
    assert broken_words(shown, whole) == [], lines


def test_one_seat_vocabulary_in_both_games(tmp_path):
    """first, last, random or a seat number in both games ('second' still names seat 2), with the
    same help."""
    inland = spawn_screen(tmp_path, "inland", "--seat", "last", "--opponent", "greedy", "--seed", "3", "--no-save")
    inland.expect("You are seat 2")
    inland.sendline("quit")
    assert finish(inland)[0] == 0
    base = spawn_screen(
        tmp_path, "base", "--seat", "second", "--opponent", "greedy", "--seed", "3", "--short", "--no-save"
    )
    base.expect("You are P2")
    base.sendline("quit")
    assert finish(base)[0] == 0
    number = spawn_screen(tmp_path, "base", "--players", "3", "--seat", "3", "--opponent", "greedy", "--seed", "3")
    number.expect("You are P3")
    number.sendline("quit")
    assert finish(number)[0] == 0
    words = "Your seat: first (seat 1, who starts), last, random (drawn from the seed), or a seat number"
    for game in ("inland", "base"):
        helped = " ".join(one_line(tmp_path, game, "--help").split())
        assert words in helped and "'second' is seat 2" in helped, helped


def test_help_names_option_values_in_words_not_types(tmp_path):
    """An option's value is named for what it is (N, K, ADDR), not by the library's type (<int>, <str>)."""
    for command in ("inland", "base", "host", "join"):
        helped = one_line(tmp_path, command, "--help")
        assert not re.search(r"--[a-z-]+ <(int|str|float)>", helped), helped


def test_watched_event_lines_wrap_between_words_at_80_columns(tmp_path):
    """--watch in a terminal: each event line wraps between words (the terminal cut them mid-word)."""
    args = ("inland", "--watch", "--agents", "random,random", "--seed", "3", "--no-save", "--pace", "0")
    child = spawn_screen(tmp_path, *args, rows=200)
    status, _ = finish(child)
    lines = [line for line in child.logfile_read.lines if line.strip()]
    assert status == 0 and len(lines) > 50
    assert broken_words(lines, one_line(tmp_path, *args)) == []
