"""Line editing at the prompt of a local game, in a pseudo-terminal of 80x24 rendered by a terminal
emulator: Tab completes a partly typed action (in any case), the Up arrow brings back the line typed
before, and what is typed is edited in place (prompt_toolkit reads the line on a terminal)."""

from __future__ import annotations

import contextlib
import time

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402

MOVE = r"You, your move \(1-\d+, an action, or help\)> "
UP = "\x1b[A"


def settle(child, seconds: float = 0.5) -> None:
    """Let the program answer what was typed (read its output for ``seconds``)."""
    with contextlib.suppress(pexpect.TIMEOUT):
        child.expect(pexpect.TIMEOUT, timeout=seconds)


def wait_screen(child, text: str, seconds: float = 20.0) -> None:
    """Read what ``child`` prints until ``text`` is on its screen."""
    deadline = time.monotonic() + seconds
    while text not in child.logfile_read.flat:
        assert time.monotonic() < deadline, f"{text!r} never shown:\n" + "\n".join(child.logfile_read.lines)
        settle(child, 0.2)


def cursor_line(child) -> str:
    screen = child.logfile_read
    return screen.lines[screen.screen.cursor.y]


def test_tab_completes_an_action_and_up_brings_back_the_last_line(tmp_path):
    child = spawn_screen(tmp_path, "inland", "--seed", "3", "--seat", "first")
    try:
        child.expect(MOVE)
        child.send("build cla\t")  # lower case, and only the beginning of the building's name
        settle(child)
        assert cursor_line(child).endswith("> build Clay Mound"), "\n".join(child.logfile_read.lines)
        child.send("\t")  # again: its one way of paying
        settle(child)
        assert cursor_line(child).endswith("> build Clay Mound: wood to 0+1")
        child.send("\r")
        wait_screen(child, "builds Clay Mound")
        child.expect(MOVE)
        child.send(UP)  # the line typed before, to edit
        settle(child)
        assert cursor_line(child).endswith("> build Clay Mound: wood to 0+1"), "\n".join(child.logfile_read.lines)
        child.send("\x15")  # Ctrl-U: the line is emptied
        child.send("hel\t")
        settle(child)
        assert cursor_line(child).endswith("> help")
        child.send("\r")
        child.expect("Commands at the prompt")  # (the help is longer than the screen)
        child.expect(MOVE)
        child.sendline("quit")
        status, text = finish(child)
        assert status == 0 and "Traceback" not in text and "CPR" not in text
    finally:
        if child.isalive():
            child.terminate(force=True)
