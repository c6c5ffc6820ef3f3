"""Every legal way to pay is a legal action; the search keeps the few least wasteful.

Rules (seeds/000):
* Feeding phase: "Remember: Each Franc counts as 1 Food. Players can pay all
  or part of their food requirement in Francs."
* Entry Fee: "It must be paid to the owner of the building, either in food or
  in Francs"; "If food and money costs are separated with a /, a player only
  pays one of the two costs"; "Note: In this game, Food can always be
  replaced 1:1 with Francs. Francs can, however, never be replaced with food."
  (Shipping Line example: "Instead of the 2 food, he may pay either 2 Francs
  or 1 Franc and 1 food.")
* Interest for Loan cards: "all players who have taken out a loan must
  immediately pay exactly 1 Franc in interest".
* Rule clarifications, "Change money, but no change for food or energy": "The
  same applies when a player pays too much energy for a building action; the
  excess energy is not returned." (a way that pays more than it must is
  legal only when no token of it could be left out).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from base_game import actions as A
from base_game.evaluate import search_actions
from base_game.frames import Debt, Pay
from base_game.payments import ALL, PAY_LIMIT, is_way, ways_to_pay
from cli.render_base import MORE_PAYS_HEAD, BaseRenderer
from core.protocol import ActionError, parse_action
from tests.base_game.helpers import clear, goods, have, legal, new, own, play

UNITS = [("fish", 1), ("smoked", 2), ("bread", 2), ("meat", 3), ("franc", 1)]
ENERGY = [("wood", 1), ("charcoal", 3), ("coal", 3), ("coke", 10)]


def searched(s) -> list[str]:
    return [str(a) for a in search_actions(s)]


def feeding(fish: int = 0, francs: int = 0, due: int = 5, **more: int):
    s = new(players=2)
    clear(s, 1)
    goods(s, 1, fish=fish, francs=francs, **more)
    s.stack.append(Debt(1, "food", due))
    return s


# -- Feeding phase ------------------------------------------------------------------------------------


def test_feeding_can_be_paid_all_or_part_in_francs():
    """Feeding phase: 'Players can pay all or part of their food requirement in Francs': with 9 fish,
    8 francs and 5 food due, every split of the 5 between fish and francs is legal."""
    s = feeding(fish=9, francs=8, due=5)
    assert legal(s) == [
        "pay 5 fish",
        "pay 4 fish, 1 franc",
        "pay 3 fish, 2 francs",
        "pay 2 fish, 3 francs",
        "pay 1 fish, 4 francs",
        "pay 5 francs",
    ]
    for text in ("pay 5 francs", "pay 1 fish, 4 francs"):
        action = parse_action(s, text)
        assert str(action) == text and action == A.parse(text) and action in s.legal_actions()
    # the search keeps today's four least wasteful ways (more fish first)
    assert searched(s) == legal(s)[:PAY_LIMIT]
    play(s, "pay 5 francs")
    assert have(s, 1, "fish") == 9 and s.francs[1] == 3 and not any(isinstance(f, Debt) for f in s.stack)


def test_feeding_paid_with_one_fish_and_four_francs():
    s = feeding(fish=9, francs=8, due=5)
    play(s, "pay 1 fish, 4 francs")
    assert have(s, 1, "fish") == 8 and s.francs[1] == 4


def test_feeding_refuses_a_way_that_pays_for_nothing():
    """No change for food: overpaying is allowed only when no token could be left out."""
    s = feeding(fish=9, francs=8, due=5, meat=2)
    assert "pay 2 meat" in legal(s)  # 6 for 5: neither meat can be left out
    for text in ("pay 6 fish", "pay 5 fish, 1 franc", "pay 2 meat, 1 fish", "pay 4 fish"):
        assert text not in legal(s)
        with pytest.raises(ActionError):
            s.clone().apply_action(text)


# -- Entry Fee ----------------------------------------------------------------------------------------


def test_entry_fee_in_food_may_be_paid_in_francs():
    """Entry Fee: 'Food can always be replaced 1:1 with Francs' (the Shipping Line example: 2 food, or
    2 Francs, or 1 Franc and 1 food).  The Colliery's fee of 2 food, with fish, smoked fish, meat and francs:
    every minimal way is legal; the search keeps the four least wasteful."""
    s = new(players=2)
    clear(s, 0)
    own(s, 1, "Colliery")
    goods(s, 0, fish=3, smoked_fish=1, meat=1, francs=4)
    play(s, "enter Colliery")
    assert isinstance(s.stack[-1], Pay)
    assert legal(s) == ["pay 2 fish", "pay 1 fish, 1 franc", "pay 1 smoked fish", "pay 2 francs", "pay 1 meat"]
    assert searched(s) == legal(s)[:PAY_LIMIT]
    play(s, "pay 2 francs")
    assert s.francs == [2, 7] and have(s, 0, "fish") == 3  # paid to the owner


def test_entry_fee_with_a_francs_alternative():
    """Entry Fee: 'If food and money costs are separated with a /, a player only pays one of the two costs',
    and the food may be paid in francs: the Smokehouse (2 food / 1 Franc) can be paid with 1 franc, 2 fish,
    1 fish and 1 franc, or 2 francs.  The search keeps the two it searched before."""
    s = new(players=2)
    clear(s, 0)
    own(s, 1, "Smokehouse")
    goods(s, 0, fish=3, wood=1, francs=5)
    play(s, "enter Smokehouse")
    assert legal(s) == ["pay 1 franc", "pay 2 fish", "pay 1 fish, 1 franc", "pay 2 francs"]
    assert searched(s) == ["pay 1 franc", "pay 2 fish"]
    play(s, "pay 1 fish, 1 franc")
    assert s.francs == [4, 6] and have(s, 0, "fish") == 2


def test_a_fee_with_one_way_worth_choosing_is_paid_at_once():
    """With 5 francs and no food the Marketplace (2 food / 1 Franc) takes its franc at once, as before:
    its other way (2 francs for the food) pays that franc and one more."""
    s = new(players=2)
    clear(s, 0)
    own(s, 1, "Marketplace")
    goods(s, 0, francs=5)
    play(s, "enter Marketplace")
    assert not isinstance(s.stack[-1], Pay) and s.francs == [4, 6]


# -- Interest -----------------------------------------------------------------------------------------


def test_interest_is_paid_in_francs_only():
    """Interest for Loan cards: '... must immediately pay exactly 1 Franc'; 'Francs can, however, never be
    replaced with food' (Entry Fee): one way, and food is refused."""
    s = new(players=2)
    clear(s, 1)
    goods(s, 1, fish=3, francs=2)
    s.loans[1] = 1
    s.stack.append(Debt(1, "francs", 1))
    assert [t for t in legal(s) if t.startswith("pay")] == ["pay 1 franc"]
    assert parse_action(s, "pay 1 franc") == A.parse("pay 1 franc")
    with pytest.raises(ActionError):
        parse_action(s, "pay 1 fish")
    with pytest.raises(ActionError, match="not a way to pay"):
        s.clone().apply_action("pay 1 fish")
    play(s, "pay 1 franc")
    assert s.francs[1] == 1 and have(s, 1, "fish") == 3


# -- Building costs (energy) --------------------------------------------------------------------------


def test_energy_for_a_building_action_every_minimal_way():
    """Rule clarifications: excess energy is not returned.  Baking 8 bread at the Bakehouse costs 4 energy;
    with 4 wood, 2 charcoal, 2 coal and 1 coke there are seven minimal ways; the search keeps four."""
    s = new(players=2)
    clear(s, 0)
    own(s, 0, "Bakehouse")
    goods(s, 0, grain=8, wood=4, charcoal=2, coal=2, coke=1)
    play(s, "enter Bakehouse", "upgrade 8")
    assert legal(s) == [
        "pay 4 wood",
        "pay 1 wood, 1 charcoal",
        "pay 1 wood, 1 coal",
        "pay 2 charcoal",
        "pay 1 charcoal, 1 coal",
        "pay 2 coal",
        "pay 1 coke",
    ]
    assert searched(s) == legal(s)[:PAY_LIMIT]
    with pytest.raises(ActionError, match="not a way to pay"):
        s.clone().apply_action("pay 1 coke, 1 wood")  # the wood pays for nothing
    play(s, "pay 2 coal")
    assert have(s, 0, "coal") == 0 and have(s, 0, "bread") == 8 and have(s, 0, "coke") == 1


# -- the ways themselves ------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None, derandomize=True)
@given(counts=st.lists(st.integers(0, 4), min_size=5, max_size=5), cost=st.integers(0, 12), energy=st.booleans())
def test_all_ways_extend_the_searched_ones_and_is_way_agrees(counts, cost, energy):
    """The searched ways are the first ``PAY_LIMIT`` of all ways (so the AI sees what it saw before), and
    :func:`is_way` accepts exactly the listed ways among every combination of tokens."""
    units = ENERGY if energy else UNITS
    src = [(k, u, n) for (k, u), n in zip(units, counts, strict=False)]
    every = ways_to_pay(src, cost, ALL)
    assert every[:PAY_LIMIT] == ways_to_pay(src, cost, PAY_LIMIT)
    listed = {tuple(w.items()) for w in every}
    assert len(listed) == len(every)
    for takes in itertools.product(*[range(n + 1) for _, _, n in src]):
        way = tuple((k, u * t) for (k, u, _), t in zip(src, takes, strict=True) if t)
        assert is_way(src, cost, way) == (way in listed)


def test_a_way_is_named_in_the_sources_order():
    src = [(k, u, 9) for k, u in UNITS]
    assert is_way(src, 5, (("fish", 1), ("franc", 4)))
    assert not is_way(src, 5, (("franc", 4), ("fish", 1)))
    assert not is_way(src, 5, (("fish", 1), ("fish", 4)))
    assert not is_way(src, 5, (("gold", 5),))


def test_old_texts_keep_their_meaning():
    """Saves written before: a payment's text names the same way as before."""
    assert A.parse("pay 2 fish, 1 franc") == A.BaseAction("pay", way=((0, 2), ("franc", 1)))
    assert A.parse("pay 1 wood, 1 coal") == A.BaseAction("pay", way=((2, 1), (14, 3)))
    assert A.parse("pay nothing") == A.BaseAction("pay")
    assert str(A.parse("pay 1 fish, 4 francs")) == "pay 1 fish, 4 francs"


# -- the player's list --------------------------------------------------------------------------------


def test_the_list_shows_the_few_and_says_how_to_type_the_others():
    s = feeding(fish=9, francs=8, due=5)
    r = BaseRenderer()
    heads = [r.group_in(s, a)[0] for a in s.legal_actions()]
    assert heads[:PAY_LIMIT] == legal(s)[:PAY_LIMIT]
    assert heads[PAY_LIMIT:] == [MORE_PAYS_HEAD] * 2
    note = r.describe_group(s, MORE_PAYS_HEAD, s.legal_actions()[PAY_LIMIT:])
    assert "2 more ways" in note and "'pay 5 francs'" in note
