"""The base game's data: buildings, round cards, ships, supply tiles.

Every table is a file in ``base_game/data/`` read and validated here:

* ``standard_buildings.json`` / ``special_buildings.json``: the 33 standard and
  36 special buildings of the Buildings overview, which all three base-game
  rulebooks carry: seeds/000 ("# Buildings Overview", English), seeds/001
  ("기본 건물" / "특수 건물", Korean) and seeds/002 ("Budynki zwykłe" /
  "Budynki specjalne", Polish).  Types, sort orders, values, prices, entry
  fees, materials, hammers and fishermen as printed there; where the
  overviews differ the English text wins (REFERENCE.md), with two exceptions,
  each visible in the card itself:

  - the Hardware Store is Economic (``type`` tagged ``ruling``): its English
    entry prints C, but the overview's own totals (9 Craftsman's, 6 Economic
    standard buildings; seeds/000 and seeds/002) only hold with it E;
  - the Coal Trader's caps (at most 1 charcoal, at most 5 coal) are the Polish
    entry's (seeds/002), which the English one leaves open.

  The Ironworks and the Arts Centre keep the overview's materials; their
  ``function`` says that published implementations print others.
  Each card names its ``effect`` (a key of the ONE registry in
  :mod:`base_game.effects`) and the effect's numbers in ``params`` -- e.g.
  Bakehouse and Brickworks are the same ``upgrade`` effect with other goods,
  Bakery and Fish Market the same ``exchange`` effect with other goods and
  prices.
* ``round_cards.csv``, ``ships.csv``, ``supply_tiles.csv``,
  ``standard_buildings_in_play.csv``: copies of REFERENCE.md's [pub] tables,
  with one correction that REFERENCE.md itself asks for ("Data checked
  against an independent implementation"): in the 3-player full game round
  11 turns into a *steel* ship of value 10, so that every table draws on the
  one card set of seeds/000 (7 wooden, 6 iron, 4 steel, 3 luxury liners).

Provenance: a datum without a ``provenance`` entry comes from the rulebook.
The CSV tables are ``reference`` data (REFERENCE.md, [pub]).
"""

from __future__ import annotations

import csv
from collections.abc import Collection, Iterable
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from core.cards import Card, DataFileError, load_cards

DATA_DIR = Path(__file__).with_name("data")

#: every good of the base game, in the order used for players' supplies
GOODS: tuple[str, ...] = (
    "fish",
    "smoked_fish",
    "wood",
    "charcoal",
    "clay",
    "brick",
    "iron",
    "steel",
    "grain",
    "bread",
    "cattle",
    "meat",
    "hides",
    "leather",
    "coal",
    "coke",
)
GOOD_INDEX = {g: i for i, g in enumerate(GOODS)}
#: standard (un-upgraded) goods; their upgraded side
STANDARD_GOODS = ("fish", "wood", "clay", "iron", "grain", "cattle", "hides", "coal")
UPGRADED_GOODS = ("smoked_fish", "charcoal", "brick", "steel", "bread", "meat", "leather", "coke")


class BuildingCard(Card):
    """A standard or special building as printed (seeds/000 Buildings Overview)."""

    kind: Literal["standard", "special"]
    type: Literal["C", "E", "I", "P", "N", "S"]
    sort_order: str | None = None
    value: int = Field(ge=0)
    #: purchase price in francs; ``None``: cannot be bought
    price: int | None = Field(default=None, ge=0)
    #: entry fee in food (francs may replace food 1:1), ``None`` if none
    entry_food: int | None = Field(default=None, ge=1)
    #: entry fee in francs (an alternative to the food fee when both are given)
    entry_francs: int | None = Field(default=None, ge=1)
    materials: dict[str, int] = Field(default_factory=dict)
    hammers: int = Field(default=0, ge=0)
    fishermen: int = Field(default=0, ge=0)
    effect: str
    #: the effect's numbers, free-form JSON each effect reads (see base_game.effects)
    params: dict[str, Any] = Field(default_factory=dict)
    #: can it be built with a building action (Black Market, Clay Mound, the
    #: starting buildings and special buildings other than the Football Stadium cannot)
    buildable: bool = True

    @field_validator("materials")
    @classmethod
    def _known_materials(cls, v: dict[str, int]) -> dict[str, int]:
        for g, n in v.items():
            if g not in ("wood", "clay", "brick", "iron", "steel"):
                raise ValueError(f"unknown building material '{g}' (allowed: wood, clay, brick, iron, steel)")
            if n <= 0:
                raise ValueError(f"material '{g}' must be a positive amount")
        return v


class RoundCard(BaseModel):
    model_config = ConfigDict(frozen=True)
    players: int = Field(ge=1, le=5)
    version: Literal["full", "short"]
    round: int = Field(ge=1)
    harvest: bool
    food: int = Field(ge=0)
    town_builds: Literal["standard", "special", "none"]
    ship_value: int = Field(ge=0)
    ship_type: Literal["wooden", "iron", "steel", "luxury_liner"]
    provenance: str = "reference"


class ShipType(BaseModel):
    model_config = ConfigDict(frozen=True)
    ship_type: Literal["wooden", "iron", "steel", "luxury_liner"]
    material: str
    material_count: int = Field(ge=1)
    build_energy: int = Field(ge=0)
    buy_price: int | None
    food: tuple[int, int, int, int, int]
    shipping_capacity: int = Field(ge=0)
    provenance: str = "reference"


class SupplyTile(BaseModel):
    model_config = ConfigDict(frozen=True)
    tile: int = Field(ge=1, le=7)
    first: str
    second: str
    interest: bool
    provenance: str = "reference"

    @field_validator("first", "second")
    @classmethod
    def _offer_good(cls, v: str) -> str:
        if v not in OFFER_GOODS:
            raise ValueError(f"'{v}' has no Offer space (allowed: {', '.join(OFFER_GOODS)})")
        return v


#: the seven Offer spaces in board order (Haulage Firm's neighbours follow it)
OFFER_GOODS = ("franc", "fish", "wood", "clay", "iron", "grain", "cattle")


def _read_csv(name: str) -> list[dict[str, str]]:
    path = DATA_DIR / name
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            return list(csv.DictReader(fh))
    except FileNotFoundError:
        raise DataFileError(f"{path}: no such file") from None


def _yes(v: str, path: str, row: int, field: str) -> bool:
    if v not in ("yes", "no"):
        raise DataFileError(f"{path}: row {row}, field '{field}': expected yes or no, got '{v}'")
    return v == "yes"


@cache
def standard_buildings() -> tuple[BuildingCard, ...]:
    cards = load_cards(DATA_DIR / "standard_buildings.json", BuildingCard)
    _check(cards, "standard_buildings.json", "standard", 33)
    return tuple(cards)


@cache
def special_buildings() -> tuple[BuildingCard, ...]:
    cards = load_cards(DATA_DIR / "special_buildings.json", BuildingCard)
    _check(cards, "special_buildings.json", "special", 36)
    return tuple(cards)


def _check(cards: list[BuildingCard], name: str, kind: str, count: int) -> None:
    if len(cards) != count:
        raise DataFileError(f"{DATA_DIR / name}: expected {count} {kind} buildings, found {len(cards)}")
    for c in cards:
        if c.kind != kind:
            raise DataFileError(f"{DATA_DIR / name}: building '{c.name}', field 'kind': expected {kind}")


def check_effects(cards: Iterable[BuildingCard], registry: Collection[str]) -> None:
    """Every card's ``effect`` must name an entry of the one effect registry."""
    for c in cards:
        if c.effect not in registry:
            raise DataFileError(
                f"{DATA_DIR}: building '{c.name}', field 'effect': unknown effect '{c.effect}' "
                f"(allowed: {', '.join(sorted(registry))})"
            )


@cache
def round_cards(players: int, short: bool) -> tuple[RoundCard, ...]:
    version = "short" if short else "full"
    out = []
    for i, row in enumerate(_read_csv("round_cards.csv"), start=2):
        if int(row["players"]) != players or row["version"] != version:
            continue
        # model_validate: the literal fields (version, town_builds, ship_type) are checked from the file's text
        out.append(
            RoundCard.model_validate(
                {
                    "players": players,
                    "version": version,
                    "round": int(row["round"]),
                    "harvest": _yes(row["harvest"], "round_cards.csv", i, "harvest"),
                    "food": int(row["food"]),
                    "town_builds": row["town_builds"],
                    "ship_value": int(row["ship_value"]),
                    "ship_type": row["ship_type"],
                }
            )
        )
    out.sort(key=lambda r: r.round)
    if [r.round for r in out] != list(range(1, len(out) + 1)):
        raise DataFileError(f"{DATA_DIR / 'round_cards.csv'}: rounds for {players} players ({version}) are not 1..n")
    return tuple(out)


@cache
def ship_types() -> dict[str, ShipType]:
    out = {}
    for row in _read_csv("ships.csv"):
        count, material = row["build_materials"].split(" ", 1)
        # model_validate: the ship type (a literal) and the five food values are checked from the file's text
        out[row["ship_type"]] = ShipType.model_validate(
            {
                "ship_type": row["ship_type"],
                "material": material.strip(),
                "material_count": int(count),
                "build_energy": int(row["build_energy"]),
                "buy_price": int(row["buy_price"]) if row["buy_price"] else None,
                "food": tuple(int(row[f"food_{n}p"]) for n in range(1, 6)),
                "shipping_capacity": int(row["shipping_capacity"]),
            }
        )
    return out


@cache
def supply_tiles() -> tuple[SupplyTile, ...]:
    tiles = tuple(
        SupplyTile(
            tile=int(r["tile"]),
            first=r["first"],
            second=r["second"],
            interest=_yes(r["interest"], "supply_tiles.csv", i, "interest"),
        )
        for i, r in enumerate(_read_csv("supply_tiles.csv"), start=2)
    )
    if sorted(t.tile for t in tiles) != list(range(1, 8)) or sum(t.interest for t in tiles) != 1:
        raise DataFileError(f"{DATA_DIR / 'supply_tiles.csv'}: expected tiles 1-7 with exactly one Interest tile")
    return tiles


@cache
def buildings_in_play(players: int, short: bool) -> dict[str, str]:
    """Standard building sort order -> ``yes`` / ``no`` / ``start`` for this game."""
    col = f"{'short' if short else 'full'}_{players}p"
    out = {}
    for i, row in enumerate(_read_csv("standard_buildings_in_play.csv"), start=2):
        v = row[col]
        if v not in ("yes", "no", "start"):
            raise DataFileError(
                f"standard_buildings_in_play.csv: row {i}, field '{col}': '{v}' (allowed: yes, no, start)"
            )
        out[row["sort_order"]] = v
    return out


@cache
def data_digest() -> str:
    """One hash over every rules data file of the base game (not the AI's evaluation weights,
    which change no rule: a save replays the same with any weights)."""
    import hashlib

    h = hashlib.sha256()
    for path in sorted(DATA_DIR.iterdir()):
        if path.suffix in (".json", ".csv") and path.name != "eval_weights.json":
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]
