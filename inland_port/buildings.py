"""The Inland Port's 31 buildings as validated data.

The data file (the default one of ``inland_port/data/``, see :mod:`inland_port.shipped`) gives each building its
letter, cost, value, function text and *effect*: the name of one of a few
small effect functions (``inland_port/effects.py``) with its numbers as
parameters.  ``--buildings FILE`` replaces the file for a game; a malformed
file is refused by :func:`load_catalog` naming file, building and field.

Where the numbers come from (REFERENCE.md, "Building data [rec]"): the
functions, the letters A and B and the values of Town Hall, Zoo and Pont de
Normandie are in seeds/004; costs, other values and letters C-L were printed
on icons lost in extraction and are reconstructed.  Each building's
``provenance`` says so field by field.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, ValidationError, model_validator

from core.cards import Card, DataFileError, Provenance, cards_digest, load_cards
from core.datafile import card_fields, read_json, write_cards
from core.protocol import TunableField
from inland_port.shipped import data_path
from inland_port.warehouse import COLUMN_VALUE, ROW_VALUE, Warehouse

LETTERS = "ABCDEFGHIJKL"
Good = Literal["fish", "grain", "wood", "clay"]
GOODS: tuple[Good, Good, Good, Good] = ("fish", "grain", "wood", "clay")  # warehouse order (blue, yellow, brown, red)
DIRECTIONS = ("right", "left", "up", "down", "up-right", "up-left", "down-left", "down-right")
EFFECTS = ("steps", "choose_one", "distribute", "different", "trade", "none")
#: the default building data file (the one ``inland_port/data/default.json`` names)
DEFAULT_PATH = data_path(None)
#: the 31 buildings of the building index in seeds/004; a building file must give exactly these
BUILDING_NAMES = (
    "Wood Company",
    "Farmland",
    "Clay Mound",
    "Grocery Store",
    "Hardware Store",
    "Farm",
    "Kiln",
    "Smokehouse",
    "Bakehouse",
    "Wood Trader",
    "Restaurant",
    "Marketplace",
    "Fish Market",
    "Sawmill",
    "Building Firm",
    "Church Square",
    "Weekly Market",
    "Masons' Guild",
    "Business Office",
    "Shipping Line",
    "Guild Hall",
    "Pier",
    "Craftsmen's Yard",
    "Fish Factory",
    "Town Hall",
    "Zoo",
    "Pont de Normandie",
    "Grain Silo",
    "Wood Factory",
    "Dock",
    "Brick Factory",
)

Count = int | str  # an int, or "S", "S+k", "S-k", "kS" with S the sector value
#: an effect's parameters: the free-form JSON object of a building's "params" (checked by ``check_params``)
Params = dict[str, Any]


def check_count(value: Count) -> Count:
    """Validate a count expression (see :func:`eval_count`)."""
    if isinstance(value, bool):
        raise ValueError("a count must be a whole number or an expression in S")
    if isinstance(value, int):
        if value < 0:
            raise ValueError("a count must not be negative")
        return value
    try:
        eval_count(value, 2)
    except ValueError:
        raise ValueError(f"'{value}' is not a count: use a whole number, S, S+k, S-k or kS") from None
    return value


def eval_count(expr: Count, sector_value: int) -> int:
    """Evaluate a count: ``S`` is the sector's value (2, 3, 4; 4 in ``4+1``)."""
    if isinstance(expr, int):
        return expr
    hit = _COUNTS.get((expr, sector_value))
    if hit is not None:
        return hit
    value = _eval_text_count(expr, sector_value)
    _COUNTS[(expr, sector_value)] = value
    return value


#: (count text, sector value) -> its value (the effects ask for the same few counts again and again)
_COUNTS: dict[tuple[str, int], int] = {}


def _eval_text_count(expr: str, sector_value: int) -> int:
    """:func:`eval_count` of a text count."""
    e = expr.replace(" ", "").upper()
    if e == "S":
        return sector_value
    if e.endswith("S") and e[:-1].isdigit():
        return int(e[:-1]) * sector_value
    if e.startswith("S") and len(e) > 2 and e[1] in "+-" and e[2:].isdigit():
        n = int(e[2:])
        return max(0, sector_value + n if e[1] == "+" else sector_value - n)
    raise ValueError(expr)


class Cost(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    wood: NonNegativeInt = 0
    clay: NonNegativeInt = 0
    food: NonNegativeInt = 0  # any mix of fish and grain
    francs: NonNegativeInt = 0

    def __str__(self) -> str:
        parts = [
            f"{n} {k}"
            for k, n in (("wood", self.wood), ("clay", self.clay), ("food", self.food), ("francs", self.francs))
            if n
        ]
        return " + ".join(parts) or "free"


class Scoring(BaseModel):
    """End-of-game value beyond the printed value: factories and the Dock."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    per_good: Literal["fish", "grain", "wood", "clay"] | None = None
    per_anchor: NonNegativeInt = 0


class InlandBuilding(Card):
    letter: Literal["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"]
    cost: Cost
    value: NonNegativeInt
    effect: Literal["steps", "choose_one", "distribute", "different", "trade", "none"]
    params: dict[str, Any] = Field(default_factory=dict)
    scoring: Scoring | None = None
    anchor: bool = False

    @property
    def locked(self) -> bool:
        """A lock building has no function and never goes on the wheel."""
        return self.effect == "none"

    @property
    def round_index(self) -> int:
        return LETTERS.index(self.letter)

    @model_validator(mode="after")
    def _check_params(self) -> InlandBuilding:
        try:
            check_params(self.effect, self.params)
        except ValueError as exc:
            raise ValueError(f"field 'params' for effect '{self.effect}': {exc}") from None
        if self.scoring is not None and self.effect != "none":
            raise ValueError("field 'scoring': only buildings without a function (effect 'none') score at the end")
        return self


def _good(v: Any, what: str) -> str:
    if v not in GOODS:
        raise ValueError(f"{what}: unknown good {v!r} (allowed: {', '.join(GOODS)})")
    good: str = v
    return good


def _direction(v: Any, what: str) -> str:
    if v not in DIRECTIONS:
        raise ValueError(f"{what}: unknown direction {v!r} (allowed: {', '.join(DIRECTIONS)})")
    direction: str = v
    return direction


def check_params(effect: str, p: Params) -> None:
    """Check an effect's parameters; raises ValueError saying what is wrong."""
    allowed: dict[str, set[str]] = {
        "steps": {"steps", "francs"},
        "choose_one": {"goods", "direction", "times"},
        "distribute": {"direction", "times"},
        "different": {"direction", "times", "francs_per_move", "optional"},
        "trade": {"pay_francs", "pay_food", "pay_step_goods", "pay_step", "gain_step", "gain_francs", "same_good"},
        "none": set(),
    }
    extra = set(p) - allowed[effect]
    if extra:
        raise ValueError(
            f"params for effect '{effect}' do not take {', '.join(sorted(extra))} (allowed: {', '.join(sorted(allowed[effect])) or 'none'})"
        )
    if effect == "steps":
        steps = p.get("steps", [])
        if not isinstance(steps, list):
            raise ValueError("params.steps must be a list of [good, direction, count]")
        for i, st in enumerate(steps):
            if not (isinstance(st, list) and len(st) == 3):
                raise ValueError(f"params.steps[{i}] must be [good, direction, count]")
            _good(st[0], f"params.steps[{i}]")
            _direction(st[1], f"params.steps[{i}]")
            check_count(st[2])
        if "francs" in p:
            check_count(p["francs"])
    elif effect in ("choose_one", "distribute", "different"):
        if "direction" not in p or "times" not in p:
            raise ValueError(f"effect '{effect}' needs params.direction and params.times")
        _direction(p["direction"], "params.direction")
        check_count(p["times"])
        if effect == "choose_one":
            goods = p.get("goods")
            if not isinstance(goods, list) or not goods:
                raise ValueError("effect 'choose_one' needs params.goods, a list of goods")
            for g in goods:
                _good(g, "params.goods")
        if effect == "different":
            fpm = p.get("francs_per_move", 0)
            if not isinstance(fpm, int) or isinstance(fpm, bool) or fpm < 0:
                raise ValueError("params.francs_per_move must be a whole number >= 0")
    elif effect == "trade":
        for k in ("pay_francs", "pay_food", "gain_francs"):
            v = p.get(k, 0)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"params.{k} must be a whole number >= 0")
        if "gain_step" in p:
            gs = p["gain_step"]
            if not (isinstance(gs, list) and len(gs) == 2):
                raise ValueError("params.gain_step must be [good, direction]")
            _good(gs[0], "params.gain_step")
            _direction(gs[1], "params.gain_step")
        if "pay_step_goods" in p:
            for g in p["pay_step_goods"]:
                _good(g, "params.pay_step_goods")
            _direction(p.get("pay_step", "down"), "params.pay_step")
        if not any(k in p for k in ("gain_step", "gain_francs")):
            raise ValueError("effect 'trade' needs a gain: params.gain_step or params.gain_francs")


class StartCell(BaseModel):
    """A counter's start cell: ``row`` counted from the bottom (0), ``column`` from the left (0 = the +0 column)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    row: NonNegativeInt
    column: NonNegativeInt


#: what each counter starts with (the rulebook, "Game setup": 4 Fish, 3 Clay, 2 Wood, 1 Grain)
START_AMOUNTS: dict[Good, int] = {"fish": 4, "grain": 1, "wood": 2, "clay": 3}
#: the rulebook's Wood Company example moves wood 3 spaces right from its start
#: (the rulebook, "The meaning of the symbols"), so a row has at least 4 cells
MIN_COLUMNS = 4
#: the grid's fields whose source is recorded in ``Grid.provenance``
GridField = Literal["columns", "rows", "start"]


def _default_start() -> dict[Good, StartCell]:
    return {g: StartCell(row=0, column=START_AMOUNTS[g]) for g in GOODS}


def _default_provenance() -> dict[GridField, Provenance]:
    return {"columns": "reconstructed", "rows": "reconstructed", "start": "reconstructed"}


class Grid(BaseModel):
    """The warehouse board's geometry (see :mod:`inland_port.warehouse`).

    The printed board's size and start cells are not in our sources, so the
    defaults are reconstructed; the rulebook fixes the start amounts (4 fish,
    3 clay, 2 wood, 1 grain) and what a step pays (left 1, down 3).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    columns: int = Field(default=6, ge=1, le=20)
    rows: int = Field(default=6, ge=2, le=20)
    start: dict[Good, StartCell] = Field(default_factory=_default_start)
    #: field name -> where that datum comes from (columns, rows, start)
    provenance: dict[GridField, Provenance] = Field(default_factory=_default_provenance)
    about: str = ""

    @model_validator(mode="after")
    def _check_start(self) -> Grid:
        if self.columns < MIN_COLUMNS:
            raise ValueError(
                f"field 'columns': {self.columns} columns are too few; the buildings that move a counter 2-4 "
                f"spaces along a row (the rulebook, Building index; the Wood Company example in The meaning "
                f"of the symbols) need rows of at least {MIN_COLUMNS} spaces"
            )
        missing = [g for g in GOODS if g not in self.start]
        if missing:
            raise ValueError(
                f"field 'start': no start cell for {', '.join(missing)} (give one for each of {', '.join(GOODS)})"
            )
        for g in GOODS:
            c = self.start[g]
            if c.row >= self.rows or c.column >= self.columns:
                raise ValueError(
                    f"field 'start.{g}': row {c.row}, column {c.column} is off the grid of "
                    f"{self.rows} rows (0-{self.rows - 1}) and {self.columns} columns (0-{self.columns - 1})"
                )
            amount = ROW_VALUE * c.row + COLUMN_VALUE * c.column
            if amount != START_AMOUNTS[g]:
                raise ValueError(
                    f"field 'start.{g}': row {c.row}, column {c.column} holds {amount} {g}, but every player "
                    f"starts with {START_AMOUNTS[g]} {g} (the rulebook, Game setup)"
                )
        return self

    def warehouse(self) -> Warehouse:
        return Warehouse(self.columns, self.rows)

    def start_cells(self, wh: Warehouse) -> tuple[int, int, int, int]:
        """The start cells in warehouse order (fish, grain, wood, clay)."""
        a, b, c, d = (wh.cell(self.start[g].row, self.start[g].column) for g in GOODS)
        return (a, b, c, d)

    def source_of(self, field: GridField) -> str:
        return self.provenance.get(field, "rulebook")


class Catalog:
    """The buildings and warehouse grid in use for one game (immutable, shared by all its states)."""

    def __init__(self, buildings: list[InlandBuilding], grid: Grid | None = None, source: str = "built-in") -> None:
        self.buildings = tuple(buildings)
        self.grid = grid or Grid()
        self.warehouse = self.grid.warehouse()
        self.start_cells = self.grid.start_cells(self.warehouse)
        self.source = source
        self.index = {b.name: i for i, b in enumerate(self.buildings)}
        self._lower = {b.name.lower(): i for i, b in enumerate(self.buildings)}
        self.by_round = tuple(tuple(i for i, b in enumerate(self.buildings) if b.round_index == r) for r in range(12))
        self.anchors = tuple(i for i, b in enumerate(self.buildings) if b.anchor)
        #: per building, its effect and parameters as a hashable value (for caches keyed by value)
        self.params_keys = tuple((b.effect, json.dumps(b.params, sort_keys=True)) for b in self.buildings)
        self.round_of = tuple(b.round_index for b in self.buildings)
        #: per building, whether it is a lock building (no function)
        self.locked = tuple(b.locked for b in self.buildings)

    def __len__(self) -> int:
        return len(self.buildings)

    @property
    def rows(self) -> int:
        return self.grid.rows

    def find(self, name: str) -> InlandBuilding | None:
        """A building by name, case-insensitive, or by unique prefix."""
        key = name.strip().lower().replace("\u2019", "'")
        if key in self._lower:
            return self.buildings[self._lower[key]]
        hits = [i for n, i in self._lower.items() if n.startswith(key)] if key else []
        return self.buildings[hits[0]] if len(hits) == 1 else None

    @cached_property
    def digest(self) -> str:
        """The hash of the buildings and the grid (geometry and start cells) in use."""
        g = self.grid
        geometry = json.dumps([g.columns, g.rows, [[g.start[x].row, g.start[x].column] for x in GOODS]])
        return cards_digest(list(self.buildings)) + "-g" + hashlib.sha256(geometry.encode()).hexdigest()[:8]


def load_catalog(path: str | Path | None = None) -> Catalog:
    """Load and validate a building file (the built-in one by default)."""
    p = Path(path) if path is not None else DEFAULT_PATH
    buildings = load_cards(p, InlandBuilding, key="buildings", kind="building")
    raw = json.loads(p.read_text(encoding="utf-8"))
    if "grid" not in raw:
        raise DataFileError(
            f'{p}: no "grid" (the warehouse board: columns, rows and start cells; see the built-in file for its form)'
        )
    try:
        grid = Grid.model_validate(raw["grid"])
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            field = ".".join(map(str, err["loc"]))
            msg = err["msg"].removeprefix("Value error, ")
            problems.append(f"field '{field}': {msg}" if field else msg)
        raise DataFileError(f"{p}: invalid grid: " + "; ".join(problems)) from None
    names = [b.name for b in buildings]
    unknown = [n for n in names if n not in BUILDING_NAMES]
    if unknown:
        raise DataFileError(f"{p}: unknown building '{unknown[0]}' (the Inland Port has: {', '.join(BUILDING_NAMES)})")
    missing = [n for n in BUILDING_NAMES if n not in names]
    if missing:
        raise DataFileError(
            f"{p}: building '{missing[0]}' is missing (a building file lists all {len(BUILDING_NAMES)} buildings)"
        )
    return Catalog(buildings, grid=grid, source=str(p))


_DEFAULT: Catalog | None = None


def default_catalog() -> Catalog:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_catalog()
    return _DEFAULT


def tunable_fields(path: str | None = None) -> list[TunableField]:
    """The numbers ``lehavre balance`` may change: every cost (at least 1 of each good it names) and value."""
    return card_fields(read_json(path or DEFAULT_PATH), ("cost", "value"), lowest={"cost": 1})


def write_buildings(path: str | None, changes: Mapping[str, int], out: str, note: str) -> None:
    """The building file ``path`` (``None``: the built-in one) with ``changes``, written to ``out`` and checked."""
    write_cards(path or DEFAULT_PATH, changes, out, note, load_catalog)
