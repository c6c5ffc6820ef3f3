"""Every special building's function at its stated numbers and limits.

Source for every test here unless noted: seeds/000_3a1c2d85c0e157da.txt,
"Buildings Overview", "Special Buildings", the entry of the building named
in the test.  Player 0 owns the building (no entry fee) unless the test says
otherwise.
"""

from __future__ import annotations

import pytest

from base_game.frames import Turn
from tests.base_game.helpers import K, clear, goods, have, legal, new, own, play
from tests.base_game.test_standard_buildings import add_ship, set_piles


def fresh(players: int = 2):
    s = new(players=players)
    for p in range(players):
        clear(s, p)
    return s


# (building, goods given, choices, expected goods, expected francs)
EXCHANGES = [
    ("Baguette Shop", {"meat": 5, "bread": 5}, ["exchange 4"], {"meat": 1, "bread": 1}, 24),
    ("Bakery", {"bread": 8}, ["exchange 6"], {"bread": 2}, 18),
    ("Brick Manufacturer", {"brick": 4, "francs": 10}, ["exchange 1"], {"brick": 1}, 24),
    ("Clothing Industry", {"hides": 3, "leather": 2}, ["exchange 2"], {"hides": 1, "leather": 0}, 14),
    ("Diner", {"wood": 4, "smoked_fish": 4, "bread": 4}, ["exchange 3"], {"wood": 1, "bread": 1}, 24),
    ("Fish Market", {"fish": 9, "smoked_fish": 2}, ["exchange 7"], {"fish": 2, "smoked_fish": 2}, 14),
    ("Fish Restaurant", {"smoked_fish": 5}, ["exchange 5"], {"smoked_fish": 0}, 15),
    ("Forest Hut", {"wood": 5, "meat": 5}, ["exchange 4"], {"wood": 1, "meat": 1}, 20),
    ("Furniture Factory", {"leather": 3, "wood": 5}, ["exchange 3"], {"leather": 0, "wood": 2}, 18),
    ("Leather Industry", {"leather": 3, "francs": 14}, ["exchange 1"], {"leather": 0}, 30),
    ("Patisserie", {"bread": 4, "grain": 4}, ["exchange 3"], {"bread": 1, "grain": 1}, 15),
    ("Schnaps Distillery", {"grain": 6}, ["exchange 4"], {"grain": 2}, 8),
    ("Steakhouse", {"meat": 4, "charcoal": 5}, ["exchange 4"], {"meat": 0, "charcoal": 1}, 24),
    ("Tavern", {"wood": 4, "grain": 5}, ["exchange 4"], {"wood": 0, "grain": 1}, 12),
    ("Kiln", {"clay": 2, "wood": 1}, ["exchange 1"], {"clay": 1, "wood": 0, "brick": 3}, 0),
    ("Steelworks", {"iron": 2, "coke": 2}, ["exchange 1"], {"iron": 1, "steel": 2, "coke": 0}, 0),
]


@pytest.mark.parametrize("name,given,choices,expect,francs", EXCHANGES, ids=[e[0] for e in EXCHANGES])
def test_exchange_buildings(name, given, choices, expect, francs):
    """Baguette Shop (meat+bread x4 for 6), Bakery (6 bread for 3), Brick Manufacturer (3 brick, show 10,
    take 14), Clothing Industry (hide+leather for 7), Diner (wood+smoked fish+bread x3 for 8), Fish Market
    (7 fish for 2, not smoked), Fish Restaurant (smoked fish for 3), Forest Hut (wood+meat x4 for 5),
    Furniture Factory (leather+wood for 6), Leather Industry (3 leather, show 14, take 16), Patisserie
    (bread+grain x3 for 5), Schnaps Distillery (4 grain for 2), Steakhouse (meat+charcoal x4 for 6),
    Tavern (wood+grain x4 for 3), Kiln (1 clay + 1 energy for 3 bricks), Steelworks (15 energy, 1 iron
    for 2 steel)."""
    s = fresh()
    own(s, 0, name)
    goods(s, 0, **given)
    play(s, f"enter {name}")
    assert legal(s)[-1] == choices[0]  # the largest number allowed is the stated limit
    play(s, *choices)
    for g, n in expect.items():
        assert have(s, 0, g) == n, g
    assert s.francs[0] == francs


def test_brick_manufacturer_needs_ten_francs_shown():
    s = fresh()
    own(s, 0, "Brick Manufacturer")
    goods(s, 0, brick=3, francs=9)
    assert "enter Brick Manufacturer" not in legal(s)


def test_leather_industry_needs_fourteen_francs_shown():
    s = fresh()
    own(s, 0, "Leather Industry")
    goods(s, 0, leather=3, francs=13)
    assert "enter Leather Industry" not in legal(s)


def test_steelworks_needs_fifteen_energy():
    s = fresh()
    own(s, 0, "Steelworks")
    goods(s, 0, iron=1, coke=1, coal=1)  # 13 energy
    assert "enter Steelworks" not in legal(s)


TAKES = [
    ("Farm", {"fish": 2, "grain": 2, "wood": 2, "hides": 1, "cattle": 1}, 0),
    ("Fishpond and Wood", {"fish": 3, "wood": 3}, 0),
    ("Hunting Lodge", {"hides": 2, "meat": 3}, 0),
    ("Iron Mine and Coal Seam", {"iron": 2, "coal": 1}, 0),
    ("Plant Nursery", {"wood": 4}, 3),
    ("Smelter", {"coal": 1, "coke": 1, "iron": 1}, 0),
]


@pytest.mark.parametrize("name,expect,francs", TAKES, ids=[t[0] for t in TAKES])
def test_take_buildings(name, expect, francs):
    """Farm, Fishpond and Wood, Hunting Lodge, Iron Mine and Coal Seam, Plant Nursery (4 wood and 3
    francs), Smelter: the goods listed in each entry."""
    s = fresh()
    own(s, 0, name)
    play(s, f"enter {name}")
    for g, n in expect.items():
        assert have(s, 0, g) == n, g
    assert s.francs[0] == francs


def test_labour_exchange_fish_per_fisherman_coal_per_hammer():
    """Labour Exchange: 1 fish per Fisherman, 1 coal per Hammer owned (its own fisherman counts)."""
    s = fresh()
    own(s, 0, "Labour Exchange", "Hunting Lodge", "Joinery")  # fishermen 1+2, hammers 1+1
    play(s, "enter Labour Exchange")
    assert have(s, 0, "fish") == 3 and have(s, 0, "coal") == 2


def test_coal_trader_food_for_charcoal_and_coal():
    """Coal Trader: 1 food per charcoal, 2 food per coal; food may be added up (2 meat = 6 food, 3 coal)
    (seeds/000 Special Buildings, Coal Trader; its caps are pinned in test_rulebook_deviations)."""
    s = fresh()
    own(s, 0, "Coal Trader")
    goods(s, 0, meat=2)
    play(s, "enter Coal Trader", "take 0 charcoal", "take 3 coal")
    assert have(s, 0, "coal") == 3 and have(s, 0, "meat") == 0
    s2 = fresh()
    own(s2, 0, "Coal Trader")
    goods(s2, 0, francs=3)
    play(s2, "enter Coal Trader", "take 1 charcoal", "take 1 coal")
    assert have(s2, 0, "charcoal") == 1 and have(s2, 0, "coal") == 1 and s2.francs[0] == 0


def test_furriery_hides_for_bread_and_two_leather():
    """Furriery: any hides for bread; up to 2 leather for 5 francs each."""
    s = fresh()
    own(s, 0, "Furriery")
    goods(s, 0, hides=3, leather=3)
    play(s, "enter Furriery", "exchange 3 hides")
    assert legal(s)[-1] == "exchange 2 leather"
    play(s, "exchange 2 leather")
    assert have(s, 0, "bread") == 3 and have(s, 0, "leather") == 1 and s.francs[0] == 10


def test_town_square_one_upgraded_good_per_craftsman_building():
    """Town Square: one upgraded good per Craftsman's building, all different, never steel."""
    s = fresh()
    own(s, 0, "Town Square", "Fishery", "Kiln")
    play(s, "enter Town Square")
    assert "pick steel" not in legal(s)
    play(s, "pick charcoal", "pick coke")
    assert have(s, 0, "charcoal") == 1 and have(s, 0, "coke") == 1 and sum(s.goods[0]) == 2


def test_zoo_third_of_a_franc_per_cattle_and_fish():
    """Zoo: 1/3 franc per cattle and per fish, rounded down; the animals are kept."""
    s = fresh()
    own(s, 0, "Zoo")
    goods(s, 0, cattle=4, fish=4)
    play(s, "enter Zoo")
    assert s.francs[0] == 2 and have(s, 0, "cattle") == 4


def test_haulage_firm_two_adjacent_offers_for_three_francs():
    """Haulage Firm: pay 3 francs, take the goods of two adjacent Offer spaces (not francs)."""
    s = fresh()
    own(s, 0, "Haulage Firm")
    goods(s, 0, francs=3)
    s.offer_spaces = [5, 1, 2, 3, 0, 4, 0]
    play(s, "enter Haulage Firm")
    assert legal(s) == [
        "haul fish and wood",
        "haul wood and clay",
        "haul clay and iron",
        "haul iron and grain",
        "haul grain and cattle",
    ]
    play(s, "haul wood and clay")
    assert have(s, 0, "wood") == 2 and have(s, 0, "clay") == 3 and s.francs[0] == 0
    assert s.offer_spaces == [5, 1, 0, 0, 0, 4, 0]


def test_harbour_watch_evicts_and_uses():
    """Harbour Watch: pay 1 franc to another player, send their disc home, enter that building paying
    its entry fee, and use it."""
    s = fresh()
    own(s, 0, "Harbour Watch")
    own(s, -1, "Colliery")
    s.discs[1] = K.bid("Colliery")
    goods(s, 0, francs=3)
    play(s, "enter Harbour Watch", "evict from Colliery")
    assert s.francs == [0, 1] and s.discs == [K.bid("Colliery"), -1] and have(s, 0, "coal") == 3


def test_guildhouse_and_business_park_bonus():
    """Guildhouse: +2 per Economic building (incl. itself); Business Park: +2 per Industrial building."""
    s = fresh()
    own(s, 0, "Guildhouse", "Bakery", "Colliery")
    assert s.wealth_breakdown(0)["bonus"] == 4
    own(s, 1, "Business Park", "Colliery", "Smelter")
    s.owner[K.bid("Colliery")] = 1
    assert s.wealth_breakdown(1)["bonus"] == 4


def test_feedlot_harvest():
    """Feedlot: 2 cattle instead of 1 with 2 to 6 cattle; 1 with 7 or more (seeds/000 Harvest)."""
    for cattle, after in ((1, 1), (2, 4), (6, 8), (7, 8)):
        s = fresh(players=1)
        own(s, 0, "Feedlot")
        goods(s, 0, cattle=cattle, francs=50)
        s.turn_in_round = 7
        s.stack = []
        s._end_round()
        assert have(s, 0, "cattle") == after


def test_masons_guild_one_clay_less():
    """Masons' Guild: each building costs its owner 1 clay or 1 brick less."""
    s = set_piles(fresh(), [["Marketplace"], ["Fishery"], ["Colliery"]])
    own(s, 0, "Masons' Guild")
    goods(s, 0, wood=1, clay=2)
    play(s, "enter Building Firm 1", "build Colliery")
    assert s.owner[K.bid("Colliery")] == 0 and have(s, 0, "clay") == 0


def test_wind_farm_three_energy_less():
    """Wind Farm: 3 energy less for a main action; no refund below 0."""
    s = fresh()
    own(s, 0, "Wind Farm", "Steel Mill")
    goods(s, 0, iron=1, wood=2)
    play(s, "enter Steel Mill", "upgrade 1")
    assert have(s, 0, "steel") == 1 and have(s, 0, "wood") == 0
    s2 = fresh()
    own(s2, 0, "Wind Farm", "Bakehouse")
    goods(s2, 0, grain=6)
    play(s2, "enter Bakehouse", "upgrade 6")
    assert have(s2, 0, "bread") == 6


def test_luxury_yacht_swapped_at_a_wharf():
    """Luxury Yacht: at a Wharf swap an iron ship for it; it counts as a ship (value 20), gives no food
    and does not ship goods."""
    s = fresh()
    own(s, 0, "Wharf 1")
    own(s, -1, "Luxury Yacht")
    add_ship(s, "iron", 4, owner=0)
    assert "buy Luxury Yacht" not in legal(s)
    play(s, "enter Wharf 1", "swap Luxury Yacht")
    assert s.owner[K.LUXURY_YACHT] == 0 and s.ships[0] == []
    assert s.wealth_breakdown(0)["ships"] == 20 and s.ship_food(0) == 0


def test_football_stadium_only_built_on_an_empty_proposal_space():
    """Football Stadium: cannot be bought; built only when a Building Proposals space is empty."""
    s = set_piles(fresh(), [["Marketplace"], ["Fishery"], ["Colliery"]])
    own(s, -1, "Football Stadium")
    goods(s, 0, wood=5, brick=2, iron=2, francs=99)
    assert "buy Football Stadium" not in legal(s)
    play(s, "enter Building Firm 1")
    assert "build Football Stadium" not in legal(s)
    play(s, "build Marketplace")
    s.discs[0] = -1
    s.stack[-1] = Turn("main", 0)
    play(s, "enter Building Firm 1", "build Football Stadium")
    assert s.owner[K.FOOTBALL_STADIUM] == 0 and s.wealth_breakdown(0)["buildings"] == 6 + 24


@pytest.mark.parametrize(
    "name,price",
    [("Business Park", 12), ("Feedlot", 8), ("Guildhouse", 8), ("Masons' Guild", 10), ("Wind Farm", 12), ("Zoo", 8)],
)
def test_special_buildings_bought_from_the_town(name, price):
    """Face-up special buildings can be bought (price = 'Cost' where given, else the value)."""
    s = fresh()
    own(s, -1, name)
    goods(s, 0, francs=price)
    play(s, f"buy {name}")
    assert s.owner[K.bid(name)] == 0 and s.francs[0] == 0
