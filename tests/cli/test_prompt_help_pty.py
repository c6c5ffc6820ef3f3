"""``help`` at the prompt fits one 80x24 screen with the prompt under it; ``help actions`` shows the
action forms in two columns whose second column wraps inside itself (it wrapped back to column 0)."""

from __future__ import annotations

import re

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from tests.cli.pty_helpers import PROMPT, finish, spawn_screen  # noqa: E402

GAMES = {
    "inland": ["inland", "--opponent", "random", "--seed", "3"],
    "base": ["base", "--opponent", "random", "--seed", "3"],
}


def screen_after(child, line: str) -> list[str]:
    child.sendline(line)
    child.expect(PROMPT)
    child.expect(pexpect.TIMEOUT, timeout=0.3)  # the prompt's line is drawn
    return child.logfile_read.lines


@pytest.mark.parametrize("game", sorted(GAMES))
def test_help_fits_one_screen_and_help_actions_keeps_its_columns(tmp_path, game):
    child = spawn_screen(tmp_path, *GAMES[game])
    child.expect(PROMPT)
    lines = screen_after(child, "help")
    text = "\n".join(lines)
    top = next(i for i, line in enumerate(lines) if "Commands at the prompt:" in line)
    shown = [line for line in lines[top:] if line.strip()]
    assert shown[-1].startswith("You, your move"), text
    assert "help actions" in shown[-2] and all(len(line) <= 80 for line in lines), text
    for word in ("board", "log [N]", "rules [BUILDING]", "hint", "undo", "save [NAME]", "quit"):
        assert any(line.startswith(word) for line in shown), f"{word!r} is not on the screen:\n{text}"
    lines = screen_after(child, "help actions")
    top = max(i for i, line in enumerate(lines) if line.startswith("Action text forms"))
    body = [line for line in lines[top + 2 :] if line.strip() and not line.startswith("You, your move")]
    column = re.search(r"\S  +(\S)", body[0]).start(1)  # where the second column begins
    for line in body[:-2]:  # every line: a form and its meaning, or the meaning going on in its column
        assert line[:column].strip() == "" or re.match(r"\S.*?  +\S", line), "\n".join(lines)
        assert len(line) <= 80
    child.sendline("quit")
    assert finish(child)[0] == 0
