"""A designer's measures of a game, defined once, as pure functions over an evaluation trace.

A game's *trace* holds one entry per decision (every action an agent chose):
the evaluation of the position before that decision, as each seat's *margin*
in francs (that seat's evaluation minus the best other seat's; with two
players the entry is ``[m, -m]`` where ``m`` is seat 0's margin).  An ``ai``
agent's entry is the root score its search already computed (a proven win is
counted at its true margin); any other agent's is the game's static
evaluation.  With more than two players the mover's margin comes from its
search and the others' from the static evaluation; the *eventual winner's
lead* is always the winner's margin: the winner minus the best other player.

The measures are adapted from the Ludii general game system's metrics
(``metrics.single.stateEvaluation`` and ``metrics.multiple.metrics`` of its
Evaluation module).  Ludii evaluates each position by playouts, in
``[-1, 1]`` per player; here a position is the margin in francs, so every
threshold and every figure is in francs, not in Ludii's units.  Where each
one differs beyond that:

``decisiveness``
    Share of the game's decisions played from the first decision at which the
    eventual winner is *clearly ahead* to the end (0: never clearly ahead
    before the end; near 1: decided from the start).  Clearly ahead: the
    winner's lead exceeds both the largest lead any other player ever held in
    the game and ``clear_lead`` francs (default :data:`CLEAR_LEAD`).
    Ludii's "Decisiveness Moves" is the other side of the same cut: the
    share of the moves played *before* the winner first exceeds the
    threshold (1 when it never does), so it is one minus this.  Ludii's
    threshold ("Decisiveness Threshold") is the highest evaluation any
    non-winner reached, compared with the winner's evaluation; ours compares
    margins (each player against the best other) and adds the ``clear_lead``
    floor, which Ludii has not.
``drama``
    How far behind the eventual winner was: the mean over the game's
    decisions of the winner's deficit (``max(0, -lead)``, francs), and
    ``drama_max``, the deepest deficit.  This is Ludii's "Drama" (Average and
    Max): at each move the highest evaluation minus the winner's, which is the
    same deficit; Ludii averages over the winners of a shared win, where a
    tied game has no measures here.
``lead changes (evaluation)``
    How often the expected winner changes: the number of decisions at which
    the set of seats with the highest margin differs from the previous
    decision's (``n - 1`` comparisons in a game of ``n`` decisions), and
    ``lead_change_rate``, that number over ``n - 1``.  Ludii's "Lead Change"
    differs: it compares the first move's leaders with an empty set, so its
    count is ours plus one (the first move always counts), and it divides by
    the number of moves ``n``: Ludii's rate is ``(changes + 1) / n`` where ours
    is ``changes / (n - 1)``.  Ours counts only real changes.
``lead curve``
    The eventual winner's mean lead in each tenth of the game (by decision);
    not a Ludii metric.

Games without a single winner (ties), with one player, or stored without a
trace have no measures; summaries count them apart.
"""

from __future__ import annotations

import itertools
import math
from array import array
from collections.abc import Iterable, Sequence
from typing import Any

from core.lab import stats

#: francs the eventual winner's lead must exceed (besides every other player's best lead) to be "clearly ahead"
CLEAR_LEAD = 5.0

#: the lead curve's parts of a game
CURVE_PARTS = 10

Trace = Sequence[Sequence[float]]

#: one line per measure, for --help and the tables' captions
DEFINITIONS: dict[str, str] = {
    "decisiveness": (
        "share of the decisions played after the eventual winner is first clearly ahead: its evaluation lead "
        "exceeds every lead another player ever had and the clear-lead threshold (francs)"
    ),
    "drama": "mean number of francs the eventual winner was behind, by evaluation, over the game's decisions",
    "drama_max": "the deepest the eventual winner was behind, by evaluation (francs)",
    "lead_changes_eval": "decisions at which the leader by evaluation changed",
    "lead_change_rate": "lead changes by evaluation per decision",
}


def winner_lead(trace: Trace, winner: int) -> list[float]:
    """The eventual winner's margin at each decision."""
    return [float(m[winner]) for m in trace]


def decisiveness_threshold(trace: Trace, winner: int, clear_lead: float = CLEAR_LEAD) -> float:
    """The lead the winner must exceed: the best lead any other player held, and at least ``clear_lead``."""
    others = [float(x) for m in trace for s, x in enumerate(m) if s != winner]
    return max([clear_lead, *others])


def decisiveness(trace: Trace, winner: int, clear_lead: float = CLEAR_LEAD) -> float:
    """Share of the decisions from the first at which ``winner`` is clearly ahead to the end (see the module):
    one minus Ludii's "Decisiveness Moves", on margins and with the ``clear_lead`` floor."""
    n = len(trace)
    threshold = decisiveness_threshold(trace, winner, clear_lead)
    for i, m in enumerate(trace):
        if m[winner] > threshold:
            return (n - i) / n
    return 0.0


def drama(trace: Trace, winner: int) -> tuple[float, float]:
    """The winner's mean and deepest deficit in francs (0 when it never trailed): Ludii's "Drama" Average and
    Max, in francs."""
    deficits = [max(0.0, -float(m[winner])) for m in trace]
    if not deficits:
        return 0.0, 0.0
    return sum(deficits) / len(deficits), max(deficits)


def leaders(margins: Sequence[float]) -> frozenset[int]:
    """The seats with the highest margin (several when they are level)."""
    top = max(margins)
    return frozenset(s for s, x in enumerate(margins) if x == top)


def lead_changes(trace: Trace) -> int:
    """Decisions at which the set of leaders by evaluation differs from the previous decision's.

    ``n - 1`` comparisons for ``n`` decisions; Ludii's "Lead Change" also counts the first decision (its
    leaders against none), so its count is this plus one (see the module)."""
    return sum(1 for prev, cur in itertools.pairwise(trace) if leaders(prev) != leaders(cur))


def lead_curve(trace: Trace, winner: int, parts: int = CURVE_PARTS) -> list[float | None]:
    """The winner's mean lead in each of ``parts`` equal parts of the game (None: a part without decisions)."""
    n = len(trace)
    sums = [0.0] * parts
    counts = [0] * parts
    for i, m in enumerate(trace):
        p = min(parts - 1, i * parts // n)
        sums[p] += float(m[winner])
        counts[p] += 1
    return [s / c if c else None for s, c in zip(sums, counts, strict=True)]


def game_measures(trace: Trace | None, winners: Sequence[int], clear_lead: float = CLEAR_LEAD) -> dict[str, Any] | None:
    """Every measure of one game, or None when it has none (no trace, no single winner, one player)."""
    if not trace or len(winners) != 1 or len(trace[0]) < 2:
        return None
    w = winners[0]
    mean_deficit, deepest = drama(trace, w)
    changes = lead_changes(trace)
    return {
        "decisiveness": decisiveness(trace, w, clear_lead),
        "drama": mean_deficit,
        "drama_max": deepest,
        "lead_changes_eval": changes,
        "lead_change_rate": changes / (len(trace) - 1) if len(trace) > 1 else 0.0,
        "curve": lead_curve(trace, w),
    }


#: the measures that are shares (their intervals are clipped to [0, 1]; every measure is at least 0)
SHARES = frozenset({"decisiveness", "lead_change_rate"})


def mean_interval(values: Sequence[float], upper: float = math.inf) -> list[float] | None:
    """95% Student-t interval of the mean, clipped to [0, ``upper``] (None with fewer than two values)."""
    n = len(values)
    if n < 2:
        return None
    d = stats.describe(values)
    mean, sd = float(d["mean"] or 0.0), float(d["stdev"] or 0.0)
    half = stats.t_quantile_95(n - 1) * sd / math.sqrt(n)
    return [max(0.0, mean - half), min(upper, mean + half)]


def summarize_measures(records: Iterable[dict[str, Any]], clear_lead: float = CLEAR_LEAD) -> dict[str, Any]:
    """The measures over a run's games: each one's description, mean interval and values, and the lead curve.

    ``traced`` counts games stored with a trace, ``measured`` those with a single winner among them.
    ``records`` may be a stream: one game is held at a time (:class:`MeasureTally`).
    """
    tally = MeasureTally(clear_lead)
    for record in records:
        tally.add(record)
    return tally.summary()


class MeasureTally:
    """The measures of a run as its games are read: each game's measures kept as numbers (8 bytes each)."""

    def __init__(self, clear_lead: float = CLEAR_LEAD) -> None:
        self.clear_lead = clear_lead
        self.traced = 0
        self.measured = 0
        self.values: dict[str, array[float]] = {key: array("d") for key in DEFINITIONS}
        self.curve: list[array[float]] = [array("d") for _ in range(CURVE_PARTS)]

    def add(self, record: dict[str, Any]) -> None:
        """Measure one game's record (a game without a trace or a single winner is counted, not measured)."""
        if not record.get("trace"):
            return
        self.traced += 1
        m = game_measures(record["trace"], record["winners"], self.clear_lead)
        if m is None:
            return
        self.measured += 1
        for key, values in self.values.items():
            values.append(float(m[key]))
        for part, v in zip(self.curve, m["curve"], strict=True):
            if v is not None:
                part.append(v)

    def summary(self) -> dict[str, Any]:
        """What :func:`summarize_measures` returns for the games added so far."""
        out: dict[str, Any] = {"traced": self.traced, "measured": self.measured, "clear_lead": self.clear_lead}
        for key, values in self.values.items():
            out[key] = {**stats.describe(values), "ci95": mean_interval(values, 1.0 if key in SHARES else math.inf)}
            out[f"{key}_values"] = values
        out["curve"] = [_curve_part(p, sorted(part)) for p, part in enumerate(self.curve)]
        return out


def _curve_part(part: int, xs: Sequence[float]) -> dict[str, Any]:
    """One tenth of the lead curve: how many games reached it, and their leads' quartiles."""
    return {
        "part": part,
        "n": len(xs),
        "q1": stats.quantile(xs, 0.25) if xs else None,
        "median": stats.quantile(xs, 0.5) if xs else None,
        "q3": stats.quantile(xs, 0.75) if xs else None,
    }
