"""The ways to pay a person is offered, and what a refused payment is told, in both games.

The numbered choices list only the ways no other way beats (another way paying no more of anything
and less of something); every legal way typed is still played, and the legal actions (what the search
sees) are unchanged.  A payment typed that is not legal says why (it overpays, it lacks something, it
moves a counter where it cannot go) and names the legal ways."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import inland_port
from base_game import cards as K
from base_game.frames import Debt, Pay, Sub
from cli.prompt import PlayLoop
from cli.render_base import BaseRenderer, decision_text
from cli.render_inland import InlandRenderer, outcome_text
from core.protocol import ActionError, parse_action
from core.table import PERSON, Seat, Table
from tests.base_game.helpers import clear, goods, legal, new, own, play


def listed(renderer, state) -> list[str]:
    return [str(a) for a in renderer.listed(state, state.legal_actions())]


# -- the base game ---------------------------------------------------------------------------------------


def at_the_marketplace():
    """P1 enters P2's Marketplace (entry fee '2 food / 1 Franc') with 3 fish and 5 francs."""
    s = new(players=2)
    clear(s, 0)
    own(s, 1, "Marketplace")
    goods(s, 0, fish=3, francs=5)
    play(s, "enter Marketplace")
    assert isinstance(s.stack[-1], Pay)
    return s


def test_base_the_marketplace_fee_lists_only_the_ways_no_other_beats():
    """Entry Fee: "If food and money costs are separated with a /, a player only pays one of the two
    costs"; "Food can always be replaced 1:1 with Francs".  Of the four legal ways, '1 fish, 1 franc'
    and '2 francs' pay more than '1 franc' and nothing less: they are not listed, but typed they are
    played, and the legal actions stay all four."""
    s = at_the_marketplace()
    assert legal(s) == ["pay 1 franc", "pay 2 fish", "pay 1 fish, 1 franc", "pay 2 francs"]
    assert listed(BaseRenderer(), s) == ["pay 1 franc", "pay 2 fish"]
    play(s, "pay 2 francs")
    assert s.francs[0] == 3


def test_base_the_prompt_numbers_only_the_listed_ways_and_says_the_others_can_be_typed():
    s = at_the_marketplace()
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=False)
    table = Table(s.game, None, 0, s, [Seat("You", PERSON), Seat("ai", PERSON)])
    loop = PlayLoop(table, BaseRenderer(width=80), console)
    choices = loop.choices()
    assert [str(c.actions[0]) for c in choices] == ["pay 1 franc", "pay 2 fish"]
    assert loop.unlisted == 2
    loop.show_choices(choices)
    assert "2 other ways to pay are not listed" in " ".join(out.getvalue().split())


def test_base_a_refused_payment_says_why_and_names_the_legal_ways():
    """Rule clarifications, "Change money, but no change for food or energy": a way that overpays
    is refused when another pays less; one that pays too little, or with tokens not held, is too."""
    s = at_the_marketplace()
    for typed, why in (
        ("pay 3 fish", "it overpays"),
        ("pay 4 fish", "you have 3"),
        ("pay 1 wood", "Wood cannot pay food"),
    ):
        with pytest.raises(ActionError) as exc:
            parse_action(s, typed)
        message = str(exc.value)
        assert why in message and "Ways to pay now: 'pay 1 franc'; 'pay 2 fish'" in message, message
    # feeding (Feeding phase: "Players can pay all or part of their food requirement in Francs"): 3 of 5 food
    s = new(players=2)
    clear(s, 1)
    goods(s, 1, fish=9)
    s.stack.append(Debt(1, "food", 5))
    with pytest.raises(
        ActionError, match=r"That pays 3 food of the 5 owed: it lacks 2\. Ways to pay now: 'pay 5 fish'"
    ):
        parse_action(s, "pay 3 fish")


def at_the_look():
    """P1 at the Marketplace, looking at the top two special buildings: Fishpond and Wood, then
    Clothing Industry."""
    s = new(players=2)
    own(s, 0, "Marketplace")
    play(s, "enter Marketplace", "pick fish", "pick wood")
    top = [K.bid("Fishpond and Wood"), K.bid("Clothing Industry")]
    s.special_pile = top + [b for b in s.special_pile if b not in top]
    assert isinstance(s.stack[-1], Sub) and s.stack[-1].effect == "peek"
    return s


def test_base_keeping_or_swapping_the_order_says_which_building_goes_on_top():
    """Marketplace (Buildings overview): its user looks at the two top special buildings and may swap them."""
    s = at_the_look()
    r = BaseRenderer()
    notes = {str(a): r.describe_choice(s, a) for a in s.legal_actions()}
    assert notes == {
        "keep order": '"Fishpond and Wood" on top, then Clothing Industry',
        "swap order": 'Clothing Industry on top, then "Fishpond and Wood"',
    }


def test_base_a_name_holding_and_reads_as_one_building_in_a_list():
    s = at_the_look()
    assert '(you see: "Fishpond and Wood" on top, then Clothing Industry)' in decision_text(s)


# -- the Inland Port ---------------------------------------------------------------------------------------


def cells(state, *texts: str) -> tuple[int, ...]:
    return tuple(state.catalog.warehouse.parse(t) for t in texts)


def test_inland_a_way_another_beats_is_not_listed_but_is_played_when_typed():
    """Warehouse, "There are three ways to pay costs" and "There is no change": with fish at 0+2 and
    grain at 3+0, the Restaurant (4 food) is paid with 1 fish and 3 grain, or with 2 fish and 3 grain
    (the fish pays its 2 exactly, the grain must move down a row); the second pays more fish and no
    less of anything: not listed, still legal.  On the data it was written for (a new default may price the
    Restaurant otherwise)."""
    s = inland_port.new_game(3, {"buildings": "buildings-2026-11"})
    s.round = 2
    s.cells[0] = cells(s, "0+2", "3+0", "0+2", "0+3")
    s._legal = None
    ways = [str(a) for a in s.legal_actions() if a.building == "Restaurant"]
    assert ways == ["build Restaurant: fish to 0+1, grain to 0+0", "build Restaurant: fish to 0+0, grain to 0+0"]
    assert [w for w in listed(InlandRenderer(), s) if "Restaurant" in w] == ways[:1]
    s.apply_action(parse_action(s, ways[1]))
    assert s.goods[0][0] == 0 and s.goods[0][1] == 0


def test_inland_a_payment_that_overpays_or_lacks_is_refused_with_the_reason_and_the_legal_ways():
    """'build Grocery Store: fish to 0+0' moves fish from 4 to 0 for a cost of 2 food: it overpays;
    'build Hardware Store: clay to 0+2' pays the clay but not the wood it costs too: it lacks."""
    s = inland_port.new_game(3)
    ways = "Ways to pay now: 'build Grocery Store: fish to 0+2'; 'build Grocery Store: fish to 0+3, grain to 0+0'."
    for typed, why in (
        ("build Grocery Store: fish to 0+0", "it overpays"),
        ("build Grocery Store: wood to 0+0", "wood does not pay for it"),
        ("build Grocery Store: fish to 3+0", "cannot pay by moving to 3+0"),
    ):
        with pytest.raises(ActionError) as exc:
            parse_action(s, typed)
        message = str(exc.value)
        assert why in message and ways in message, message
    with pytest.raises(ActionError) as exc:
        parse_action(s, "build Hardware Store: clay to 0+2")
    assert "That pays 0 wood of the 1 Hardware Store costs: it lacks 1." in str(exc.value)
    assert "Ways to pay now: 'build Hardware Store: wood to 0+1, clay to 0+2'." in str(exc.value)


def test_inland_a_use_that_moves_no_counter_says_what_it_does_change():
    """Main phase, "Use a building": "After applying all its effects, the player moves the used
    building to sector 0" - even when the wood counter is at its top and moves no further."""
    s = inland_port.new_game(3)
    play(s, "build Wood Company", "end")
    while s.round == 0 or s.current_player() != 0:  # to round B, where it stands in sector 2
        s.apply_action(s.legal_actions()[0])
    s.cells[0] = cells(s, "0+4", "0+1", "15+5", "0+3")
    s._legal = None
    use = next(a for a in s.legal_actions() if str(a) == "use Wood Company")
    assert outcome_text(s, use) == "no goods change; Wood Company goes back to sector 0"
