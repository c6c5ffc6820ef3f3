"""The balancing search (core/balance) on a toy game with a planted imbalance, declared here.

The toy ("builders"): two players take turns; on a turn a player either
works (0-4 coins, drawn at setup) or builds one building nobody owns yet, paying its cost in
coins.  After four turns each, wealth is coins plus the values of the
buildings owned.  The data file gives each building's cost and value with
their provenance, as the Inland Port's building file does.  The planted
imbalance: the Gold Mine is far too cheap for its value, so whoever builds it
nearly always wins, and the first seat, who can build it first, wins most
games.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from core import playtest as pt
from core.balance import search as bs
from core.balance.datafile import card_fields, read_json, write_cards
from core.balance.measures import Targets
from core.protocol import TERMINAL, DataTuning, GameError, GameSpec, GameState
from core.search import LEVELS

TOY = "tests.core.test_balance:RULESET"

BUILDINGS = [
    ("Hut", 2, 4, "reconstructed"),
    ("Mill", 3, 5, "reconstructed"),
    ("Tower", 4, 6, "reconstructed"),
    ("Gold Mine", 2, 8, "reconstructed"),
    ("Chapel", 3, 5, "rulebook"),
]


def toy_data(path: Path) -> Path:
    cards = [
        {"name": n, "cost": {"coins": c}, "value": v, "provenance": {"cost": src, "value": src}}
        for n, c, v, src in BUILDINGS
    ]
    path.write_text(json.dumps({"about": "toy buildings", "buildings": cards}, indent=1), encoding="utf-8")
    return path


class BuilderOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    buildings: str | None = None
    turns: int = 6


@dataclass(frozen=True)
class Act:
    verb: str
    name: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.name}".strip()


def load_toy(path: str | Path) -> dict[str, tuple[int, int]]:
    """Building -> (cost, value); a file that is not toy data is refused."""
    raw = read_json(path)
    try:
        return {b["name"]: (int(b["cost"]["coins"]), int(b["value"])) for b in raw["buildings"]}
    except (KeyError, TypeError, ValueError) as exc:
        raise GameError(f"{path}: not a toy building file ({exc})") from None


class Builders(GameState):
    ruleset = "builders"

    def __init__(self, seed: int, options: BuilderOptions) -> None:
        self.num_players = 2
        self.data = load_toy(options.buildings) if options.buildings else {n: (c, v) for n, c, v, _s in BUILDINGS}
        self.turns_left = 2 * options.turns
        rng = random.Random(seed)
        #: what working pays on each turn, drawn at setup (0-4 coins, 2 on average)
        self.pay = [rng.randint(0, 4) for _ in range(self.turns_left)]
        self.coins = [2, 2]
        self.owner: dict[str, int] = {}
        self.player = 0
        self.history = []

    def current_player(self) -> int:
        return TERMINAL if self.turns_left == 0 else self.player

    def legal_actions(self) -> list[Act]:
        free = [n for n, (cost, _v) in self.data.items() if n not in self.owner and cost <= self.coins[self.player]]
        return [Act("work"), *(Act("build", n) for n in free)]

    def apply_action(self, action: Act) -> None:
        if action.verb == "build":
            self.coins[self.player] -= self.data[action.name][0]
            self.owner[action.name] = self.player
        else:
            self.coins[self.player] += self.pay[self.turns_left - 1]
        self.history.append(str(action))
        self.turns_left -= 1
        self.player = 1 - self.player

    def clone(self) -> Builders:
        c = Builders.__new__(Builders)
        c.__dict__.update(self.__dict__)
        c.coins, c.owner, c.history = list(self.coins), dict(self.owner), list(self.history)
        return c

    def is_terminal(self) -> bool:
        return self.turns_left == 0

    def wealth_breakdown(self, player: int) -> dict[str, int]:
        built = sum(self.data[n][1] for n, p in self.owner.items() if p == player)
        return {"coins": self.coins[player], "buildings": built}

    def key(self):
        return (self.turns_left, self.player, tuple(self.coins), tuple(sorted(self.owner.items())))

    def action_building(self, action: Act):
        return ("build", action.name) if action.verb == "build" else None

    def building_owners(self) -> dict[str, int]:
        return dict(self.owner)


def _fields(path: str | None) -> list:
    if path is None:
        raise GameError("the toy game has no built-in data file; give one")
    return card_fields(read_json(path), ("cost", "value"), lowest={"cost": 1})


def _write(path: str | None, changes, out: str, note: str) -> None:
    if path is None:
        raise GameError("the toy game has no built-in data file; give one")
    write_cards(path, changes, out, note, load_toy)


#: named by its module path (TOY), as a game that is not installed is
RULESET = GameSpec(
    name="builders",
    title="Builders (a toy game for tests)",
    options_model=BuilderOptions,
    new_game=lambda seed, options: Builders(seed, options or BuilderOptions()),
    min_players=2,
    max_players=2,
    ai_levels=LEVELS,
    tuning=DataTuning(fields=_fields, write=_write),
)
