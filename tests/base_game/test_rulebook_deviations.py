"""The base game's last deviations from its rulebooks (issue 11), one test per point.

Sources:
* seeds/000 = English rules with the Buildings overview ("# Buildings Overview",
  its "Standard buildings" and "Special Buildings" parts), seeds/002 = the Polish
  rules with the same overview ("Budynki zwykłe", "Budynki specjalne");
* REFERENCE.md, "Data checked against an independent implementation" and "Rulings".
"""

from __future__ import annotations

import io
import itertools
import random
from collections import Counter

import pytest

from base_game import data
from base_game.evaluate import search_actions
from base_game.frames import Debt
from base_game.state import TOWN
from core.protocol import ActionError, parse_action
from tests.base_game.helpers import clear, end_turn, goods, have, legal, new, own, play


def fresh(players: int = 2, **opts):
    s = new(players=players, **opts)
    for p in range(players):
        clear(s, p)
    return s


# ------------------------------------------------------------ 1. building types
def test_type_totals_equal_the_overviews():
    """seeds/000 Buildings Overview, "Standard buildings": "The 33 Standard buildings include 9
    Craftsman's buildings, 6 Economic buildings, 10 Industrial buildings, 4 Public buildings and 4
    Non-buildings" (the same in seeds/002, "Budynki zwykłe": 9 rzemieślniczych, 6 gospodarczych, 10
    przemysłowych, 4 publiczne, 4 pseudo budynki).  "Special Buildings": "6 Craftsman's buildings, 14
    Economic buildings, 6 Industrial buildings, 4 Public buildings, 5 Non-buildings and a Ship" (seeds/002,
    "Budynki specjalne", likewise).  The per-card entries only add up to this with the Hardware Store
    Economic (REFERENCE.md, "Data checked against an independent implementation")."""
    std = Counter(c.type for c in data.standard_buildings())
    assert std == {"C": 9, "E": 6, "I": 10, "P": 4, "N": 4}
    special = Counter(c.type for c in data.special_buildings())
    assert special == {"C": 6, "E": 14, "I": 6, "P": 4, "N": 5, "S": 1}
    hw = next(c for c in data.standard_buildings() if c.name == "Hardware Store")
    assert hw.type == "E" and hw.source_of("type") == "ruling"
    assert "Economic" in hw.function  # the ruling is visible in 'lehavre rules base Hardware Store'


def _bonus(*names: str) -> int:
    s = fresh()
    own(s, 0, *names)
    return s.wealth_breakdown(0)["bonus"]


def test_end_bonuses_count_the_hardware_store_as_economic():
    """seeds/000 Buildings overview: Guildhouse "Each Economic building (including the Guildhouse
    itself) increases the value ... by 2 Francs"; Bank "Each Industrial building ... by 3 Francs. In
    addition, each Economic building (including the Bank) ... by 2 Francs"; Business Park "Each
    Industrial building ... by 2 Francs"; Town Hall "Each Public building, including the Town Hall
    itself, ... by 4 Francs ... each Craftsman's building ... by 2 Francs".  With the Hardware Store
    Economic (point 1):"""
    assert _bonus("Guildhouse", "Hardware Store") == 2 * 2  # Guildhouse + Hardware Store
    assert _bonus("Bank", "Hardware Store") == 2 * 2  # Bank + Hardware Store, no Industrial building
    assert _bonus("Business Park", "Hardware Store") == 0  # not Industrial
    assert _bonus("Town Hall", "Hardware Store") == 4  # the Town Hall itself; the store is not a Craftsman's
    assert _bonus("Guildhouse", "Bank", "Business Park", "Hardware Store") == 3 * 2 + 3 * 2 + 0


def test_marketplace_and_town_square_do_not_count_the_hardware_store():
    """seeds/000 Buildings overview, Marketplace: "one additional standard good for each Craftsman's
    building that she owns"; Town Square (Special Buildings): one upgraded good per Craftsman's building."""
    s = fresh()
    own(s, 0, "Marketplace", "Hardware Store", "Town Square")
    play(s, "enter Marketplace")
    assert s.stack[-1].data == ((), 2)  # 2 goods: the Hardware Store adds none
    s2 = fresh()
    own(s2, 0, "Town Square", "Hardware Store")
    assert "enter Town Square" not in legal(s2)  # no Craftsman's building: nothing to take


# ------------------------------------------------------------ 2. Coal Trader caps
def test_coal_trader_at_most_one_charcoal_and_five_coal():
    """seeds/002 Budynki specjalne, Hurtownia węgla (Coal Trader): "Możesz kupić maksymalnie 1 węgiel
    drzewny za 1 żywność. Możesz również (dodatkowo lub zamiast) maksymalnie 5 razy kupić 1 węgiel za 2
    żywności" -- at most 1 charcoal for 1 food, and (in addition or instead) at most 5 times 1 coal for 2
    food.  seeds/000 leaves the numbers open."""
    s = fresh()
    own(s, 0, "Coal Trader")
    goods(s, 0, francs=30, meat=5)
    play(s, "enter Coal Trader")
    assert legal(s) == ["take 0 charcoal", "take 1 charcoal"]
    with pytest.raises(ActionError):
        parse_action(s, "take 2 charcoal")
    play(s, "take 1 charcoal")
    assert legal(s) == [f"take {k} coal" for k in range(6)]
    play(s, "take 5 coal")
    # 11 food: paid with francs and meat as the player chooses
    while s.decision == "pay":
        play(s, legal(s)[0])
    assert have(s, 0, "charcoal") == 1 and have(s, 0, "coal") == 5
    assert s.food_value(0) + s.francs[0] == 15 + 30 - 11


# ------------------------------------------------------------ 3. ship cards
#: seeds/000 Components: "20 Round cards with "Ship" on the reverse (there are 7 Wooden ships,
#: 6 Iron ships, 4 Steel ships and 3 Luxury liners)"
CARD_SET_TYPES = {"wooden": 7, "iron": 6, "steel": 4, "luxury_liner": 3}
CONFIGS = [(n, short) for n in range(1, 6) for short in (False, True)]


def _all_cards() -> Counter:
    """The 20 cards by (type, value): the 4- and 5-player full games use every round card."""
    cards = Counter((r.ship_type, r.ship_value) for r in data.round_cards(5, False))
    assert sum(cards.values()) == 20
    assert Counter(t for t, _ in cards.elements()) == CARD_SET_TYPES
    assert cards == Counter((r.ship_type, r.ship_value) for r in data.round_cards(4, False))
    return cards


@pytest.mark.parametrize("players,short", CONFIGS)
def test_every_round_table_draws_on_the_one_card_set(players, short):
    """seeds/000 Components (the card set above) and "New Ship card": each round card turns into the ship
    on its reverse, so a game's ships (round cards plus the short game's starting wooden 2s, seeds/000
    "Game setup changes for the shortened version") are cards of that one set, each at most once."""
    cards = _all_cards()
    s = new(players=players, short=short)
    used = Counter(s.ship_cards)
    by_type = Counter(t for t, _ in s.ship_cards)
    for t, n in by_type.items():
        assert n <= CARD_SET_TYPES[t], (t, n)
    assert not used - cards, f"cards not in the set: {dict(used - cards)}"


def test_three_player_full_game_round_eleven_is_a_steel_ship():
    """REFERENCE.md "Data checked against an independent implementation": in the 3-player full game round
    11 turns into a steel ship of value 10 (the same card is steel in the 3-player short and the 4/5-player
    full game); with it iron the table held two iron 10s, one card more than the set has."""
    rc = data.round_cards(3, False)
    assert (rc[10].ship_type, rc[10].ship_value) == ("steel", 10)
    assert Counter(r.ship_type for r in rc) == {"wooden": 6, "iron": 5, "steel": 4, "luxury_liner": 3}


# ------------------------------------------------------------ 4. after the final action
def _to_final_stage(seed: int = 4):
    s = new(players=2, short=True, seed=seed)
    rng = random.Random(0)
    while not s.final_stage:
        acts = [a for a in s.legal_actions() if not str(a).startswith(("sell", "buy"))] or s.legal_actions()
        s.apply_action(rng.choice(acts))
    assert s.stack[-1].key() == ("final", 0)
    return s


def test_sell_and_repay_are_offered_after_the_final_action():
    """seeds/000 Final Action: "Supply and Buying actions may not be taken, and Interest is no longer
    paid. Players may still repay loans and sell buildings and ships." -- also after the final action."""
    s = _to_final_stage()
    for b in s.owned(0):
        s.owner[b] = TOWN
    s.ships[0] = []
    own(s, 0, "Clay Mound")  # value 2
    s.loans[0] = 1
    goods(s, 0, francs=4)
    play(s, next(a for a in legal(s) if str(a).startswith("take") and a != "take francs"))
    assert s.stack[-1].key() == ("after_final", 0)
    acts = legal(s)
    assert "sell Clay Mound" in acts and "end" in acts
    assert not any(str(a).startswith("buy") for a in acts)
    assert "repay" not in acts  # 4 francs: not enough yet
    before = s.wealth()[0]
    play(s, "sell Clay Mound")  # +1 franc (half its value): now 5 francs
    assert s.francs[0] == 5 and "repay" in legal(s)
    play(s, "repay")
    assert s.loans[0] == 0 and s.francs[0] == 0
    assert s.wealth()[0] == before - 2 + 1 - 5 + 7  # the sale loses 1, the repayment saves 2
    assert s.stack[-1].key() == ("final", 1)  # nothing left to sell or repay: the turn passed by itself


# ------------------------------------------------------------ 5. repaying before interest
def test_repay_is_offered_when_interest_is_demanded():
    """seeds/000 Loan Cards: "A loan may be repaid at any time during the game (even immediately before
    interest is paid)"; Supply Action, Interest: "all players who have taken out a loan must immediately
    pay exactly 1 Franc".  Repaying the only loan first means no interest is due."""
    s = new(players=2, supply_tiles=[2, 1, 3, 4, 5, 6, 7])  # tile 1 (Interest) is the second
    s.loans[1] = 1
    goods(s, 1, francs=6)
    play(s, "take francs")
    end_turn(s)
    assert s.stack[-1].key() == ("debt", 1, "francs", 1)
    assert legal(s)[:2] == ["pay 1 franc", "repay"]
    play(s, "repay")
    assert s.loans[1] == 0 and s.francs[1] == 1  # 5 repaid, no interest
    assert s.stack[-1].key() == ("main", 1)


def test_repay_before_interest_with_several_loans_and_expensive_loans():
    """seeds/000 Loan Cards (repay at any time); seeds/002 rules for advanced players, expensive loans:
    with 2 players, 2 francs of interest from 2 loans on -- recomputed after a repayment."""
    s = new(players=2, supply_tiles=[2, 1, 3, 4, 5, 6, 7], expensive_loans=True)
    s.loans[1] = 2
    goods(s, 1, francs=10)
    play(s, "take francs")
    end_turn(s)
    assert s.stack[-1].key() == ("debt", 1, "francs", 2)
    play(s, "repay")  # one loan left: 1 franc of interest
    assert s.stack[-1].key() == ("debt", 1, "francs", 1) and "repay" in legal(s)
    play(s, "repay")  # no loan left: no interest
    assert s.loans[1] == 0 and s.francs[1] == 0 and s.stack[-1].key() == ("main", 1)


def test_repay_is_offered_before_feeding():
    """seeds/000 Loan Cards: a loan may be repaid at any time, so also when the food is demanded at the
    end of a round (Feeding phase)."""
    s = fresh()
    s.loans[1] = 2
    goods(s, 1, francs=12, fish=3)
    s.stack.append(Debt(1, "food", 3))
    assert "repay" in legal(s)
    play(s, "repay")
    assert s.loans[1] == 1 and s.francs[1] == 7 and s.stack[-1].key() == ("debt", 1, "food", 3)
    play(s, "pay 3 fish")
    assert have(s, 1, "fish") == 0 and s.francs[1] == 7


# ------------------------------------------------------------ 7. Marketplace in any order
def _marketplace(n_craftsman: int):
    s = fresh(special_pile=["Zoo", "Tavern", "Farm", "Kiln", "Bakery", "Smelter"])
    own(s, 0, "Marketplace", *["Fishery", "Joinery", "Bakehouse"][:n_craftsman])
    play(s, "enter Marketplace")
    return s


def test_marketplace_picks_in_any_order_give_the_canonical_outcome():
    """seeds/000 Buildings overview, Marketplace: "The player selects 2 different standard goods ... She may
    select one additional standard good for each Craftsman's building" -- the order is the player's.
    Typed as a person would (``pick cattle``, then ``pick fish``), every order of the same goods gives the
    same position as the canonical (board) order."""
    canonical = _marketplace(1)
    play(canonical, "pick fish", "pick cattle", "pick coal")
    assert canonical.decision == "sub" and canonical.stack[-1].effect == "peek"
    for order in itertools.permutations(["cattle", "fish", "coal"]):
        s = _marketplace(1)
        for g in order:
            s.apply_action(parse_action(s, f"pick {g}"))
        assert s.key() == canonical.key(), order
        assert [have(s, 0, g) for g in ("fish", "cattle", "coal")] == [1, 1, 1]
    s = _marketplace(0)
    play(s, "pick cattle")
    assert "pick fish" in legal(s) and "pick cattle" not in legal(s)
    with pytest.raises(ActionError, match="already"):
        parse_action(s, "pick cattle")


def test_town_square_picks_in_any_order():
    """seeds/000 Special Buildings, Town Square: one upgraded good (all different, no steel) per
    Craftsman's building, in the player's order."""

    def town_square():
        s = fresh()
        own(s, 0, "Town Square", "Fishery", "Joinery")
        play(s, "enter Town Square")
        return s

    a, b = town_square(), town_square()
    play(a, "pick coke", "pick smoked fish")
    play(b, "pick smoked fish", "pick coke")
    assert a.key() == b.key() and have(a, 0, "coke") == 1 and have(a, 0, "smoked_fish") == 1


def test_the_search_sees_each_marketplace_set_once():
    """The search keeps one canonical order (board order) so each set of goods is one line."""
    s = _marketplace(1)  # 3 picks of 8 goods
    assert len(legal(s)) == 8 and len(search_actions(s)) == 6  # fish..grain can start a set of three
    seen = set()

    def walk(st, depth):
        if st.decision == "sub" and st.stack[-1].effect == "marketplace":
            for a in search_actions(st):
                c = st.clone()
                c.apply_action(a)
                walk(c, depth + 1)
        else:
            seen.add(tuple(st.goods[0]))
            assert depth == 3

    walk(s, 0)
    assert len(seen) == 56  # C(8, 3): every set once


def test_repay_without_a_loan_or_five_francs_is_explained():
    """seeds/000 Loan Cards: repaying costs 5 francs; bad input gets a clear message."""
    s = fresh()
    with pytest.raises(ActionError, match="no loan"):
        parse_action(s, "repay")
    s.loans[0] = 1
    goods(s, 0, francs=3)
    with pytest.raises(ActionError, match="costs 5 francs; you have 3"):
        parse_action(s, "repay")


# ------------------------------------------------------------ 6. Ironworks and Arts Centre materials
@pytest.mark.parametrize(
    "name,materials,published",
    [
        ("Ironworks", {"wood": 1, "brick": 2}, "3 wood + 2 brick"),
        ("Arts Centre", {"wood": 1, "clay": 1}, "1 wood + 2 clay"),
    ],
)
def test_ironworks_and_arts_centre_keep_the_overviews_materials(name, materials, published):
    """seeds/000 Buildings overview: "Ironworks (I, ... Building material: 1 wood and 2 brick, ...)",
    "Arts Center (P, ... Building material: 1 wood and 1 clay, ...)" (the same in seeds/001 and 002).
    REFERENCE.md: keep them, and say in the data that published implementations print 3 wood + 2 brick
    and 1 wood + 2 clay -- visibly in 'lehavre rules base NAME'."""
    from rich.console import Console

    from cli.render_base import reference

    card = next(c for c in data.standard_buildings() if c.name == name)
    assert card.materials == materials and card.source_of("materials") == "rulebook"
    assert published in card.function
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(reference(name))
    shown = console.export_text()
    assert published in shown and "Buildings overview" in shown
    assert "seeds" not in shown and "REFERENCE" not in shown


# ------------------------------------------------------------ 8. where the overview is
def test_data_files_cite_the_buildings_overview_where_it_is():
    """The Buildings overview is in all three base-game rulebooks: seeds/000 ("# Buildings Overview",
    English), seeds/001 ("기본 건물" / "특수 건물", Korean), seeds/002 ("Budynki zwykłe" / "Budynki
    specjalne", Polish).  Each building file names all three, with the heading to look for."""
    import json
    from pathlib import Path

    headings = {
        "standard_buildings.json": {
            "seeds/000": "Buildings Overview",
            "seeds/001": "기본 건물",
            "seeds/002": "Budynki zwykłe",
        },
        "special_buildings.json": {
            "seeds/000": "Special Buildings",
            "seeds/001": "특수 건물",
            "seeds/002": "Budynki specjalne",
        },
    }
    seeds = Path(__file__).resolve().parents[3] / "shared" / "seeds"
    for name, cited in headings.items():
        source = json.loads((data.DATA_DIR / name).read_text(encoding="utf-8"))["source"]
        for seed, heading in cited.items():
            assert seed in source and heading in source, (name, seed, heading)
            found = list(seeds.glob(seed.split("/")[1] + "_*.txt")) if seeds.is_dir() else []
            if found:  # the rulebooks beside the repository: the heading is really there
                assert heading in found[0].read_text(encoding="utf-8"), (seed, heading)
