"""Faults of network play found by playing it as a person would, each through real processes on the
loopback with the host's screen at 80x24 in a pseudo-terminal (the test types the host's moves):

* a game between a person at the host and a ``join --agent`` client, and a game where the AI takes
  a dropped seat, are played to their end (they stalled when one seat decided twice in a row);
* nothing a client receives carries the game's seed or a path of the host's disk (the seed rebuilds
  the hidden set-up);
* the status lines say what is true now: joined, back, reconnecting, left on purpose, and the recap
  after ``host --resume`` names each seat without a stale status.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import signal
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from core import records  # noqa: E402
from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402
from tests.net.conftest import bot  # noqa: E402
from tests.net.test_cli_games import Host, finished, join, saved  # noqa: E402

#: the host's prompts the tests answer, and what ends a game
MOVE = r"your move \(1-\d+, an action, or help\)> "
HOW = r"choose 1-\d+ \(or back\)> "
ASKED = r"Answer at the prompt: wait, ai, stop\."
OVER = r"Winner: |A tie at |Tie: "
#: the longest a stalled game may sit still before the test says so (the computer moves in well under it)
STALL = 30
#: the longest one whole game may take
GAME = 300.0


@pytest.fixture(autouse=True)
def cleanup_children():
    children: list = []
    yield children
    for child in children:
        if child.isalive():
            child.terminate(force=True)


def host_screen(tmp_path: Path, children: list, *args: str):
    """``lehavre host ARGS --port 0`` at 80x24; returns it, the address and Player 2's code."""
    host = spawn_screen(tmp_path, "host", *args, "--port", "0")
    children.append(host)
    host.expect(r"Seat 2 \(Player 2\): lehavre join (\S+) (\S+)\s")
    return host, host.match.group(1), host.match.group(2)


def save_name_of(child) -> str:
    """The name the host printed its game is saved as (the line may wrap at 80 columns)."""
    found = re.search(r"saved\s+as\s+'([^']+)'", plain(child.logfile_read.text))
    assert found, child.logfile_read.text
    return found.group(1)


def cursor_line(child) -> str:
    screen = child.logfile_read
    return screen.lines[screen.screen.cursor.y]


def plain(text: str) -> str:
    """``text`` without the terminal's colour escapes."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def wait_text(child, text: str, seconds: float = 15.0) -> None:
    """Read what ``child`` prints until ``text`` (a regular expression) has been printed."""
    deadline = time.monotonic() + seconds
    while not re.search(text, plain(child.logfile_read.text)):
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} was not printed:\n" + "\n".join(child.logfile_read.lines))
        with contextlib.suppress(pexpect.TIMEOUT):
            child.expect(pexpect.TIMEOUT, timeout=0.2)


def wait_prompt(child, text: str, seconds: float = 15.0) -> str:
    """Read until the line the cursor is on (the prompt) matches ``text``; returns that line."""
    deadline = time.monotonic() + seconds
    while not re.search(text, cursor_line(child)):
        if time.monotonic() > deadline:
            raise AssertionError(f"the prompt is not {text!r}:\n" + "\n".join(child.logfile_read.lines))
        with contextlib.suppress(pexpect.TIMEOUT):
            child.expect(pexpect.TIMEOUT, timeout=0.2)
    return cursor_line(child)


def play_host_to_the_end(host, on_question: str = "ai") -> str:
    """Type the host's moves (always the first choice) until the game ends; answer a question with
    ``on_question``. A game that stops moving fails the test after :data:`STALL` seconds."""
    deadline = time.monotonic() + GAME
    while time.monotonic() < deadline:
        try:
            i = host.expect([MOVE, HOW, ASKED, OVER], timeout=STALL)
        except pexpect.TIMEOUT:
            raise AssertionError("the game stalled:\n" + "\n".join(host.logfile_read.lines)) from None
        if i == 3:
            status, text = finish(host)
            assert status == 0, text[-2000:]
            return text
        host.sendline(on_question if i == 2 else "1")
    raise AssertionError("the game did not end in time")


def test_a_person_at_the_host_and_an_agent_client_play_a_whole_game(tmp_path, cleanup_children):
    """The joined agent decides twice in a row (a main action, then 'end' or a sale): the host's
    screen follows both, and the game goes on to its end."""
    host, address, code = host_screen(tmp_path, cleanup_children, "inland", "--seats", "me,remote", "--seed", "3")
    client = join(tmp_path, address, code, "random")
    text = play_host_to_the_end(host)
    assert "Traceback" not in text
    assert finished([client])
    assert saved(tmp_path, save_name_of(host)).finished


def drop_the_client(tmp_path: Path, children: list):
    """A game hosted with a 2-second timeout; its client plays a few actions and is killed (SIGKILL).
    Returns the host and the game's save name."""
    host, address, code = host_screen(
        tmp_path, children, "inland", "--seats", "me,remote", "--seed", "11", "--timeout", "2"
    )
    name = save_name_of(host)
    client, _ = join(tmp_path, address, code, "random")
    host.expect(MOVE)
    host.sendline("1")
    deadline = time.monotonic() + 60
    while len(saved(tmp_path, name).actions) < 6:  # the host plays on until the client has played
        assert time.monotonic() < deadline, "\n".join(host.logfile_read.lines)
        with contextlib.suppress(pexpect.TIMEOUT):
            if host.expect([MOVE, HOW], timeout=0.5) in (0, 1):
                host.sendline("1")
    client.send_signal(signal.SIGKILL)
    client.wait(10)
    return host, name


def test_the_ai_given_a_dropped_seat_plays_on(tmp_path, cleanup_children):
    """The client is killed; after the timeout the host lets the AI play the seat, and no other client
    ever connects: the AI's moves, several in a row (a main action, then 'end' or a sale), reach the
    host for the next rounds (the whole game: the long run below)."""
    host, name = drop_the_client(tmp_path, cleanup_children)
    played = len(saved(tmp_path, name).actions)
    deadline = time.monotonic() + GAME
    while len(saved(tmp_path, name).actions) < played + 16:
        assert time.monotonic() < deadline, "the game did not go on:\n" + "\n".join(host.logfile_read.lines)
        try:
            i = host.expect([MOVE, HOW, ASKED], timeout=STALL)
        except pexpect.TIMEOUT:
            raise AssertionError("the game stalled:\n" + "\n".join(host.logfile_read.lines)) from None
        host.sendline("ai" if i == 2 else "1")
    record = saved(tmp_path, name)
    assert record.players[1].agent == "ai:normal"
    # the AI decided twice in a row at least once after it took the seat
    seats = [state.current_player() for state in records.replay_all(record)[played:-1]]
    assert any(a == b == 1 for a, b in itertools.pairwise(seats)), seats
    host.sendline("quit")
    _status, text = finish(host)
    assert "ai:normal plays Player 2's seat from now on" in plain(text) and "Traceback" not in text


@pytest.mark.slow
def test_the_ai_given_a_dropped_seat_plays_it_to_the_end(tmp_path, cleanup_children):
    """As above, to the game's end."""
    host, name = drop_the_client(tmp_path, cleanup_children)
    text = play_host_to_the_end(host, on_question="ai")
    assert "ai:normal plays Player 2's seat from now on" in text
    assert "Traceback" not in text
    record = saved(tmp_path, name)
    assert record.finished and record.players[1].agent == "ai:normal"


def test_nothing_a_client_receives_carries_the_seed_or_a_path_of_the_hosts_disk(tmp_path):
    """Every message of a whole base game, as a client receives it: no seed (it rebuilds the face-down
    special buildings and supply tiles), no save file's name, no folder of the host's machine."""
    seed = "987654321"
    host = Host(tmp_path, "base", "--seats", "remote,remote", "--seed", seed, "--port", "0")
    other = join(tmp_path, host.address, host.code(2), "random")
    heard: list[str] = []
    port = int(host.address.rsplit(":", 1)[1])
    end = asyncio.run(asyncio.wait_for(bot(port, host.code(1), 5, heard=heard), GAME))
    assert end == "The game is over."
    finished([other])
    host.finish()
    assert saved(tmp_path, host.name).finished
    kinds = {json.loads(raw)["type"] for raw in heard}
    assert {"welcome", "position", "notice", "closed"} <= kinds
    secrets = [seed, host.name, str(tmp_path), os.path.expanduser("~") + "/", "saves/"]
    for raw in heard:
        msg = json.loads(raw)
        for secret in secrets:
            assert secret not in raw, f"a '{msg['type']}' message carries {secret!r}: {raw[:300]}"
        assert not re.search(r"seed[-_ ]?\d", raw), raw[:300]
        if "seed" in msg:
            assert msg["seed"] == 0


def test_status_lines_say_what_is_true_now(tmp_path, cleanup_children):
    """Joined, gone, back, left on purpose: the host's waiting prompt follows each at once; a person
    who quits on purpose is reported as having left, not as reconnecting."""
    host, address, code = host_screen(tmp_path, cleanup_children, "inland", "--seats", "me,remote", "--seed", "4")
    for _ in range(2):  # the host's turn: a main action, then 'end'
        host.expect(MOVE)
        host.sendline("1")
    assert "not joined yet" in wait_prompt(host, r"^Waiting for Player 2")
    client = spawn_screen(tmp_path, "join", address, code)
    cleanup_children.append(client)
    wait_text(host, r"Player 2 joined\.")
    wait_prompt(host, r"^Waiting for Player 2 \('help'")  # no '(not joined yet)' any more
    client.expect("Player 2, " + MOVE)
    client.kill(signal.SIGKILL)
    wait_text(host, "Player 2 lost the connection")
    wait_prompt(host, r"^Waiting for Player 2 \(reconnecting\)")
    client = spawn_screen(tmp_path, "join", address, code)
    cleanup_children.append(client)
    wait_text(host, r"Player 2 is back\.")
    wait_prompt(host, r"^Waiting for Player 2 \('help'")  # no '(reconnecting)' any more
    client.expect("Player 2, " + MOVE)
    client.sendline("quit")
    status, text = finish(client)
    assert status == 0 and "You left the game" in text
    wait_text(host, r"Player 2 left the game")
    wait_prompt(host, r"^Waiting for Player 2 \(left the game\)")
    assert "Player 2 lost the connection" not in plain(host.logfile_read.text).split("is back.")[-1]
    host.sendline("quit")
    status, text = finish(host)
    assert status == 0 and "Traceback" not in text


def test_the_recap_after_host_resume_names_each_seat_as_it_is(tmp_path, cleanup_children):
    """Two people play a few turns; the host stops and resumes the game: the recap of the moves names
    Player 2 as it is (not as "not joined yet", which it is at that moment)."""
    host, address, code = host_screen(tmp_path, cleanup_children, "inland", "--seats", "me,remote", "--seed", "4")
    name = save_name_of(host)
    client = spawn_screen(tmp_path, "join", address, code)
    cleanup_children.append(client)
    deadline = time.monotonic() + 60
    while len(saved(tmp_path, name).actions) < 8:  # both people play a turn or two (always the first choice)
        assert time.monotonic() < deadline, "\n".join(host.logfile_read.lines)
        for child in (host, client):
            with contextlib.suppress(pexpect.TIMEOUT):
                if child.expect([MOVE, HOW], timeout=0.3) in (0, 1):
                    child.sendline("1")
    client.sendline("quit")
    finish(client)
    host.sendline("quit")
    finish(host)
    again = spawn_screen(tmp_path, "host", "--resume", name, "--port", "0")
    cleanup_children.append(again)
    wait_text(again, r"Player 2: builds")
    wait_prompt(again, r"your move|Waiting for Player 2")
    text = plain(again.logfile_read.text)
    assert "(not joined yet):" not in text and "(reconnecting):" not in text
    again.sendline("quit")
    status, _ = finish(again)
    assert status == 0
