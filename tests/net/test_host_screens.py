"""A hosted game at 80x24, in pseudo-terminals rendered by a terminal emulator (pyte): the host's
address and join codes stay findable (in view above the host's board while a seat is not joined yet,
last after the recap of a resumed game, and again with 'codes' at the prompt), and a spectator's
board cuts no name or cost."""

from __future__ import annotations

import contextlib
import re

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402

YOUR_MOVE = r"your move \(1-\d+, an action, or help\)> "
SECOND_STEP = r"\(or back\)> "


def settle(child, seconds: float = 0.5) -> None:
    with contextlib.suppress(pexpect.TIMEOUT):
        child.expect(pexpect.EOF, timeout=seconds)


def joins(child) -> list[str]:
    """The join commands the host printed first."""
    return re.findall(r"lehavre join \S+ \S+", child.logfile_read.text.replace("\r\n", "\n"))


def test_the_hosts_codes_stay_in_view_until_the_others_join_and_codes_shows_them(tmp_path):
    host = spawn_screen(tmp_path, "host", "base", "--seats", "me,remote,remote", "--seed", "3", "--port", "0")
    host.expect("Host, " + YOUR_MOVE)
    settle(host)
    commands = sorted(set(joins(host)))
    assert len(commands) == 2
    flat = host.logfile_read.flat
    for c in commands:
        assert c in flat, "\n".join(host.logfile_read.lines)
    assert "Spectators: lehavre watch" in flat
    assert "P1 Host (round 1 of 18, turn 1 of 7)" in flat  # the turn line and choices below them
    host.sendline("help")
    host.expect("Host, " + YOUR_MOVE)
    assert "the address and the join codes again" in " ".join(host.logfile_read.text.split())
    host.sendline("board")
    host.expect("Host, " + YOUR_MOVE)
    host.sendline("codes")
    host.expect("Host, " + YOUR_MOVE)
    settle(host)
    flat = host.logfile_read.flat
    assert all(c in flat for c in commands)
    host.sendline("quit")
    status, text = finish(host)
    assert status == 0 and "Traceback" not in text


def test_after_host_resume_the_codes_come_after_the_recap(tmp_path):
    host = spawn_screen(tmp_path, "host", "inland", "--seats", "me,remote", "--seed", "3", "--port", "0")
    host.expect(r"Seat 2 \(Player 2\): lehavre join (\S+) (\S+)\s")
    address, code = host.match.group(1), host.match.group(2)
    host.expect(YOUR_MOVE)
    bot = spawn_screen(tmp_path, "join", address, code, "--agent", "random")
    for _ in range(12):  # enough actions for a recap longer than the screen
        host.sendline("1")
        host.expect([YOUR_MOVE, SECOND_STEP], timeout=30)
    host.sendline("quit")
    finish(host)
    bot.expect(pexpect.EOF)
    name = re.search(r"host --resume ([\w.-]+)", " ".join(host.logfile_read.text.split())).group(1)
    again = spawn_screen(tmp_path, "host", "--resume", name, "--port", "0")
    again.expect([YOUR_MOVE, r"Waiting for Player 2"])
    settle(again)
    assert len(again.logfile_read.text.splitlines()) > 30  # the recap is longer than the screen
    flat = again.logfile_read.flat
    assert re.search(r"Seat 2 \(Player 2\): lehavre join \S+ " + re.escape(code), flat), "\n".join(
        again.logfile_read.lines
    )
    again.sendline("quit")
    status, text = finish(again)
    assert status == 0 and "Traceback" not in text


def test_a_spectator_sees_every_name_and_cost_whole_at_80_columns(tmp_path):
    host = spawn_screen(tmp_path, "host", "base", "--seats", "me,random,random,random", "--seed", "3", "--port", "0")
    host.expect(r"Spectators: lehavre watch (\S+) (\S+)\s")
    address, code = host.match.group(1), host.match.group(2)
    host.expect(YOUR_MOVE)
    spectator = spawn_screen(tmp_path, "watch", address, code)
    spectator.expect("Watching")
    for _ in range(8):
        host.sendline("1")
        host.expect([YOUR_MOVE, SECOND_STEP], timeout=60)
        # the spectator's screen is read as a terminal reads it, as it comes (unread, its terminal fills up and the
        # spectator stops reading the server, whose 'quit' then waits for it)
        settle(spectator, 0.05)
    settle(spectator, 1.0)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", spectator.logfile_read.text)  # without the colours
    assert "…" not in text and "..." not in text, "\n".join(spectator.logfile_read.lines)
    flat = " ".join(text.split())
    for name in ("P1 Host", "P2 random #2", "P3 random #3", "P4 random #4", "Building Firm 1", "Construction Firm"):
        assert name in flat, name
    host.sendline("quit")
    finish(host)
    spectator.expect(pexpect.EOF)
    spectator.close()
