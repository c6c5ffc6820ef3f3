"""``lehavre base`` driven like a person would, in a pseudo-terminal (pexpect).

Checks the terminal path (Rich sees a TTY): a typo, an illegal action, ``help``,
a few legal actions (one through the two-step choice), ``quit``; and Ctrl-C at
the prompt.  The program always ends with a short message, never a traceback.

The illegal action is buying the Bank with the 5 starting francs:
seeds/000_3a1c2d85c0e157da.txt ("Setup" 7: 5 francs each; Buildings Overview:
Bank, Cost 40; "Buying": a purchase is paid in francs).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

LEHAVRE = str(Path(sys.executable).parent / "lehavre")
ROOT = Path(__file__).resolve().parents[2]
PROMPT = "your move"


class _Log:
    """Everything the program printed, to look for tracebacks afterwards."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, s: str) -> None:
        self.parts.append(s)

    def flush(self) -> None:
        pass

    @property
    def text(self) -> str:
        return "".join(self.parts)


def spawn(tmp_path: Path, *args: str):
    env = dict(os.environ)
    env.update({"LEHAVRE_DATA_DIR": str(tmp_path), "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "45"})
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(LEHAVRE, list(args), env=env, cwd=str(ROOT), encoding="utf-8", timeout=60,
                          dimensions=(45, 100))
    child.logfile_read = _Log()
    return child


def finish(child) -> tuple[int | None, str]:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, child.logfile_read.text


def test_typo_illegal_help_legal_actions_and_quit(tmp_path):
    child = spawn(tmp_path, "base", "--opponent", "greedy", "--seat", "first", "--seed", "3")
    child.expect("You are P1 and start")
    child.expect(PROMPT)
    child.sendline("tkae wood")
    child.expect("is not a legal action here")
    child.expect("Allowed now: buy, take")
    child.expect(PROMPT)
    child.sendline("buy Bank")
    child.expect("Bank costs 40 francs; you have 5")
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("Commands at the prompt")
    child.expect(PROMPT)
    child.sendline("rules Bank")
    child.expect("provenance")
    child.expect(PROMPT)
    child.sendline("take wood")  # seed 3: the wood space holds 3 wood
    child.expect("takes 3 wood from the offer")
    child.expect(PROMPT)
    child.sendline("end")
    child.expect("ends the turn")
    # the computer plays P2; then it is P1's turn again
    child.expect("greedy")
    child.expect(PROMPT)
    child.sendline("board")
    child.expect("Supply tiles")
    child.expect(PROMPT)
    child.sendline("1")  # the first choice of the list (a main action)
    child.expect(r"(takes \d+ \w+ from the offer|enters )")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("You quit the game")
    code, text = finish(child)
    assert code == 0
    assert "Traceback" not in text


def test_ctrl_c_at_the_prompt_ends_with_a_short_message(tmp_path):
    child = spawn(tmp_path, "base", "--opponent", "random", "--players", "3", "--seat", "first", "--seed", "5", "--short")
    child.expect(PROMPT)
    time.sleep(0.5)  # let readline take the terminal before the interrupt (not a timing assertion)
    child.sendintr()
    child.expect("Interrupted: the game is stopped")
    code, text = finish(child)
    assert code == 130
    assert "Traceback" not in text and "lehavre base --resume" in " ".join(text.split())
