"""The screens of a hosted game at 80x24, as two people see them in two terminals (pseudo-terminals
rendered by a terminal emulator): the host at its keyboard and a person who joins; the same prompt
as a local game, who is waiting for whom, a person leaving and the host stopping."""

from __future__ import annotations

import contextlib
import re
import time

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402

PROMPT = r"your move \(1-\d+, an action, or help\)> "


def prompt_last(child) -> None:
    screen = child.logfile_read
    assert screen.lines[screen.screen.cursor.y].endswith("or help)>"), "\n".join(screen.lines)
    assert all(len(line) <= 80 for line in screen.lines)


def wait_text(child, text: str, seconds: float) -> bool:
    """Read what ``child`` prints until ``text`` has been printed (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while text not in child.logfile_read.text:
        if time.monotonic() > deadline:
            return False
        with contextlib.suppress(pexpect.TIMEOUT):
            child.expect(pexpect.TIMEOUT, timeout=0.2)
    return True


def turn_passed(host, client, seconds: float) -> bool:
    """Read both screens until the client is asked for its move (True), or the host is asked again
    (False: the host decides once more), or ``seconds`` pass (False)."""
    asked = host.logfile_read.text.count("Host, your move")
    deadline = time.monotonic() + seconds
    while "Player 2, your move" not in client.logfile_read.text:
        if host.logfile_read.text.count("Host, your move") > asked or time.monotonic() > deadline:
            return False
        for child in (client, host):
            with contextlib.suppress(pexpect.TIMEOUT):
                child.expect(pexpect.TIMEOUT, timeout=0.1)
    return True


def test_host_and_client_screens_at_80x24(tmp_path):
    host = spawn_screen(tmp_path, "host", "inland", "--seats", "me,remote", "--seed", "3", "--port", "0")
    host.expect(r"Seat 2 \(Player 2\): lehavre join (\S+) (\S+)\s")
    address, code = host.match.group(1), host.match.group(2)
    host.expect("Host, " + PROMPT)
    prompt_last(host)
    assert "Host to play round A" in host.logfile_read.flat
    client = spawn_screen(tmp_path, "join", address, code)
    client.expect("You play seat 2")
    for _ in range(4):  # the host's turn: a main action, then perhaps a sale or 'end'
        host.sendline("1")  # (returns once the line is echoed: the prompt drawn again with it)
        if turn_passed(host, client, 10):
            break
    else:
        raise AssertionError("the turn never passed to the client:\n" + "\n".join(client.logfile_read.lines))
    client.expect("Player 2, " + PROMPT)
    prompt_last(client)
    flat = client.logfile_read.flat
    assert "Player 2 to play round A" in flat and "Host:" in flat  # the host's move, as an event line
    assert wait_text(host, "Waiting for Player 2", 10)
    assert "Player 2 joined" in host.logfile_read.text
    client.sendline("help")
    client.expect("Commands at the prompt")
    client.expect("Player 2, " + PROMPT)
    client.sendline("quit")
    status, text = finish(client)
    assert status == 0 and re.search(r"rejoin with\s+lehavre join", text)
    assert wait_text(host, "Player 2 left the game", 10)  # on purpose: not "reconnecting"
    host.sendintr()
    status, text = finish(host)
    assert "Interrupted: you left the game" in text and "Traceback" not in text


def test_events_reach_a_person_at_the_prompt_and_quit_works_while_waiting(tmp_path):
    """Nobody types at the host's prompt: the other person joining, then leaving, is shown above it
    at once (80x24), and the prompt stays the last line; the one who waits leaves with 'quit'."""
    host = spawn_screen(tmp_path, "host", "inland", "--seats", "me,remote", "--seed", "4", "--port", "0")
    host.expect(r"Seat 2 \(Player 2\): lehavre join (\S+) (\S+)\s")
    address, code = host.match.group(1), host.match.group(2)
    host.expect("Host, " + PROMPT)
    client = spawn_screen(tmp_path, "join", address, code)
    client.expect(r"Waiting for Host \('help', 'board', 'save', 'quit'\)> ")
    assert wait_text(host, "Player 2 joined.", 10)
    prompt_last(host)
    assert host.logfile_read.lines[host.logfile_read.screen.cursor.y - 1] == "Player 2 joined."
    client.sendline("board")  # a command while waiting for the other's move
    client.expect("Waiting for Host")
    assert "Host to play" in client.logfile_read.flat
    client.sendline("quit")
    status, text = finish(client)
    assert status == 0 and "You left the game" in text
    assert wait_text(host, "Player 2 left the game", 10)
    prompt_last(host)
    host.sendline("quit")
    status, text = finish(host)
    assert status == 0 and "You left the game" in text and "Traceback" not in text


def test_why_explains_a_move_the_computer_made_on_the_server(tmp_path):
    host = spawn_screen(tmp_path, "host", "inland", "--seats", "me,ai:easy", "--seed", "3", "--port", "0")
    host.expect("Host, " + PROMPT)
    host.sendline("1")  # build, then end the turn
    host.expect("Host, " + PROMPT)
    host.sendline("1")
    host.expect(r"ai:easy\S*: builds")  # (\S* : the colours' escapes)
    host.sendline("why")
    host.expect("Expected line")
    host.expect(r"Waiting for ai:easy|Host, your move")
    flat = host.logfile_read.flat
    assert "ai:easy chose build" in flat and "Expected line: ai:easy: build" in flat
    host.sendline("quit")
    status, text = finish(host)
    assert status == 0 and "Traceback" not in text
