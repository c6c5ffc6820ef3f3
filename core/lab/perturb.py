"""Which numbers move the seat balance: every game on a slightly different data file, and one regression.

Searching candidates one at a time spends every game on one candidate.  Here each *set-up* of a run
draws a small random perturbation of the numbers that may move (by default those whose provenance is
``reconstructed``: each moves one ``step`` up or down with probability ``share``), and both games of
the set-up (the two seats swapped) are played on that data.  Every game then informs every number:
the least-squares regression of the first seat's score (1 a win, 1/2 a tie, 0 a loss) on the
perturbations estimates, for each number, how many points of the first seat's share one step of it
is worth, with its standard error.  A rebalance then moves the few numbers whose effects are clear,
and ordinary runs on the candidate file, on seeds no search used, confirm it or not.

The fit is a ridge regression (a small ``ridge`` keeps a number that rarely moved from running away);
standard errors come from the residual variance and the diagonal of the inverted normal matrix.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from core.lab.stats import f_upper_p
from core.protocol import GameSpec, TunableField


class PerturbSpec(BaseModel):
    """How a run perturbs its data: each number of an allowed provenance moves ``step`` up or down,
    each direction with probability ``share / 2``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    share: float = Field(gt=0, le=1)
    step: int = Field(default=1, ge=1)
    sources: tuple[str, ...] = ("reconstructed",)


def movable(game: GameSpec, base: str | None, spec: PerturbSpec) -> list[TunableField]:
    """The numbers of ``game``'s data file ``base`` (None: the built-in one) that ``spec`` may move."""
    if game.tuning is None:
        raise ValueError(f"the game '{game.name}' has no data file whose numbers may move")
    return [f for f in game.tuning.fields(base) if f.source in spec.sources]


def draw(fields: Sequence[TunableField], spec: PerturbSpec, seed: int) -> dict[str, int]:
    """The perturbation of one set-up: key -> new value, for the numbers that moved (within their bounds)."""
    rng = random.Random(seed)
    changes: dict[str, int] = {}
    for f in fields:
        u = rng.random()
        if u < spec.share:
            value = f.value - spec.step if u < spec.share / 2 else f.value + spec.step
            value = min(f.high, max(f.low, value))
            if value != f.value:
                changes[f.key] = value
    return changes


#: the note each changed number of a perturbed set-up's data file carries
PERTURBED_NOTE = "a perturbation of a long measurement"


def write_data(
    game: GameSpec, base: str | None, changes: Mapping[str, int], out: Path, note: str = PERTURBED_NOTE
) -> Path:
    """The data file ``base`` with ``changes``, written to ``out`` (once) and checked by the game; every
    changed number keeps the ``reconstructed`` tag and is given ``note``."""
    if game.tuning is None:
        raise ValueError(f"the game '{game.name}' has no data file whose numbers may move")
    if not out.exists():
        game.tuning.write(base, changes, str(out), note)
    return out


@dataclass(frozen=True)
class Effect:
    """One number's estimated effect on the first seat's score per step up (a share: 0.01 is one point)."""

    key: str
    value: int
    effect: float
    stderr: float
    moved: int

    @property
    def z(self) -> float:
        return self.effect / self.stderr if self.stderr > 0 else 0.0


def score(game: Mapping[str, Any]) -> float:
    """The first seat's score in a stored game: 1 a sole win, 1/2 a tie, 0 a loss."""
    winners = game["winners"]
    if len(winners) != 1:
        return 0.5
    return 1.0 if winners[0] == 0 else 0.0


def _solve(a: list[list[float]], b: list[float]) -> tuple[list[float], list[float]]:
    """The solution of ``a x = b`` and the diagonal of ``a``'s inverse (Gauss-Jordan; ``a`` is positive definite)."""
    n = len(a)
    m = [row[:] + [b[i]] + [1.0 if j == i else 0.0 for j in range(n)] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        p = m[col][col]
        m[col] = [v / p for v in m[col]]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col]
                m[r] = [v - f * w for v, w in zip(m[r], m[col], strict=True)]
    return [m[i][n] for i in range(n)], [m[i][n + 1 + i] for i in range(n)]


@dataclass(frozen=True)
class Fit:
    """A fitted run: the first seat's score at the unperturbed data (the intercept, with its standard
    error), each number's effect per step, and the share of the games that were ties."""

    intercept: float
    intercept_se: float
    effects: list[Effect]
    ties: float
    games: int
    #: the residual and the total sum of squares of the scores (the fit's R² is 1 - rss / tss)
    rss: float = 0.0
    tss: float = 0.0


def fit(
    games: Sequence[Mapping[str, Any]], fields: Sequence[TunableField], step: int, ridge: float = 1.0
) -> tuple[float, list[Effect]]:
    """The first seat's score at the unperturbed data (the intercept) and each number's effect per step."""
    fitted = fit_run(games, fields, step, ridge)
    return fitted.intercept, fitted.effects


def fit_run(games: Sequence[Mapping[str, Any]], fields: Sequence[TunableField], step: int, ridge: float = 1.0) -> Fit:
    """The regression of the first seat's score on the perturbations (:class:`Fit`).

    Each game's row holds its perturbation in steps (the change divided by ``step``); the intercept is
    not penalised."""
    keys = [f.key for f in fields]
    index = {k: i + 1 for i, k in enumerate(keys)}
    k = len(keys) + 1
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    rows: list[tuple[dict[int, float], float]] = []
    for g in games:
        base = {f.key: f.value for f in fields}
        row = {0: 1.0} | {
            index[key]: (v - base[key]) / step for key, v in g.get("perturbation", {}).items() if key in index
        }
        y = score(g)
        rows.append((row, y))
        for i, xi in row.items():
            xty[i] += xi * y
            for j, xj in row.items():
                xtx[i][j] += xi * xj
    for i in range(1, k):
        xtx[i][i] += ridge
    beta, diag = _solve(xtx, xty)
    dof = max(1, len(rows) - k)
    rss = sum((y - sum(beta[i] * x for i, x in row.items())) ** 2 for row, y in rows)
    sigma2 = rss / dof
    moved = [sum(1 for row, _ in rows if i in row) for i in range(k)]
    effects = [
        Effect(f.key, f.value, beta[i + 1], math.sqrt(max(0.0, sigma2 * diag[i + 1])), moved[i + 1])
        for i, f in enumerate(fields)
    ]
    ties = sum(1 for g in games if len(g["winners"]) != 1)
    se0 = math.sqrt(max(0.0, sigma2 * diag[0]))
    mean = sum(y for _, y in rows) / len(rows) if rows else 0.0
    tss = sum((y - mean) ** 2 for _, y in rows)
    return Fit(beta[0], se0, effects, ties / len(rows) if rows else 0.0, len(rows), rss, tss)


@dataclass(frozen=True)
class JointTest:
    """Whether the numbers' moves, all together, explain the first seat's score beyond chance: the least-squares
    fit's R² and the F test that every effect is zero (F with ``numbers`` and ``games - numbers - 1`` degrees of
    freedom; approximate, as a score takes only the values 0, 1/2 and 1)."""

    games: int
    numbers: int
    r2: float
    f: float
    p_value: float

    def describe(self) -> str:
        dof = self.games - self.numbers - 1
        return f"R² {self.r2:.3f}, F({self.numbers}, {dof}) = {self.f:.2f}, p = {self.p_value:.2g}"


def joint_test(games: Sequence[Mapping[str, Any]], fields: Sequence[TunableField], step: int) -> JointTest | None:
    """The F test of all of ``fields``' effects together (:class:`JointTest`) by ordinary least squares; None when
    the games cannot fit every number (no more games than numbers, a number that never moved, or no variance)."""
    p = len(fields)
    if len(games) <= p + 1:
        return None
    fitted = fit_run(games, fields, step, ridge=0.0)
    if any(e.moved == 0 for e in fitted.effects) or fitted.tss <= 0.0 or fitted.rss <= 0.0:
        return None
    dof = fitted.games - p - 1
    f = ((fitted.tss - fitted.rss) / p) / (fitted.rss / dof)
    return JointTest(fitted.games, p, 1.0 - fitted.rss / fitted.tss, f, f_upper_p(f, p, dof))
