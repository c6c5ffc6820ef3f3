"""Tests of the review (core/lab/review.py): francs lost against a reference search, labels, accuracy.

The reference searches here have small budgets, so the tests stay fast; the
measured defaults are in the README.
"""

from __future__ import annotations

import pytest

from base_game import RULESET as BASE
from core.agents import make_agent
from core.lab.review import (
    GameReview,
    GameSource,
    ReviewError,
    Thresholds,
    accuracy,
    francs,
    review_decision,
    review_decisions,
    review_game,
)
from core.protocol import Level, parse_action, wealth_margin
from core.search import WIN_BONUS
from inland_port import RULESET as INLAND

#: a small reference: fast, and deep enough to see the last round's builds
SMALL = Level("test", max_depth=64, max_nodes=1_500, time_cap=30.0)
#: the building data the planted blunder's game was found on (shipped under this name, so a new default data
#: file changes nothing here)
PLANTED_ON = {"buildings": "buildings-2026-11"}


def play(spec, agents: list[str], seed: int, stop=None, options=None):
    """A seeded game between ``agents`` (until ``stop(state)`` is true, or the end)."""
    state = spec.new_game(seed, options)
    players = [make_agent(a, seed + i, spec) for i, a in enumerate(agents)]
    while not state.is_terminal() and not (stop and stop(state)):
        state.apply_action(players[state.current_player()].choose(state.clone()))
    return state


def test_thresholds_label_and_order():
    t = Thresholds(2, 5, 10)
    assert [t.label(x) for x in (0, 1.9, 2, 4.9, 5, 9.99, 10, 50)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    with pytest.raises(ReviewError, match="in order"):
        Thresholds(5, 2, 10)


def test_accuracy_and_proven_values():
    assert accuracy(0) == 100
    assert accuracy(1) == pytest.approx(75)
    assert accuracy(2) == pytest.approx(56.25)
    assert francs(WIN_BONUS + 12) == 12
    assert francs(-WIN_BONUS - 3) == -3
    assert francs(7.5) == 7.5


def _planted_blunder() -> tuple[GameSource, int, str]:
    """Round L of a greedy game (seed 1): the player sells a building for half its value,
    then uses a building that gains nothing while a build worth 10 francs is open."""

    def in_round_l(s) -> bool:
        return s.round == 11 and not s.acted and s.current_player() == 0

    state = play(INLAND, ["greedy", "greedy"], 1, in_round_l, PLANTED_ON)
    me = state.current_player()
    sale = next(str(a) for a in state.legal_actions() if str(a) == "sell Town Hall")
    state.apply_action(parse_action(state, sale))
    gains = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        gains[str(a)] = wealth_margin(child, me) - wealth_margin(state, me)
    best_build = max((v for k, v in gains.items() if k.startswith("build")), default=0)
    assert best_build >= 10  # a build worth 10 francs is open
    worthless = min((k for k in gains if k.startswith("use")), key=lambda k: gains[k])
    assert gains[worthless] <= 0
    index = len(state.history)
    actions = (*state.history, worthless)
    return GameSource("inland", PLANTED_ON, 1, actions), index, worthless


def test_planted_blunder_is_labelled_with_a_better_move():
    source, index, worthless = _planted_blunder()
    sale, action = review_decisions(source, SMALL, indices=[index - 1, index])
    assert sale.played == "sell Town Hall" and not sale.forced
    # selling for half its value in the last round loses half the building's value (13 francs)
    assert sale.lost >= 10
    assert action.played == worthless
    assert action.lost >= 5 and action.best.startswith("build")
    assert action.pv and action.pv[0] == action.best
    review = GameReview("inland", source.key(), ["a", "b"], "test", "", [sale, action])
    assert review.label(sale) == "blunder" and review.label(action) in ("mistake", "blunder")
    assert review.turning_points() == [sale, action]


def test_played_best_move_loses_nothing_and_forced_moves_are_not_searched():
    state = play(INLAND, ["greedy", "greedy"], 2, lambda s: len(s.history) >= 20)
    legal = state.legal_actions()
    d = review_decision(INLAND, state, str(legal[0]), SMALL, 20)
    again = review_decision(INLAND, state, d.best, SMALL, 20)
    assert again.lost == 0 and again.best == d.best and again.value == d.value
    # a position with one action worth searching, and it was played: no search
    worth = INLAND.evaluator.search_actions
    one = play(INLAND, ["greedy", "greedy"], 2, lambda s: len(s.legal_actions()) > 1 and len(worth(s)) == 1)
    forced = review_decision(INLAND, one, str(worth(one)[0]), SMALL, len(one.history))
    assert forced.forced and forced.lost == 0 and forced.nodes == 0


def _mean_lost(agent: str, games: list[tuple[GameSource, int]], every: int, level: Level = SMALL) -> float:
    lost = []
    for source, seat in games:
        wanted = range(0, len(source.actions), every)
        for d in review_decisions(source, level, indices=wanted):
            if d.seat == seat and not d.forced:
                lost.append(d.lost)
    assert len(lost) >= 10, f"{agent}: too few searched decisions"
    return sum(lost) / len(lost)


def _games_of(agent: str, seeds: range) -> list[tuple[GameSource, int]]:
    out = []
    for seed in seeds:
        seat = seed % 2
        agents = [agent, "greedy"] if seat == 0 else ["greedy", agent]
        if agent == "greedy":
            agents = ["greedy", "greedy"]
        state = play(INLAND, agents, seed)
        out.append((GameSource("inland", {}, seed, tuple(state.history)), seat))
    return out


@pytest.mark.parametrize("strong", ["ai:easy"])
def test_random_loses_more_than_greedy_more_than_search(strong: str):
    """On the same set of seeds, mean francs lost per searched decision: random > greedy > the AI."""
    tiny = Level("test", max_depth=64, max_nodes=500, time_cap=30.0)
    means = {a: _mean_lost(a, _games_of(a, range(1, 2)), every=3, level=tiny) for a in ("random", "greedy", strong)}
    assert means["random"] > means["greedy"] > means[strong], means


@pytest.mark.slow
def test_random_loses_more_than_greedy_more_than_ai_normal():
    seeds = range(1, 5)
    means = {a: _mean_lost(a, _games_of(a, seeds), every=2) for a in ("random", "greedy", "ai:normal")}
    assert means["random"] > means["greedy"] > means["ai:normal"], means


def test_base_game_review_never_reads_a_hidden_tile():
    """Changing only the face-down order of the supply tiles (the rulebook, Supply) leaves the
    review of the decisions made before another tile is revealed unchanged."""
    first = play(BASE, ["greedy", "greedy"], 5, lambda s: True)
    other = first.clone()
    hidden = other.supply_tiles[other.tiles_revealed :]
    assert len(set(hidden)) > 1
    other.supply_tiles[other.tiles_revealed :] = list(reversed(hidden))
    agents = [make_agent("greedy", 5, BASE), make_agent("greedy", 6, BASE)]
    small = Level("test", max_depth=64, max_nodes=400, time_cap=30.0)
    a, b, compared, revealed = first, other, 0, first.tiles_revealed
    while a.tiles_revealed == revealed and compared < 6 and not a.is_terminal():
        text = str(agents[a.current_player()].choose(a.clone()))
        ra = review_decision(BASE, a, text, small, compared, seed=3)
        rb = review_decision(BASE, b, text, small, compared, seed=3)
        assert ra == rb
        compared += 1
        a.apply_action(parse_action(a, text))
        b.apply_action(parse_action(b, text))
    assert compared >= 2
    assert a.supply_tiles != b.supply_tiles


def test_game_review_summary_curve_and_json_round_trip():
    state = play(INLAND, ["greedy", "random"], 3, lambda s: len(s.history) >= 30)
    source = GameSource("inland", {}, 3, tuple(state.history))
    seen: list[tuple[int, int]] = []
    review = review_game(source, ["greedy", "random"], SMALL, progress=lambda d, t: seen.append((d, t)))
    assert len(review.decisions) == 30 and seen[-1] == (30, 30)
    assert [d.index for d in review.decisions] == list(range(30))
    curve = review.curve()
    assert len(curve) == 30
    for d, v in zip(review.decisions, curve, strict=True):
        if not d.forced:
            assert v == (d.value if d.seat == 0 else -d.value)
    again = GameReview.from_dict(review.to_dict())
    assert again == review
    rows = review.summary()
    assert [r["player"] for r in rows] == ["greedy", "random"]
    assert sum(r["decisions"] for r in rows) == 30


def test_review_is_the_same_in_two_processes():
    state = play(INLAND, ["greedy", "random"], 4, lambda s: len(s.history) >= 12)
    source = GameSource("inland", {}, 4, tuple(state.history))
    small = Level("test", max_depth=64, max_nodes=300, time_cap=30.0)
    assert review_decisions(source, small, jobs=2) == review_decisions(source, small, jobs=1)
