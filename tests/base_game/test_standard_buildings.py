"""Every standard building's function at its stated numbers and limits.

Source for every test here unless noted: seeds/000_3a1c2d85c0e157da.txt,
"Buildings Overview", "Standard buildings", the entry of the building named
in the test.  Each test sets up player 0 at the start of a main action.
"""

from __future__ import annotations

import pytest

from base_game.frames import Turn
from tests.base_game.helpers import K, clear, goods, have, legal, new, own, play


def fresh(players: int = 2, **opts):
    s = new(players=players, **opts)
    for p in range(players):
        clear(s, p)
    return s


def set_piles(s, piles):
    """Put exactly these buildings on the three proposal piles (top first)."""
    for b in [b for pile in s.proposal_piles for b in pile]:
        s.owner[b] = -2
    s.proposal_piles = [[K.bid(n) for n in pile] for pile in piles]
    for pile in s.proposal_piles:
        for b in pile:
            s.owner[b] = -2
    return s


def add_ship(s, kind: str, value: int, owner: int | None = None) -> int:
    s.ship_cards = (*s.ship_cards, (kind, value))
    sid = len(s.ship_cards) - 1
    if owner is None:
        s.ship_piles[kind].append(sid)
    else:
        s.ships[owner].append(sid)
    return sid


# ---------------------------------------------------------------- upgrades
def test_bakehouse_three_bread_cost_two_energy_and_pay_one_franc():
    """Bakehouse: '2 energy are required to bake 3 bread'; 1 franc per 2 bread (rounded down)."""
    s = fresh()
    own(s, 0, "Bakehouse")
    goods(s, 0, grain=3, wood=2)
    play(s, "enter Bakehouse")
    assert legal(s) == ["upgrade 1", "upgrade 2", "upgrade 3"]
    play(s, "upgrade 3")
    assert have(s, 0, "bread") == 3 and have(s, 0, "wood") == 0 and s.francs[0] == 1


def test_bakehouse_limited_by_energy():
    """Bakehouse: each bread costs 1/2 energy rounded up: 1 wood bakes at most 2 bread."""
    s = fresh()
    own(s, 0, "Bakehouse")
    goods(s, 0, grain=5, wood=1)
    play(s, "enter Bakehouse")
    assert legal(s) == ["upgrade 1", "upgrade 2"]


def test_smokehouse_at_most_six_fish_for_one_energy():
    """Smokehouse: up to 6 fish, 1 energy regardless of how many; 1 franc per 2 fish."""
    s = fresh()
    own(s, 0, "Smokehouse")
    goods(s, 0, fish=9, wood=1)
    play(s, "enter Smokehouse")
    assert legal(s)[-1] == "upgrade 6"
    play(s, "upgrade 5")
    assert have(s, 0, "smoked_fish") == 5 and have(s, 0, "fish") == 4 and have(s, 0, "wood") == 0
    assert s.francs[0] == 2


def test_brickworks_half_energy_and_subsidy():
    """Brickworks: 3-4 bricks cost 2 energy; 1 franc for 2-3 bricks, 2 for 4-5."""
    s = fresh()
    own(s, 0, "Brickworks")
    goods(s, 0, clay=4, wood=2)
    play(s, "enter Brickworks", "upgrade 4")
    assert have(s, 0, "brick") == 4 and have(s, 0, "wood") == 0 and s.francs[0] == 2


def test_charcoal_kiln_needs_no_energy():
    """Charcoal Kiln: any amount of wood to charcoal, no energy."""
    s = fresh()
    own(s, 0, "Charcoal Kiln")
    goods(s, 0, wood=4)
    play(s, "enter Charcoal Kiln", "upgrade 4")
    assert have(s, 0, "charcoal") == 4 and have(s, 0, "wood") == 0


def test_abattoir_meat_and_one_hide_per_two_cattle():
    """Abattoir: cattle to meat; 1 hide for 2-3 cattle, 2 for 4-5."""
    s = fresh()
    own(s, 0, "Abattoir")
    goods(s, 0, cattle=5)
    play(s, "enter Abattoir", "upgrade 5")
    assert have(s, 0, "meat") == 5 and have(s, 0, "hides") == 2


def test_tannery_up_to_four_hides_one_franc_each():
    """Tannery: up to 4 hides to leather, 1 franc per hide."""
    s = fresh()
    own(s, 0, "Tannery")
    goods(s, 0, hides=6)
    play(s, "enter Tannery")
    assert legal(s)[-1] == "upgrade 4"
    play(s, "upgrade 4")
    assert have(s, 0, "leather") == 4 and s.francs[0] == 4


def test_cokery_one_franc_per_coke():
    """Cokery: coal to coke, no energy, 1 franc per coke."""
    s = fresh()
    own(s, 0, "Cokery")
    goods(s, 0, coal=3)
    play(s, "enter Cokery", "upgrade 3")
    assert have(s, 0, "coke") == 3 and have(s, 0, "coal") == 0 and s.francs[0] == 3


def test_steel_mill_five_energy_per_iron():
    """Steel Mill: 5 energy for each iron upgraded, paid together (a coke pays for 2)."""
    s = fresh()
    own(s, 0, "Steel Mill")
    goods(s, 0, iron=3, coke=1)
    play(s, "enter Steel Mill")
    assert legal(s) == ["upgrade 1", "upgrade 2"]
    play(s, "upgrade 2")
    assert have(s, 0, "steel") == 2 and have(s, 0, "coke") == 0 and have(s, 0, "iron") == 1


def test_energy_paid_without_change_choice():
    """Rule clarifications: excess energy is not returned; with several ways the player chooses."""
    s = fresh()
    own(s, 0, "Bakehouse")
    goods(s, 0, grain=2, wood=1, coal=1)
    play(s, "enter Bakehouse", "upgrade 2")
    assert legal(s) == ["pay 1 wood", "pay 1 coal"]
    play(s, "pay 1 coal")
    assert have(s, 0, "coal") == 0 and have(s, 0, "wood") == 1


# ---------------------------------------------------------- fixed goods
@pytest.mark.parametrize(
    "name,extra,expect",
    [
        ("Hardware Store", {}, {"wood": 1, "brick": 1, "iron": 1}),
        ("Grocery Market", {}, {"cattle": 1, "meat": 1, "fish": 1, "smoked_fish": 1, "grain": 1, "bread": 1}),
        ("Colliery", {}, {"coal": 3}),
        ("Clay Mound", {}, {"clay": 3}),
        ("Fishery", {}, {"fish": 3 + 1}),  # the Fishery's own fisherman counts when you own it
    ],
)
def test_take_goods(name, extra, expect):
    """Hardware Store, Grocery Market, Colliery, Clay Mound, Fishery: the goods listed in each entry."""
    s = fresh()
    own(s, 0, name)
    play(s, f"enter {name}")
    for g, n in expect.items():
        assert have(s, 0, g) == n, g


def test_colliery_extra_coal_with_at_least_one_hammer():
    """Colliery: 3 coal, +1 with at least one Hammer, not more for more hammers."""
    s = fresh()
    own(s, 1, "Colliery")
    goods(s, 0, francs=2)
    play(s, "enter Colliery")  # 2 food entry fee, paid in francs to the owner
    assert have(s, 0, "coal") == 3 and s.francs[1] == 2
    s2 = fresh()
    own(s2, 0, "Colliery", "Joinery", "Hardware Store")  # two hammers
    play(s2, "enter Colliery")
    assert have(s2, 0, "coal") == 4


def test_clay_mound_plus_one_per_hammer():
    """Clay Mound: 3 clay plus 1 per hammer on the player's buildings."""
    s = fresh()
    own(s, 0, "Clay Mound", "Joinery", "Construction Firm")
    play(s, "enter Clay Mound")
    assert have(s, 0, "clay") == 5


def test_fishery_plus_one_per_fisherman():
    """Fishery: 3 fish + 1 per Fisherman on her buildings (Fishery, Smokehouse, Shipping Line)."""
    s = fresh()
    own(s, 0, "Fishery", "Smokehouse", "Shipping Line")
    play(s, "enter Fishery")
    assert have(s, 0, "fish") == 6


def test_church_entry_condition():
    """Church: enter only with at least 5 bread and 2 fish (no smoked fish); +5 bread, +3 fish."""
    s = fresh()
    own(s, -1, "Church")
    goods(s, 0, bread=5, fish=1, smoked_fish=3)
    assert "enter Church" not in legal(s)
    goods(s, 0, fish=2)
    play(s, "enter Church")
    assert have(s, 0, "bread") == 10 and have(s, 0, "fish") == 5


def test_church_cannot_be_bought():
    """Church: 'may not be bought'."""
    s = fresh()
    own(s, -1, "Church")
    goods(s, 0, francs=100)
    assert "buy Church" not in legal(s)


# ------------------------------------------------------------ exchanges
@pytest.mark.parametrize("wood,francs", [(1, 5), (2, 6), (3, 7)])
def test_joinery_one_to_three_wood_for_five_to_seven_francs(wood, francs):
    """Joinery: pay 1-3 wood, take 5-7 francs."""
    s = fresh()
    own(s, 0, "Joinery")
    goods(s, 0, wood=5)
    play(s, "enter Joinery")
    assert legal(s) == ["exchange 1", "exchange 2", "exchange 3"]
    play(s, f"exchange {wood}")
    assert s.francs[0] == francs and have(s, 0, "wood") == 5 - wood


def test_ironworks_three_iron_and_a_fourth_for_six_energy():
    """Ironworks: 3 iron; 6 energy for 1 additional iron."""
    s = fresh()
    own(s, 0, "Ironworks")
    goods(s, 0, coal=2)
    play(s, "enter Ironworks")
    assert have(s, 0, "iron") == 3
    play(s, "pay for 4th iron")
    assert have(s, 0, "iron") == 4 and have(s, 0, "coal") == 0
    s2 = fresh()
    own(s2, 0, "Ironworks")
    goods(s2, 0, coal=1)
    play(s2, "enter Ironworks")  # 3 energy is not enough for the 4th iron: no choice
    assert have(s2, 0, "iron") == 3 and "pay for 4th iron" not in legal(s2)


def test_business_office_four_goods_for_steel_and_one_for_brick():
    """Business Office: any 4 goods for 1 steel, and/or 1 good for 1 charcoal, leather or brick."""
    s = fresh()
    own(s, 0, "Business Office")
    goods(s, 0, fish=3, wood=2, clay=1)
    play(s, "enter Business Office", "give fish", "give fish", "give fish", "give wood")
    assert have(s, 0, "steel") == 1 and have(s, 0, "fish") == 0
    play(s, "trade clay", "for brick")
    assert have(s, 0, "brick") == 1 and have(s, 0, "clay") == 0 and have(s, 0, "wood") == 1


def test_bridge_over_the_seine():
    """Bridge: 1 franc per upgraded good, 1 franc per 3 standard goods."""
    s = fresh()
    own(s, 0, "Bridge over the Seine")
    goods(s, 0, bread=2, coke=1, fish=4, wood=3)
    play(s, "enter Bridge over the Seine", "exchange all goods")
    assert s.francs[0] == 3 + 2
    assert have(s, 0, "bread") == 0 and sum(s.goods[0]) == 1


def test_bridge_goods_chosen_by_the_player():
    """Bridge over the Seine: 'The player may sell as many goods as he wishes.'"""
    s = fresh()
    own(s, 0, "Bridge over the Seine")
    goods(s, 0, fish=4, bread=2)
    play(s, "enter Bridge over the Seine", "choose goods", "exchange 3 fish", "exchange 1 bread")
    assert s.francs[0] == 1 + 1 and have(s, 0, "fish") == 1 and have(s, 0, "bread") == 1


def test_black_market_two_of_each_empty_offer():
    """Black Market: 2 of each good (and francs) whose Offer space is empty; cannot be built."""
    s = fresh()
    own(s, 0, "Black Market")
    s.offer_spaces = [0, 3, 0, 1, 0, 2, 0]
    play(s, "enter Black Market")
    assert s.francs[0] == 2 and have(s, 0, "wood") == 2 and have(s, 0, "iron") == 2
    assert have(s, 0, "cattle") == 2 and have(s, 0, "fish") == 0


def test_arts_centre_four_francs_per_visitor():
    """Arts Centre: 4 francs per other player occupying one of her buildings."""
    s = fresh(players=3)
    own(s, 0, "Arts Centre", "Fishery", "Joinery")
    s.discs[1] = K.bid("Fishery")
    s.discs[2] = K.bid("Joinery")
    play(s, "enter Arts Centre")
    assert s.francs[0] == 8


@pytest.mark.parametrize(
    "loans,choice,left,francs",
    [
        (1, None, 0, 0),
        (2, None, 1, 2),
        (3, "return 2 loans", 1, 0),
        (3, "return 1 loan and take 2 francs", 2, 2),
    ],
)
def test_local_court(loans, choice, left, francs):
    """Local Court: 1 loan: return it; 2: return one and 2 francs; 3+: return 2 (or 1 and 2 francs)."""
    s = fresh()
    own(s, 0, "Local Court")
    s.loans[0] = loans
    play(s, "enter Local Court")
    if choice:
        play(s, choice)
    assert s.loans[0] == left and s.francs[0] == francs


def test_local_court_needs_a_loan():
    s = fresh()
    own(s, 0, "Local Court")
    assert "enter Local Court" not in legal(s)


def test_marketplace_goods_by_craftsman_buildings_max_eight():
    """Marketplace: 2 different standard goods + 1 per Craftsman's building, never more than 8."""
    s = fresh()
    own(s, 0, "Marketplace", "Fishery", "Joinery")  # two craftsman's buildings -> 4 goods
    play(s, "enter Marketplace", "pick fish", "pick clay", "pick hides", "pick coal")
    assert [have(s, 0, g) for g in ("fish", "clay", "hides", "coal")] == [1, 1, 1, 1]
    play(s, "swap order")
    assert s.peek_cards(0) == [K.NAME[b] for b in s.special_pile[:2]]
    s2 = fresh()
    # seven Craftsman's buildings (2 + 7 = 9 goods, capped at 8)
    own(s2, 0, "Marketplace", "Fishery", "Joinery", "Bakehouse", "Smokehouse", "Abattoir", "Tannery", "Charcoal Kiln")
    play(s2, "enter Marketplace")
    assert s2.stack[-1].data == ((), 8)  # nothing picked yet, 8 picks due
    for g in ("fish", "wood", "clay", "iron", "grain", "cattle", "hides", "coal"):
        play(s2, f"pick {g}")
    assert sum(s2.goods[0]) == 8


def test_marketplace_peek_reorders_special_pile():
    """Marketplace: look at the two top special buildings and return them in any order."""
    s = fresh(special_pile=["Zoo", "Tavern", "Farm", "Kiln", "Bakery", "Smelter"])
    own(s, 0, "Marketplace")
    play(s, "enter Marketplace", "pick fish", "pick wood", "swap order")
    assert [K.NAME[b] for b in s.special_pile[:3]] == ["Tavern", "Zoo", "Farm"]


def test_shipping_line_capacity_energy_and_values():
    """Shipping Line: 3 energy per ship; wooden 2, iron 3 goods; steel 8, leather 4, bread 3 francs."""
    s = fresh()
    own(s, 0, "Shipping Line")
    add_ship(s, "wooden", 2, owner=0)
    add_ship(s, "iron", 4, owner=0)
    goods(s, 0, steel=1, leather=2, bread=3, coal=2)
    play(s, "enter Shipping Line")
    assert legal(s) == ["use 1 ship", "use 1 ship and choose goods", "use 2 ships", "use 2 ships and choose goods"]
    play(s, "use 2 ships")  # 6 energy: both coal; then 5 goods, most valuable: steel, 2 leather, 2 bread
    assert s.francs[0] == 8 + 4 + 4 + 3 + 3
    assert have(s, 0, "bread") == 1 and have(s, 0, "coal") == 0


def test_shipping_line_goods_chosen_by_the_player():
    """Shipping Line: 'A player may ship several of the same good or different goods on a single ship.'"""
    s = fresh()
    own(s, 0, "Shipping Line")
    add_ship(s, "wooden", 2, owner=0)
    goods(s, 0, steel=1, leather=2, fish=3, coke=1)
    play(s, "enter Shipping Line", "use 1 ship and choose goods")  # 3 energy: the coke (no change)
    assert have(s, 0, "coke") == 0
    assert legal(s) == ["ship 1 steel", "ship 0 steel"]
    play(s, "ship 0 steel", "ship 1 leather", "ship 1 fish")
    assert s.francs[0] == 4 + 1 and have(s, 0, "steel") == 1 and have(s, 0, "leather") == 1
    assert have(s, 0, "fish") == 2


def test_wharf_modernised_by_first_non_wooden_ship():
    """Wharf: the first non-wooden ship built there needs 1 brick; later ones do not; 3 energy each."""
    s = fresh()
    own(s, 0, "Wharf 1")
    add_ship(s, "iron", 4)
    add_ship(s, "wooden", 4)
    goods(s, 0, iron=4, coal=1, wood=5)
    play(s, "enter Wharf 1")
    assert legal(s) == ["build wooden ship"]  # iron ship would need the brick
    s = fresh()
    own(s, 0, "Wharf 1")
    add_ship(s, "iron", 4)
    add_ship(s, "iron", 6)
    goods(s, 0, iron=4, brick=1, coal=1)
    play(s, "enter Wharf 1", "build iron ship")
    assert s.modernised == [True, False] and have(s, 0, "brick") == 0 and have(s, 0, "coal") == 0
    assert s.player_ships(0) == [("iron", 6)]
    s.discs[0] = -1
    goods(s, 0, iron=4, coal=1)
    s.stack[-1] = Turn("main", 0)
    play(s, "enter Wharf 1", "build iron ship")
    assert s.player_ships(0) == [("iron", 6), ("iron", 4)]


def test_wooden_ship_does_not_modernise():
    s = fresh()
    own(s, 0, "Wharf 2")
    add_ship(s, "wooden", 2)
    goods(s, 0, wood=8)
    play(s, "enter Wharf 2", "build wooden ship")
    assert s.modernised == [False, False] and have(s, 0, "wood") == 0


def test_building_firm_and_fee():
    """Building Firms: build one top building; Building Firm 2 costs 1 food to enter."""
    s = set_piles(fresh(), [["Marketplace", "Joinery"], ["Fishery", "Bakehouse"], ["Sawmill", "Abattoir"]])
    goods(s, 0, wood=3, clay=1, fish=1)
    play(s, "enter Building Firm 2")
    assert have(s, 0, "fish") == 0
    assert legal(s) == ["build Marketplace", "build Fishery"]
    play(s, "build Fishery")
    assert s.owner[K.bid("Fishery")] == 0 and have(s, 0, "wood") == 2 and have(s, 0, "clay") == 0


def test_construction_firm_two_from_the_same_pile_and_brick_for_clay():
    """Construction Firm: up to two buildings, one after another, also from the same pile;
    brick may replace clay (Constructing new buildings, Note)."""
    s = set_piles(fresh(), [["Marketplace", "Joinery"], ["Fishery", "Bakehouse"], ["Sawmill", "Abattoir"]])
    own(s, 0, "Construction Firm")
    goods(s, 0, wood=5, brick=1)
    play(s, "enter Construction Firm", "build Marketplace")
    assert "build Joinery" in legal(s) and "done" in legal(s)
    play(s, "build Joinery")
    assert s.owner[K.bid("Joinery")] == 0 and have(s, 0, "wood") == 0
    s2 = set_piles(fresh(), [["Marketplace", "Joinery"], ["Fishery", "Bakehouse"], ["Sawmill", "Abattoir"]])
    own(s2, 0, "Construction Firm")
    goods(s2, 0, wood=1, brick=1)
    play(s2, "enter Construction Firm", "build Fishery")
    assert have(s2, 0, "brick") == 0


def test_construction_firm_buy_between_builds():
    """Construction Firm: 'build one building, then use an additional action to buy the next building,
    and then build the third in the pile'."""
    s = set_piles(fresh(), [["Marketplace", "Fishery", "Joinery"], ["Bakehouse"], ["Abattoir"]])
    own(s, 0, "Construction Firm")
    goods(s, 0, wood=5, francs=10)
    play(s, "enter Construction Firm", "build Marketplace", "buy Fishery", "build Joinery")
    assert [s.owner[K.bid(n)] for n in ("Marketplace", "Fishery", "Joinery")] == [0, 0, 0]
    assert s.francs[0] == 0 and have(s, 0, "wood") == 0


def test_sawmill_one_wood_less_and_only_wooden_buildings():
    """Sawmill: builds buildings made with at least 1 wood, paying 1 wood less."""
    s = set_piles(fresh(), [["Marketplace", "Joinery"], ["Fishery", "Bakehouse"], ["Charcoal Kiln", "Abattoir"]])
    own(s, 0, "Sawmill")
    goods(s, 0, wood=1, clay=3)
    play(s, "enter Sawmill")
    assert legal(s) == ["build Marketplace", "build Fishery"]  # Charcoal Kiln has no wood
    play(s, "build Marketplace")
    assert have(s, 0, "wood") == 0 and s.owner[K.bid("Marketplace")] == 0


def test_black_market_and_clay_mound_cannot_be_built():
    s = set_piles(fresh(), [["Clay Mound", "Joinery"], ["Black Market", "Bakehouse"], ["Sawmill", "Abattoir"]])
    goods(s, 0, wood=9, clay=9, iron=9)
    play(s, "enter Building Firm 1")
    assert legal(s) == ["build Sawmill"]


# ---------------------------------------------------------- plus value
def test_bank_town_hall_storehouse_dock_bonus():
    """Bank +3 per Industrial, +2 per Economic (incl. itself); Town Hall +4 per Public (incl.), +2 per
    Craftsman's; Storehouse +1/2 per goods token (down); Dock +4 per ship card."""
    s = fresh()
    own(s, 0, "Bank", "Colliery", "Shipping Line")  # I + E + E(bank)
    assert s.wealth_breakdown(0)["bonus"] == 3 + 2 * 2
    own(s, 1, "Town Hall", "Local Court", "Fishery")
    assert s.wealth_breakdown(1)["bonus"] == 4 * 2 + 2
    s2 = fresh(players=4)
    own(s2, 0, "Storehouse", "Dock")
    goods(s2, 0, fish=3, wood=4)
    add_ship(s2, "wooden", 2, owner=0)
    add_ship(s2, "iron", 4, owner=0)
    br = s2.wealth_breakdown(0)
    assert br["bonus"] == 3 + 8 and br["buildings"] == 4 + 10 and br["ships"] == 6


def test_bank_costs_forty_town_hall_thirty():
    """Bank: value 16, cost 40; Town Hall value 6, cost 30."""
    s = set_piles(fresh(), [["Bank", "Joinery"], ["Town Hall", "Bakehouse"], ["Sawmill", "Abattoir"]])
    goods(s, 0, francs=39)
    assert "buy Bank" not in legal(s) and "buy Town Hall" in legal(s)
    goods(s, 0, francs=40)
    play(s, "buy Bank")
    assert s.francs[0] == 0 and s.wealth_breakdown(0)["buildings"] == 16


def test_final_wealth_loans_minus_seven():
    """Game End: deduct 7 francs for each loan."""
    s = fresh()
    s.loans[0] = 2
    goods(s, 0, francs=3)
    assert s.wealth()[0] == 3 - 14
