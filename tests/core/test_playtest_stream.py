"""Summaries that stream from the store give today's numbers on the same stored games.

``playtest``, ``compare`` and ``skill`` used to load every record of a run into a list and summarise
the list (:mod:`tests.core.playtest_reference`, frozen); they now read the store one game at a time.
On the same stored runs every figure must be the same, exactly: the same operations on the same
numbers.  A regular run of a few hundred cheap random games, and (``-m slow``) the 2,000 games the
issue asks for (about 15 ms a random game, so 2 x 2,000 take about a minute).
"""

from __future__ import annotations

import json
import re
from array import array
from typing import Any

import pytest

from core.lab import playtest as pt
from core.lab import skill, stats
from tests.core import playtest_reference as today

SEEDS = (1, 2)


def canonical(x: Any) -> str:
    """A summary as text, arrays as lists, keys in their order: equal texts, equal numbers and types."""
    return json.dumps(x, default=lambda v: v.tolist() if isinstance(v, array) else str(v))


@pytest.fixture(
    scope="module",
    params=[pytest.param(300, id="300-games"), pytest.param(2000, id="2000-games", marks=pytest.mark.slow)],
)
def stored(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[pt.Store, list[int], pt.Config]:
    """Two stored runs of random agents (run seeds 1 and 2) in one database."""
    config = pt.make_config("inland", ["random", "random"])
    store = pt.Store(tmp_path_factory.mktemp("stream") / "runs.sqlite3")
    runs = [pt.execute(store, config, seed, request.param).run_id for seed in SEEDS]
    return store, runs, config


def test_streamed_summary_equals_todays_for_playtest(stored: tuple[pt.Store, list[int], pt.Config]) -> None:
    store, runs, config = stored
    for run_id in runs:
        records = store.games(run_id)
        streamed = pt.summarize_run(store, run_id, config)
        assert streamed["games"] == len(records)
        assert streamed["distinct_games"] == len({tuple(r["actions"]) for r in records})
        assert streamed["measures"]["measured"] > 0  # the measures are compared on real numbers
        assert canonical(streamed) == canonical(today.summarize(config, records))


def test_streamed_comparison_equals_todays(stored: tuple[pt.Store, list[int], pt.Config]) -> None:
    store, (a, b), config = stored
    streamed = pt.compare(pt.summarize_run(store, a, config), pt.summarize_run(store, b, config))
    # today's tests, with the family's Holm correction the comparison now applies to them (the same numbers),
    # and seats counted from 1 in the names a person reads ('seat 0 wins' is now 'seat 1 wins')
    today_tests = today.compare(today.summarize(config, store.games(a)), today.summarize(config, store.games(b)))
    for t in today_tests:
        t["what"] = re.sub(r"\bseat (\d+)", lambda m: f"seat {int(m.group(1)) + 1}", t["what"])
    expected = stats.control_family(today_tests)
    assert {t["test"] for t in streamed} >= {"Welch t-test", "Mann-Whitney U test", "two-proportion z-test"}
    assert canonical(streamed) == canonical(expected)


def test_streamed_skill_counts_equal_todays(stored: tuple[pt.Store, list[int], pt.Config]) -> None:
    store, runs, _config = stored
    for run_id in runs:
        records = store.games(run_id)
        step = skill.step_result(250, 500, run_id, store.iter_games(run_id))
        assert (step.games, step.strong_wins, step.weak_wins, step.ties) == today.step_counts(records)
        level = skill.seat_level("ai:easy", run_id, store.iter_games(run_id))
        assert (level.games, level.first_wins, level.second_wins, level.ties) == today.seat_counts(records)


def test_a_summary_reads_the_store_one_game_at_a_time(stored: tuple[pt.Store, list[int], pt.Config]) -> None:
    """The summary is fed a stream that hands out one record at a time and is never asked its length."""
    store, runs, config = stored
    held: list[int] = []

    def one_at_a_time() -> Any:
        for record in store.iter_games(runs[0]):
            held.append(record["index"])
            yield record

    tally = pt.Tally(config.players)
    for record in one_at_a_time():
        tally.add(record)
    assert held == list(range(len(held)))
    assert canonical(tally.summary(config)) == canonical(pt.summarize_run(store, runs[0], config))
    # the summary keeps no record: only numbers (machine arrays), counts and digests
    assert not any(isinstance(v, list) and v and isinstance(v[0], dict) for v in vars(tally).values())
