"""Skill depth: how much more a deeper search wins, step by step up a ladder of node budgets.

A ladder of budgets ``B, 2B, 4B, ...`` gives one *step* per doubling: the
``ai`` agent with ``2N`` nodes per decision against the same agent with ``N``,
each in both seats (game ``i`` rotates the seats), with noise so the games
differ, and the same run seed at every step (game ``i`` of every step is set
up alike).  Each step is an ordinary playtest run (:mod:`core.lab.playtest`:
stored, resumable, any backend).

Every figure is on one quantity, the stronger side's *score*: its points per
game, a win counting 1 and a tie 1/2 (:data:`SCORE_NOTE`).  For each rule set
the result gives

* the score at each step with its 95% Wilson interval and its Elo equivalent
  (the Elo of the interval's ends bound the Elo);
* the pooled score over all steps, its interval, its Elo, and the score test
  against 50% (the test the Wilson interval inverts, so the interval leaves
  out 50% exactly when p < 0.05);
* the fitted slope: the least-squares line of the score against the step
  (log2 of the budget), with its 95% interval from the steps' binomial
  variances.  A score above 50% says skill pays; a slope near zero says each
  doubling pays about as much as the last, a negative one that returns
  diminish.

Treating a score with halves as so many wins of a coin overstates its
variance when there are ties, so the intervals and the test are conservative.
The steps share their seeds, so they are paired, not independent
(:data:`PAIRED_NOTE`): the pooled interval and test, which treat every game as
independent, may be too narrow if a set-up favours one side at every step;
the slope's interval, a contrast between steps, treats them as independent
too, which positively correlated steps make too wide, not too narrow.

The *seat curve* (:func:`run_seat_curve`) asks another question of the same
machinery: does the first seat's advantage depend on skill?  For each level
(``ai:easy``, ``ai:normal``, ``ai:hard`` or any ``ai`` agent text) a mirror run
puts that level in both seats, with noise, on the same run seed at every level
(game ``i`` of every level is set up alike).  Per level: the first seat's
(the starting player's) share of the decisive games with its 95% Wilson
interval and an exact binomial test against 50%; across levels, the
Cochran-Armitage test of a trend in that share (first level to last).  The
levels share their set-ups, so they are paired, not independent
(:data:`SEAT_PAIRED_NOTE`).
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

#: what the ladder's rate, interval, test, Elo and slope are computed on (said in every output)
SCORE_NOTE = "score: the stronger side's points per game, a win 1 and a tie 1/2"
#: how the steps depend on each other, and what that does to the pooled test and the slope (said in every output)
PAIRED_NOTE = (
    "the steps share their seeds (game i of every step starts alike), so they are paired, not independent: "
    "the pooled interval and test take every game as independent and may be too narrow; the slope's "
    "interval, a contrast between steps, is if anything too wide"
)


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
    def points(self) -> float:
        """The stronger side's points: a win counts 1, a tie 1/2."""
        return self.strong_wins + self.ties / 2

    @property
    def score(self) -> float:
        """The stronger side's points per game (0 before any game)."""
        return self.points / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "weak_nodes": self.weak,
            "strong_nodes": self.strong,
            "run_id": self.run_id,
            "games": self.games,
            "strong_wins": self.strong_wins,
            "weak_wins": self.weak_wins,
            "ties": self.ties,
            **score_figures(self.points, self.games),
        }


def elo(score: float, games: int) -> float | None:
    """The Elo difference that expects ``score`` points in ``games`` (None at 0% or 100%)."""
    if games == 0 or score <= 0 or score >= games:
        return None
    p = score / games
    return 400 * math.log10(p / (1 - p))


def score_figures(points: float, games: int) -> dict[str, Any]:
    """A score's figures, all on ``points / games``: the score, its 95% Wilson interval, its Elo with the
    Elo of the interval's ends, and the score test against 50% (which rejects exactly when the interval
    leaves 50% out)."""
    lo, hi = stats.wilson_interval(points, games)
    return {
        "points": points,
        "score": points / games if games else 0.0,
        "ci95": [lo, hi],
        "elo": elo(points, games),
        "elo95": [elo(lo, 1), elo(hi, 1)],
        "test": stats.proportion_score_test(points, games, 0.5).to_dict(),
    }


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
    """Least-squares slope of the score per step, with its 95% interval (binomial variances of the scores,
    the steps taken as independent: see :data:`PAIRED_NOTE`)."""
    xs = [math.log2(s.strong) for s in steps]
    if len(steps) < 2:
        return {"slope": None, "ci_low": None, "ci_high": None}
    mx = sum(xs) / len(xs)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * s.score for x, s in zip(xs, steps, strict=True)) / sxx
    # each score's variance p(1-p)/n with p shrunk to (points+1)/(games+2), so a step at 0% or 100% is not certain
    var = sum((x - mx) ** 2 * _shrunk(s) * (1 - _shrunk(s)) / max(1, s.games) for x, s in zip(xs, steps, strict=True))
    half = stats.Z95 * math.sqrt(var) / sxx
    return {"slope": slope, "ci_low": slope - half, "ci_high": slope + half}


def _shrunk(step: Step) -> float:
    return (step.points + 1) / (step.games + 2)


def summarize_ladder(rules: str, steps: Sequence[Step]) -> dict[str, Any]:
    """A rule set's skill trace: the steps, the pooled score with its interval, Elo and test, and the fitted
    slope, every one on the score (:data:`SCORE_NOTE`), with what the steps' shared seeds mean
    (:data:`PAIRED_NOTE`)."""
    games = sum(s.games for s in steps)
    return {
        "rules": rules,
        "quantity": SCORE_NOTE,
        "paired": PAIRED_NOTE,
        "steps": [s.to_dict() for s in steps],
        "games": games,
        "strong_wins": sum(s.strong_wins for s in steps),
        "weak_wins": sum(s.weak_wins for s in steps),
        "ties": sum(s.ties for s in steps),
        **score_figures(sum(s.points for s in steps), games),
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
#: how the levels depend on each other, and what that does to the trend test (said in every output)
SEAT_PAIRED_NOTE = (
    "the levels share their set-ups (game i of every level starts alike), so they are paired, not independent: "
    "the trend test takes them as independent, which makes it, if anything, too cautious"
)


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
    the first's.  The test takes the levels as independent groups; they are
    paired by their shared set-ups (:data:`SEAT_PAIRED_NOTE`).
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
        "paired": SEAT_PAIRED_NOTE,
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
