"""Every Inland Port building's function in sectors 2, 3, 4 and 4+1, edges included.

Functions: seeds/004_3575577254fe0f5a.txt, "BUILDING INDEX" (A- and B-Buildings and the entries after them).
Grid and edge rule: seeds/004 "The meaning of the symbols" ("A goods counter stops at the last space of a row
or column"; "add up the values of its row and column": "This player has 7 Wood (6+1)") and REFERENCE.md,
Inland Port, Rulings [dec] (right +1, left -1, up +3, down -3, up-right +4, up-left +2, down-left -4; a step
that would leave the grid -- for a diagonal, in either direction -- is not made and ends the move) and the
warehouse grid [rec] (6 columns +0..+5, 6 rows 0, 3, ..., 15; start cells fish 0+4, grain 0+1, wood 0+2,
clay 0+3).
Sector values: seeds/004 "Each game board is divided into 6 sectors" (0, 2, 3, 4, 4+1, !); REFERENCE.md: in
4+1 the effect is applied 4 times and the user collects 1 Franc.
Payments inside an exchange (Wood Trader, Restaurant): seeds/004 "There is no change" and REFERENCE.md
("A food cost is paid from fish and/or grain in any split"); the text names where each paying counter goes.

Counters are written as cells "R+C" (row value + column value), in the order (fish, grain, wood, clay).
Every expected cell below was worked out by hand from those passages, step by step.
"""

import re

import pytest

from core.protocol import parse_action
from tests.inland_port.helpers import finish_turn, position, texts, uses

P = ("0+4", "0+1", "0+2", "0+3")  # the starting warehouse (REFERENCE.md, warehouse grid [rec])


def amounts(cells):
    """A cell's amount is its row value plus its column value (seeds/004, "This player has 7 Wood (6+1)")."""
    return tuple(sum(int(x) for x in c.split("+")) for c in cells)


def bonus(s):
    """The Franc of sector 4+1 (REFERENCE.md)."""
    return 1 if s == "4+1" else 0


#: the cases where a counter sits on or runs into the grid's edge (at least one per building)
EDGE: list[tuple] = []


def edge(*case):
    EDGE.append(case)
    return case


# (building, cells before, francs before, sector, action text, cells after, francs after)
CASES = [
    # Wood Company: "Move the Wood goods counter 2-4 spaces to the right": 6+0 -> 6+2 / 6+3 / 6+4
    ("Wood Company", ("0+4", "0+1", "6+0", "0+3"), 3, "2", "use Wood Company", ("0+4", "0+1", "6+2", "0+3"), 3),
    ("Wood Company", ("0+4", "0+1", "6+0", "0+3"), 3, "3", "use Wood Company", ("0+4", "0+1", "6+3", "0+3"), 3),
    ("Wood Company", ("0+4", "0+1", "6+0", "0+3"), 3, "4", "use Wood Company", ("0+4", "0+1", "6+4", "0+3"), 3),
    ("Wood Company", ("0+4", "0+1", "6+0", "0+3"), 3, "4+1", "use Wood Company", ("0+4", "0+1", "6+4", "0+3"), 4),
    # edges: 9+3 -> 9+4 -> 9+5, the third and fourth steps are lost; on the +5 column it stays where it is
    edge("Wood Company", ("0+4", "0+1", "9+3", "0+3"), 3, "4", "use Wood Company", ("0+4", "0+1", "9+5", "0+3"), 3),
    edge("Wood Company", ("0+4", "0+1", "9+5", "0+3"), 3, "4", "use Wood Company", ("0+4", "0+1", "9+5", "0+3"), 3),
    # Farmland: Grain 2-4 right, additionally Wood and Clay 1 right each; from the start grain 0+1 -> 0+3/0+4/0+5
    ("Farmland", P, 3, "2", "use Farmland", ("0+4", "0+3", "0+3", "0+4"), 3),
    ("Farmland", P, 3, "3", "use Farmland", ("0+4", "0+4", "0+3", "0+4"), 3),
    ("Farmland", P, 3, "4", "use Farmland", ("0+4", "0+5", "0+3", "0+4"), 3),
    ("Farmland", P, 3, "4+1", "use Farmland", ("0+4", "0+5", "0+3", "0+4"), 4),
    # edges: grain 3+3 -> 3+5 (two steps lost), wood and clay already on the +5 column stay
    edge("Farmland", ("0+4", "3+3", "6+5", "9+5"), 3, "4", "use Farmland", ("0+4", "3+5", "6+5", "9+5"), 3),
    # Clay Mound: Clay 2-4 right plus 1 more: 3+0 -> 3+3 / 3+4 / 3+5 (5 spaces in 4 and 4+1)
    ("Clay Mound", ("0+4", "0+1", "0+2", "3+0"), 3, "2", "use Clay Mound", ("0+4", "0+1", "0+2", "3+3"), 3),
    ("Clay Mound", ("0+4", "0+1", "0+2", "3+0"), 3, "3", "use Clay Mound", ("0+4", "0+1", "0+2", "3+4"), 3),
    ("Clay Mound", ("0+4", "0+1", "0+2", "3+0"), 3, "4", "use Clay Mound", ("0+4", "0+1", "0+2", "3+5"), 3),
    ("Clay Mound", ("0+4", "0+1", "0+2", "3+0"), 3, "4+1", "use Clay Mound", ("0+4", "0+1", "0+2", "3+5"), 4),
    # edge: from the start clay 0+3 two steps reach +5; the other three (and the extra one) are lost
    edge("Clay Mound", P, 3, "4", "use Clay Mound", ("0+4", "0+1", "0+2", "0+5"), 3),
    # Grocery Store: 2-4 Francs (5 in 4+1), Grain and Fish 1 right: fish 0+4 -> 0+5, grain 0+1 -> 0+2
    ("Grocery Store", P, 3, "2", "use Grocery Store", ("0+5", "0+2", "0+2", "0+3"), 5),
    ("Grocery Store", P, 3, "3", "use Grocery Store", ("0+5", "0+2", "0+2", "0+3"), 6),
    ("Grocery Store", P, 3, "4", "use Grocery Store", ("0+5", "0+2", "0+2", "0+3"), 7),
    ("Grocery Store", P, 3, "4+1", "use Grocery Store", ("0+5", "0+2", "0+2", "0+3"), 8),
    # edge: fish and grain on the +5 column (grain in the top corner) stay; the Francs still come
    edge("Grocery Store", ("0+5", "15+5", "0+2", "0+3"), 3, "2", "use Grocery Store", ("0+5", "15+5", "0+2", "0+3"), 5),
    # Hardware Store: Wood or Clay 2-4 right, not split
    ("Hardware Store", P, 3, "2", "use Hardware Store: clay", ("0+4", "0+1", "0+2", "0+5"), 3),
    (
        "Hardware Store",
        ("0+4", "0+1", "0+2", "6+0"),
        3,
        "2",
        "use Hardware Store: clay",
        ("0+4", "0+1", "0+2", "6+2"),
        3,
    ),
    (
        "Hardware Store",
        ("0+4", "0+1", "0+0", "0+3"),
        3,
        "3",
        "use Hardware Store: wood",
        ("0+4", "0+1", "0+3", "0+3"),
        3,
    ),
    (
        "Hardware Store",
        ("0+4", "0+1", "0+2", "6+0"),
        3,
        "4",
        "use Hardware Store: clay",
        ("0+4", "0+1", "0+2", "6+4"),
        3,
    ),
    # edge: wood 0+2 -> 0+5 after three steps, the fourth is lost
    edge("Hardware Store", P, 3, "4+1", "use Hardware Store: wood", ("0+4", "0+1", "0+5", "0+3"), 4),
    # Farm: Grain 2-4 up-right and 1 down-left applied against each other = 1-3 up-right (REFERENCE.md ruling)
    ("Farm", ("0+4", "0+0", "0+2", "0+3"), 3, "2", "use Farm", ("0+4", "3+1", "0+2", "0+3"), 3),
    ("Farm", ("0+4", "0+0", "0+2", "0+3"), 3, "3", "use Farm", ("0+4", "6+2", "0+2", "0+3"), 3),
    ("Farm", ("0+4", "0+0", "0+2", "0+3"), 3, "4", "use Farm", ("0+4", "9+3", "0+2", "0+3"), 3),
    ("Farm", ("0+4", "0+0", "0+2", "0+3"), 3, "4+1", "use Farm", ("0+4", "9+3", "0+2", "0+3"), 4),
    # edges: 9+3 -> 12+4 -> 15+5, the third step would leave the top row; 0+4 -> 3+5, the second would
    # leave the +5 column (a diagonal step is not made if it leaves the grid in either direction)
    edge("Farm", ("0+4", "9+3", "0+2", "0+3"), 3, "4", "use Farm", ("0+4", "15+5", "0+2", "0+3"), 3),
    edge("Farm", ("0+4", "0+4", "0+2", "0+3"), 3, "3", "use Farm", ("0+4", "3+5", "0+2", "0+3"), 3),
    # Kiln: Clay 2-4 up-left: 0+5 -> 3+4 -> 6+3 -> 9+2 -> 12+1
    ("Kiln", ("0+4", "0+1", "0+2", "0+5"), 3, "2", "use Kiln", ("0+4", "0+1", "0+2", "6+3"), 3),
    ("Kiln", ("0+4", "0+1", "0+2", "0+5"), 3, "3", "use Kiln", ("0+4", "0+1", "0+2", "9+2"), 3),
    ("Kiln", ("0+4", "0+1", "0+2", "0+5"), 3, "4", "use Kiln", ("0+4", "0+1", "0+2", "12+1"), 3),
    ("Kiln", ("0+4", "0+1", "0+2", "0+5"), 3, "4+1", "use Kiln", ("0+4", "0+1", "0+2", "12+1"), 4),
    # edges: from the start 0+3 -> 3+2 -> 6+1 -> 9+0, then the +0 column; 9+5 -> 12+4 -> 15+3, then the top row;
    # in the +0 column nothing moves
    edge("Kiln", P, 3, "4", "use Kiln", ("0+4", "0+1", "0+2", "9+0"), 3),
    edge("Kiln", ("0+4", "0+1", "0+2", "9+5"), 3, "4", "use Kiln", ("0+4", "0+1", "0+2", "15+3"), 3),
    edge("Kiln", ("0+4", "0+1", "0+2", "3+0"), 3, "4", "use Kiln", ("0+4", "0+1", "0+2", "3+0"), 3),
    # Smokehouse: Fish 2-4 up-left: 0+4 -> 3+3 -> 6+2 -> 9+1 -> 12+0
    ("Smokehouse", P, 3, "2", "use Smokehouse", ("6+2", "0+1", "0+2", "0+3"), 3),
    ("Smokehouse", P, 3, "3", "use Smokehouse", ("9+1", "0+1", "0+2", "0+3"), 3),
    ("Smokehouse", P, 3, "4", "use Smokehouse", ("12+0", "0+1", "0+2", "0+3"), 3),
    ("Smokehouse", P, 3, "4+1", "use Smokehouse", ("12+0", "0+1", "0+2", "0+3"), 4),
    # edges: 0+2 -> 3+1 -> 6+0, then the +0 column; 12+5 -> 15+4, then the top row
    edge("Smokehouse", ("0+2", "0+1", "0+2", "0+3"), 3, "4", "use Smokehouse", ("6+0", "0+1", "0+2", "0+3"), 3),
    edge("Smokehouse", ("12+5", "0+1", "0+2", "0+3"), 3, "3", "use Smokehouse", ("15+4", "0+1", "0+2", "0+3"), 3),
    # Bakehouse: Grain 2-4 up-left: 3+4 -> 6+3 -> 9+2 -> 12+1 -> 15+0
    ("Bakehouse", ("0+4", "3+4", "0+2", "0+3"), 3, "2", "use Bakehouse", ("0+4", "9+2", "0+2", "0+3"), 3),
    ("Bakehouse", ("0+4", "3+4", "0+2", "0+3"), 3, "3", "use Bakehouse", ("0+4", "12+1", "0+2", "0+3"), 3),
    ("Bakehouse", ("0+4", "3+4", "0+2", "0+3"), 3, "4", "use Bakehouse", ("0+4", "15+0", "0+2", "0+3"), 3),
    # edges: 6+2 -> 9+1 -> 12+0, then the +0 column; the top row: no step; the start 0+1 -> 3+0 and stop
    edge("Bakehouse", ("0+4", "6+2", "0+2", "0+3"), 3, "4+1", "use Bakehouse", ("0+4", "12+0", "0+2", "0+3"), 4),
    edge("Bakehouse", ("0+4", "15+3", "0+2", "0+3"), 3, "4", "use Bakehouse", ("0+4", "15+3", "0+2", "0+3"), 3),
    edge("Bakehouse", P, 3, "2", "use Bakehouse", ("0+4", "3+0", "0+2", "0+3"), 3),
    # Wood Trader: per application 1 Franc and 2 Food -> Wood 1 up.  From the start a 2-food payment is
    # fish 2 (0+4 -> 0+2) or fish 1 + grain 1 (0+4 -> 0+3, 0+1 -> 0+0).
    ("Wood Trader", P, 3, "2", "use Wood Trader: fish to 0+3, grain to 0+0", ("0+3", "0+0", "3+2", "0+3"), 2),
    # fish 0+4 -> 0+2, then fish 1 + grain 1 (0+2 -> 0+1, 0+1 -> 0+0); wood 0+2 -> 3+2 -> 6+2
    (
        "Wood Trader",
        P,
        3,
        "2",
        "use Wood Trader: fish to 0+2; fish to 0+1, grain to 0+0",
        ("0+1", "0+0", "6+2", "0+3"),
        1,
    ),
    # fish 0+5 -> 0+3 -> 0+1, then fish 1 + grain 1; wood 0+2 -> 9+2; three Francs
    (
        "Wood Trader",
        ("0+5", "0+1", "0+2", "0+3"),
        3,
        "3",
        "use Wood Trader: fish to 0+3; fish to 0+1; fish to 0+0, grain to 0+0",
        ("0+0", "0+0", "9+2", "0+3"),
        0,
    ),
    # fish in the +0 column can only pay 3 at a time (no change: 15 -> 12 -> 9 -> 6 -> 3); wood 0+0 -> 12+0
    (
        "Wood Trader",
        ("15+0", "0+0", "0+0", "0+3"),
        4,
        "4",
        "use Wood Trader: fish to 12+0; fish to 9+0; fish to 6+0; fish to 3+0",
        ("3+0", "0+0", "12+0", "0+3"),
        0,
    ),
    (
        "Wood Trader",
        P,
        0,
        "4+1",
        "use Wood Trader: fish to 0+3, grain to 0+0",
        ("0+3", "0+0", "3+2", "0+3"),
        0,
    ),  # the bonus Franc pays
    # edge: wood 12+2 -> 15+2 reaches the top row; a second exchange would be paid for nothing and is not offered
    edge(
        "Wood Trader",
        ("0+4", "0+1", "12+2", "0+3"),
        3,
        "3",
        "use Wood Trader: fish to 0+2",
        ("0+2", "0+1", "15+2", "0+3"),
        2,
    ),
    # Restaurant: per application sell 1 Food for 2 Francs
    ("Restaurant", P, 3, "2", "use Restaurant: fish to 0+3; grain to 0+0", ("0+3", "0+0", "0+2", "0+3"), 7),
    (
        "Restaurant",
        P,
        3,
        "3",
        "use Restaurant: fish to 0+3; fish to 0+2; grain to 0+0",
        ("0+2", "0+0", "0+2", "0+3"),
        9,
    ),
    (
        "Restaurant",
        P,
        3,
        "4",
        "use Restaurant: fish to 0+3; fish to 0+2; fish to 0+1; grain to 0+0",
        ("0+1", "0+0", "0+2", "0+3"),
        11,
    ),
    # no change: fish 3+0 can only move down (3 for 1 Food); then nothing is left to sell
    edge(
        "Restaurant",
        ("3+0", "0+1", "0+2", "0+3"),
        3,
        "4",
        "use Restaurant: grain to 0+0; fish to 0+0",
        ("0+0", "0+0", "0+2", "0+3"),
        7,
    ),
    ("Restaurant", P, 3, "4+1", "use Restaurant: grain to 0+0", ("0+4", "0+0", "0+2", "0+3"), 6),
    # Marketplace: 2-4 single moves right spread over any counters
    ("Marketplace", P, 3, "2", "use Marketplace: grain, clay", ("0+4", "0+2", "0+2", "0+4"), 3),
    ("Marketplace", P, 3, "3", "use Marketplace: fish, grain, clay", ("0+5", "0+2", "0+2", "0+4"), 3),
    ("Marketplace", P, 3, "4", "use Marketplace: fish, grain, clay x2", ("0+5", "0+2", "0+2", "0+5"), 3),
    ("Marketplace", P, 3, "4+1", "use Marketplace: fish, grain, clay x2", ("0+5", "0+2", "0+2", "0+5"), 4),
    # edge: wood 0+2 -> 0+5 after three moves; the fourth is lost at the +5 column
    edge("Marketplace", P, 3, "4", "use Marketplace: wood x4", ("0+4", "0+1", "0+5", "0+3"), 3),
    # Fish Market: per application 1 Franc -> Fish 1 up-right: 0+0 -> 3+1 -> 6+2 -> 9+3 -> 12+4
    ("Fish Market", ("0+0", "0+1", "0+2", "0+3"), 3, "2", "use Fish Market: x2", ("6+2", "0+1", "0+2", "0+3"), 1),
    ("Fish Market", ("0+0", "0+1", "0+2", "0+3"), 3, "3", "use Fish Market: x3", ("9+3", "0+1", "0+2", "0+3"), 0),
    ("Fish Market", ("0+0", "0+1", "0+2", "0+3"), 4, "4", "use Fish Market: x4", ("12+4", "0+1", "0+2", "0+3"), 0),
    (
        "Fish Market",
        ("0+0", "0+1", "0+2", "0+3"),
        0,
        "4+1",
        "use Fish Market: x1",
        ("3+1", "0+1", "0+2", "0+3"),
        0,
    ),  # bonus Franc pays
    # edges: 0+4 -> 3+5, then the +5 column; 9+2 -> 12+3 -> 15+4, then the top row
    edge("Fish Market", P, 3, "4", "use Fish Market: x1", ("3+5", "0+1", "0+2", "0+3"), 2),
    edge("Fish Market", ("9+2", "0+1", "0+2", "0+3"), 3, "4", "use Fish Market: x2", ("15+4", "0+1", "0+2", "0+3"), 1),
    # Sawmill: Wood 2-4 up-left: 0+5 -> 3+4 -> 6+3 -> 9+2 -> 12+1
    ("Sawmill", ("0+4", "0+1", "0+5", "0+3"), 3, "2", "use Sawmill", ("0+4", "0+1", "6+3", "0+3"), 3),
    ("Sawmill", ("0+4", "0+1", "0+5", "0+3"), 3, "3", "use Sawmill", ("0+4", "0+1", "9+2", "0+3"), 3),
    ("Sawmill", ("0+4", "0+1", "0+5", "0+3"), 3, "4", "use Sawmill", ("0+4", "0+1", "12+1", "0+3"), 3),
    ("Sawmill", ("0+4", "0+1", "0+5", "0+3"), 3, "4+1", "use Sawmill", ("0+4", "0+1", "12+1", "0+3"), 4),
    # edges: the start 0+2 -> 3+1 -> 6+0, then the +0 column; 12+4 -> 15+3, then the top row
    edge("Sawmill", P, 3, "4", "use Sawmill", ("0+4", "0+1", "6+0", "0+3"), 3),
    edge("Sawmill", ("0+4", "0+1", "12+4", "0+3"), 3, "3", "use Sawmill", ("0+4", "0+1", "15+3", "0+3"), 3),
    # Building Firm: Wood and Clay 2-4 right
    *[
        (
            "Building Firm",
            ("0+4", "0+1", "0+0", "3+0"),
            3,
            s,
            "use Building Firm",
            ("0+4", "0+1", f"0+{n}", f"3+{n}"),
            3 + bonus(s),
        )
        for s, n in (("2", 2), ("3", 3), ("4", 4), ("4+1", 4))
    ],
    # edge: from the start wood 0+2 and clay 0+3 both stop at +5
    edge("Building Firm", P, 3, "4", "use Building Firm", ("0+4", "0+1", "0+5", "0+5"), 3),
    # Church Square: Grain and Fish 2-4 right
    *[
        (
            "Church Square",
            ("3+0", "0+0", "0+2", "0+3"),
            3,
            s,
            "use Church Square",
            (f"3+{n}", f"0+{n}", "0+2", "0+3"),
            3 + bonus(s),
        )
        for s, n in (("2", 2), ("3", 3), ("4", 4), ("4+1", 4))
    ],
    # edge: from the start fish 0+4 and grain 0+1 both stop at +5
    edge("Church Square", P, 3, "4", "use Church Square", ("0+5", "0+5", "0+2", "0+3"), 3),
    # Weekly Market: Grain or Fish 1 down for 4 Francs each time, always the same good
    (
        "Weekly Market",
        ("9+1", "0+1", "0+2", "0+3"),
        3,
        "2",
        "use Weekly Market: fish x2",
        ("3+1", "0+1", "0+2", "0+3"),
        11,
    ),
    (
        "Weekly Market",
        ("9+1", "0+1", "0+2", "0+3"),
        3,
        "3",
        "use Weekly Market: fish x3",
        ("0+1", "0+1", "0+2", "0+3"),
        15,
    ),
    (
        "Weekly Market",
        ("12+0", "0+1", "0+2", "0+3"),
        3,
        "4",
        "use Weekly Market: fish x4",
        ("0+0", "0+1", "0+2", "0+3"),
        19,
    ),
    edge(
        "Weekly Market",
        ("9+1", "0+1", "0+2", "0+3"),
        3,
        "4",
        "use Weekly Market: fish x3",
        ("0+1", "0+1", "0+2", "0+3"),
        15,
    ),  # row 0 reached
    (
        "Weekly Market",
        ("9+1", "6+1", "0+2", "0+3"),
        3,
        "4+1",
        "use Weekly Market: grain x2",
        ("9+1", "0+1", "0+2", "0+3"),
        12,
    ),
    # Masons' Guild: 2-4 different counters 1 up-left (from the start: fish 3+3, grain 3+0, wood 3+1, clay 3+2)
    ("Masons' Guild", P, 3, "2", "use Masons' Guild: fish, grain", ("3+3", "3+0", "0+2", "0+3"), 3),
    ("Masons' Guild", P, 3, "3", "use Masons' Guild: fish, grain, wood", ("3+3", "3+0", "3+1", "0+3"), 3),
    ("Masons' Guild", P, 3, "4", "use Masons' Guild: fish, grain, wood, clay", ("3+3", "3+0", "3+1", "3+2"), 3),
    ("Masons' Guild", P, 3, "4+1", "use Masons' Guild: fish, grain, wood, clay", ("3+3", "3+0", "3+1", "3+2"), 4),
    # edge: fish in the +0 column and grain in the top row cannot step up-left
    edge(
        "Masons' Guild",
        ("0+0", "15+3", "0+2", "0+3"),
        3,
        "4",
        "use Masons' Guild: fish, grain, wood, clay",
        ("0+0", "15+3", "3+1", "3+2"),
        3,
    ),
    # Business Office: 2-4 different counters 1 down-left (3+1 -> 0+0), 5 Francs per movement
    (
        "Business Office",
        ("3+1", "3+1", "0+2", "0+3"),
        3,
        "2",
        "use Business Office: fish, grain",
        ("0+0", "0+0", "0+2", "0+3"),
        13,
    ),
    (
        "Business Office",
        ("3+1", "3+1", "3+1", "0+3"),
        3,
        "3",
        "use Business Office: fish, grain, wood",
        ("0+0", "0+0", "0+0", "0+3"),
        18,
    ),
    ("Business Office", ("3+1",) * 4, 3, "4", "use Business Office: fish, grain, wood, clay", ("0+0",) * 4, 23),
    ("Business Office", ("3+1",) * 4, 3, "4+1", "use Business Office: fish, grain, wood, clay", ("0+0",) * 4, 24),
    # edge: grain in the bottom row and wood in the +0 column cannot move; clay 6+5 -> 3+4
    edge(
        "Business Office",
        ("3+1", "0+1", "3+0", "6+5"),
        3,
        "4",
        "use Business Office: fish, clay",
        ("0+0", "0+1", "3+0", "3+4"),
        13,
    ),
    # Shipping Line: 6, 9, 12 Francs; 13 in 4+1
    ("Shipping Line", P, 3, "2", "use Shipping Line", P, 9),
    ("Shipping Line", P, 3, "3", "use Shipping Line", P, 12),
    ("Shipping Line", P, 3, "4", "use Shipping Line", P, 15),
    ("Shipping Line", P, 3, "4+1", "use Shipping Line", P, 16),
    # Guild Hall: 2-4 different counters 1 up-right (from the start: fish 3+5, grain 3+2, wood 3+3, clay 3+4)
    ("Guild Hall", P, 3, "2", "use Guild Hall: fish, clay", ("3+5", "0+1", "0+2", "3+4"), 3),
    ("Guild Hall", P, 3, "3", "use Guild Hall: fish, grain, clay", ("3+5", "3+2", "0+2", "3+4"), 3),
    ("Guild Hall", P, 3, "4", "use Guild Hall: fish, grain, wood, clay", ("3+5", "3+2", "3+3", "3+4"), 3),
    ("Guild Hall", P, 3, "4+1", "use Guild Hall: fish, grain, wood, clay", ("3+5", "3+2", "3+3", "3+4"), 4),
    # edge: fish on the +5 column and grain in the top row cannot step up-right
    edge(
        "Guild Hall",
        ("0+5", "15+0", "0+2", "0+3"),
        3,
        "4",
        "use Guild Hall: fish, grain, wood, clay",
        ("0+5", "15+0", "3+3", "3+4"),
        3,
    ),
    # Pier: 2-4 moves right plus 2 more
    ("Pier", P, 3, "2", "use Pier: fish, grain, clay x2", ("0+5", "0+2", "0+2", "0+5"), 3),
    (
        "Pier",
        ("3+0", "0+0", "0+0", "0+3"),
        3,
        "3",
        "use Pier: fish x2, grain x2, wood",
        ("3+2", "0+2", "0+1", "0+3"),
        3,
    ),
    (
        "Pier",
        ("3+0", "0+0", "0+0", "0+3"),
        3,
        "4",
        "use Pier: fish x2, grain x2, wood x2",
        ("3+2", "0+2", "0+2", "0+3"),
        3,
    ),
    (
        "Pier",
        ("3+0", "0+0", "0+0", "0+3"),
        3,
        "4+1",
        "use Pier: fish x2, grain x2, wood x2",
        ("3+2", "0+2", "0+2", "0+3"),
        4,
    ),
    # edge: fish 0+4 -> 0+5, its second move is lost
    edge("Pier", P, 3, "2", "use Pier: fish x2, wood x2", ("0+5", "0+1", "0+4", "0+3"), 3),
    # Craftsmen's Yard: 2-4 moves up-left plus 1 more
    ("Craftsmen's Yard", P, 3, "2", "use Craftsmen's Yard: fish, grain, wood", ("3+3", "3+0", "3+1", "0+3"), 3),
    ("Craftsmen's Yard", P, 3, "3", "use Craftsmen's Yard: fish x2, grain, wood", ("6+2", "3+0", "3+1", "0+3"), 3),
    ("Craftsmen's Yard", P, 3, "4", "use Craftsmen's Yard: fish x2, grain, wood x2", ("6+2", "3+0", "6+0", "0+3"), 3),
    ("Craftsmen's Yard", P, 3, "4+1", "use Craftsmen's Yard: fish x2, grain, wood x2", ("6+2", "3+0", "6+0", "0+3"), 4),
    # edge: wood 0+2 -> 3+1 -> 6+0, the third move is lost at the +0 column
    edge("Craftsmen's Yard", P, 3, "2", "use Craftsmen's Yard: wood x3", ("0+4", "0+1", "6+0", "0+3"), 3),
]


@pytest.mark.parametrize(
    "name,before,francs,sector,text,after,francs_after", CASES, ids=[f"{c[0]}-{c[3]}-{i}" for i, c in enumerate(CASES)]
)
def test_building_function(name, before, francs, sector, text, after, francs_after):
    s = position(goods=before, francs=francs, buildings=[(name, 0, sector)])
    assert texts(s) == before and s.goods[0] == amounts(before)
    action = parse_action(s, text)
    assert str(action) == text, f"'{text}' is not the canonical form of {action}"
    s.apply_action(action)
    assert texts(s) == after
    assert s.goods[0] == amounts(after)  # seeds/004: the amount is the row's value plus the column's
    assert s.francs[0] == francs_after
    assert s.sector[s.catalog.index[name]] == 0  # seeds/004 "Use": the used building moves to sector 0
    # seeds/004 "Sell": anytime during his turn, in addition to his action -- the owner may still sell
    assert s.acted and s.current_player() == 0
    assert [str(a) for a in s.legal_actions()] == ["end", f"sell {name}"]


def test_every_functional_building_is_covered_in_every_sector():
    covered = {(c[0], c[3]) for c in CASES}
    s = position()
    for b in s.catalog.buildings:
        if not b.locked:
            for sector in ("2", "3", "4", "4+1"):
                assert (b.name, sector) in covered, f"{b.name} in sector {sector} is not pinned"


def test_every_functional_building_has_an_edge_case():
    # seeds/004 "Important: A goods counter stops at the last space of a row or column" (and, for payments,
    # "There is no change"): every building that moves a counter has a case above marked edge(...), where a
    # counter sits on or runs into the grid's edge and the code must stop it there.
    marked = {c[0] for c in EDGE}
    for b in position().catalog.buildings:
        if not b.locked and b.name != "Shipping Line":  # the Shipping Line moves no counter
            assert b.name in marked, f"{b.name} has no edge case"
    assert all(c in CASES for c in EDGE)


#: seeds/004 "The meaning of the symbols": the ten buildings that move a counter 2-4 spaces along a row or a
#: diagonal (issue 10); each must do more in sector 4 than in sector 2 from some position.
FURTHER_IN_4 = (
    "Wood Company",
    "Farmland",
    "Clay Mound",
    "Hardware Store",
    "Kiln",
    "Smokehouse",
    "Bakehouse",
    "Sawmill",
    "Building Firm",
    "Church Square",
)


@pytest.mark.parametrize("name", FURTHER_IN_4)
def test_sector_4_moves_further_than_sector_2(name):
    # seeds/004 building index: "2-4 spaces ... according to the position"; from the same warehouse the
    # hand-derived cases above give different cells in sectors 2 and 4, and the code must produce both.
    pairs = [
        (c2, c4)
        for c2 in CASES
        for c4 in CASES
        if c2[0] == c4[0] == name and c2[3] == "2" and c4[3] == "4" and c2[1] == c4[1] and c2[4] == c4[4]
    ]
    assert pairs, f"no case of {name} in sectors 2 and 4 from the same warehouse"
    assert any(amounts(c4[5]) != amounts(c2[5]) for c2, c4 in pairs)
    c2, c4 = next((c2, c4) for c2, c4 in pairs if amounts(c4[5]) != amounts(c2[5]))
    results = []
    for case in (c2, c4):
        s = position(goods=case[1], francs=case[2], buildings=[(name, 0, case[3])])
        s.apply_action(parse_action(s, case[4]))
        results.append(s.goods[0])
    assert sum(results[1]) > sum(results[0])


def test_hardware_store_moves_wood_or_clay_never_both():
    # seeds/004 Hardware Store: "Move either Wood or Clay ... You may not distribute the 2-4 spaces".
    s = position(buildings=[("Hardware Store", 0, "2")])
    assert uses(s, "Hardware Store") == ["use Hardware Store: wood", "use Hardware Store: clay"]


def test_marketplace_offers_each_distinct_outcome_once():
    # seeds/004 Marketplace: "You may move the same goods counter multiple times ... or distribute".
    # From the start two moves right: fish has 1 step to the +5 column, grain 4, wood 3, clay 2, so all 10
    # ways to place two moves on four counters give different warehouses.
    s = position(buildings=[("Marketplace", 0, "2")])
    assert len(uses(s, "Marketplace")) == 10
    # With fish and grain on the +5 column their moves are lost (REFERENCE.md edge ruling): fish x2, fish+grain
    # and grain x2 change nothing, fish+wood = grain+wood, fish+clay = grain+clay.  Six warehouses remain.
    s = position(goods=("0+5", "0+5", "0+2", "0+3"), buildings=[("Marketplace", 0, "2")])
    offered = uses(s, "Marketplace")
    assert len(offered) == 6
    for t in ("use Marketplace: wood x2", "use Marketplace: wood, clay", "use Marketplace: clay x2"):
        assert t in offered


def test_business_office_offers_only_counters_that_can_move():
    # seeds/004 Business Office: "Collect 5 Francs per movement"; a counter in the bottom row or the +0 column
    # cannot move down-left (REFERENCE.md edge ruling), so it earns nothing and is not offered.
    # From the start every counter is in the bottom row: nothing can move.
    s = position(buildings=[("Business Office", 0, "4")])
    assert uses(s, "Business Office") == ["use Business Office: none"]
    # fish 3+1 and clay 6+5 can move; grain 0+1 (bottom row) and wood 3+0 (+0 column) cannot
    s = position(goods=("3+1", "0+1", "3+0", "6+5"), buildings=[("Business Office", 0, "4")])
    assert sorted(uses(s, "Business Office")) == sorted(
        [
            "use Business Office: fish, clay",
            "use Business Office: fish",
            "use Business Office: clay",
            "use Business Office: none",
        ]
    )


def test_weekly_market_always_with_the_same_good():
    # seeds/004 Weekly Market: "always with the same resource"; fish and grain on 9+1 can each move down 3 times.
    s = position(goods=("9+1", "9+1", "0+2", "0+3"), buildings=[("Weekly Market", 0, "4")])
    offered = uses(s, "Weekly Market")
    assert sorted(offered) == sorted(
        ["use Weekly Market: x0"] + [f"use Weekly Market: {g} x{n}" for g in ("fish", "grain") for n in (1, 2, 3)]
    )
    assert all(re.fullmatch(r"use Weekly Market: (x0|(fish|grain) x[1-3])", t) for t in offered)


def test_restaurant_cannot_sell_food_that_is_not_there():
    # seeds/004 Restaurant: sell 1 Food for 2 Francs, up to 4 times in sector 4; this warehouse holds 3 food
    # (fish 0+2, grain 0+1), and each sale moves a counter at least one space left or down.
    s = position(goods=("0+2", "0+1", "0+2", "0+3"), buildings=[("Restaurant", 0, "4")])
    assert max(t.count(";") + 1 for t in uses(s, "Restaurant")) == 3


def test_exchanges_whose_gain_cannot_be_made_are_not_offered():
    # seeds/004 Wood Trader / Fish Market: pay to move a counter; REFERENCE.md: a counter at the edge stops.
    # Wood 12+2 can rise once (to the top row 15+2); fish 0+4 can step up-right once (to the +5 column 3+5).
    s = position(goods=("0+4", "0+1", "12+2", "0+3"), buildings=[("Wood Trader", 0, "3")])
    assert max(t.count(";") + 1 for t in uses(s, "Wood Trader") if not t.endswith("x0")) == 1
    s = position(buildings=[("Fish Market", 0, "4")])
    assert uses(s, "Fish Market") == ["use Fish Market: x0", "use Fish Market: x1"]


def test_using_a_building_leaves_the_turn_to_end():
    # seeds/004 "Sell": "Anytime during his turn, a player may sell his own buildings in addition to his action";
    # after the action the turn ends with 'end' (or by selling everything).
    s = position(buildings=[("Shipping Line", 0, "3")])
    s.apply_action(parse_action(s, "use Shipping Line"))
    assert s.acted and s.current_player() == 0 and s.actions_left == 9
    finish_turn(s)
    assert not s.acted and s.current_player() == 1 and s.actions_left == 8


def test_lock_buildings_cannot_be_used_and_never_age():
    # seeds/004 Town Hall: "You do not need to place buildings with a lock symbol on your board since they do not
    # have a specific function."  REFERENCE.md: they never go on a wheel, never age, are never force-sold.
    s = position(buildings=[("Town Hall", 0, "0")], round_letter="A")
    assert "no function" in s.why_illegal("use Town Hall")
    while not s.is_terminal():  # to the end of the game, past the final forced sale
        s.apply_action(next(a for a in s.legal_actions() if a.verb != "sell"))
    assert s.building_owners().get("Town Hall") == 0
