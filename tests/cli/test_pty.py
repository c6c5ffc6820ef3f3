"""``lehavre inland`` driven like a person would, in a pseudo-terminal (pexpect).

Checks the terminal path (Rich sees a TTY, the AI's spinner runs): a typo, an
illegal action, ``help``, ``rules Farm``, a two-step choice, the end of input
(Ctrl-D) and Ctrl-C (at the prompt and while the computer thinks) all leave
the program with a short message, never a traceback.

The illegal action is building the Zoo in round A: seeds/004_3575577254fe0f5a.txt
("Main phase", "Build"): only buildings whose letter has been reached are on offer.
"""

from __future__ import annotations

import time

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.cli.pty_helpers import PROMPT, finish, spawn  # noqa: E402


def test_a_person_survives_typo_illegal_help_rules_and_ends_with_eof(tmp_path):
    child = spawn(tmp_path, "inland", "--opponent", "greedy", "--seat", "first", "--seed", "3")
    child.expect(PROMPT)
    child.sendline("bulid Farm")
    child.expect("'bulid' is not an action")
    child.expect(PROMPT)
    child.sendline("build Zoo")
    child.expect("Zoo enters the game in round J")
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("Commands at the prompt")
    child.expect(PROMPT)
    child.sendline("rules Farm")
    child.expect("provenance")
    child.expect(PROMPT)
    child.sendline("4")  # build Grocery Store: a food cost, so a second list asks how
    child.expect("choose 1-")
    child.sendline("2")  # fish 1 and grain 1: exact (seeds/004, "There is no change")
    child.expect("builds Grocery Store into sector 0, paying fish 4 . 3, grain 1 . 0")
    child.expect(PROMPT)
    child.sendeof()
    status, out = finish(child)
    assert status == 0
    assert "End of input: the game is stopped" in out
    assert "Traceback" not in out
    # the terminal gets colour (Rich sees a TTY)
    assert "\x1b[" in out


def test_ctrl_c_at_the_prompt_and_at_the_second_step(tmp_path):
    for steps in ([], ["4"]):
        child = spawn(tmp_path, "inland", "--opponent", "greedy", "--seat", "first", "--seed", "3")
        child.expect(PROMPT)
        for s in steps:
            child.sendline(s)
            child.expect("choose 1-")
        time.sleep(0.5)  # let readline take the terminal before the interrupt (not a timing assertion)
        child.sendintr()
        status, out = finish(child)
        assert "Interrupted: the game is stopped" in out
        assert "Traceback" not in out and "KeyboardInterrupt" not in out
        assert status == 130


def test_ctrl_c_while_the_computer_thinks_and_then_resume(tmp_path):
    child = spawn(tmp_path, "inland", "--opponent", "ai:hard", "--seat", "first", "--seed", "3")
    child.expect(PROMPT)
    child.sendline("1")  # my action
    child.expect(PROMPT)
    child.sendline("1")  # end my turn (seeds/004, "Sell": I could sell after my action)
    child.expect("is thinking")  # the spinner on a terminal
    child.sendintr()
    status, out = finish(child)
    assert status == 130
    assert "Interrupted" in out and "--resume" in out
    assert "Traceback" not in out
    again = spawn(tmp_path, "inland", "--resume")
    again.expect("2 actions played")
    again.expect("is thinking")
    again.sendintr()
    status, out = finish(again)
    assert "Traceback" not in out


def test_no_color_in_a_terminal(tmp_path):
    child = spawn(
        tmp_path, "inland", "--opponent", "greedy", "--seat", "first", "--seed", "3", extra_env={"NO_COLOR": "1"}
    )
    child.expect(PROMPT)
    child.sendline("quit")
    status, out = finish(child)
    assert status == 0 and "You quit the game" in out
    # NO_COLOR: no colour codes (Rich may still use bold/dim attributes)
    assert "\x1b[3" not in out and "\x1b[9" not in out and "\x1b[38" not in out
