"""Point 4 of what a player meets, as a person sees it at 80x24: a mistyped verb gets "did you mean",
a unique beginning of a building's name works before its payment (seeds/004, "Build": paid with
food), and right after the main action the turn line counts it (seeds/004, "Main phase")."""

from __future__ import annotations

import re

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import PROMPT, finish, spawn_screen  # noqa: E402


def screen_after(child, line: str) -> str:
    child.sendline(line)
    child.expect(PROMPT)
    child.expect(pexpect.TIMEOUT, timeout=0.3)  # the prompt's line is drawn
    return child.logfile_read.flat


def test_did_you_mean_a_prefix_with_its_payment_and_the_turn_line_at_80x24(tmp_path):
    child = spawn_screen(tmp_path, "inland", "--opponent", "greedy", "--seat", "first", "--seed", "3", "--no-save")
    child.expect(PROMPT)
    assert "3 of 3 actions left" in child.logfile_read.flat
    seen = screen_after(child, "biuld wood")
    assert "Did you mean 'build Wood Company'?" in seen, "\n".join(child.logfile_read.lines)
    seen = screen_after(child, "build grocery: fish to 0+2")
    assert "You: builds Grocery Store into sector 0, paying fish 4 → 2" in seen, "\n".join(child.logfile_read.lines)
    assert re.search(r"2 of 3 actions left \(action taken", seen), "\n".join(child.logfile_read.lines)
    assert all(len(line) <= 80 for line in child.logfile_read.lines)
    child.sendline("quit")
    assert finish(child)[0] == 0
