"""A playtest's memory stays flat however many games it plays, and the base game's loans are counted.

The engine's caches only save time: a process that plays game after game empties them between games
(:func:`core.evalcache.forget`), so it holds one game's entries; under a small limit a cache stays within
it and the game is the same.  A game declares per-seat tallies (the base game's loans held), and the
playtest counts their rises per seat: the loans each seat took.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import inland_port.effects as inland_effects
import inland_port.evaluate as inland_evaluate
import inland_port.state as inland_state
from base_game.state import BaseState
from core import compiled
from core.agents import make_agent
from core.evalcache import WeightedSum, forget, registered
from core.lab.longrun import RunPlan, play_one
from core.lab.longrun_report import agent_tallies
from core.lab.playtest import GameJob, play_game
from core.lab.playtest.config import make_config, new_game
from core.lab.playtest.summary import SeatTallies, summarize
from core.lab.report import render
from inland_port import RULESET as INLAND

#: the Inland Port's bounded caches, each with the name of its limit in its module
BOUNDED = [
    (inland_state, "_BUILD_CACHE", "_ACTION_CACHE_LIMIT"),
    (inland_state, "_USE_CACHE", "_ACTION_CACHE_LIMIT"),
    (inland_state, "_WEALTH_CACHE", "_ACTION_CACHE_LIMIT"),
    (inland_effects, "_CHOICE_CACHE", "_CHOICE_CACHE_LIMIT"),
    (inland_evaluate, "_YIELD_CACHE", "_CACHE_LIMIT"),
    (inland_evaluate, "_YIELD_ROWS", "_ROWS_LIMIT"),
]


def _seat_caches() -> list[dict[Any, Any]]:
    """The evaluation's caches of one seat's terms, for every set of weights (bounded by ``_CACHE_LIMIT``)."""
    every = {id(caches): caches for caches in (*inland_evaluate._SEAT_CACHES.values(), inland_evaluate._last)}
    return [cache for caches in every.values() for cache in (caches.own, caches.tempo)]


def _inland_caches() -> dict[str, int]:
    sizes = {name: len(getattr(module, name)) for module, name, _ in BOUNDED}
    sizes["_FOOD_CACHE"] = len(inland_effects._FOOD_CACHE)
    sizes["seat caches"] = sum(len(cache) for cache in _seat_caches())
    return sizes


def _on_the_pure_engine(test: str) -> bool:
    """Whether this process runs the pure engine; if not, ``test`` (of this file) is run again in a process
    that does (``LEHAVRE_PURE=1``), where its limits can be patched and its closures read, and must pass."""
    if compiled.ENGINE == "pure Python":
        return True
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"{__file__}::{test}"],
        cwd=root,
        env={**os.environ, "LEHAVRE_PURE": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    return False


def _greedy_game(seed: int) -> list[str]:
    """A greedy-against-greedy Inland Port game's actions, each position evaluated (as a playtest's trace does)."""
    state = new_game("inland", {}, seed)
    agents = [make_agent("greedy", seed), make_agent("greedy", seed + 1)]
    played = []
    while not state.is_terminal():
        action = agents[state.current_player()].choose(state)
        played.append(str(action))
        state.apply_action(action)
        played.append(str(INLAND.evaluator.evaluate(state, 0)))
        for module, name, limit in BOUNDED:
            # remember() empties a cache that holds more than its limit before adding one
            assert len(getattr(module, name)) <= getattr(module, limit) + 1, name
        for cache in _seat_caches():
            assert len(cache) <= inland_evaluate._CACHE_LIMIT + 1
    return played


def test_forget_empties_every_registered_cache() -> None:
    if not _on_the_pure_engine("test_forget_empties_every_registered_cache"):
        return
    mine = registered({"a": 1})
    _greedy_game(3)
    evaluate = INLAND.evaluator.evaluate
    cells = dict(zip(evaluate.__code__.co_freevars, evaluate.__closure__ or (), strict=True))
    assert all(_inland_caches().values()) and cells["kept"].cell_contents  # the evaluation's own cache too
    forget()
    assert mine == {}
    assert not any(_inland_caches().values())
    assert cells["kept"].cell_contents == {}


def test_a_playtest_game_starts_from_empty_caches() -> None:
    """Each game forgets the games before it: the caches after game 2 are those of game 2 alone."""
    job = GameJob("inland", {}, ("random", "greedy"), 5, 2)
    forget()
    alone = play_game(job)
    sizes = _inland_caches()
    play_game(GameJob("inland", {}, ("random", "greedy"), 5, 1))
    after_another = play_game(job)
    assert _inland_caches() == sizes
    assert after_another == alone | {"seconds": after_another["seconds"]}


def test_a_long_measurement_game_starts_from_empty_caches() -> None:
    """The long measurement plays game after game in one process for hours, on a new data file for every
    set-up of a perturbed run: each game forgets the games before it, as a playtest's does."""
    run = RunPlan(
        name="quick", group="match", question="q", rules="inland", agents=("random", "greedy"), seed=5, games=4
    )
    forget()
    alone = play_one(run, 2, {}, lambda: False)
    sizes = _inland_caches()
    play_one(run, 1, {}, lambda: False)
    after_another = play_one(run, 2, {}, lambda: False)
    assert _inland_caches() == sizes
    timing = ("wall", "cpu")
    assert {k: v for k, v in after_another.items() if k not in timing} == {
        k: v for k, v in alone.items() if k not in timing
    }


def test_small_cache_limits_bound_the_caches_and_change_no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bound only costs time: with every limit at 5 the caches stay within it, and the game is the same."""
    if not _on_the_pure_engine("test_small_cache_limits_bound_the_caches_and_change_no_game"):
        return
    forget()
    usual = _greedy_game(11)
    forget()
    for module, _name, limit in BOUNDED:
        monkeypatch.setattr(module, limit, 5)
    assert _greedy_game(11) == usual


def test_a_weighted_sum_s_cache_stays_within_its_limit() -> None:
    ws: WeightedSum[int] = WeightedSum(
        ("a",), {"a": 1.0}, "", lambda s, p, w: float(s), lambda s, p, w: {"a": float(s)}, lambda s: s, 3
    )
    cache: dict[Any, float] = {}
    evaluate = ws.cached(ws.weights, cache)
    for state in range(20):
        assert evaluate(state, 0) == float(state)
        assert len(cache) <= 4
    assert evaluate(19, 0) == 19.0


def test_the_base_game_counts_each_seat_s_loans_taken() -> None:
    """seeds/000, Loan Cards: a player takes loans when short; the record counts each seat's, and they sum
    to the game's own count of loans taken."""
    job = GameJob("base", {"players": 2}, ("random", "greedy"), 1, 0)
    record = play_game(job)
    loans = record["tallies"]["loans"]
    assert len(loans) == 2 and sum(loans) > 0
    state = new_game("base", {"players": 2}, job.seed)
    assert isinstance(state, BaseState)
    held = [0, 0]
    taken = [0, 0]
    for text in record["actions"]:
        state.apply_action(next(a for a in state.legal_actions() if str(a) == text))
        for seat in range(2):
            taken[seat] += max(0, state.loans[seat] - held[seat])
            held[seat] = state.loans[seat]
    assert loans == taken
    assert sum(loans) == state.loans_taken


def test_the_inland_port_declares_no_tallies() -> None:
    assert "tallies" not in play_game(GameJob("inland", {}, ("random", "greedy"), 1, 0))


def _game(seat_agents: list[int], winners: list[int], loans: list[int] | None) -> dict[str, Any]:
    return {"seat_agents": seat_agents, "winners": winners} | ({"tallies": {"loans": loans}} if loans else {})


def test_tallies_are_counted_by_agent_with_the_games_not_won() -> None:
    counts = SeatTallies(2)
    counts.add(_game([0, 1], [1], [2, 0]))  # agent 0 in seat 1 took 2 and lost
    counts.add(_game([1, 0], [1], [1, 3]))  # agent 1 took 1 and lost; agent 0 took 3 and won
    counts.add(_game([0, 1], [0], None))  # a game without loans
    ai, other = counts.summary(["ai", "greedy"])["loans"]
    assert ai == {"agent": "ai", "total": 5, "per_game": 5 / 3, "games": 2, "share_of_games": 2 / 3, "lost_games": 1}
    assert (other["total"], other["games"], other["lost_games"]) == (1, 1, 1)


def test_the_long_measurements_show_loans_beside_a_match() -> None:
    games = [_game([0, 1], [1], [2, 0]), _game([1, 0], [1], [1, 3])]
    assert agent_tallies(2, games, 0) == {"loans": "2.50 / 0.50 (1 of 2; 0 of 0)"}
    # beside the games it borrowed in, the games it did not: 1 of 2 lost with loans, 1 of 2 lost without
    games += [_game([0, 1], [0], [0, 4]), _game([1, 0], [0], None)]
    assert agent_tallies(2, games, 0) == {"loans": "1.25 / 1.25 (1 of 2; 1 of 2)"}
    assert agent_tallies(2, [_game([0, 1], [0], None)], 0) == {}


def test_the_base_game_s_summary_and_report_show_loans_by_agent() -> None:
    config = make_config("base", ["random", "greedy"], players=2)
    records = [play_game(GameJob("base", config.options, config.agents, 1, i)) for i in range(2)]
    summary = summarize(config, records)
    rows = summary["tallies"]["loans"]
    assert [r["agent"] for r in rows] == ["random", "greedy"]
    by_agent = [0, 0]
    for r in records:
        for seat, taken in enumerate(r["tallies"]["loans"]):
            by_agent[r["seat_agents"][seat]] += taken
    assert [r["total"] for r in rows] == by_agent
    page = render([summary])
    assert '<table id="tallies">' in page and "loans: greedy" in page
    inland = make_config("inland", ["random", "greedy"])
    plain = summarize(inland, [play_game(GameJob("inland", inland.options, inland.agents, 1, 0))])
    assert "tallies" not in plain and '<table id="tallies">' not in render([plain])
