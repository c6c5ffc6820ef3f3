"""The Inland Port's heuristic evaluation (inland_port/evaluate.py)."""

from __future__ import annotations

import random

import pytest

from core.agents import make_agent
from inland_port import RULESET
from inland_port.evaluate import actions_left, evaluate, evaluation_terms, player_terms
from inland_port.state import ACTIONS_PER_ROUND
from tests.inland_port.helpers import position


def _play_out(seed: int, agents=("greedy", "random")):
    s = RULESET.new_game(seed)
    players = [make_agent(a, seed + i) for i, a in enumerate(agents)]
    seen = []
    while not s.is_terminal():
        seen.append(s.clone())
        s.apply_action(players[s.current_player()].choose(s))
    return s, seen


@pytest.mark.parametrize("seed", range(4))
def test_equals_true_wealth_margin_at_the_end(seed):
    """seeds/004 "End of the game": building values plus leftover francs."""
    s, _ = _play_out(seed, ("greedy", "random") if seed % 2 else ("random", "greedy"))
    w = s.wealth()
    for p in (0, 1):
        assert evaluate(s, p) == w[p] - w[1 - p]
        terms = evaluation_terms(s, p)
        assert terms["wealth"] == w[p] - w[1 - p]
        assert all(v == 0 for k, v in terms.items() if k != "wealth")
        assert RULESET.evaluator.evaluate(s, p) == evaluate(s, p)  # the game's evaluator is this function


def test_terms_sum_to_the_evaluation_and_are_antisymmetric():
    _, seen = _play_out(7)
    for s in seen[::5]:
        for p in (0, 1):
            terms = evaluation_terms(s, p)
            assert sum(terms.values()) == pytest.approx(evaluate(s, p))
            assert set(terms) == {"wealth", "goods", "wheel", "forced sale", "position", "tempo"}
        assert evaluate(s, 0) == pytest.approx(-evaluate(s, 1))


def test_actions_left_counts_every_remaining_main_action():
    """REFERENCE.md Facts [pub]: 3,3,3,5,5,5,7,7,7,9,9,9 actions, 36 each; seeds/004
    "Beginning of the round": the starting player takes the extra action and alternates."""
    s = RULESET.new_game(0)
    assert actions_left(s, 0) == actions_left(s, 1) == sum(ACTIONS_PER_ROUND) // 2 == 36
    rng = random.Random(1)
    while not s.is_terminal():
        total = actions_left(s, 0) + actions_left(s, 1)
        done = s.main_action_count
        assert total == sum(ACTIONS_PER_ROUND) - done
        s.apply_action(rng.choice(s.legal_actions()))
    assert actions_left(s, 0) == actions_left(s, 1) == 0


def test_more_goods_is_better_before_the_end():
    poor = position(goods=("0+1",) * 4, round_letter="E")
    rich = position(goods=("6+0",) * 4, round_letter="E")
    assert evaluation_terms(rich, 0)["goods"] > evaluation_terms(poor, 0)["goods"]
    assert evaluate(rich, 0) > evaluate(poor, 0)


def test_goods_a_factory_counts_are_not_counted_twice():
    """Wood Factory (REFERENCE.md building data): 1 per wood, already in wealth."""
    with_f = position(goods=("0+0", "0+0", "9+0", "0+0"), round_letter="K", buildings=[("Wood Factory", 0, "0")])
    without = position(goods=("0+0", "0+0", "9+0", "0+0"), round_letter="K")
    assert with_f.wealth()[0] - without.wealth()[0] == 9
    assert player_terms(with_f, 0)["goods"] == 0
    assert player_terms(without, 0)["goods"] == 9


def test_a_counter_on_the_edge_is_worth_less_than_the_same_amount_inside():
    """Issue 10 / seeds/004 "The meaning of the symbols": the amount is row + column, but several cells hold the
    same amount, and a counter on the +5 column gains nothing more from a "right" building ("A goods counter
    stops at the last space of a row").  Wood 0+5 and 3+2 both hold 5."""
    edge = position(goods=("0+4", "0+1", "0+5", "0+3"), round_letter="E")
    inside = position(goods=("0+4", "0+1", "3+2", "0+3"), round_letter="E")
    assert edge.goods[0] == inside.goods[0] == (4, 1, 5, 3)
    e, i = evaluation_terms(edge, 0), evaluation_terms(inside, 0)
    assert e["goods"] == i["goods"] and e["wealth"] == i["wealth"]
    assert e["position"] < i["position"]
    assert evaluate(edge, 0) < evaluate(inside, 0)


def test_a_building_near_forced_sale_costs_and_a_usable_one_yields():
    """seeds/004 "End of the round": a building reaching '!' is sold for half its value."""
    old = position(round_letter="E", buildings=[("Sawmill", 0, "4+1")])
    young = position(round_letter="E", buildings=[("Sawmill", 0, "2")])
    assert evaluation_terms(old, 0)["forced sale"] < evaluation_terms(young, 0)["forced sale"] <= 0
    assert evaluation_terms(young, 0)["wheel"] > 0


def test_tempo_belongs_to_the_player_to_move():
    s = position(round_letter="E", buildings=[("Shipping Line", 0, "4")], turn=0)
    assert evaluation_terms(s, 0)["tempo"] > 0
    assert evaluation_terms(s, 1)["tempo"] < 0


def test_search_actions_prune_sales_unless_francs_are_needed():
    """seeds/004 "Sell": half the value in francs, in addition to the action."""
    from inland_port.evaluate import search_actions

    # nothing paid in francs is out of reach: sales are left out of the search
    s = position(francs=3, round_letter="B", buildings=[("Farm", 0, "2"), ("Kiln", 0, "3")])
    acts = search_actions(s)
    assert acts and all(a.verb != "sell" for a in acts) and set(acts) <= set(s.legal_actions())
    # Shipping Line (12 francs) is in reach only by selling: sales are searched
    s = position(francs=3, round_letter="G", buildings=[("Farm", 0, "2"), ("Kiln", 0, "3"), ("Sawmill", 0, "2")])
    sells = [str(a) for a in search_actions(s) if a.verb == "sell"]
    assert sells == ["sell Farm", "sell Kiln", "sell Sawmill"]
    # after selling Kiln, only buildings later in the catalog may follow this turn
    s.apply_action(next(a for a in s.legal_actions() if str(a) == "sell Kiln"))
    assert [str(a) for a in search_actions(s) if a.verb == "sell"] == ["sell Sawmill"]


def test_search_actions_after_the_main_action():
    """seeds/004 "Sell": "Anytime during his turn ... in addition to his action".  After the action a sale
    changes something only if the opponent could use the building before the seller's next turn: it has a
    function and stands (after the round ends, if it ends now) in a sector from 2 to 4+1 (seeds/004 "Use":
    buildings in sector 0 may not be used).  Of those the search keeps the sales whose denial could pay:
    the opponent's best gain from the use, less the 2 francs it moves between the players, exceeds the
    sale's loss (value minus half the value)."""
    from inland_port.evaluate import search_actions

    def after_use(actions_left):
        s = position(
            round_letter="E",
            buildings=[("Shipping Line", 0, "2"), ("Kiln", 0, "3"), ("Farm", 0, "0"), ("Town Hall", 0, "0")],
        )
        s.actions_left = actions_left
        s.apply_action(next(a for a in s.legal_actions() if str(a) == "use Shipping Line"))
        assert s.acted
        return s

    # the round goes on: Kiln (sector 3) could be used by the opponent: clay 0+3 -> 3+2 -> 6+1 -> 9+0, 6 goods,
    # less 2 francs, beats the 3 francs the sale loses; Shipping Line and Farm are in sector 0, Town Hall has
    # no function
    s = after_use(9)
    acts = search_actions(s)
    assert [str(a) for a in acts] == ["end", "sell Kiln"] and set(acts) <= set(s.legal_actions())
    # this is the round's last action: the pointer turns first, so Farm and Shipping Line reach sector 2, but
    # denying them cannot pay: Farm gives the opponent grain 0+1 -> 3+2 (4, less 2, not more than the 2 lost),
    # Shipping Line 6 francs (less 2, not more than the 7 lost); Kiln reaches sector 4 (clay to 9+0: 6, less 2 > 3)
    s = after_use(1)
    assert [str(a) for a in search_actions(s)] == ["end", "sell Kiln"]
    assert {"sell Farm", "sell Shipping Line", "sell Kiln", "sell Town Hall"} <= {str(a) for a in s.legal_actions()}
