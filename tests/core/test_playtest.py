"""The playtest harness (core/lab/playtest.py) on a tiny toy game defined here.

The toy ("stones") is a Nim-like race that implements core.protocol.GameState
completely, so the harness is tested without either Le Havre rule set: a
pile of stones, each player in turn takes 1, 2 or 3 and banks them; taking 3
counts as *using* the Quarry, the first take of 2 by a player *builds* that
player a Hut (a building they then own); whoever takes the last stone gets a
bonus.  Wealth is banked stones (+ bonus, + 1 per Hut).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import pytest
from pydantic import BaseModel, ConfigDict, Field

from core.lab import playtest as pt
from core.protocol import TERMINAL, GameError, GameSpec, GameState
from core.search import LEVELS
from core.seeds import SEAT, derive_seed

TOY = "tests.core.test_playtest:RULESET"


class ToyOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: int = Field(2, ge=2, le=3)
    short: bool = False
    bonus: int = 5
    #: seconds to sleep per action (lets the CLI tests interrupt a run midway)
    pause: float = 0.0


@dataclass(frozen=True)
class Take:
    n: int

    def __str__(self) -> str:
        return f"take {self.n}"


class Stones(GameState):
    ruleset = "toy"

    def __init__(self, seed: int, options: ToyOptions) -> None:
        self.options = options
        self.num_players = options.players
        rng = random.Random(seed)
        self.pile = rng.randint(6, 9) if options.short else rng.randint(15, 25)
        self.banked = [0] * self.num_players
        self.bonus = [0] * self.num_players
        self.huts: dict[str, int] = {}
        self.player = 0
        self.history = []

    def current_player(self) -> int:
        return TERMINAL if self.pile == 0 else self.player

    def legal_actions(self) -> list[Take]:
        return [Take(n) for n in (1, 2, 3) if n <= self.pile]

    def apply_action(self, action: Take) -> None:
        if self.options.pause:
            time.sleep(self.options.pause)
        hit = self.action_building(action)
        if hit is not None and hit[0] == "build":
            self.huts[hit[1]] = self.player
        self.pile -= action.n
        self.banked[self.player] += action.n
        if self.pile == 0:
            self.bonus[self.player] += self.options.bonus
        self.history.append(str(action))
        self.player = (self.player + 1) % self.num_players

    def clone(self) -> Stones:
        c = Stones.__new__(Stones)
        c.__dict__.update(self.__dict__)
        c.banked, c.bonus, c.huts, c.history = list(self.banked), list(self.bonus), dict(self.huts), list(self.history)
        return c

    def is_terminal(self) -> bool:
        return self.pile == 0

    def wealth_breakdown(self, player: int) -> dict[str, int]:
        huts = sum(1 for owner in self.huts.values() if owner == player)
        return {"stones": self.banked[player], "bonus": self.bonus[player], "huts": huts}

    def key(self):
        return (self.pile, self.player, tuple(self.banked), tuple(self.bonus), tuple(sorted(self.huts.items())))

    def action_building(self, action: Take):
        if action.n == 3:
            return ("use", "Quarry")
        if action.n == 2 and f"Hut {self.player}" not in self.huts:
            return ("build", f"Hut {self.player}")
        return None

    def building_owners(self) -> dict[str, int]:
        return dict(self.huts)


def _new_stones(seed: int, options: ToyOptions | None = None) -> Stones:
    return Stones(seed, options or ToyOptions())


#: named by its module path (TOY), as a game that is not installed is
RULESET = GameSpec(
    name="toy",
    title="Stones (a toy game for tests)",
    state=Stones,
    options_model=ToyOptions,
    new_game=_new_stones,
    min_players=2,
    max_players=3,
    ai_levels=LEVELS,
)


def toy_config(agents=("random", "greedy"), **kw) -> pt.Config:
    return pt.make_config(TOY, list(agents), **kw)


# ---------------------------------------------------------------------------


def test_seeds_depend_only_on_run_seed_and_index():
    assert pt.game_seed(3, 7) == pt.game_seed(3, 7)
    assert len({pt.game_seed(3, i) for i in range(200)}) == 200
    assert pt.game_seed(3, 0) != pt.game_seed(4, 0)
    assert derive_seed(11, SEAT, 0) != derive_seed(11, SEAT, 1)


def test_seat_rotation_gives_every_agent_every_seat_equally():
    agents = ["a", "b", "c"]
    assert pt.seat_order(agents, 0) == [0, 1, 2]
    assert pt.seat_order(agents, 1) == [1, 2, 0]
    counts = {(s, a): 0 for s in range(3) for a in range(3)}
    for i in range(9):
        for s, a in enumerate(pt.seat_order(agents, i)):
            counts[(s, a)] += 1
    assert set(counts.values()) == {3}


def test_play_game_records_seats_result_and_buildings():
    config = toy_config()
    record = pt.play_game(pt.GameJob(config.rules, config.options, config.agents, 5, 1))
    # game 1: the list rotated by one, greedy in seat 0
    assert record["seats"] == ["greedy", "random"]
    assert record["seat_agents"] == [1, 0]
    assert sum(int(a.split()[1]) for a in record["actions"]) == sum(record["wealth"]) - 5 - len(record["owners"])
    assert record["main_actions"] == len(record["actions"])
    replay = RULESET.new_game(record["seed"], ToyOptions(**config.options))
    for text in record["actions"]:
        replay.apply_action(Take(int(text.split()[1])))
    assert replay.wealth() == record["wealth"]
    assert replay.building_owners() == record["owners"]
    uses = sum(1 for v, name, _ in record["buildings"] if v == "use")
    assert uses == record["actions"].count("take 3")


def test_options_are_validated_with_clear_messages():
    with pytest.raises(pt.PlaytestError, match="no option 'colour'"):
        toy_config(variants={"colour": "red"})
    with pytest.raises(pt.PlaytestError, match=r"bad options.*players"):
        toy_config(agents=("random",) * 4)
    with pytest.raises(pt.PlaytestError, match="--players 3 needs 3 agents"):
        toy_config(players=3)
    with pytest.raises(GameError, match="unknown agent 'wizard'"):
        toy_config(agents=("random", "wizard"))
    with pytest.raises(pt.PlaytestError, match="unknown rule set 'chess'"):
        pt.make_config("chess", ["random", "random"])
    with pytest.raises(pt.PlaytestError, match="does not exist"):
        toy_config(buildings="/nonexistent/file.json")
    config = toy_config(short=True, variants={"bonus": "7"})
    assert config.options == {"players": 2, "short": True, "bonus": 7, "pause": 0.0}


def test_results_identical_for_one_and_two_processes():
    config = toy_config()
    jobs = [pt.GameJob(config.rules, config.options, config.agents, 9, i) for i in range(8)]
    one = sorted((pt.result_fingerprint(r) for r in pt.run_local(jobs, 1)), key=lambda r: r["index"])
    two = sorted((pt.result_fingerprint(r) for r in pt.run_local(jobs, 2)), key=lambda r: r["index"])
    assert one == two
    assert [r["index"] for r in one] == list(range(8))


def test_interrupted_run_resumes_without_duplicates(tmp_path):
    config = toy_config()
    store = pt.Store(tmp_path / "r.sqlite3")
    seen = []

    def stop_after_three(record):
        seen.append(record["index"])
        if len(seen) == 3:
            raise KeyboardInterrupt

    first = pt.execute(store, config, seed=2, games=10, on_game=stop_after_three)
    assert first.interrupted and first.stored == 3 == len(store.games(first.run_id))
    second = pt.execute(store, config, seed=2, games=10, resume=True)
    assert second.run_id == first.run_id and not second.interrupted
    assert second.played == 7
    assert second.stored == 10
    assert [r["index"] for r in store.iter_games(second.run_id)] == list(range(10))
    rows = store.db.execute(
        "SELECT COUNT(*), COUNT(DISTINCT idx) FROM games WHERE run_id = ?", (first.run_id,)
    ).fetchone()
    assert rows == (10, 10)
    fresh_store = pt.Store(tmp_path / "fresh.sqlite3")
    fresh = pt.execute(fresh_store, config, seed=2, games=10)
    assert [pt.result_fingerprint(r) for r in fresh_store.games(fresh.run_id)] == [
        pt.result_fingerprint(r) for r in store.games(second.run_id)
    ]
    # without --resume a new run is started
    third = pt.execute(store, config, seed=2, games=2)
    assert third.run_id != first.run_id
    loaded = pt.load_run(store, first.run_id)
    assert (loaded.stored, loaded.games, loaded.complete) == (10, 10, True)


def test_summary_counts_add_up_and_buildings_are_counted():
    config = toy_config()
    records = [pt.play_game(pt.GameJob(config.rules, config.options, config.agents, 4, i)) for i in range(30)]
    s = pt.summarize(config, records)
    assert sum(seat["count"] for seat in s["seats"]) + s["ties"]["count"] == 30
    assert sum(a["count"] for a in s["agents"]) + s["ties"]["count"] == 30
    quarry = s["buildings"]["Quarry"]
    assert quarry["uses"] == sum(r["actions"].count("take 3") for r in records)
    assert quarry["used_games"] == sum(1 for r in records if "take 3" in r["actions"])
    hut0 = s["buildings"]["Hut 0"]
    assert hut0["built_games"] == hut0["owned_games"] == sum(1 for r in records if "Hut 0" in r["owners"])
    assert hut0["winner_owned"] == sum(1 for r in records if r["owners"].get("Hut 0") == 0 and r["winners"] == [0])
    assert s["wealth"]["n"] == 60
    for seat in s["seats"]:
        lo, hi = seat["ci"]
        assert lo <= seat["rate"] <= hi


def test_compare_flags_a_real_difference_and_not_a_null_one():
    a = toy_config(agents=("greedy", "greedy"), variants={"bonus": 0})
    b = toy_config(agents=("greedy", "greedy"), variants={"bonus": 30})
    ra = [pt.play_game(pt.GameJob(a.rules, a.options, a.agents, 1, i)) for i in range(40)]
    rb = [pt.play_game(pt.GameJob(b.rules, b.options, b.agents, 1, i)) for i in range(40)]
    tests = pt.compare(pt.summarize(a, ra), pt.summarize(b, rb))
    by = {(t["what"], t["test"]): t for t in tests}
    margin = by[("winning margin", "Welch t-test")]
    assert margin["significant"] and margin["diff"] > 20
    same = pt.compare(pt.summarize(a, ra), pt.summarize(a, ra))
    assert not any(t["significant"] for t in same)
    assert {t["test"] for t in tests} >= {"two-proportion z-test", "Welch t-test", "Mann-Whitney U test"}
    # copies of one agent differ only by seat: no per-agent rows; distinct agents get theirs
    assert not any(t["what"].startswith("greedy") for t in tests)
    c = toy_config(agents=("random", "greedy"))
    rc = [pt.play_game(pt.GameJob(c.rules, c.options, c.agents, 1, i)) for i in range(10)]
    mixed = {t["what"] for t in pt.compare(pt.summarize(c, rc), pt.summarize(c, rc))}
    assert {"random wins", "greedy wins"} <= mixed


def test_dask_backend_gives_the_same_games(tmp_path):
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    config = toy_config()
    jobs = [pt.GameJob(config.rules, config.options, config.agents, 6, i) for i in range(6)]
    local = sorted((pt.result_fingerprint(r) for r in pt.run_local(jobs, 1)), key=lambda r: r["index"])
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        remote = list(pt.run_jobs(jobs, backend="dask", address=cluster.scheduler_address))
    assert sorted((pt.result_fingerprint(r) for r in remote), key=lambda r: r["index"]) == local


def test_configuration_specs():
    config = pt.parse_spec(f"{TOY}:agents=greedy,random;short;bonus=3;label=quick")
    assert config.agents == ("greedy", "random") and config.label == "quick"
    assert config.options == {"players": 2, "short": True, "bonus": 3, "pause": 0.0}
    assert pt.parse_spec(f"{TOY}", default_agents=["greedy"]).agents == ("greedy", "greedy")
    three = pt.parse_spec(f"{TOY}:players=3;agents=random,greedy,random")
    assert three.options["players"] == 3 and three.players == 3
    assert (
        pt.parse_spec(f"{TOY}:agents=greedy,greedy").key() == pt.parse_spec(f"{TOY}:agents=greedy,greedy;label=x").key()
    )
    with pytest.raises(pt.PlaytestError, match="must start with 'inland' or 'base'"):
        pt.parse_spec("chess:agents=random,random")
    with pytest.raises(pt.PlaytestError, match="players must be a whole number"):
        pt.parse_spec(f"{TOY}:players=two;agents=random,random")
    with pytest.raises(pt.PlaytestError, match="short takes yes or no"):
        pt.parse_spec(f"{TOY}:short=maybe;agents=random,random")
    with pytest.raises(pt.PlaytestError, match="no agents"):
        pt.parse_spec(f"{TOY}:bonus=2")
