"""Static tables derived from the data files, indexed for the engine's hot paths.

Buildings get integer ids: the 33 standard buildings (data file order) then the
36 special buildings.  Goods are indices into ``GOODS``.  Nothing here changes
during a game.
"""

from __future__ import annotations

from typing import Final

from base_game import data

GOODS: Final = data.GOODS
GI: Final = data.GOOD_INDEX
NG: Final = len(GOODS)
(
    FISH,
    SMOKED_FISH,
    WOOD,
    CHARCOAL,
    CLAY,
    BRICK,
    IRON,
    STEEL,
    GRAIN,
    BREAD,
    CATTLE,
    MEAT,
    HIDES,
    LEATHER,
    COAL,
    COKE,
) = range(NG)

GOOD_LABEL: Final[tuple[str, ...]] = tuple(g.replace("_", " ") for g in GOODS)
LABEL_TO_GOOD: Final = {lbl: i for i, lbl in enumerate(GOOD_LABEL)}

#: food and energy values (seeds/000, Components: fish 1, smoked fish 2, bread 2, meat 3;
#: wood 1, charcoal 3, coal 3, coke 10)
FOOD_SOURCES: Final[tuple[tuple[int, int], ...]] = ((FISH, 1), (SMOKED_FISH, 2), (BREAD, 2), (MEAT, 3))
ENERGY_SOURCES: Final[tuple[tuple[int, int], ...]] = ((WOOD, 1), (CHARCOAL, 3), (COAL, 3), (COKE, 10))
FOOD_VALUE: Final = [0] * NG
for _g, _v in FOOD_SOURCES:
    FOOD_VALUE[_g] = _v
ENERGY_VALUE: Final = [0] * NG
for _g, _v in ENERGY_SOURCES:
    ENERGY_VALUE[_g] = _v

#: shipping values (seeds/000, Shipping Line): meat, smoked fish, charcoal, hide, brick,
#: iron 2; cattle, bread, coal 3; leather 4; coke 5; steel 8; others 1
SHIP_VALUE: Final = [1] * NG
for _g, _v in (
    (MEAT, 2),
    (SMOKED_FISH, 2),
    (CHARCOAL, 2),
    (HIDES, 2),
    (BRICK, 2),
    (IRON, 2),
    (CATTLE, 3),
    (BREAD, 3),
    (COAL, 3),
    (LEATHER, 4),
    (COKE, 5),
    (STEEL, 8),
):
    SHIP_VALUE[_g] = _v

STANDARD: Final = tuple(GI[g] for g in data.STANDARD_GOODS)
UPGRADED: Final = tuple(GI[g] for g in data.UPGRADED_GOODS)
IS_UPGRADED: Final = [False] * NG
for _g in UPGRADED:
    IS_UPGRADED[_g] = True

#: offer spaces in board order; index 0 is francs
OFFER_GOODS: Final = data.OFFER_GOODS
OFFER_LABEL: Final[tuple[str, ...]] = ("francs", "fish", "wood", "clay", "iron", "grain", "cattle")
OFFER_TO_GOOD: Final = (None, FISH, WOOD, CLAY, IRON, GRAIN, CATTLE)


def offer_good(i: int) -> int:
    """The good on Offer space ``i`` (1-6; space 0 holds francs, not a good)."""
    g = OFFER_TO_GOOD[i]
    if g is None:
        raise AssertionError("Offer space 0 holds francs, not a good")
    return g


#: francs a loan brings, and francs that repay one (the rulebook, Loan Cards)
LOAN_FRANCS: Final = 4
LOAN_REPAYMENT: Final = 5


def sale_price(value: int) -> int:
    """What a building or ship sells for: half its value, rounded down (the rulebook, Selling)."""
    return value // 2


BUILDINGS: Final = data.standard_buildings() + data.special_buildings()
NB: Final[int] = len(BUILDINGS)
NAME: Final[tuple[str, ...]] = tuple(c.name for c in BUILDINGS)
BY_NAME: Final = {c.name.lower(): i for i, c in enumerate(BUILDINGS)}
VALUE: Final = tuple(c.value for c in BUILDINGS)
PRICE: Final = tuple(c.price for c in BUILDINGS)
BTYPE: Final = tuple(c.type for c in BUILDINGS)
HAMMERS: Final = tuple(c.hammers for c in BUILDINGS)
FISHERMEN: Final = tuple(c.fishermen for c in BUILDINGS)
EFFECT: Final = tuple(c.effect for c in BUILDINGS)
PARAMS: Final = tuple(c.params for c in BUILDINGS)
ENTRY_FOOD: Final = tuple(c.entry_food or 0 for c in BUILDINGS)
ENTRY_FRANCS: Final = tuple(c.entry_francs or 0 for c in BUILDINGS)
BUILDABLE: Final = tuple(c.buildable for c in BUILDINGS)
IS_SPECIAL: Final = tuple(c.kind == "special" for c in BUILDINGS)
SORT_KEY: Final = tuple(int(c.sort_order) if c.sort_order and c.sort_order.isdigit() else 99 for c in BUILDINGS)
SORT_ORDER: Final = tuple(c.sort_order for c in BUILDINGS)
BY_SORT_ORDER: Final = {c.sort_order: i for i, c in enumerate(BUILDINGS) if c.kind == "standard"}
MATERIALS: Final = tuple(tuple((GI[g], n) for g, n in c.materials.items()) for c in BUILDINGS)
STANDARD_IDS: Final = tuple(i for i, c in enumerate(BUILDINGS) if c.kind == "standard")
SPECIAL_IDS: Final = tuple(i for i, c in enumerate(BUILDINGS) if c.kind == "special")


def bid(name: str) -> int:
    return BY_NAME[name.lower()]


MASONS_GUILD: Final = bid("Masons' Guild")
WIND_FARM: Final = bid("Wind Farm")
FEEDLOT: Final = bid("Feedlot")
LUXURY_YACHT: Final = bid("Luxury Yacht")
FOOTBALL_STADIUM: Final = bid("Football Stadium")
BLACK_MARKET: Final = bid("Black Market")
WHARVES: Final = (bid("Wharf 1"), bid("Wharf 2"))

SHIP_TYPES: Final[tuple[str, ...]] = ("wooden", "iron", "steel", "luxury_liner")
SHIP_TYPE_LABEL: Final[dict[str, str]] = {
    "wooden": "wooden ship",
    "iron": "iron ship",
    "steel": "steel ship",
    "luxury_liner": "luxury liner",
}
