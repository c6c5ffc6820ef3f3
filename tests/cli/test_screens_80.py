"""What a person must read stays on the screen at 80x24 (and 100x40), each seen in a pseudo-terminal
rendered by a terminal emulator (pyte): the tutorial's opening (its title and how to win) at the first
prompt; every decision the computer's players made since the person's last one, in the base game with
three of them; and a base building's text in the choices whole (wrapped, never cut with '...')."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("pyte")

from base_game import cards as K  # noqa: E402
from cli.render_base import action_sentence, outcome_text  # noqa: E402
from cli.session import load_session  # noqa: E402
from tests.cli.pty_helpers import finish, spawn_screen  # noqa: E402

PROMPT_END = r"or help\)> "


def settle(child, seconds: float = 0.5) -> None:
    """Let the program finish drawing (it waits at the prompt)."""
    with contextlib.suppress(pexpect.TIMEOUT):
        child.expect(pexpect.EOF, timeout=seconds)


def on_screen(child) -> str:
    return "\n".join(child.logfile_read.lines)


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (100, 40)])
def test_the_tutorial_opening_is_on_the_screen_at_the_first_prompt(tmp_path, cols, rows):
    child = spawn_screen(tmp_path, "inland", "--tutorial", cols=cols, rows=rows)
    child.expect(PROMPT_END)
    settle(child)
    flat = " ".join(child.logfile_read.flat.replace("│", " ").split())  # the note's text, without its frame
    assert "Tutorial: Welcome to the Inland Port" in flat, on_screen(child)
    assert "whoever is wealthiest at the end (francs plus the value of your buildings) wins" in flat, on_screen(child)
    assert "You to play round A" in flat and "F fish 4" in flat  # the turn line and the warehouse too
    child.sendline("quit")
    status, _ = finish(child)
    assert status == 0


def ai_decisions_since_mine(tmp_path: Path, seat: int) -> list[tuple[int, str]]:
    """The saved game's actions since ``seat`` last decided: (who, the action in words)."""
    (path,) = sorted((tmp_path / "saves").glob("*.json"))
    table = load_session(str(path), "base")
    out: list[tuple[int, str]] = []
    for k in range(len(table.positions) - 1, -1, -1):
        before = table.positions[k]
        if before.current_player() == seat:
            break
        out.insert(0, (before.current_player(), action_sentence(before, table.action_text(k))))
    return out


@pytest.mark.parametrize(("cols", "rows"), [(80, 24), (100, 40)])
def test_every_ai_decision_since_yours_is_on_the_screen_at_your_prompt(tmp_path, cols, rows):
    """Four players, you first against three ai:normal: after your turn the three others play theirs
    (more event lines than a 24-line screen keeps above the board); at your next prompt each of
    their decisions is on the screen, in words, with who made it."""
    child = spawn_screen(tmp_path, "base", "--players", "4", "--seat", "first", "--seed", "5", cols=cols, rows=rows)
    for line in ("take wood", "end"):
        child.expect(PROMPT_END)
        child.sendline(line)
    child.expect(PROMPT_END)
    settle(child)
    flat = child.logfile_read.flat
    decisions = ai_decisions_since_mine(tmp_path, 0)
    assert {who for who, _ in decisions} == {1, 2, 3}
    for who, words in decisions:
        assert words in flat, (who, words, on_screen(child))
    for who in (1, 2, 3):
        assert f"P{who + 1} ai:normal:" in flat
    assert "P1 You (round 1 of 20, turn 5 of 7)" in flat  # and the turn line, under them
    child.sendline("quit")
    status, _ = finish(child)
    assert status == 0


def saved_with_buildings_to_enter(tmp_path: Path) -> tuple[Path, list[str]]:
    """A base game for two, played by greedy agents until the first seat may enter several buildings
    whose use asks for more choices (so their choice shows the building's function): saved; and
    those functions."""
    from base_game.setup import GameOptions
    from core import records
    from core.agents import make_agent
    from core.games import game_spec

    spec = game_spec("base")
    s = spec.new_game(7, GameOptions(players=2))
    agents = [make_agent("greedy", 1, "base"), make_agent("greedy", 2, "base")]
    while True:
        if s.current_player() == 0 and s.decision == "main":
            enter = [a for a in s.legal_actions() if str(a).startswith("enter ")]
            long = [a for a in enter if outcome_text(s, a) is None and len(K.BUILDINGS[a.ref].function) > 60]
            if len(enter) > 1 and long:
                break
        s.apply_action(agents[s.current_player()].choose(s))
    record = records.record_from_state(
        "base", GameOptions(players=2), 7, s, ["You", {"name": "greedy", "agent": "greedy"}]
    )
    path = tmp_path / "saves" / "enter.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    records.save_record(record, path)
    return path, [K.BUILDINGS[a.ref].function for a in long]


def test_a_base_buildings_text_is_wrapped_never_cut_at_80_columns(tmp_path):
    path, functions = saved_with_buildings_to_enter(tmp_path)
    child = spawn_screen(tmp_path, "base", "--load", str(path))
    child.expect(PROMPT_END)
    child.sendline("enter a building")  # the second step: each building, whose it is, its fee and what it does
    child.expect(r"\(or back\)> ")
    settle(child)
    screen = on_screen(child)
    assert "..." not in screen and "…" not in screen, screen
    flat = child.logfile_read.flat
    shown = [f for f in functions if " ".join(f.split()) in flat]
    assert shown, screen  # the list ends at the prompt: at least the last ones are on the screen, whole
    child.sendline("back")
    child.expect(PROMPT_END)
    child.sendline("quit")
    status, _ = finish(child)
    assert status == 0
