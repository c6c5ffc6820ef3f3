"""The turn line and the players' boxes are up to date after each action, read at 80 columns:
the Inland Port counts the main action just taken among the round's actions (seeds/004, "Main
phase": a turn is one action, then sales, then its end), and a base-game player who has paid
for food shows as fed while the others still pay (seeds/000, End of a Round, "Feeding")."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from base_game import RULESET as BASE
from base_game import GameOptions
from base_game.frames import Debt
from cli.render_base import BaseRenderer, player_panel
from cli.render_inland import InlandRenderer, board
from cli.session import Player
from core.agents import make_agent
from core.protocol import parse_action
from inland_port import RULESET as INLAND

PLAYERS = [Player("A"), Player("B")]


def render(renderable) -> str:
    con = Console(width=80, record=True, color_system=None, file=io.StringIO())
    con.print(renderable)
    return " ".join(con.export_text().split())


def test_inland_turn_line_counts_the_main_action_just_taken():
    s = INLAND.new_game(0)
    r = InlandRenderer(width=80)
    assert "3 of 3 actions left" in render(r.turn_line(s, PLAYERS))
    assert "3 of 3 actions left in the round" in render(board(s, PLAYERS, 0, 80))
    s.apply_action(parse_action(s, "build wood"))
    line = render(r.turn_line(s, PLAYERS))
    assert "2 of 3 actions left" in line and "action taken" in line
    assert "2 of 3 actions left in the round" in render(board(s, PLAYERS, 0, 80))
    s.apply_action(parse_action(s, "end"))
    assert "B to play" in render(r.turn_line(s, PLAYERS)) and "2 of 3 actions left" in render(r.turn_line(s, PLAYERS))


def _food_debts(s) -> list[Debt]:
    return [fr for fr in s.stack if isinstance(fr, Debt) and fr.owed == "food"]


def _a_payment_with_another_debt_left() -> tuple:
    """A feeding where the player to pay has one way to pay and another player still owes after it."""
    for seed in range(60):
        s = BASE.new_game(seed, GameOptions(players=2))
        agents = [make_agent("random", q) for q in range(2)]
        while not s.is_terminal():
            debts = _food_debts(s)
            if len(debts) == 2 and s.stack[-1] is debts[-1]:
                pays = [a for a in s.legal_actions() if str(a).startswith("pay")]
                after = s.clone()
                if pays:
                    after.apply_action(pays[0])
                    left = _food_debts(after)
                    if len(left) == 1 and left[0].player != debts[-1].player:
                        return s, pays[0], debts[-1].player, left[0].player
            s.apply_action(agents[s.current_player()].choose(s.clone()))
    pytest.fail("no game reached a feeding where both players owe food")  # pragma: no cover


def test_base_player_box_shows_fed_once_paid():
    s, pay, payer, other = _a_payment_with_another_debt_left()
    owed = s.stack[-1].amount
    card = s.current_round_card.food
    assert f"of {card} food; {owed} due" in render(player_panel(s, payer, PLAYERS))
    s.apply_action(pay)
    box = render(player_panel(s, payer, PLAYERS))
    assert "food; fed this round" in box and "due" not in box
    assert "food; fed this round" not in render(player_panel(s, other, PLAYERS))  # the other still owes
    assert "fed this round" in render(BaseRenderer(width=80).board(s, PLAYERS, payer))
