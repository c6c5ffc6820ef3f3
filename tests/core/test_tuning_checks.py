"""The evaluation tuner checked piece by piece (the features and labels it collects, the Newton fit, the split,
the weights file, the match), after a fit that ended worse on held-out games than where it started."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.lab.playtest import game_seed, make_config, new_game
from core.lab.tuning import (
    FitReport,
    Sample,
    _collect_one,
    collect,
    fit,
    fit_scale,
    fit_weights,
    log_loss,
    match,
    match_agents,
    objective,
    seat_result,
    split_by_game,
    tuning_of,
)
from core.protocol import GameState, parse_action
from core.table import seat_agent
from core.weights import Provenance, WeightsFile, load_weights, write_weights
from tests.core.test_tuning import _synthetic

REFERENCE = Path(__file__).parent / "data" / "eval_reference.json"


def _positions(name: str, every: int = 5) -> Iterator[GameState]:
    """Every ``every``-th position of the recorded reference games of ``name`` (two seeded games)."""
    spec, _ = tuning_of(name)
    data = json.loads(REFERENCE.read_text())
    i = 0
    for g in data["games"]:
        if g["game"] != name:
            continue
        state = spec.new_game(g["seed"], g["options"])
        for text in g["actions"]:
            if i % every == 0:
                yield state
            i += 1
            state.apply_action(parse_action(state, text))


# ---------------------------------------------------------------------------
# The features: margins for the seat asked, whose weighted sum is the evaluation
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["inland", "base"])
def test_features_are_margins_of_the_seat_asked_and_sum_to_its_evaluation(name: str) -> None:
    """For both seats (not only seat 0): today's weights times the features is the shipped evaluation, and
    ``weighted(today's)`` is the shipped evaluation bit for bit; seat 1's features are seat 0's negated."""
    spec, tuning = tuning_of(name)
    same = tuning.weighted(tuning.weights)
    count = 0
    for state in _positions(name):
        f = [tuning.features(state, p) for p in (0, 1)]
        for p in (0, 1):
            shipped = spec.evaluator.evaluate(state, p)
            assert sum(tuning.weights[t] * x for t, x in f[p].items()) == pytest.approx(shipped, abs=1e-9)
            assert same(state, p) == shipped
        assert list(f[0]) == list(tuning.weights) == list(f[1])
        for t in tuning.weights:
            assert f[1][t] == pytest.approx(-f[0][t], abs=1e-9), t
        count += 1
    assert count > 50


@pytest.mark.parametrize("name", ["inland", "base"])
def test_weighted_is_the_weighted_sum_of_the_features_for_any_weights(name: str) -> None:
    """The candidate's evaluation is linear in its weights: each weight multiplies its own feature, no other."""
    _, tuning = tuning_of(name)
    rng = random.Random(5)
    for k, state in enumerate(_positions(name, every=11)):
        ws = {t: rng.uniform(-2.0, 3.0) for t in tuning.weights}
        ev = tuning.weighted(ws)
        for p in (0, 1):
            f = tuning.features(state, p)
            assert ev(state, p) == pytest.approx(sum(ws[t] * f[t] for t in ws), abs=1e-6), (k, p)


# ---------------------------------------------------------------------------
# The samples: each seat's features and that seat's result
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["inland", "base"])
def test_samples_hold_each_seats_features_and_that_seats_result(name: str) -> None:
    """One self-play game of random agents replayed: the samples of seat ``p`` are ``features(state, p)`` at
    every decision, in order, labelled with seat ``p``'s result (not the mover's, not seat 0's)."""
    spec, tuning = tuning_of(name)
    config = make_config(name, ["random", "random"])
    samples = _collect_one((name, config.options, "random", 3, 0))
    seed = game_seed(3, 0)
    state = new_game(name, config.options, seed)
    agents = [seat_agent(spec, seed, s, "random") for s in (0, 1)]
    views: list[list[tuple[float, ...]]] = [[], []]
    while not state.is_terminal():
        for p in (0, 1):
            f = tuning.features(state, p)
            views[p].append(tuple(f[t] for t in tuning.weights))
        state.apply_action(agents[state.current_player()].choose(state))
    assert state.winners() in ([0], [1], [0, 1])
    for p in (0, 1):
        mine = [s for s in samples if s.seat == p]
        assert [s.x for s in mine] == views[p]
        assert {s.y for s in mine} == {seat_result(state, p)}
        assert {s.game for s in mine} == {0}
    w = state.wealth()
    assert seat_result(state, 0) == (1.0 if w[0] > w[1] else 0.5 if w[0] == w[1] else 0.0)
    assert seat_result(state, 0) + seat_result(state, 1) == 1.0


# ---------------------------------------------------------------------------
# The fit: K, Newton, the pull toward today's weights, the split
# ---------------------------------------------------------------------------


def _gradient(samples: list[Sample], w: list[float], scale: float, start: list[float], l2: float) -> list[float]:
    """The objective's gradient by central differences."""
    out = []
    for j in range(len(w)):
        h = 1e-5
        up, down = list(w), list(w)
        up[j] += h
        down[j] -= h
        out.append((objective(samples, up, scale, start, l2) - objective(samples, down, scale, start, l2)) / (2 * h))
    return out


def test_newton_ends_at_the_penalised_optimum() -> None:
    """The fitted free weights zero the gradient of log-loss + L2 pull (right sign, right Hessian), and the
    objective there is below the start's."""
    samples = _synthetic(3000, [1.0, 2.0, -0.5], 5.0, seed=11)
    start = [1.0, 0.5, 0.5]
    fitted = fit_weights(samples, start, 5.0, free=[1, 2], l2=0.01)
    g = _gradient(samples, fitted, 5.0, start, 0.01)
    assert abs(g[1]) < 1e-6 and abs(g[2]) < 1e-6
    assert objective(samples, fitted, 5.0, start, 0.01) < objective(samples, start, 5.0, start, 0.01)


def test_the_pull_is_toward_todays_weights_not_toward_zero_and_fixed_terms_stay() -> None:
    samples = _synthetic(1000, [1.0, 2.0, -0.5], 5.0, seed=12)
    start = [1.0, 3.0, -2.0]
    held = fit_weights(samples, start, 5.0, free=[1, 2], l2=1e6)
    assert held == pytest.approx(start, abs=1e-3)
    loose = fit_weights(samples, start, 5.0, free=[1, 2], l2=0.0)
    assert loose[0] == 1.0  # the fixed weight, exactly
    assert loose[1] == pytest.approx(2.0, abs=0.4) and loose[2] == pytest.approx(-0.5, abs=0.3)


def test_newton_never_ends_worse_than_it_started() -> None:
    """Regression: the undamped Newton step overshoots from a start far from the optimum (confidently wrong
    weights on nearly separable results) and could end above the start's objective; the step is now halved
    until it lowers the objective."""
    rng = random.Random(13)
    samples = []
    for i in range(400):
        x = (rng.uniform(-1, 1), rng.uniform(-1, 1))
        samples.append(Sample(i // 20, 0, x, 1.0 if x[0] + 0.1 * rng.uniform(-1, 1) > 0 else 0.0))
    start = [0.0, 0.0]
    for w0 in (-40.0, -10.0, 25.0):
        start = [w0, 0.0]
        fitted = fit_weights(samples, start, 1.0, free=[0, 1], l2=0.0, iterations=5)
        assert objective(samples, fitted, 1.0, start, 0.0) <= objective(samples, start, 1.0, start, 0.0)
    assert fit_weights(samples, start, 1.0, free=[0, 1], l2=0.0, iterations=60)[0] > 5.0


def test_scale_minimises_the_log_loss() -> None:
    samples = _synthetic(2000, [1.0, 2.0, -0.5], 5.0, seed=14)
    k = fit_scale(samples, [1.0, 2.0, -0.5])
    best = log_loss(samples, [1.0, 2.0, -0.5], k)
    assert best <= log_loss(samples, [1.0, 2.0, -0.5], k * 1.05)
    assert best <= log_loss(samples, [1.0, 2.0, -0.5], k / 1.05)


def test_the_split_keeps_each_game_on_one_side() -> None:
    samples = [Sample(g, s, (float(g),), 1.0) for g in range(12) for s in (0, 1) for _ in range(3)]
    train, held = split_by_game(samples)
    assert {s.game for s in held} == {4, 9}
    assert {s.game for s in train} == set(range(12)) - {4, 9}
    assert len(train) + len(held) == len(samples)
    two = [s for s in samples if s.game < 2]
    assert {s.game for s in split_by_game(two)[1]} == {1}


@pytest.mark.parametrize("name", ["inland", "base"])
def test_a_fit_pulled_hard_to_todays_weights_changes_nothing(name: str) -> None:
    """Same weights, same K, same samples: the before and after log-losses are the same quantity."""
    _, tuning = tuning_of(name)
    rng = random.Random(15)
    n = len(tuning.weights)
    samples = [
        Sample(g, 0, tuple(rng.uniform(-10, 10) for _ in range(n)), float(rng.random() < 0.5))
        for g in range(10)
        for _ in range(30)
    ]
    report = fit(name, samples, l2=1e9)
    assert report.after == pytest.approx(report.before, abs=1e-6)
    assert report.loss["train_after"] == pytest.approx(report.loss["train_before"], abs=1e-9)
    assert report.loss["heldout_after"] == pytest.approx(report.loss["heldout_before"], abs=1e-9)


# ---------------------------------------------------------------------------
# The weights file and the match
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["inland", "base"])
def test_fitted_weights_reach_the_game_under_their_own_names(name: str, tmp_path: Path) -> None:
    """A fitted set (a different value per term) written and read back by the game's loader gives the
    evaluation ``sum(fitted[t] * feature[t])``: no weight lands on another term."""
    _, tuning = tuning_of(name)
    terms = list(tuning.weights)
    after = [1.0 + 0.37 * i for i in range(len(terms))]
    report = FitReport(name, terms, [tuning.weights[t] for t in terms], after, 10.0, 0.0, 2, 2, 2, 2)
    assert list(report.weights()) == terms
    prov = Provenance(command="test", games=2, positions=2, date="2026-01-01")
    path = write_weights(tmp_path / "w.json", WeightsFile(game=name, weights=report.weights(), provenance=prov))
    loaded = load_weights(path, terms).weights
    ev = tuning.weighted(loaded)
    for state in _positions(name, every=37):
        for p in (0, 1):
            f = tuning.features(state, p)
            assert ev(state, p) == pytest.approx(sum(a * f[t] for t, a in zip(terms, after, strict=True)), abs=1e-6)


@pytest.mark.parametrize("seat", [0, 1])
def test_the_candidate_sits_in_its_seat_with_its_weights(seat: int) -> None:
    spec, tuning = tuning_of("inland")
    ws = {t: 0.5 + i for i, t in enumerate(tuning.weights)}
    agents = match_agents(spec, tuning, ws, "easy", 30, 0.0, 4, seat)
    cand, base = agents[seat], agents[1 - seat]
    assert base.evaluator is None and cand.evaluator is not None
    assert cand.max_nodes == base.max_nodes == 30
    state = next(_positions("inland", every=50))
    for p in (0, 1):
        f = tuning.features(state, p)
        assert cand.evaluator.evaluate(state, p) == pytest.approx(sum(ws[t] * f[t] for t in ws), abs=1e-6)
    assert [a.seed for a in agents] == [seat_agent(spec, 4, s, "ai").seed for s in (0, 1)]  # type: ignore[attr-defined]


def test_weights_that_play_to_lose_lose_from_both_seats() -> None:
    """Regression for a score read from the wrong seat: the candidate whose weights are today's negated (it
    plays to lose) loses both games of a seed, and the match counts them as its losses."""
    _, tuning = tuning_of("inland")
    result = match("inland", {t: -w for t, w in tuning.weights.items()}, 2, "easy", 0.0, seed=3, nodes=40)
    assert (result.wins, result.ties, result.losses) == (0, 0, 2)
    assert "@nodes=40" in result.line()


def test_the_match_refuses_weights_missing_a_term() -> None:
    with pytest.raises(Exception, match="missing: goods"):
        match("inland", {"wealth": 1.0}, 2, "easy", 0.0, nodes=10)


# ---------------------------------------------------------------------------
# A fit from today's weights on their own games does not end worse on held-out games
# ---------------------------------------------------------------------------


def _games_of(name: str, games: int, per_game: int, seed: int) -> list[Sample]:
    """Synthetic self-play: each game a random walk of the features whose one result is drawn from today's
    weights at its last position, every position labelled with it (both seats), as the real samples are."""
    _, tuning = tuning_of(name)
    today = list(tuning.weights.values())
    rng = random.Random(seed)
    out = []
    for g in range(games):
        x = [0.0] * len(today)
        walk = []
        for _ in range(per_game):
            x = [v + rng.gauss(0.0, 2.0) for v in x]
            walk.append(tuple(x))
        z = sum(w * v for w, v in zip(today, walk[-1], strict=True)) / 10.0
        y = 1.0 if rng.random() < 1.0 / (1.0 + math.exp(-z)) else 0.0
        out += [Sample(g, 0, v, y) for v in walk] + [Sample(g, 1, tuple(-a for a in v), 1.0 - y) for v in walk]
    return out


def test_the_pull_is_chosen_by_cross_validation_over_games() -> None:
    """Without ``l2`` the fit compares today's weights and each pull on left-out training games and reports it."""
    report = fit("inland", _games_of("inland", 25, 30, seed=21))
    assert set(report.cv) == {"today", "0.001", "0.01", "0.1", "1"}
    best = min(report.cv, key=lambda k: report.cv[k])
    assert report.l2 == (None if best == "today" else float(best))
    if report.l2 is None:
        assert report.after == report.before
    assert any(line.startswith("pull chosen by cross-validation") for line in report.lines())


@pytest.mark.parametrize("seed", [31, 32, 33])
def test_a_fit_from_todays_weights_does_not_end_worse_held_out_synthetic(seed: int) -> None:
    report = fit("inland", _games_of("inland", 25, 30, seed=seed))
    assert report.loss["heldout_after"] <= report.loss["heldout_before"] + 1e-12


@pytest.mark.slow
def test_a_fit_from_todays_weights_on_their_own_games_does_not_end_worse_held_out() -> None:
    """Ten cheap self-play games of the Inland Port (two held out): the fit, pull chosen by cross-validation,
    ends no worse than today's weights on the held-out games."""
    samples = collect("inland", 10, "ai:easy@nodes=60~2", seed=5)
    report = fit("inland", samples)
    assert report.heldout_samples > 0
    assert report.loss["heldout_after"] <= report.loss["heldout_before"] + 1e-12
