"""What people read at the network table at 80x24 (real host and join processes on the loopback):
each move labelled by who made it when the computer took a dropped person's seat over, a prompt
while an undo waits for the other side's answer, SIGTERM ending a client as Ctrl-C does (with the
command to come back), and a spectator told how to watch again when the host stops."""

from __future__ import annotations

import re
import signal

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402
from tests.net.test_messages_pty_net import PROMPT, cursor_line, flat_text, play_until, read_until  # noqa: E402

ME, YOU = "Host, your move", "Player 2, your move"


def host_and_client(tmp_path, *more: str):
    host = spawn_screen(tmp_path, "host", "inland", "--seats", "me,remote", "--seed", "3", "--port", "0", *more)
    host.expect(r"Seat 2 \(Player 2\):\s+lehavre join (\S+) (\S+)\s")
    address, code = host.match.group(1), host.match.group(2)
    host.expect(r"Spectators:\s+lehavre watch \S+ (\S+)\s")
    watch_code = host.match.group(1)
    host.expect("Host, " + PROMPT)
    client = spawn_screen(tmp_path, "join", address, code)
    client.expect("You play seat 2")
    return host, client, address, code, watch_code


def test_moves_are_labelled_by_who_made_them_after_the_computer_takes_a_seat_over(tmp_path):
    host, client, address, code, _ = host_and_client(tmp_path, "--timeout", "1")
    play_until(host, ME, client, YOU)
    play_until(client, YOU, host, ME)  # Player 2 (the person) made moves of their own
    client.kill(signal.SIGKILL)  # gone without a word
    client.close()
    assert read_until(host, lambda text: "wait / ai / stop>" in flat_text(host), 20), flat_text(host)[-800:]
    host.sendline("ai")
    assert read_until(host, lambda text: "plays Player 2's seat from now on" in flat_text(host), 10)
    # the person comes back: a spectator now, who reads the game so far
    back = spawn_screen(tmp_path, "join", address, code)
    assert read_until(back, lambda text: "You are a spectator" in flat_text(back), 15), flat_text(back)[-800:]
    read_until(back, lambda text: False, 1.0)
    seen = flat_text(back)
    assert "Player 2:" in seen, seen[-1500:]  # the person's own moves, under the person's name
    assert "Player 2 (ai:normal):" not in seen.split("plays Player 2's seat")[0], seen[-1500:]
    back.sendline("quit")
    finish(back)
    for _ in range(8):  # the host plays until the computer has moved in Player 2's seat
        if "Player 2 (ai:normal):" in flat_text(host):
            break
        host.sendline("1")
        read_until(host, lambda text: ME in cursor_line(host) or "choose 1-" in cursor_line(host), 60)
    assert read_until(host, lambda text: ME in cursor_line(host), 60), "\n".join(host.logfile_read.lines)
    host.sendline("history")
    assert read_until(host, lambda text: re.search(r"\d+\. Player 2 \(ai:normal\): ", flat_text(host)), 10)
    shown = flat_text(host).rsplit("history", 1)[-1]
    assert re.search(r"\d+\. Player 2: ", shown), shown  # the person's moves say the person
    assert re.search(r"\d+\. Player 2 \(ai:normal\): ", shown), shown  # the computer's say the computer
    host.sendline("quit")
    _, text = finish(host)
    assert "Traceback" not in text


def test_the_one_who_asked_for_an_undo_has_a_prompt_saying_what_it_waits_for(tmp_path):
    host, client, *_ = host_and_client(tmp_path)
    play_until(host, ME, client, YOU)
    play_until(client, YOU, host, ME)
    play_until(host, ME, client, YOU)  # the host decided last: taking it back needs the host's yes
    client.sendline("undo")
    assert read_until(host, lambda text: "Agree?" in text, 10)
    assert read_until(client, lambda text: cursor_line(client).startswith("Waiting for the answer to your undo"), 10), (
        "\n".join(client.logfile_read.lines)
    )
    client.sendline("board")  # the prompt works while the answer is awaited
    assert read_until(client, lambda text: cursor_line(client).startswith("Waiting for the answer to your undo"), 10)
    host.sendline("no")
    assert read_until(client, lambda text: "Host did not agree: nothing taken back" in flat_text(client), 10)
    assert read_until(client, lambda text: YOU in cursor_line(client), 10), "\n".join(client.logfile_read.lines)
    client.sendline("quit")
    finish(client)
    host.sendline("quit")
    _, text = finish(host)
    assert "Traceback" not in text


def test_sigterm_ends_a_client_as_ctrl_c_does_with_the_command_to_rejoin(tmp_path):
    host, client, address, code, _ = host_and_client(tmp_path)
    assert read_until(host, lambda text: "Player 2 joined" in text, 10)
    client.kill(signal.SIGTERM)
    status, text = finish(client)
    flat = " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).split())
    assert "Interrupted: you left the game" in flat and f"rejoin with lehavre join {address} {code}" in flat, flat
    assert f"lehavre join {address} {code}" in [line.strip() for line in client.logfile_read.lines]  # a line of its own
    assert status == 130 and "Traceback" not in text
    assert read_until(host, lambda text: "Player 2 left the game" in text, 10)  # on purpose, not "reconnecting"
    host.sendline("quit")
    finish(host)


def test_a_spectator_is_told_how_to_watch_again_when_the_host_stops(tmp_path):
    host, client, address, _, watch_code = host_and_client(tmp_path)
    spectator = spawn_screen(tmp_path, "watch", address, watch_code)
    spectator.expect("Watching a game")
    assert read_until(spectator, lambda text: "Watching, Host to play" in flat_text(spectator), 10)
    host.sendline("quit")
    finish(host)
    status, text = finish(spectator)
    flat = " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).split())
    assert f"Watch again, once the host continues it, with lehavre watch {address} {watch_code}" in flat, flat[-600:]
    assert f"lehavre watch {address} {watch_code}" in [line.strip() for line in spectator.logfile_read.lines]
    assert status == 0 and "Traceback" not in text
    client.sendline("quit")
    finish(client)
