"""The prompts of a hosted game while news arrives, at 80x24 in pseudo-terminals rendered by a
terminal emulator (real ``lehavre host``/``join``/``watch`` processes on the loopback):

* a line partly typed by the host or by the person who joined stays on the screen when a message
  arrives above it (the other person joining, the other seat's move), and Enter takes it whole;
* a spectator has a prompt of their own: ``board``, ``help``, ``quit``;
* ``hint`` while waiting says whose decision it is about.
"""

from __future__ import annotations

import contextlib
import re
import time

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402

MOVE = r"your move \(1-\d+, an action, or help\)> "
#: the longest the test waits for one thing to appear
WAIT = 20.0


@pytest.fixture
def children():
    started: list = []
    yield started
    for child in started:
        if child.isalive():
            child.terminate(force=True)


def settle(child, seconds: float = 0.3) -> None:
    with contextlib.suppress(pexpect.TIMEOUT):
        child.expect(pexpect.TIMEOUT, timeout=seconds)


def wait_screen(child, pattern: str, seconds: float = WAIT) -> None:
    """Read what ``child`` prints until ``pattern`` (a regular expression) is on its screen."""
    deadline = time.monotonic() + seconds
    while not re.search(pattern, child.logfile_read.flat):
        assert time.monotonic() < deadline, f"{pattern!r} never shown:\n" + "\n".join(child.logfile_read.lines)
        settle(child, 0.2)


def cursor_line(child) -> str:
    screen = child.logfile_read
    return screen.lines[screen.screen.cursor.y]


def host_game(tmp_path, children, seed: str = "3"):
    """``lehavre host inland`` for the host and one remote person, at its first prompt: the host, the
    address and Player 2's code, and the spectators' code."""
    host = spawn_screen(tmp_path, "host", "inland", "--seats", "me,remote", "--seed", seed, "--port", "0")
    children.append(host)
    host.expect(r"Seat 2 \(Player 2\): lehavre join (\S+) (\S+)\s")
    address, code = host.match.group(1), host.match.group(2)
    host.expect(r"Spectators: lehavre watch (\S+) (\S+)\s")
    watch_code = host.match.group(2)
    host.expect("Host, " + MOVE)
    return host, address, code, watch_code


def test_a_partly_typed_line_stays_when_news_arrives_and_enter_takes_it_whole(tmp_path, children):
    host, address, code, _ = host_game(tmp_path, children)
    host.send("build cla")  # the host is typing when Player 2 joins
    settle(host)
    client = spawn_screen(tmp_path, "join", address, code)
    children.append(client)
    client.expect(r"Waiting for Host")
    wait_screen(host, r"Player 2 joined\.")
    lines = host.logfile_read.lines
    y = host.logfile_read.screen.cursor.y
    assert lines[y - 1] == "Player 2 joined." and cursor_line(host).endswith(
        "your move (1-5, an action, or help)> build cla"
    )
    client.send("boa")  # Player 2 types while the host moves
    settle(client)
    host.send("y mound\r")
    wait_screen(client, r"Host: builds Clay Mound")
    settle(client)
    assert cursor_line(client) == "Waiting for Host ('help', 'board', 'save', 'quit')> boa", "\n".join(
        client.logfile_read.lines
    )
    client.send("rd\r")  # 'board', whole
    wait_screen(client, r"On offer in round A")
    assert "wait for their move" not in client.logfile_read.flat
    client.sendline("quit")
    status, text = finish(client)
    assert status == 0 and "Traceback" not in text and "CPR" not in text
    host.sendline("quit")
    status, text = finish(host)
    assert status == 0 and "Traceback" not in text and "CPR" not in text


def test_a_spectator_types_board_help_and_quit(tmp_path, children):
    host, address, _, watch_code = host_game(tmp_path, children)
    watcher = spawn_screen(tmp_path, "watch", address, watch_code)
    children.append(watcher)
    watcher.expect(r"Watching, Host to play \('board', 'log', 'help', 'quit'\)> ")
    watcher.sendline("help")
    wait_screen(watcher, r"Commands while watching")
    assert re.search(r"board\s+the whole board", watcher.logfile_read.flat)
    watcher.sendline("board")
    watcher.expect("On offer in round A")
    host.sendline("1")  # the host moves: the spectator sees it, and is at the prompt again
    wait_screen(watcher, r"Host: builds")
    wait_screen(watcher, r"Watching, Host to play")
    watcher.sendline("history")  # the game's actions so far, and who played them
    wait_screen(watcher, r"1\. [^:\n]*Host: build ")
    watcher.sendline("undo")  # nothing that changes the game
    wait_screen(watcher, r"not a spectator's command")
    watcher.sendline("quit")
    status, text = finish(watcher)
    assert status == 0 and "You stopped watching" in text and "Traceback" not in text
    host.sendline("quit")
    status, text = finish(host)
    assert status == 0 and "Traceback" not in text


def test_hint_while_waiting_says_whose_decision_it_is_about(tmp_path, children):
    host, address, code, _ = host_game(tmp_path, children)
    client = spawn_screen(tmp_path, "join", address, code)
    children.append(client)
    client.expect(r"Waiting for Host \('help', 'board', 'save', 'quit'\)> ")
    client.sendline("hint")
    wait_screen(client, r"Hint for Host's decision \(not yours\): the AI would play", 60)
    client.sendline("quit")
    status, text = finish(client)
    assert status == 0 and "Traceback" not in text
    host.sendline("quit")
    status, text = finish(host)
    assert status == 0 and "Traceback" not in text
