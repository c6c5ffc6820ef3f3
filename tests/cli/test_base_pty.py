"""``lehavre base`` driven like a person would, in a pseudo-terminal (pexpect).

Checks the terminal path (Rich sees a TTY): a typo, an illegal action, ``help``,
a few legal actions (one through the two-step choice), ``quit``; and Ctrl-C at
the prompt.  The program always ends with a short message, never a traceback.

The illegal action is buying the Bank with the 5 starting francs:
seeds/000_3a1c2d85c0e157da.txt ("Setup" 7: 5 francs each; Buildings Overview:
Bank, Cost 40; "Buying": a purchase is paid in francs).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.cli.pty_helpers import PROMPT, finish  # noqa: E402
from tests.cli.pty_helpers import spawn as _spawn  # noqa: E402


def spawn(tmp_path: Path, *args: str):
    return _spawn(tmp_path, *args, rows=45)


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
    child = spawn(
        tmp_path, "base", "--opponent", "random", "--players", "3", "--seat", "first", "--seed", "5", "--short"
    )
    child.expect(PROMPT)
    time.sleep(0.5)  # let readline take the terminal before the interrupt (not a timing assertion)
    child.sendintr()
    child.expect("Interrupted: the game is stopped")
    code, text = finish(child)
    assert code == 130
    assert "Traceback" not in text and "lehavre base --resume" in " ".join(text.split())
