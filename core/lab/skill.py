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

The *seat curve* (:func:`run_seat_curve`) asks another question of the same
machinery: does the first seat's advantage depend on skill?  For each level
(``ai:easy``, ``ai:normal``, ``ai:hard`` or any ``ai`` agent text) a mirror run
puts that level in both seats, with noise, on the same run seed at every level
(game ``i`` of every level is set up alike).  Per level: the first seat's
(the starting player's) share of the decisive games with its 95% Wilson
interval and an exact binomial test against 50%; across levels, the
Cochran-Armitage test of a trend in that share (first level to last).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
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


def step_result(weak: int, strong: int, run_id: int, records: Iterable[dict[str, Any]]) -> Step:
    """Count the stronger agent's (agent 1's) wins in a step's run (``records``: its games, read one at a time)."""
    games = strong_wins = weak_wins = ties = 0
    for r in records:
        games += 1
        if len(r["winners"]) != 1:
            ties += 1
        elif r["seat_agents"][r["winners"][0]] == 1:
            strong_wins += 1
        else:
            weak_wins += 1
    return Step(weak, strong, run_id, games, strong_wins, weak_wins, ties)


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
        steps.append(step_result(weak, strong, result.run_id, store.iter_games(result.run_id, limit=result.games)))
        if result.interrupted:
            break
    return summarize_ladder(rules, steps)


# ---------------------------------------------------------------------------
# The seat balance by skill: the first seat's share of decisive games per level
# ---------------------------------------------------------------------------

#: the levels of the seat curve by default, weakest first
SEAT_LEVELS = ("easy", "normal", "hard")
#: the target zone of the first seat's share of decisive games
TARGET_ZONE = (0.42, 0.58)


def parse_levels(text: str) -> list[str]:
    """``easy,normal,hard`` -> ``ai:easy, ai:normal, ai:hard``; a full ``ai`` agent text (``ai:easy@nodes=50``) is kept."""
    levels = [part.strip() for part in text.split(",") if part.strip()]
    if not levels:
        raise PlaytestError(f"--levels needs at least one level (got '{text}'); e.g. --levels easy,normal,hard")
    out = []
    for level in levels:
        spec = f"ai:{level.lower()}" if level.lower() in SEAT_LEVELS else level
        if spec != "ai" and not spec.startswith(("ai:", "ai@", "ai~")):
            raise PlaytestError(
                f"unknown level '{level}' in --levels: give easy, normal, hard or an ai agent text "
                "such as ai:easy@nodes=50, separated by commas"
            )
        out.append(spec)
    if len(set(out)) != len(out):
        raise PlaytestError(f"--levels names a level twice ('{text}'); give each level once")
    return out


def parse_games(text: str, levels: int) -> list[int]:
    """``400,200,40`` (one count per level) or one count for every level."""
    parts = [p.strip() for p in text.split(",")]
    if not all(p.isdigit() and int(p) >= 1 for p in parts):
        raise PlaytestError(f"--games takes whole numbers >= 1 separated by commas (got '{text}'), e.g. 400,200,40")
    counts = [int(p) for p in parts]
    if len(counts) == 1:
        return counts * levels
    if len(counts) != levels:
        raise PlaytestError(
            f"--games gives {len(counts)} counts ('{text}') for {levels} levels: give one count per level, or one for all"
        )
    return counts


def mirror_config(rules: str, level: str, noise: float = 2.0, buildings: str | Path | None = None) -> Config:
    """The playtest configuration of one level: ``level`` in both seats, ``noise`` on."""
    return make_config(
        rules, [level, level], buildings=buildings, label=f"{rules}: {level} mirror", noise=noise or None
    )


@dataclass
class SeatLevel:
    """One level's mirror games: how often the first seat (the starting player) won."""

    level: str
    run_id: int
    games: int
    first_wins: int
    second_wins: int
    ties: int

    @property
    def decisive(self) -> int:
        return self.first_wins + self.second_wins

    @property
    def share(self) -> float | None:
        """The first seat's share of the decisive games (None when there is none)."""
        return self.first_wins / self.decisive if self.decisive else None

    def to_dict(self) -> dict[str, Any]:
        lo, hi = stats.wilson_interval(self.first_wins, self.decisive)
        return {
            "level": self.level,
            "run_id": self.run_id,
            "games": self.games,
            "decisive": self.decisive,
            "first_wins": self.first_wins,
            "second_wins": self.second_wins,
            "ties": self.ties,
            "share": self.share,
            "ci95": [lo, hi],
            "test": stats.binomial_test(self.first_wins, self.decisive, 0.5).to_dict(),
        }


def seat_level(level: str, run_id: int, records: Iterable[dict[str, Any]]) -> SeatLevel:
    """Count the first seat's sole wins, the other seats' and the ties in a level's records (read one at a time)."""
    games = first = other = ties = 0
    for r in records:
        games += 1
        if len(r["winners"]) != 1:
            ties += 1
        elif r["winners"][0] == 0:
            first += 1
        else:
            other += 1
    return SeatLevel(level, run_id, games, first, other, ties)


def trend_test(levels: Sequence[SeatLevel]) -> dict[str, Any]:
    """Does the first seat's share change from the first level to the last?

    The Cochran-Armitage test for a linear trend of the share over the levels
    (scored 0, 1, 2, ... weakest first), two-sided; with two levels it is the
    pooled two-proportion z-test.  ``change`` is the last level's share minus
    the first's.
    """
    used = [lv for lv in levels if lv.decisive]
    if len(used) < 2:
        return {"change": None, "test": None}
    change = used[-1].first_wins / used[-1].decisive - used[0].first_wins / used[0].decisive
    n = sum(lv.decisive for lv in used)
    xs = [float(i) for i, lv in enumerate(levels) if lv.decisive]
    p = sum(lv.first_wins for lv in used) / n
    mx = sum(x * lv.decisive for x, lv in zip(xs, used, strict=True)) / n
    t = sum(x * (lv.first_wins - lv.decisive * p) for x, lv in zip(xs, used, strict=True))
    var = p * (1 - p) * sum(lv.decisive * (x - mx) ** 2 for x, lv in zip(xs, used, strict=True))
    if var <= 0:
        result = stats.TestResult("Cochran-Armitage trend test", 0.0, 1.0)
    else:
        z = t / math.sqrt(var)
        result = stats.TestResult("Cochran-Armitage trend test", z, stats.normal_two_sided_p(z))
    return {"change": change, "test": result.to_dict()}


def summarize_seats(rules: str, levels: Sequence[SeatLevel], noise: float) -> dict[str, Any]:
    """A rule set's seat curve: one entry per level and the trend test."""
    return {
        "rules": rules,
        "noise": noise,
        "target_zone": list(TARGET_ZONE),
        "levels": [lv.to_dict() for lv in levels],
        "trend": trend_test(levels),
    }


def run_seat_curve(
    store: Store,
    rules: str,
    levels: Sequence[str],
    games: Sequence[int],
    seed: int = 0,
    noise: float = 2.0,
    buildings: str | Path | None = None,
    run: Callable[[Config, int], RunResult] | None = None,
) -> dict[str, Any]:
    """Play (or resume) a mirror run per level, all on the run seed ``seed`` (game ``i`` of every level is set up alike)."""

    def default(config: Config, n: int) -> RunResult:
        return execute(store, config, seed, n, resume=True)

    play = run or default
    done = []
    for level, n in zip(levels, games, strict=True):
        result = play(mirror_config(rules, level, noise, buildings), n)
        done.append(seat_level(level, result.run_id, store.iter_games(result.run_id, limit=result.games)))
        if result.interrupted:
            break
    return summarize_seats(rules, done, noise)
