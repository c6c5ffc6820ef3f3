"""The sequential probability ratio test (SPRT) that decides whether an AI change is adopted.

Chess engines adopt a change only after it passes an SPRT against the version in use (Stockfish's
testing framework, fishtest): games are played in pairs until the evidence says either "better by
at least ``elo1``" (H1, the change is **accepted**) or "not better than ``elo0``" (H0, it is
**rejected**).  The test stops as soon as one of the two is clear enough, so a clearly good or
clearly useless change costs few games, and only a close one costs many.

**The pairs (the pentanomial model).**  Game pair ``k`` is played twice on one seed, the candidate
in the first seat and then in the second, so the seat's advantage and the seed's luck cancel within
the pair.  The candidate's score over the pair (win 1, tie 1/2, loss 0 per game) is one of
``0, 0.5, 1, 1.5, 2``; the test counts how many pairs scored each (:data:`PAIR_SCORES`) and treats
the five frequencies as a multinomial sample -- fishtest's "pentanomial" model, which is sound
where counting the games as independent is not (the two games of a pair are correlated).

**The hypotheses (logistic elo).**  A score ``s`` per game is ``elo = -400 log10(1/s - 1)``
(:func:`logistic_elo`; 0 elo is an even score, +100 elo about 64%).  H0 says the candidate's
expected score per game is ``L(elo0)``, H1 that it is ``L(elo1)``, with ``L`` the logistic curve
(:func:`logistic_score`).  The other elo scale of fishtest, "normalized elo" (the score's
t-value), is not used here.

**The statistic (the generalized SPRT).**  The distribution of the pair scores is not known, only
its mean is fixed by each hypothesis; the GSPRT replaces the likelihood of each hypothesis by its
maximum over all distributions on the five pair scores with that mean.  With ``N`` pairs and
observed frequencies ``p_i`` of the values ``a_i`` (the pair score per game, ``0, 1/4, ... 1``),
that maximum is ``p_i / (1 + x (a_i - s))`` where ``x`` solves ``sum p_i (a_i - s) / (1 + x (a_i
- s)) = 0`` (the "secular equation"; :func:`mle_with_mean`), and the log-likelihood ratio is
``N * sum p_i log(q1_i / q0_i)`` (:func:`llr_per_pair`).  Empty categories get a count of 0.001
so every logarithm is finite.  This follows fishtest's ``LLRcalc.LLR_logistic`` (with
``MLE_expected`` and ``regularize``) and Michel Van den Bergh's notes "Support of the MLE for a
multinomial distribution" and "GSPRT approximation", written here again in plain Python (the root
is found by bisection).  :func:`llr_normal_approx` is the notes' Brownian approximation
``N (s1 - s0) (2 s - s0 - s1) / (2 var)``, close to the exact value for small elo differences.

**The bounds (Wald).**  With ``alpha`` the chance of accepting when H0 holds and ``beta`` that of
rejecting when H1 holds, the test accepts when the LLR reaches ``log((1 - beta) / alpha)`` and
rejects when it falls to ``log(beta / (1 - alpha))`` (:func:`bounds`); ``alpha = beta = 0.05``
gives +-2.94.

:class:`SPRT` takes the pair results one at a time and reports the LLR, the bounds, the verdict,
the games played, the score and an elo estimate with its 95% interval (fishtest's ``get_elo``:
the mean pair score with its standard error from the pairs' spread, through :func:`logistic_elo`).

**The elo is the naive estimate** (:data:`ELO_METHOD`), and every output says so.  It is what a
fixed number of games would give, but the test stopped when the evidence first crossed a bound, so
the games it stopped on are not a fixed sample: a test that stops early tends to stop on a lucky
run, and the naive elo (and its interval) then overstates the difference, most for the quickest
stops.  Fishtest corrects it for the stopping rule: it models the LLR as a Brownian motion with
drift between the two bounds and reports the median-unbiased elo, the elo at which the observed
outcome (the bound reached, and when) is the median outcome (Van den Bergh's "sprt.py" and
"brownian.py" in fishtest's ``stats``).  That correction is not made here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from core.lab.stats import Z95, normal_cdf

#: the candidate's possible scores over one pair of games (win 1, tie 1/2, loss 0 in each game)
PAIR_SCORES: tuple[float, ...] = (0.0, 0.5, 1.0, 1.5, 2.0)
#: the count given to a pair score never seen, so every logarithm is finite (fishtest's ``regularize``)
EMPTY_COUNT = 1e-3

#: what the elo estimate is, said beside it in every output
ELO_METHOD = "naive: the elo of the observed score, not corrected for the stopping rule (an early stop overstates it)"

ACCEPTED = "accepted"
REJECTED = "rejected"
CONTINUE = "continue"


class SPRTError(ValueError):
    """Parameters or results the test cannot use; the message says what is allowed."""


# ---------------------------------------------------------------------------
# Elo and bounds
# ---------------------------------------------------------------------------


def logistic_score(elo: float) -> float:
    """The expected score per game of a player ``elo`` logistic-elo points stronger: ``1 / (1 + 10^(-elo/400))``."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def logistic_elo(score: float) -> float:
    """The logistic elo difference of a score per game (``-inf`` at 0, ``+inf`` at 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def check_parameters(elo0: float, elo1: float, alpha: float, beta: float) -> None:
    """Raise :class:`SPRTError` unless ``elo0 < elo1`` and ``alpha``, ``beta`` are probabilities in (0, 0.5]."""
    for name, value in (("elo0", elo0), ("elo1", elo1)):
        if not math.isfinite(value) or abs(value) >= 2000:
            raise SPRTError(f"{name} must be a finite elo difference between -2000 and 2000 (got {value})")
    if elo0 >= elo1:
        raise SPRTError(f"elo0 must be below elo1 (got elo0 {elo0:g}, elo1 {elo1:g}), e.g. elo0 0, elo1 5")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < value <= 0.5:
            raise SPRTError(f"{name} must be a probability above 0 and at most 0.5 (got {value:g}), e.g. 0.05")


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR: reject at ``log(beta / (1 - alpha))``, accept at ``log((1 - beta) / alpha)``."""
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
        raise SPRTError(f"alpha and beta must lie in (0, 1) with alpha + beta < 1 (got {alpha:g}, {beta:g})")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


# ---------------------------------------------------------------------------
# The generalized log-likelihood ratio
# ---------------------------------------------------------------------------


def _secular_root(shifted: Sequence[float], probs: Sequence[float]) -> float:
    """The ``x`` solving ``sum p_i a_i / (1 + x a_i) = 0`` with every ``1 + x a_i > 0`` (bisection).

    ``shifted`` (the ``a_i``) must have a negative and a positive value; the left side falls from
    ``+inf`` to ``-inf`` between ``-1 / max(a)`` and ``-1 / min(a)``, so the root is unique."""
    lo, hi = -1.0 / max(shifted), -1.0 / min(shifted)
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if mid in (lo, hi):
            break
        f = sum(p * a / (1.0 + mid * a) for a, p in zip(shifted, probs, strict=True))
        if f > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def mle_with_mean(values: Sequence[float], probs: Sequence[float], mean: float) -> list[float]:
    """The distribution on ``values`` with expectation ``mean`` most likely to give the observed ``probs``.

    Its probabilities are ``p_i / (1 + x (a_i - mean))`` with ``x`` the root of the secular equation
    (Van den Bergh, "Support of the MLE for a multinomial distribution", Proposition 1.1).  ``probs``
    must be positive, sum to 1, and ``mean`` must lie strictly between the smallest and largest value."""
    if not min(values) < mean < max(values):
        raise SPRTError(f"the mean {mean:g} must lie strictly between {min(values):g} and {max(values):g}")
    if any(p <= 0 for p in probs) or abs(sum(probs) - 1.0) > 1e-9:
        raise SPRTError("the observed probabilities must be positive and sum to 1")
    shifted = [a - mean for a in values]
    x = _secular_root(shifted, probs)
    return [p / (1.0 + x * a) for a, p in zip(shifted, probs, strict=True)]


def llr_per_pair(values: Sequence[float], probs: Sequence[float], s0: float, s1: float) -> float:
    """The generalized log-likelihood ratio of ``mean = s1`` against ``mean = s0``, divided by the sample size."""
    q0 = mle_with_mean(values, probs, s0)
    q1 = mle_with_mean(values, probs, s1)
    return sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, q0, q1, strict=True))


def _distribution(counts: Sequence[float]) -> tuple[float, list[float], list[float]]:
    """``(N, values, probs)`` of pentanomial ``counts``: the values are the pair scores per game
    (``0, 1/4, ... 1``); empty categories count :data:`EMPTY_COUNT`."""
    if len(counts) != len(PAIR_SCORES):
        raise SPRTError(f"pentanomial counts are {len(PAIR_SCORES)} numbers (pairs scoring 0, 0.5, 1, 1.5, 2)")
    if any(c < 0 for c in counts):
        raise SPRTError("pentanomial counts must not be negative")
    filled = [float(c) if c > 0 else EMPTY_COUNT for c in counts]
    n = sum(filled)
    return n, [s / 2.0 for s in PAIR_SCORES], [c / n for c in filled]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of "``elo1``" against "``elo0``" (logistic elo) for pentanomial
    ``counts`` (how many pairs scored 0, 0.5, 1, 1.5 and 2); 0 before any pair.  Positive favours
    ``elo1``."""
    if sum(counts) == 0:
        return 0.0
    n, values, probs = _distribution(counts)
    return n * llr_per_pair(values, probs, logistic_score(elo0), logistic_score(elo1))


def llr_normal_approx(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The Brownian approximation of :func:`llr`: ``N (s1 - s0) (2 s - s0 - s1) / (2 var)`` with ``s``
    and ``var`` the mean and variance of the pair score per game (Van den Bergh, "GSPRT approximation")."""
    if sum(counts) == 0:
        return 0.0
    n, values, probs = _distribution(counts)
    s = sum(p * a for a, p in zip(values, probs, strict=True))
    var = sum(p * (a - s) ** 2 for a, p in zip(values, probs, strict=True))
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)


# ---------------------------------------------------------------------------
# The test as it runs
# ---------------------------------------------------------------------------


def pair_score(first: float, second: float) -> float:
    """The candidate's score over a pair from its two game results (each 1, 0.5 or 0)."""
    for r in (first, second):
        if r not in (0.0, 0.5, 1.0):
            raise SPRTError(f"a game result is 1 (win), 0.5 (tie) or 0 (loss), got {r!r}")
    return first + second


@dataclass
class SPRT:
    """An SPRT of a candidate against a base, fed one pair result at a time (:meth:`add`)."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    #: pairs that scored 0, 0.5, 1, 1.5 and 2 for the candidate
    counts: list[int] = field(default_factory=lambda: [0] * len(PAIR_SCORES))

    def __post_init__(self) -> None:
        check_parameters(self.elo0, self.elo1, self.alpha, self.beta)
        if len(self.counts) != len(PAIR_SCORES) or any(c < 0 for c in self.counts):
            raise SPRTError("the counts are 5 whole numbers >= 0 (pairs scoring 0, 0.5, 1, 1.5, 2)")

    def add(self, score: float) -> str:
        """Count one pair that scored ``score`` (0, 0.5, 1, 1.5 or 2) for the candidate; returns the verdict."""
        if score not in PAIR_SCORES:
            raise SPRTError(f"a pair scores 0, 0.5, 1, 1.5 or 2 for the candidate, got {score!r}")
        self.counts[PAIR_SCORES.index(score)] += 1
        return self.verdict

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.alpha, self.beta)

    @property
    def llr(self) -> float:
        return llr(self.counts, self.elo0, self.elo1)

    @property
    def verdict(self) -> str:
        """:data:`ACCEPTED` (H1: better by ``elo1``), :data:`REJECTED` (H0: not better than ``elo0``) or
        :data:`CONTINUE`."""
        lower, upper = self.bounds
        value = self.llr
        if value >= upper:
            return ACCEPTED
        if value <= lower:
            return REJECTED
        return CONTINUE

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def games(self) -> int:
        return 2 * self.pairs

    @property
    def points(self) -> float:
        """The candidate's points over all games (a tie counts one half)."""
        return sum(c * s for c, s in zip(self.counts, PAIR_SCORES, strict=True))

    @property
    def score(self) -> float:
        """The candidate's score per game (nan before any pair)."""
        return self.points / self.games if self.games else math.nan

    def elo(self) -> tuple[float, float, float]:
        """``(elo, low, high)``: the logistic elo of the score with its 95% interval, from the mean and
        spread of the pair scores (fishtest's ``get_elo``; empty categories count :data:`EMPTY_COUNT`).

        The naive estimate (:data:`ELO_METHOD`): not corrected for the test's stopping rule."""
        if not self.pairs:
            return (math.nan, -math.inf, math.inf)
        n, values, probs = _distribution(self.counts)
        mu = sum(p * a for a, p in zip(values, probs, strict=True))
        var = sum(p * (a - mu) ** 2 for a, p in zip(values, probs, strict=True))
        half = Z95 * math.sqrt(var / n)
        return logistic_elo(mu), logistic_elo(mu - half), logistic_elo(mu + half)

    def los(self) -> float:
        """The likelihood of superiority: the chance the candidate is truly better than the base."""
        if not self.pairs:
            return 0.5
        n, values, probs = _distribution(self.counts)
        mu = sum(p * a for a, p in zip(values, probs, strict=True))
        var = sum(p * (a - mu) ** 2 for a, p in zip(values, probs, strict=True))
        return normal_cdf((mu - 0.5) / math.sqrt(var / n))

    def line(self) -> str:
        """One line a person reads: pairs, LLR within its bounds, score, elo, the pentanomial counts."""
        lower, upper = self.bounds
        elo, lo, hi = self.elo()
        score = f"{self.score:.1%}" if self.pairs else "-"
        return (
            f"pair {self.pairs:4d} ({self.games} games): LLR {self.llr:+6.2f} [{lower:+.2f}, {upper:+.2f}]  "
            f"score {score}  naive elo {_elo_text(elo)} [{_elo_text(lo)}, {_elo_text(hi)}]  "
            f"pairs 0/0.5/1/1.5/2: {'/'.join(str(c) for c in self.counts)}"
        )

    def to_dict(self) -> dict[str, Any]:
        """The test's parameters and state (JSON-ready: infinite elo is written as null)."""
        lower, upper = self.bounds
        elo, lo, hi = self.elo()
        return {
            "model": "pentanomial GSPRT, logistic elo",
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "bounds": [lower, upper],
            "llr": self.llr,
            "verdict": self.verdict,
            "pairs": self.pairs,
            "games": self.games,
            "pentanomial": list(self.counts),
            "score": None if math.isnan(self.score) else self.score,
            "elo": _finite(elo),
            "elo95": [_finite(lo), _finite(hi)],
            "elo_method": ELO_METHOD,
            "los": self.los(),
        }


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _elo_text(x: float) -> str:
    if math.isnan(x):
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.0f}"
