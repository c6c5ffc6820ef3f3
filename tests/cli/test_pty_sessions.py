"""Whole sessions at a terminal, as a person plays them (issue 7): start, a typo, an illegal action, legal actions,
``undo``, ``save``, ``quit``, ``--resume`` and on to the end of the game -- for ``lehavre inland`` and
``lehavre base`` -- and a game process killed with SIGKILL that ``--resume`` continues at its last completed action.

Illegal actions: building the Zoo in round A (seeds/004_3575577254fe0f5a.txt, "Build": only buildings whose letter
has been reached are in play); buying the Bank with 5 francs (seeds/000_3a1c2d85c0e157da.txt, additional action
"Buy a building": pay its value).
"""

from __future__ import annotations

import json
import re
import signal

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.cli.pty_helpers import PROMPT, finish, spawn  # noqa: E402

SECOND_STEP = "choose 1-"
END = re.compile(r"Winner: |Tie: ")
HISTORY_LINE = re.compile(r"^\s*\d+\. [^:\n]+: (.+?)\s*$", re.M)  # 'history': number, who, action
ACTION_LINE = re.compile(r"^\s*[A-L]\s+(\d+)\s+\S", re.M)  # the log: round letter, action number, who
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _play_to_the_end(child, limit: int = 600) -> None:
    """Answer every question with the first choice until the game ends."""
    for _ in range(limit):
        i = child.expect([PROMPT, SECOND_STEP, END])
        if i == 2:
            return
        child.sendline("1")
    raise AssertionError("the game did not end")


def _session(tmp_path, args: list[str], typo: tuple[str, str], illegal: tuple[str, str], game: str) -> None:
    child = spawn(tmp_path, *args)
    child.expect(PROMPT)
    child.sendline(typo[0])
    child.expect(typo[1])
    child.expect(PROMPT)
    child.sendline(illegal[0])
    child.expect(illegal[1])
    for _ in range(3):  # three legal decisions, each the first choice
        child.expect([PROMPT, SECOND_STEP])
        child.sendline("1")
    if child.expect([PROMPT, SECOND_STEP]) == 1:  # back out of a second step to the main prompt
        child.sendline("back")
        child.expect(PROMPT)
    child.sendline("undo")
    child.expect("Took back")
    child.expect(PROMPT)
    saved = tmp_path / "mine.json"
    child.sendline(f"save {saved}")
    child.expect("Saved to")
    child.expect(PROMPT)
    child.sendline("quit")
    status, out = finish(child)
    assert status == 0 and "Traceback" not in out
    record = json.loads(saved.read_text())
    assert record["ruleset"] == game and not record["finished"] and record["actions"]

    again = spawn(tmp_path, game, "--resume")
    again.expect(r"actions?\s+played")
    said = " ".join(ANSI.sub("", again.logfile_read.text).split())  # the line may wrap anywhere
    found = re.search(r"continuing the game in (.+?) \(seed \d+, (\d+) actions? played", said)
    assert found and int(found.group(2)) == len(record["actions"]), (said[:400], len(record["actions"]))
    _play_to_the_end(again)
    status, out = finish(again)
    assert status == 0 and "Traceback" not in out
    assert "Final wealth" in out


def test_inland_session_from_start_to_finish(tmp_path):
    _session(
        tmp_path,
        ["inland", "--opponent", "greedy", "--seat", "first", "--seed", "4"],
        typo=("bulid Farm", "'bulid' is not an action"),
        illegal=("build Zoo", "enters the game in round J"),
        game="inland",
    )


def test_base_session_from_start_to_finish(tmp_path):
    _session(
        tmp_path,
        ["base", "--players", "2", "--short", "--opponent", "greedy", "--seat", "first", "--seed", "3"],
        typo=("tkae wood", "not a legal action"),
        illegal=("buy Bank", "costs"),
        game="base",
    )


def test_sigkill_then_resume_continues_at_the_last_completed_action(tmp_path):
    child = spawn(tmp_path, "inland", "--opponent", "greedy", "--seat", "first", "--seed", "6")
    for _ in range(4):
        child.expect([PROMPT, SECOND_STEP])
        child.sendline("1")
    child.expect(PROMPT)  # the computer has replied: every action so far is complete
    numbers = [int(n) for n in ACTION_LINE.findall(ANSI.sub("", child.logfile_read.text))]
    done = max(numbers)
    child.kill(signal.SIGKILL)
    child.close(force=True)
    again = spawn(tmp_path, "inland", "--resume")
    again.expect("continuing the game")
    again.expect(r"(\d+) actions? played")
    played = int(again.match.group(1))
    again.expect(PROMPT)
    again.sendline("history")  # every decision: main actions (numbered in the log), and the turns' 'end's
    again.expect(PROMPT)
    lines = HISTORY_LINE.findall(ANSI.sub("", again.before))
    assert len(lines) == played
    assert sum(1 for text in lines if not text.startswith(("end", "sell "))) == done
    again.sendline("quit")
    status, out = finish(again)
    assert status == 0 and "Traceback" not in out
