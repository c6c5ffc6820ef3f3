"""The position stays in view at 80x24 however many choices there are: the mover's goods, francs and
buildings, the opponent's moves since the person's last decision, the round and every numbered choice
(in pages, with 'more', when even their brief wording does not fit); 'list' shows all of it again;
a tutorial note stays whole above the screen.

The games are driven to a position with many choices without relying on the computer's exact moves
(they change when its seeds do): the planned moves are typed in turn, and a refused one is simply
followed by the next."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from cli.session import load_session  # noqa: E402
from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402

PROMPT = r"your move \(1-(\d+), an action, or help\)> "
#: the moves of the position in the report (round D of seed 908224: 15 choices)
ROUND_D = [
    "build Grocery Store: fish to 0+3, grain to 0+0",
    "end",
    "build Wood Company",
    "end",
    "use Grocery Store",
    "end",
    "use Farmland",
    "end",
    "use Wood Company",
    "end",
]


def drive(child, moves: list[str], least: int) -> int:
    """Type ``moves`` at the prompts (then the first choice) until a prompt offers at least ``least``
    choices; returns how many it offers."""
    planned = iter(moves)
    for _ in range(80):
        child.expect(PROMPT)
        n = int(child.match.group(1))
        if n >= least:
            return n
        child.sendline(next(planned, "1"))
    pytest.fail(f"no position with {least} choices was reached")


def numbers_on_screen(lines: list[str]) -> set[int]:
    """The choice numbers at the start of a line or of its second column."""
    return {int(m.group(1)) for line in lines for m in re.finditer(r"(?:^|\s{2})\s*(\d+)\. \S", line)}


def last_move_of(tmp_path: Path, game: str, seat: int) -> str:
    """The building of ``seat``'s last main action in the saved game ('Farm' of 'use Farm')."""
    (path,) = sorted((tmp_path / "saves").glob("*.json"))
    session = load_session(str(path), game)
    movers = [st.current_player() for st in session.positions]
    texts = [session.action_text(k) for k in range(len(session.positions))]
    main = [t for t, m in zip(texts, movers, strict=True) if m == seat and t.split(" ")[0] in ("build", "use")]
    return main[-1].partition(" ")[2].partition(":")[0]


def assert_position(child, tmp_path: Path, n: int) -> None:
    screen = child.logfile_read
    lines, flat = screen.lines, screen.flat
    shown = "\n".join(lines)
    assert re.search(r"You: F fish \d+ \(\d+\+\d\), G grain", flat), shown  # the goods
    assert re.search(r"; \d+ francs?", flat) and "wheel " in flat, shown  # the francs and the buildings
    assert re.search(r"You to play round [A-L] \(\d+ of 12\)", flat), shown  # the round
    assert "ai:normal:" in flat and last_move_of(tmp_path, "inland", 1) in flat, shown  # the opponent's move
    assert numbers_on_screen(lines) >= set(range(1, n + 1)), shown
    assert lines[screen.screen.cursor.y].endswith("or help)>"), shown
    assert "Traceback" not in screen.text


def test_round_d_shows_the_position_and_every_choice_at_80x24(tmp_path):
    """The report's position: in round D, 15 choices, with the goods, francs, wheel and the opponent's
    move on one screen; 'list' shows it again (not the choices alone)."""
    child = spawn_screen(tmp_path, "inland", "--seed", "908224", "--seat", "first", "--opponent", "ai:normal")
    child.timeout = 120
    n = drive(child, ROUND_D, 12)
    assert_position(child, tmp_path, n)
    child.sendline("list")
    child.expect(PROMPT)
    assert_position(child, tmp_path, n)
    child.sendline("quit")
    status, _ = finish(child)
    assert status == 0


def test_choices_that_do_not_fit_go_in_pages_and_more_shows_the_rest(tmp_path):
    """At 80x16 the same position's choices go in pages; the position stays above each page."""
    child = spawn_screen(tmp_path, "inland", "--seed", "908224", "--seat", "first", "--opponent", "ai:normal", rows=16)
    child.timeout = 120
    n = drive(child, ROUND_D, 12)
    seen: set[int] = set()
    for _ in range(4):
        screen = child.logfile_read
        assert re.search(r"You: F fish \d+", screen.flat) and "You to play round" in screen.flat, screen.lines
        assert "'more' shows" in screen.flat, screen.lines
        seen |= numbers_on_screen(screen.lines)
        if seen >= set(range(1, n + 1)):
            break
        child.sendline("more")
        child.expect(PROMPT)
    assert seen >= set(range(1, n + 1))
    child.sendline("quit")
    status, out = finish(child)
    assert status == 0 and "Traceback" not in out


def test_the_wheel_note_of_the_tutorial_stays_whole_at_80x24(tmp_path):
    """After the first round ('1', 'end', '1', 'end') the note on the wheel shows from its title to its
    last words, with the mover's side and the choices under it."""
    child = spawn_screen(tmp_path, "inland", "--tutorial")
    child.timeout = 120
    for line in ("1", "end", "1", "end"):
        child.expect(PROMPT)
        child.sendline(line)
    child.expect(PROMPT)
    n = int(child.match.group(1))
    screen = child.logfile_read
    flat, shown = screen.flat, "\n".join(screen.lines)
    assert "Tutorial: The wheel turned" in flat and "At the end of every round each building" in flat, shown
    assert "paying you 1 franc." in flat, shown
    assert re.search(r"You: F fish \d+", flat) and "wheel " in flat, shown
    assert numbers_on_screen(screen.lines) >= set(range(1, n + 1)), shown
    child.sendline("quit")
    status, _ = finish(child)
    assert status == 0
