"""The balancing search (core/lab/balance) on a toy game with a planted imbalance, declared here.

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

from core.datafile import card_fields, read_json, write_cards
from core.lab import playtest as pt
from core.lab.balance import search as bs
from core.protocol import TERMINAL, DataTuning, GameError, GameSpec, GameState
from core.search import LEVELS
from inland_port import RULESET as INLAND
from inland_port.buildings import load_catalog

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
    state=Builders,
    options_model=BuilderOptions,
    new_game=lambda seed, options: Builders(seed, options or BuilderOptions()),
    min_players=2,
    max_players=2,
    ai_levels=LEVELS,
    tuning=DataTuning(fields=_fields, write=_write),
)


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------


def _settings(tmp_path: Path, data: Path, **kw) -> bs.Settings:
    fields = bs.select_fields(RULESET.tuning.fields(str(data)), [])
    values = {
        "rules": TOY,
        "agents": ("random", "random"),
        "base": str(data),
        "fields": tuple(f.key for f in fields),
        "seed": 1,
        "games": 60,
        "candidates": 6,
        "budget": 3000,
        "work_dir": tmp_path / "work",
    }
    values.update(kw)
    return bs.Settings(**values)


def _store(path: Path) -> pt.Store:
    store = pt.Store(path)
    store.db.execute("PRAGMA synchronous=OFF")  # the toy's games take microseconds; the disk is the bottleneck
    return store


def test_the_search_finds_the_planted_imbalance(tmp_path):
    data = toy_data(tmp_path / "toy.json")
    settings = _settings(tmp_path, data, games=100)
    with _store(tmp_path / "db.sqlite3") as store:
        result = bs.Search(RULESET, settings, store).run()
        runs = store.runs()
    assert ("owner wins", "Gold Mine") in [(kind, name) for kind, name, _off in result.base.misses]
    assert result.stop == "the targets are met" and result.best_measures.penalty == 0
    changed = dict(result.best.changes)
    assert {k.split(".")[0] for k in changed} == {"Gold Mine"}
    # the Gold Mine was made dearer or worth less, never the other way
    assert changed.get("Gold Mine.cost.coins", 2) >= 2 and changed.get("Gold Mine.value", 8) <= 8
    assert changed.get("Gold Mine.cost.coins", 2) - changed.get("Gold Mine.value", 8) > 2 - 8
    # common random numbers: every candidate played the same run seed, so game i had the same seed and seats
    assert len(runs) > 5 and {r.seed for r in runs} == {1}
    # the rulebook's Chapel is not a field unless asked for
    assert not any(k.startswith("Chapel") for k in settings.fields)


def test_an_interrupted_search_resumed_ends_as_one_run(tmp_path):
    data = toy_data(tmp_path / "toy.json")
    settings = _settings(tmp_path, data, games=40)
    with _store(tmp_path / "one.sqlite3") as store:
        whole = bs.Search(RULESET, settings, store)
        one = whole.run()
    with _store(tmp_path / "two.sqlite3") as store:
        first = bs.Search(RULESET, settings, store, stop_after=150)
        part = first.run()
        second = bs.Search(RULESET, settings, store, resume=True)
        two = second.run()
    assert part.interrupted and first.played == 150
    assert not two.interrupted and one.best.changes
    assert (two.best, two.best_measures, two.base, two.stop, two.used) == (
        one.best,
        one.best_measures,
        one.base,
        one.stop,
        one.used,
    )
    assert [(s.round, s.candidate, s.measures) for s in two.steps] == [
        (s.round, s.candidate, s.measures) for s in one.steps
    ]
    # the resumed search played only what the interrupted one had not
    assert first.played + second.played == whole.played
    a = bs.write_best(RULESET, one, tmp_path / "a.json", "a note")
    b = bs.write_best(RULESET, two, tmp_path / "b.json", "a note")
    assert a.read_bytes() == b.read_bytes()


def test_changed_data_stays_reconstructed_and_is_noted(tmp_path):
    data = toy_data(tmp_path / "toy.json")
    RULESET.tuning.write(str(data), {"Chapel.value": 4, "Hut.cost.coins": 3}, str(tmp_path / "out.json"), "run X")
    cards = {c["name"]: c for c in json.loads((tmp_path / "out.json").read_text())["buildings"]}
    assert cards["Chapel"]["value"] == 4 and cards["Chapel"]["provenance"]["value"] == "reconstructed"
    assert cards["Hut"]["cost"] == {"coins": 3} and cards["Hut"]["notes"] == {"cost": "run X"}
    assert "notes" not in cards["Mill"]
    with pytest.raises(GameError, match=r"no field 'Hut\.colour'"):
        RULESET.tuning.write(str(data), {"Hut.colour": 1}, str(tmp_path / "x.json"), "")


def test_fields_are_chosen_by_provenance_or_pattern(tmp_path):
    fields = RULESET.tuning.fields(str(toy_data(tmp_path / "t.json")))
    assert [f.key for f in bs.select_fields(fields, ["*.value"])] == [f"{n}.value" for n, *_ in BUILDINGS]
    assert len(bs.select_fields(fields, ["all"])) == 10 and len(bs.select_fields(fields, [])) == 8
    assert [f.key for f in bs.select_fields(fields, ["gold mine.*"])] == ["Gold Mine.cost.coins", "Gold Mine.value"]
    with pytest.raises(bs.BalanceError, match=r"names no numeric field.*'reconstructed', 'all'"):
        bs.select_fields(fields, ["Castle.*"])


def test_successive_halving_rungs_keep_whole_seat_rotations():
    assert bs.rung_sizes(24, 12, 2) == [6, 12, 24]
    assert bs.rung_sizes(8, 12, 2) == [4, 8]
    assert bs.rung_sizes(24, 1, 2) == [24]
    # 12 play 6 games, 6 play 6 more, 3 play 12 more; stored games are reused
    assert bs.halving_cost(24, 12, 2) == 12 * 6 + 6 * 6 + 3 * 12


def test_the_inland_port_declares_its_costs_and_values(tmp_path):
    fields = {f.key: f for f in INLAND.tuning.fields(None)}
    assert fields["Wood Company.cost.clay"].source == "reconstructed" and fields["Wood Company.cost.clay"].low == 1
    assert fields["Town Hall.value"].source == "rulebook"
    INLAND.tuning.write(None, {"Dock.cost.francs": 10}, str(tmp_path / "b.json"), "balanced")
    dock = load_catalog(tmp_path / "b.json").find("Dock")
    assert dock.cost.francs == 10 and dock.notes == {"cost": "balanced"} and dock.source_of("cost") == "reconstructed"
    with pytest.raises(GameError, match="Dock"):
        INLAND.tuning.write(None, {"Dock.cost.francs": -1}, str(tmp_path / "c.json"), "")
