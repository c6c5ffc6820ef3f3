"""Skill depth: how much more a deeper search wins, step by step up a ladder of node budgets.

A ladder of budgets ``B, 2B, 4B, ...`` gives one *step* per doubling: the
``ai`` agent with ``2N`` nodes per decision against the same agent with ``N``,
each in both seats (game ``i`` rotates the seats), with noise so the games
differ, and the same run seed at every step (game ``i`` of every step is set
up alike).  Each step is an ordinary playtest run (:mod:`core.lab.playtest`:
stored, resumable, any backend).  For each rule set the result gives

* the stronger side's win rate at each step (ties count for nobody) with its
  95% Wilson interval, and its Elo equivalent (a tie counts half);
* the pooled win rate over all steps, with an exact binomial test of its
  share of the decisive games against 50%;
* the fitted slope: the least-squares line of the win rate against the step
  (log2 of the budget), with its 95% interval from the steps' binomial
  variances.  A positive mean rate says skill pays; a slope near zero says
  each doubling pays about as much as the last, a negative one that returns
  diminish.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from core.agents import with_nodes
from core.lab import stats
from core.lab.playtest import Config, PlaytestError, RunResult, Store, execute, make_config

#: the ladder's default first and last budget (nodes per decision) and its agent level
FIRST_NODES, LAST_NODES, LEVEL = 250, 2000, "normal"


def ladder(first: int, last: int) -> list[int]:
    """The budgets ``first, 2 first, 4 first, ...`` up to ``last`` (at least two rungs)."""
    if first < 1 or last < 2 * first:
        raise PlaytestError(f"the ladder needs --from >= 1 and --to at least twice --from (got {first} and {last})")
    rungs = [first]
    while rungs[-1] * 2 <= last:
        rungs.append(rungs[-1] * 2)
    return rungs


def step_config(rules: str, weak: int, strong: int, level: str = LEVEL, noise: float = 2.0) -> Config:
    """The playtest configuration of one step: ``ai:LEVEL`` with ``weak`` nodes (agent 0) and ``strong`` (agent 1)."""
    agents = [with_nodes(f"ai:{level}", n) for n in (weak, strong)]
    return make_config(rules, agents, label=f"{rules}: {strong} vs {weak} nodes", noise=noise or None)


@dataclass
class Step:
    """One rung of the ladder: the stronger side's results."""

    weak: int
    strong: int
    run_id: int
    games: int
    strong_wins: int
    weak_wins: int
    ties: int

    @property
    def rate(self) -> float:
        return self.strong_wins / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        lo, hi = stats.wilson_interval(self.strong_wins, self.games)
        return {
            "weak_nodes": self.weak,
            "strong_nodes": self.strong,
            "run_id": self.run_id,
            "games": self.games,
            "strong_wins": self.strong_wins,
            "weak_wins": self.weak_wins,
            "ties": self.ties,
            "rate": self.rate,
            "ci95": [lo, hi],
            "elo": elo(self.strong_wins + self.ties / 2, self.games),
        }


def elo(score: float, games: int) -> float | None:
    """The Elo difference that expects ``score`` points in ``games`` (None at 0% or 100%)."""
    if games == 0 or score <= 0 or score >= games:
        return None
    p = score / games
    return 400 * math.log10(p / (1 - p))


def step_result(weak: int, strong: int, run: RunResult) -> Step:
    """Count the stronger agent's (agent 1's) wins in a step's run."""
    strong_wins = weak_wins = ties = 0
    for r in run.records:
        if len(r["winners"]) != 1:
            ties += 1
        elif r["seat_agents"][r["winners"][0]] == 1:
            strong_wins += 1
        else:
            weak_wins += 1
    return Step(weak, strong, run.run_id, len(run.records), strong_wins, weak_wins, ties)


def fit_slope(steps: Sequence[Step]) -> dict[str, float | None]:
    """Least-squares slope of the win rate per step, with its 95% interval (binomial variances of the rates)."""
    xs = [math.log2(s.strong) for s in steps]
    if len(steps) < 2:
        return {"slope": None, "ci_low": None, "ci_high": None}
    mx = sum(xs) / len(xs)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * s.rate for x, s in zip(xs, steps, strict=True)) / sxx
    # each rate's variance p(1-p)/n with p shrunk to (wins+1)/(games+2), so a step at 0% or 100% is not certain
    var = sum((x - mx) ** 2 * _shrunk(s) * (1 - _shrunk(s)) / max(1, s.games) for x, s in zip(xs, steps, strict=True))
    half = stats.Z95 * math.sqrt(var) / sxx
    return {"slope": slope, "ci_low": slope - half, "ci_high": slope + half}


def _shrunk(step: Step) -> float:
    return (step.strong_wins + 1) / (step.games + 2)


def summarize_ladder(rules: str, steps: Sequence[Step]) -> dict[str, Any]:
    """A rule set's skill trace: the steps, the pooled rate and its test, and the fitted slope."""
    games = sum(s.games for s in steps)
    strong = sum(s.strong_wins for s in steps)
    decisive = sum(s.strong_wins + s.weak_wins for s in steps)
    lo, hi = stats.wilson_interval(strong, games)
    return {
        "rules": rules,
        "steps": [s.to_dict() for s in steps],
        "games": games,
        "strong_wins": strong,
        "rate": strong / games if games else 0.0,
        "ci95": [lo, hi],
        "test": stats.binomial_test(strong, decisive, 0.5).to_dict(),
        "fit": fit_slope(steps),
    }


def run_ladder(
    store: Store,
    rules: str,
    budgets: Sequence[int],
    games: int,
    seed: int = 0,
    level: str = LEVEL,
    noise: float = 2.0,
    run: Callable[[Config, int], RunResult] | None = None,
) -> dict[str, Any]:
    """Play (or resume from ``store``) every step of ``budgets`` for ``rules`` and summarise the ladder.

    ``run(config, games)`` plays one step (the CLI passes one that drives a
    progress bar and its backend); by default :func:`core.lab.playtest.execute`
    with resuming, one process.
    """

    def default(config: Config, n: int) -> RunResult:
        return execute(store, config, seed, n, resume=True)

    play = run or default
    steps = []
    for weak, strong in itertools.pairwise(budgets):
        result = play(step_config(rules, weak, strong, level, noise), games)
        steps.append(step_result(weak, strong, result))
        if result.interrupted:
            break
    return summarize_ladder(rules, steps)
