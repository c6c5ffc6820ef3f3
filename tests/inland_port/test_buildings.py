"""Every Inland Port building's function in sectors 2, 3, 4 and 4+1, edges included.

Functions: seeds/004_3575577254fe0f5a.txt, "BUILDING INDEX" (A- and B-Buildings and the entries after them).
Grid and edge rule: seeds/004 "The meaning of the symbols" ("A goods counter stops at the last space of a row
or column") and REFERENCE.md (a diagonal step that would leave the grid in either direction is not made).
Sector values: seeds/004 "Each game board is divided into 6 sectors" (0, 2, 3, 4, 4+1, !); REFERENCE.md: in
4+1 the effect is applied 4 times and the user collects 1 Franc.
Goods tuples are (fish, grain, wood, clay); an amount is 3 x row + column.
"""

import pytest

from core.protocol import parse_action

from tests.inland_port.helpers import position, uses

P = (4, 1, 2, 3)  # the starting warehouse

# (building, goods before, francs before, sector, action text, goods after, francs after)
CASES = [
    # Wood Company: Wood 2-4 right; from the first column two steps reach the edge
    *[("Wood Company", (4, 1, 9, 3), 3, s, "use Wood Company", (4, 1, 11, 3), 3 + (s == "4+1")) for s in ("2", "3", "4", "4+1")],
    ("Wood Company", (4, 1, 11, 3), 3, "4", "use Wood Company", (4, 1, 11, 3), 3),
    # Farmland: Grain 2-4 right, Wood and Clay 1 right (Wood already at the edge)
    *[("Farmland", P, 3, s, "use Farmland", (4, 2, 2, 4), 3 + (s == "4+1")) for s in ("2", "3", "4", "4+1")],
    # Clay Mound: Clay 2-4 right plus 1 more
    *[("Clay Mound", P, 3, s, "use Clay Mound", (4, 1, 2, 5), 3 + (s == "4+1")) for s in ("2", "3", "4", "4+1")],
    # Grocery Store: 2-4 Francs (5 in 4+1), Grain and Fish 1 right
    ("Grocery Store", P, 3, "2", "use Grocery Store", (5, 2, 2, 3), 5),
    ("Grocery Store", P, 3, "3", "use Grocery Store", (5, 2, 2, 3), 6),
    ("Grocery Store", P, 3, "4", "use Grocery Store", (5, 2, 2, 3), 7),
    ("Grocery Store", P, 3, "4+1", "use Grocery Store", (5, 2, 2, 3), 8),
    # Hardware Store: Wood or Clay 2-4 right, not split
    ("Hardware Store", P, 3, "2", "use Hardware Store: clay", (4, 1, 2, 5), 3),
    ("Hardware Store", (4, 1, 0, 3), 3, "3", "use Hardware Store: wood", (4, 1, 2, 3), 3),
    ("Hardware Store", (4, 1, 2, 6), 3, "4", "use Hardware Store: clay", (4, 1, 2, 8), 3),
    ("Hardware Store", P, 3, "4+1", "use Hardware Store: clay", (4, 1, 2, 5), 4),
    # Farm: Grain 2-4 up-right and 1 down-left against each other = 1-3 up-right (REFERENCE.md ruling)
    ("Farm", (4, 0, 2, 3), 3, "2", "use Farm", (4, 4, 2, 3), 3),
    ("Farm", (4, 0, 2, 3), 3, "3", "use Farm", (4, 8, 2, 3), 3),
    ("Farm", (4, 0, 2, 3), 3, "4", "use Farm", (4, 8, 2, 3), 3),  # third step would leave the grid
    ("Farm", (4, 0, 2, 3), 3, "4+1", "use Farm", (4, 8, 2, 3), 4),
    # Kiln: Clay 2-4 up-left
    *[("Kiln", (4, 1, 2, 5), 3, s, "use Kiln", (4, 1, 2, 9), 3 + (s == "4+1")) for s in ("2", "3", "4", "4+1")],
    ("Kiln", P, 3, "4", "use Kiln", P, 3),  # clay in the first column cannot move up-left
    # Smokehouse: Fish 2-4 up-left
    ("Smokehouse", (5, 1, 2, 3), 3, "2", "use Smokehouse", (9, 1, 2, 3), 3),
    ("Smokehouse", (5, 1, 2, 3), 3, "3", "use Smokehouse", (9, 1, 2, 3), 3),
    ("Smokehouse", P, 3, "4", "use Smokehouse", (6, 1, 2, 3), 3),
    ("Smokehouse", P, 3, "4+1", "use Smokehouse", (6, 1, 2, 3), 4),
    # Bakehouse: Grain 2-4 up-left, stopping at the top row
    ("Bakehouse", (4, 14, 2, 3), 3, "2", "use Bakehouse", (4, 18, 2, 3), 3),
    ("Bakehouse", (4, 14, 2, 3), 3, "3", "use Bakehouse", (4, 18, 2, 3), 3),
    ("Bakehouse", (4, 20, 2, 3), 3, "4", "use Bakehouse", (4, 20, 2, 3), 3),  # top row: no step
    ("Bakehouse", (4, 8, 2, 3), 3, "4+1", "use Bakehouse", (4, 12, 2, 3), 4),  # 8 -> 10 -> 12, then column edge
    # Wood Trader: 1 Franc and 2 Food -> Wood 1 up, per application
    ("Wood Trader", P, 3, "2", "use Wood Trader: fish 1 + grain 1", (3, 0, 5, 3), 2),
    ("Wood Trader", P, 3, "2", "use Wood Trader: fish 1 + grain 1; fish 3", (0, 0, 8, 3), 1),
    ("Wood Trader", P, 3, "3", "use Wood Trader: fish 3", (1, 1, 5, 3), 2),
    ("Wood Trader", (10, 10, 0, 3), 4, "4", "use Wood Trader: fish 3; fish 3; fish 3; grain 3", (1, 7, 12, 3), 0),
    ("Wood Trader", P, 0, "4+1", "use Wood Trader: fish 1 + grain 1", (3, 0, 5, 3), 0),  # the bonus Franc pays
    # Restaurant: sell 1 Food for 2 Francs, per application
    ("Restaurant", P, 3, "2", "use Restaurant: fish 1; grain 1", (3, 0, 2, 3), 7),
    ("Restaurant", P, 3, "3", "use Restaurant: fish 1; fish 3", (0, 1, 2, 3), 7),  # 3 -> 0 overpays: no change
    ("Restaurant", P, 3, "4", "use Restaurant: fish 1; grain 1; fish 3", (0, 0, 2, 3), 9),
    ("Restaurant", P, 3, "4+1", "use Restaurant: grain 1", (4, 0, 2, 3), 6),
    # Marketplace: 2-4 single moves right spread over any counters
    ("Marketplace", P, 3, "2", "use Marketplace: grain, clay", (4, 2, 2, 4), 3),
    ("Marketplace", P, 3, "3", "use Marketplace: fish, grain, clay", (5, 2, 2, 4), 3),
    ("Marketplace", P, 3, "4", "use Marketplace: fish, grain, clay x2", (5, 2, 2, 5), 3),
    ("Marketplace", P, 3, "4+1", "use Marketplace: fish, grain, clay x2", (5, 2, 2, 5), 4),
    # Fish Market: 1 Franc -> Fish 1 up-right, per application
    ("Fish Market", P, 3, "2", "use Fish Market: x1", (8, 1, 2, 3), 2),
    ("Fish Market", (0, 1, 2, 3), 3, "3", "use Fish Market: x2", (8, 1, 2, 3), 1),
    ("Fish Market", (0, 1, 2, 3), 3, "4", "use Fish Market: x2", (8, 1, 2, 3), 1),  # third step: edge
    ("Fish Market", (0, 1, 2, 3), 0, "4+1", "use Fish Market: x1", (4, 1, 2, 3), 0),  # bonus Franc pays
    # Sawmill: Wood 2-4 up-left
    *[("Sawmill", P, 3, s, "use Sawmill", (4, 1, 6, 3), 3 + (s == "4+1")) for s in ("2", "3", "4", "4+1")],
    # Building Firm: Wood and Clay 2-4 right
    *[("Building Firm", (4, 1, 0, 3), 3, s, "use Building Firm", (4, 1, 2, 5), 3 + (s == "4+1")) for s in ("2", "3", "4", "4+1")],
    # Church Square: Grain and Fish 2-4 right
    *[("Church Square", (3, 0, 2, 3), 3, s, "use Church Square", (5, 2, 2, 3), 3 + (s == "4+1")) for s in ("2", "3", "4", "4+1")],
    # Weekly Market: Grain or Fish 1 down for 4 Francs, always the same good
    ("Weekly Market", (10, 1, 2, 3), 3, "2", "use Weekly Market: fish x2", (4, 1, 2, 3), 11),
    ("Weekly Market", (10, 1, 2, 3), 3, "3", "use Weekly Market: fish x3", (1, 1, 2, 3), 15),
    ("Weekly Market", (10, 1, 2, 3), 3, "4", "use Weekly Market: fish x3", (1, 1, 2, 3), 15),  # row 0 reached
    ("Weekly Market", (10, 7, 2, 3), 3, "4+1", "use Weekly Market: grain x2", (10, 1, 2, 3), 12),
    # Masons' Guild: 2-4 different counters 1 up-left
    ("Masons' Guild", P, 3, "2", "use Masons' Guild: fish, grain", (6, 3, 2, 3), 3),
    ("Masons' Guild", P, 3, "3", "use Masons' Guild: fish, grain, wood", (6, 3, 4, 3), 3),
    ("Masons' Guild", P, 3, "4", "use Masons' Guild: fish, grain, wood, clay", (6, 3, 4, 3), 3),  # clay: edge
    ("Masons' Guild", P, 3, "4+1", "use Masons' Guild: fish, grain, wood, clay", (6, 3, 4, 3), 4),
    # Business Office: 2-4 different counters 1 down-left, 5 Francs per movement
    ("Business Office", P, 3, "2", "use Business Office: fish", (0, 1, 2, 3), 8),
    ("Business Office", (4, 4, 4, 1), 3, "3", "use Business Office: fish, grain, wood", (0, 0, 0, 1), 18),
    ("Business Office", (4, 4, 4, 4), 3, "4", "use Business Office: fish, grain, wood, clay", (0, 0, 0, 0), 23),
    ("Business Office", (4, 4, 4, 4), 3, "4+1", "use Business Office: fish, grain, wood, clay", (0, 0, 0, 0), 24),
    # Shipping Line: 6, 9, 12 Francs; 13 in 4+1
    ("Shipping Line", P, 3, "2", "use Shipping Line", P, 9),
    ("Shipping Line", P, 3, "3", "use Shipping Line", P, 12),
    ("Shipping Line", P, 3, "4", "use Shipping Line", P, 15),
    ("Shipping Line", P, 3, "4+1", "use Shipping Line", P, 16),
    # Guild Hall: 2-4 different counters 1 up-right
    ("Guild Hall", P, 3, "2", "use Guild Hall: fish, clay", (8, 1, 2, 7), 3),
    ("Guild Hall", P, 3, "3", "use Guild Hall: fish, grain, clay", (8, 5, 2, 7), 3),
    ("Guild Hall", P, 3, "4", "use Guild Hall: fish, grain, wood, clay", (8, 5, 2, 7), 3),  # wood: edge
    ("Guild Hall", P, 3, "4+1", "use Guild Hall: fish, grain, wood, clay", (8, 5, 2, 7), 4),
    # Pier: 2-4 moves right plus 2 more
    ("Pier", P, 3, "2", "use Pier: fish, grain, clay x2", (5, 2, 2, 5), 3),
    ("Pier", (3, 0, 0, 3), 3, "3", "use Pier: fish x2, grain x2, wood", (5, 2, 1, 3), 3),
    ("Pier", (3, 0, 0, 3), 3, "4", "use Pier: fish x2, grain x2, wood x2", (5, 2, 2, 3), 3),
    ("Pier", (3, 0, 0, 3), 3, "4+1", "use Pier: fish x2, grain x2, wood x2", (5, 2, 2, 3), 4),
    # Craftsmen's Yard: 2-4 moves up-left plus 1 more
    ("Craftsmen's Yard", P, 3, "2", "use Craftsmen's Yard: wood x3", (4, 1, 6, 3), 3),
    ("Craftsmen's Yard", P, 3, "3", "use Craftsmen's Yard: fish, grain, wood x2", (6, 3, 6, 3), 3),
    ("Craftsmen's Yard", (5, 1, 2, 3), 3, "4", "use Craftsmen's Yard: fish x2, grain, wood x2", (9, 3, 6, 3), 3),
    ("Craftsmen's Yard", (5, 1, 2, 3), 3, "4+1", "use Craftsmen's Yard: fish x2, grain, wood x2", (9, 3, 6, 3), 4),
]


@pytest.mark.parametrize("name,before,francs,sector,text,after,francs_after", CASES,
                         ids=[f"{c[0]}-{c[3]}-{i}" for i, c in enumerate(CASES)])
def test_building_function(name, before, francs, sector, text, after, francs_after):
    s = position(goods=before, francs=francs, buildings=[(name, 0, sector)])
    action = parse_action(s, text)
    assert str(action) == text, f"'{text}' is not the canonical form of {action}"
    s.apply_action(action)
    assert s.goods[0] == after
    assert s.francs[0] == francs_after
    assert s.sector[s.catalog.index[name]] == 0


def test_every_functional_building_is_covered_in_every_sector():
    covered = {(c[0], c[3]) for c in CASES}
    s = position()
    for b in s.catalog.buildings:
        if not b.locked:
            for sector in ("2", "3", "4", "4+1"):
                assert (b.name, sector) in covered, f"{b.name} in sector {sector} is not pinned"


def test_marketplace_offers_each_distinct_outcome_once():
    # seeds/004 Marketplace: "You may move the same goods counter multiple times ... or distribute".
    # From the starting warehouse two moves right can give 8 different warehouses (fish and grain have
    # one step to the edge, wood none, clay two).
    s = position(buildings=[("Marketplace", 0, "2")])
    assert len(uses(s, "Marketplace")) == 8


def test_business_office_offers_only_counters_that_can_move():
    # seeds/004 Business Office: "Collect 5 Francs per movement"; a counter in the bottom row or first
    # column cannot move down-left (REFERENCE.md edge rule), so it earns nothing and is not offered.
    s = position(buildings=[("Business Office", 0, "4")])
    assert uses(s, "Business Office") == ["use Business Office: fish", "use Business Office: none"]


def test_weekly_market_always_with_the_same_good():
    # seeds/004 Weekly Market: "always with the same resource"
    s = position(goods=(10, 10, 2, 3), buildings=[("Weekly Market", 0, "4")])
    texts = uses(s, "Weekly Market")
    assert "use Weekly Market: fish x3" in texts and "use Weekly Market: grain x3" in texts
    assert all(";" not in t and "+" not in t for t in texts)


def test_restaurant_cannot_sell_food_that_is_not_there():
    # seeds/004 Restaurant: sell 1 Food for 2 Francs, up to 4 times in sector 4; this warehouse has 5 food.
    s = position(buildings=[("Restaurant", 0, "4")])
    assert max(t.count(";") + 1 for t in uses(s, "Restaurant")) == 3


def test_lock_buildings_cannot_be_used_and_never_age():
    # seeds/004 Town Hall: "You do not need to place buildings with a lock symbol on your board since they do not
    # have a specific function."  REFERENCE.md: they never go on a wheel, never age, are never force-sold.
    s = position(buildings=[("Town Hall", 0, "0")], round_letter="A")
    assert "no function" in s.why_illegal("use Town Hall")
    for _ in range(3 * 12):
        if s.is_terminal():
            break
        s.apply_action([a for a in s.legal_actions() if a.verb != "sell"][0])
    assert s.building_owners().get("Town Hall") == 0
