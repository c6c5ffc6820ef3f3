"""The review says in a few words why its better line is better (a planted position): a line that
sells a building and builds it again with goods looks like a bug to a player until the review says
that goods are worth nothing at the end while the building is worth its value."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from pydantic import BaseModel

from core.lab.review import Decision, _wealth_differences, explain_better, follow_line, lost_terms, review_decision
from core.protocol import TERMINAL, Evaluator, GameSpec, GameState, Level
from core.search import LEVELS
from inland_port import RULESET as INLAND
from tests.core.test_review import play


@dataclass(frozen=True)
class Move:
    text: str

    def __str__(self) -> str:
        return self.text


class Harbour(GameState):
    """One player's last turn: they own the Pier (value 14), hold 5 goods and 3 francs; 'sell Pier'
    pays half its value, 'build Pier' (when not owned) costs 4 goods, 'end' ends the game. Wealth:
    francs and buildings; goods count for nothing at the end."""

    ruleset = "harbour"

    def __init__(self) -> None:
        self.num_players = 2
        self.francs, self.goods, self.pier, self.over = 3, 5, True, False
        self.history: list[object] = []

    def clone(self) -> Harbour:
        c = Harbour()
        c.francs, c.goods, c.pier, c.over = self.francs, self.goods, self.pier, self.over
        return c

    def key(self) -> tuple[object, ...]:
        return (self.francs, self.goods, self.pier, self.over)

    def current_player(self) -> int:
        return TERMINAL if self.over else 0

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list[Move]:
        moves = [Move("end")]
        moves += [Move("sell Pier")] if self.pier else []
        moves += [Move("build Pier")] if not self.pier and self.goods >= 4 else []
        return moves

    def apply_action(self, action: Move) -> None:
        if action.text == "sell Pier":
            self.pier, self.francs = False, self.francs + 7
        elif action.text == "build Pier":
            self.pier, self.goods = True, self.goods - 4
        else:
            self.over = True

    def wealth_breakdown(self, player: int) -> dict[str, int]:
        if player:
            return {"francs": 20}
        return {"francs": self.francs, **({"Pier": 14} if self.pier else {})}

    def wealth(self) -> list[int]:
        return [sum(self.wealth_breakdown(p).values()) for p in range(2)]

    def margin(self, player: int) -> float:
        return float(self.wealth()[player] - self.wealth()[1 - player])


def terms(state: Harbour, player: int) -> dict[str, float]:
    return {"wealth": state.margin(player), "goods": 0.0 if state.over else float(state.goods)}


class _NoOptions(BaseModel):
    pass


#: the harbour's spec; its evaluation: its wealth margin and its goods
HARBOUR = GameSpec(
    name="harbour",
    title="Harbour (a toy game for tests)",
    state=Harbour,
    options_model=_NoOptions,
    new_game=lambda seed, options: Harbour(),
    min_players=2,
    max_players=2,
    ai_levels=LEVELS,
    evaluator=Evaluator(
        evaluate=lambda s, p: sum(terms(s, p).values()), terms=terms, search_actions=lambda s: s.legal_actions()
    ),
)


def decision(pv: tuple[str, ...], played_pv: tuple[str, ...], lost: float = 7.0) -> Decision:
    return Decision(0, 0, played_pv[0], pv[0], 7.0, 0.0, lost, False, pv=pv, played_pv=played_pv)


def test_selling_and_building_again_is_explained_by_the_end_of_the_game():
    d = decision(("sell Pier", "build Pier", "end"), ("end",))
    assert explain_better(Harbour(), d) == (
        "at the end: 7 more francs; goods are worth nothing then; the 7.0 lost = wealth +7.0"
    )


def test_a_line_that_keeps_the_building_names_it_with_its_value():
    d = decision(("end",), ("sell Pier", "end"))
    assert explain_better(Harbour(), d) == (
        "at the end: with Pier (14), 7 fewer francs; goods are worth nothing then; the 7.0 lost = wealth +7.0"
    )


def test_before_the_end_the_francs_lost_are_told_term_by_term_and_add_up():
    """The terms are the better line's less the played line's (wealth +14, goods -4), and what the two
    lines' ends do not account for is named 'other': together they make the 7 francs lost."""
    d = decision(("sell Pier", "build Pier"), ("sell Pier",))
    assert explain_better(Harbour(), d) == (
        "after the line: with Pier (14); the 7.0 lost = wealth +14.0, goods -4.0, other -3.0"
    )


def _adds_up(terms: list[tuple[str, float]], lost: float) -> bool:
    return sum(v for _, v in terms) == pytest.approx(round(lost, 1), abs=1e-9)


@pytest.mark.parametrize(
    ("pv", "played_pv", "lost"),
    [
        (("sell Pier", "build Pier", "end"), ("end",), 7.0),
        (("sell Pier", "build Pier"), ("sell Pier",), 7.0),
        (("sell Pier", "build Pier"), ("sell Pier",), 2.34),
        (("end",), ("sell Pier", "end"), 13.96),
    ],
)
def test_the_terms_shown_add_up_to_the_francs_lost(pv, played_pv, lost):
    d = decision(pv, played_pv, lost)
    better, _ = follow_line(Harbour(), d.pv)
    played, _ = follow_line(Harbour(), d.played_pv)
    assert _adds_up(lost_terms(better, played, d, limit=1), lost)
    assert _adds_up(lost_terms(better, played, d), lost)


def test_a_reviewed_decision_of_a_real_game_is_explained_by_terms_that_add_up():
    """A searched decision of an Inland Port game (a greedy player's move against a small reference):
    its 'why' ends with the francs lost, term by term, and the terms add up to them."""
    small = Level("test", max_depth=64, max_nodes=1_500, time_cap=30.0)
    state = play(INLAND, ["greedy", "greedy"], 2, lambda s: len(s.history) >= 20)
    worst = max(
        (review_decision(INLAND, state, str(a), small, 20) for a in state.legal_actions()[:6]), key=lambda d: d.lost
    )
    assert worst.lost > 0
    better, _ = follow_line(state, worst.pv)
    played, _ = follow_line(state, worst.played_pv)
    terms = lost_terms(better, played, worst)
    assert _adds_up(terms, worst.lost)
    assert f"the {worst.lost:.1f} lost = " in explain_better(state, worst)


def test_nothing_to_explain_for_a_decision_that_lost_nothing_or_a_line_that_cannot_be_followed():
    assert explain_better(Harbour(), decision(("end",), ("end",), lost=0.0)) == ""
    state, done = follow_line(Harbour(), ["sell Pier", "sell Pier", "end"])
    assert done == 1 and not state.pier


def test_buildings_one_line_has_and_the_other_not_are_said_with_and_without():
    """The words of the sample review: a list after 'no' read as if none of them were built."""
    better = {"francs": 3, "Shipping Line": 14, "Pier": 14}
    played = {"francs": 6, "Craftsmen's Yard": 16}
    assert (
        _wealth_differences(better, played, 3) == "with Shipping Line (14) and Pier (14), without Craftsmen's Yard (16)"
    )
    assert _wealth_differences(better, played, 4) == (
        "with Shipping Line (14) and Pier (14), without Craftsmen's Yard (16), 3 fewer francs"
    )
