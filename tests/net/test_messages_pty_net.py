"""What two people read at 80x24 (pseudo-terminals rendered by a terminal emulator) when they play over
the network: 'undo' asked by one and agreed by the other, said in each one's words (who asks, every
decision taken back and whose it is), and a refused code's message wrapped between words."""

from __future__ import annotations

import contextlib
import re
import time

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402
from tests.cli.test_messages_pty import broken_words, error_lines, one_line  # noqa: E402

PROMPT = r"your move \(1-\d+, an action, or help\)> "


def read_until(child, done, seconds: float) -> bool:
    """Read what ``child`` prints until ``done(text printed so far)`` (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while not done(child.logfile_read.text):
        if time.monotonic() > deadline:
            return False
        with contextlib.suppress(pexpect.TIMEOUT):
            child.expect(pexpect.TIMEOUT, timeout=0.2)
    return True


def play_until(mover, mine: str, other, theirs: str) -> None:
    """``mover`` types '1' at its prompt (``mine``) until ``other`` shows its own (``theirs``): the turn passed."""
    before = other.logfile_read.text.count(theirs)
    for _ in range(6):
        asked = mover.logfile_read.text.count(mine)
        mover.sendline("1")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if other.logfile_read.text.count(theirs) > before:
                return
            if mover.logfile_read.text.count(mine) > asked:  # the mover decides again
                break
            read_until(other, lambda _text: False, 0.2)
            read_until(mover, lambda _text: False, 0.2)
    raise AssertionError(f"the turn never passed ({theirs}):\n" + "\n".join(other.logfile_read.lines))


def flat_text(child) -> str:
    """Everything printed, escapes removed and runs of white space made one (the screen scrolls)."""
    return " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.logfile_read.text).split())


def test_undo_over_the_network_names_the_asker_and_every_decision_in_each_ones_words(tmp_path):
    host = spawn_screen(tmp_path, "host", "inland", "--seats", "me,remote", "--seed", "3", "--port", "0")
    host.expect(r"Seat 2 \(Player 2\): lehavre join (\S+) (\S+)\s")
    address, code = host.match.group(1), host.match.group(2)
    host.expect("Host, " + PROMPT)
    client = spawn_screen(tmp_path, "join", address, code)
    client.expect("You play seat 2")
    me, you = "Host, your move", "Player 2, your move"
    play_until(host, me, client, you)  # the host's turn
    play_until(client, you, host, me)  # Player 2's turn
    play_until(host, me, client, you)  # the host's again: the host decided last
    client.sendline("undo")
    assert read_until(host, lambda text: "Agree?" in text, 10), "\n".join(host.logfile_read.lines)
    asked = re.search(
        r"Player 2 asks to take back your '([^']+)'(.*?)\(then you decide again\)\. Agree\?", flat_text(host)
    )
    assert asked, flat_text(host)[-600:]
    decision = asked.group(1)
    assert read_until(client, lambda text: "is asked to agree" in text, 10)
    told = flat_text(client)
    assert f"This takes back Host's '{decision}'" in told, told[-600:]
    assert "(Host decided last; your own decisions stay); Host is asked to agree." in told, told[-600:]
    # the host's prompt asks the question's answers while it is open (not its move's prompt)
    assert read_until(host, lambda _text: cursor_line(host).startswith("yes / no>"), 5), "\n".join(
        host.logfile_read.lines
    )
    host.sendline("yes")
    assert read_until(client, lambda text: "Took back" in text, 10)
    assert read_until(host, lambda text: "Took back" in text, 10)
    assert f"Took back Host's '{decision}'" in flat_text(client)
    assert f"Took back your '{decision}'" in flat_text(host)
    for child in (host, client):
        assert all(len(line) <= 80 for line in child.logfile_read.lines)
    client.sendline("quit")
    finish(client)
    host.sendline("quit")
    _, text = finish(host)
    assert "Traceback" not in text


def test_a_refused_code_is_said_in_whole_words_at_80_columns(tmp_path):
    host = spawn_screen(tmp_path, "host", "inland", "--seats", "me,remote", "--port", "0", "--headless")
    host.expect(r"Seat 2 \(Player 2\): lehavre join (\S+) (\S+)\s")
    address = host.match.group(1)
    try:
        child = spawn_screen(tmp_path, "join", address, "WRONGCODE")
        status, _ = finish(child)
        lines = child.logfile_read.lines
        assert status == 2
        shown = error_lines(lines)
        flat = " ".join(" ".join(shown).split())
        assert "unknown code: use one of the codes the host printed" in flat, lines
        whole = one_line(tmp_path, "join", address, "WRONGCODE")
        assert broken_words(shown, whole) == [], lines
    finally:
        host.sendintr()
        finish(host)


def cursor_line(child) -> str:
    screen = child.logfile_read
    return screen.lines[screen.screen.cursor.y]
