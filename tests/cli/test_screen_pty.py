"""The screen that fits (issue 13, point 1): each game run in a pseudo-terminal of 80x24 and of
120x40, its output rendered by a terminal emulator (pyte), and the visible screen checked after
the first prompt and after the computer's move: the turn line (whose turn, the round, the actions
left), the mover's warehouse (Inland Port) or goods (base game), every choice's full name and what
it costs or does, and the prompt; at 120x40 both players' sides too."""

from __future__ import annotations

from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from rich.console import Console  # noqa: E402

from cli.games import renderer_for  # noqa: E402
from cli.prompt import PlayLoop  # noqa: E402
from cli.session import load_session  # noqa: E402
from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402

PROMPT_END = r"or help\)> "


def expected_choices(tmp_path: Path, game: str, brief: bool = False) -> tuple[object, list[str]]:
    """The saved game's position and its numbered choices as the loop words them ('3. build Farm: ...  1 wood,
    value 4'); ``brief``: in the few words of a screen short of lines ('3. build Farm  value 4: wood 2 → 1')."""
    (path,) = sorted((tmp_path / "saves").glob("*.json"))
    session = load_session(str(path), game)
    loop = PlayLoop(session, renderer_for(game, width=80), Console(width=80, file=open("/dev/null", "w")))
    menu = loop.menu(loop.choices())
    return session.state, [" ".join(e.plain.split()) for e in (menu.brief if brief else menu.full)]


def assert_screen(child, tmp_path: Path, game: str, *, both: bool = False) -> None:
    screen = child.logfile_read
    flat = screen.flat
    state, choices = expected_choices(tmp_path, game)
    for c in choices:
        assert c in flat, f"{c!r} is not on the screen:\n" + "\n".join(screen.lines)
    assert screen.lines[screen.screen.cursor.y].endswith("or help)>"), screen.lines  # the prompt, last
    if game == "inland":
        assert f"You to play round {state.round_letter}" in flat and "actions left" in flat
        # the warehouse: the columns' values, the rows' and the legend
        assert "+0 +1 +2 +3 +4 +5" in flat and " 15 " in flat and "pay: left 1, down 3, down-left 4" in flat
        assert f"F fish {state.goods[0][0]}" in flat
        if both:
            assert "seat 1, A-F board" in flat and "seat 2, G-L board" in flat
    else:
        assert f"P1 You (round {state.round_number} of" in flat and "turn" in flat
        assert "P1 You person at" in flat and f"food {state.food_value(0)} · energy {state.energy_value(0)}" in flat
        if both:
            assert "P2 ai:easy person at" in flat
    assert "Traceback" not in screen.text


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (120, 40)])
def test_inland_screen_fits(tmp_path, cols, rows):
    child = spawn_screen(
        tmp_path, "inland", "--opponent", "ai:easy", "--seat", "first", "--seed", "3", cols=cols, rows=rows
    )
    child.expect(PROMPT_END)
    assert_screen(child, tmp_path, "inland", both=cols >= 100)
    child.sendline("build Wood Company")
    child.expect(PROMPT_END)
    child.sendline("end")  # the computer moves, then it is my turn again
    child.expect(PROMPT_END)
    assert "ai:easy: builds" in child.logfile_read.flat  # the computer's move, in view
    assert_screen(child, tmp_path, "inland", both=cols >= 100)
    child.sendline("quit")
    status, _ = finish(child)
    assert status == 0


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (120, 40)])
def test_base_screen_fits(tmp_path, cols, rows):
    child = spawn_screen(
        tmp_path, "base", "--opponent", "ai:easy", "--seat", "first", "--seed", "3", cols=cols, rows=rows
    )
    child.expect(PROMPT_END)
    assert_screen(child, tmp_path, "base", both=cols >= 100)
    child.sendline("take wood")
    child.expect(PROMPT_END)
    child.sendline("end")  # the computer plays P2's turn
    child.expect(PROMPT_END)
    assert "P2 ai:easy:" in child.logfile_read.flat  # the computer's move, in view
    assert_screen(child, tmp_path, "base", both=cols >= 100)
    child.sendline("quit")
    status, _ = finish(child)
    assert status == 0


def test_late_in_the_game_the_warehouse_stays_on_a_small_screen(tmp_path):
    """Round J with seventeen choices at 80x24: the grid no longer fits above them, so the mover's
    warehouse is shown in one line (every counter's amount and cell, and the francs) and their buildings in
    another, and the choices in their brief wording (the full one does not fit with the opponent's move).
    The position was found on the data shipped as buildings-2026-11, which it names (other data, other choices)."""
    from core import records
    from core.agents import make_agent
    from inland_port import RULESET

    found_on = {"buildings": "buildings-2026-11"}
    s = RULESET.new_game(3, found_on)
    agents = [make_agent("greedy", 1), make_agent("greedy", 2)]
    while s.round < 9 or s.current_player() != 0 or s.acted:
        s.apply_action(agents[s.current_player()].choose(s))
    record = records.record_from_state("inland", found_on, 3, s, ["You", {"name": "greedy", "agent": "greedy"}])
    (tmp_path / "saves").mkdir(parents=True, exist_ok=True)
    records.save_record(record, tmp_path / "saves" / "late.json")
    child = spawn_screen(tmp_path, "inland", "--load", str(tmp_path / "saves" / "late.json"), cols=80, rows=24)
    child.expect(PROMPT_END)
    state, choices = expected_choices(tmp_path, "inland", brief=True)
    flat = child.logfile_read.flat
    assert len(choices) > 12 and "greedy: " in flat and "wheel " in flat
    for c in choices:
        assert c in flat, c
    wh = state.catalog.warehouse
    for g, cell in zip(("fish", "grain", "wood", "clay"), state.cells[0], strict=True):
        assert f"{g} {wh.amount[cell]} ({wh.text(cell)})" in flat
    assert f"You to play round {state.round_letter}" in flat
    child.sendline("quit")
    status, _ = finish(child)
    assert status == 0
