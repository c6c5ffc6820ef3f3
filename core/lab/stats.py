"""Statistics for playtesting, in pure standard library (``math``, ``statistics``).

Rates get Wilson score intervals and are compared by the two-proportion
z-test (pooled); a single rate against a fixed value (is the first seat's
share of the decisive games 1/K?) gets an exact two-sided binomial test.
Samples of numbers (final wealth, margins, game lengths) are compared by
Welch's t-test (Student's t distribution through the regularised incomplete
beta function) and by the Mann-Whitney U test (normal approximation with tie
and continuity correction).  Every test returns its statistic and a two-sided
p-value; :data:`ALPHA` is the level at which a difference is called
significant.  A family of tests asked at once (a comparison of two runs) is
flagged on Holm's step-down adjusted p-values (:func:`holm` and
:func:`control_family`), so the chance that any of its flags is a false alarm
stays at most :data:`ALPHA`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

ALPHA = 0.05
Z95 = 1.959963984540054  # the 97.5 % point of the standard normal distribution
TINY = 1e-300  # the continued fractions' guard against dividing by zero


# ---------------------------------------------------------------------------
# Distributions
# ---------------------------------------------------------------------------


def normal_cdf(x: float) -> float:
    """P(Z <= x) for a standard normal Z."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|)."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def _lentz(d: float, c: float, a: float, b: float) -> tuple[float, float, float]:
    """One step of the modified Lentz method for a continued fraction's term ``a / (b + ...)``: the new ``d`` and
    ``c``, and the factor ``d * c`` the fraction's value is multiplied by."""
    d = b + a * d
    d = TINY if abs(d) < TINY else d
    c = b + a / c
    c = TINY if abs(c) < TINY else c
    d = 1.0 / d
    return d, c, d * c


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = TINY if abs(d) < TINY else d
    d = 1.0 / d
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        d, c, delta = _lentz(d, c, m * (b - m) * x / ((qam + m2) * (a + m2)), 1.0)
        h *= delta
        d, c, delta = _lentz(d, c, -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), 1.0)
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if not 0.0 <= x <= 1.0:
        raise ValueError("x must lie in [0, 1]")
    if x in (0.0, 1.0):
        return x
    ln_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(ln_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` (possibly fractional) degrees of freedom."""
    if math.isinf(df):
        return normal_two_sided_p(t)
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def f_upper_p(f: float, d1: float, d2: float) -> float:
    """The upper tail of the F distribution with ``d1`` and ``d2`` degrees of freedom at ``f``: the p of an F test."""
    if f <= 0.0:
        return 1.0
    return 1.0 - betainc(d1 / 2, d2 / 2, d1 * f / (d1 * f + d2))


def gammaincc(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x): its series below ``a + 1``, its continued
    fraction (modified Lentz) above."""
    if a <= 0.0 or x < 0.0:
        raise ValueError("gammaincc needs a > 0 and x >= 0")
    if x == 0.0:
        return 1.0
    ln_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1.0:
        term = total = 1.0 / a
        for n in range(1, 1000):
            term *= x / (a + n)
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(ln_front))
    b = x + 1.0 - a
    c, d = 1.0 / TINY, 1.0 / b
    h = d
    for i in range(1, 1000):
        b += 2.0
        d, c, delta = _lentz(d, c, -i * (i - a), b)
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return math.exp(ln_front) * h


def chi_square_upper_p(x: float, df: int) -> float:
    """The upper tail of the chi-square distribution with ``df`` degrees of freedom at ``x``."""
    return 1.0 if x <= 0.0 else gammaincc(df / 2.0, x / 2.0)


def t_quantile_95(df: float) -> float:
    """The two-sided 95% critical value of Student's t with ``df`` degrees of freedom (by bisection)."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    lo, hi = 0.0, 1000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > 0.05:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# ---------------------------------------------------------------------------
# Rates
# ---------------------------------------------------------------------------


def wilson_interval(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (95 % by default).

    ``k`` may be a score with halves (a tie counting one half): the interval
    then treats each game as a win or loss with that mean, which is
    conservative, as ties only lower a score's variance.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def difference_interval(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval (his method 10) for the difference of two independent proportions,
    ``k1/n1 - k2/n2``, built from each proportion's Wilson interval (95 % by default)."""
    if n1 <= 0 or n2 <= 0:
        return (-1.0, 1.0)
    p1, p2 = k1 / n1, k2 / n2
    (l1, u1), (l2, u2) = wilson_interval(k1, n1, z), wilson_interval(k2, n2, z)
    d = p1 - p2
    return (d - math.hypot(p1 - l1, u2 - p2), d + math.hypot(u1 - p1, p2 - l2))


@dataclass(frozen=True)
class PooledDifference:
    """Differences of two shares from several independent pairs of samples, pooled with inverse-variance weights
    (a fixed-effect meta-analysis), with Cochran's Q test of whether the pairs share one difference."""

    estimate: float
    low: float
    high: float
    q: float
    df: int
    p_value: float


def pooled_difference(pairs: Sequence[tuple[int, int, int, int]], z: float = Z95) -> PooledDifference | None:
    """``k1/n1 - k2/n2`` pooled over ``pairs`` (each ``(k1, n1, k2, n2)``).  Each pair's variance is taken at
    Agresti and Caffo's adjusted shares (a success and a failure added to each sample), so that a sample
    whose share is 0 or 1 does not get an infinite weight; ``None`` without a pair whose samples both hold
    games."""
    used = [(k1, n1, k2, n2) for k1, n1, k2, n2 in pairs if n1 > 0 and n2 > 0]
    if not used:
        return None
    diffs, weights = [], []
    for k1, n1, k2, n2 in used:
        a1, a2 = (k1 + 1) / (n1 + 2), (k2 + 1) / (n2 + 2)
        diffs.append(k1 / n1 - k2 / n2)
        weights.append(1.0 / (a1 * (1 - a1) / (n1 + 2) + a2 * (1 - a2) / (n2 + 2)))
    total = sum(weights)
    estimate = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
    half = z / math.sqrt(total)
    q = sum(w * (d - estimate) ** 2 for w, d in zip(weights, diffs, strict=True))
    df = len(used) - 1
    p = chi_square_upper_p(q, df) if df > 0 else 1.0
    return PooledDifference(estimate, estimate - half, estimate + half, q, df, p)


@dataclass(frozen=True)
class TestResult:
    """One significance test: what was tested, by which test, statistic and p."""

    test: str
    statistic: float
    p_value: float
    df: float | None = None

    @property
    def significant(self) -> bool:
        return self.p_value < ALPHA

    def to_dict(self) -> dict[str, str | float | bool | None]:
        return {
            "test": self.test,
            "statistic": self.statistic,
            "p_value": self.p_value,
            "df": self.df,
            "significant": self.significant,
        }


def two_proportion_z_test(k1: int, n1: int, k2: int, n2: int) -> TestResult:
    """Pooled two-proportion z-test of k1/n1 against k2/n2 (two-sided)."""
    if n1 <= 0 or n2 <= 0:
        return TestResult("two-proportion z-test", 0.0, 1.0)
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0.0:
        return TestResult("two-proportion z-test", 0.0, 1.0)
    z = (k1 / n1 - k2 / n2) / se
    return TestResult("two-proportion z-test", z, normal_two_sided_p(z))


def proportion_score_test(k: float, n: int, p: float = 0.5) -> TestResult:
    """One-sample score z-test of ``k`` successes in ``n`` against rate ``p`` (two-sided).

    ``z = (k/n - p) / sqrt(p (1 - p) / n)``: the test the Wilson interval
    inverts, so it rejects at 5% exactly when :func:`wilson_interval` leaves
    ``p`` out; a rate, its interval and its test can never disagree.  ``k``
    may be a score with halves (see :func:`wilson_interval`).
    """
    if n <= 0:
        return TestResult("score z-test", 0.0, 1.0)
    z = (k / n - p) / math.sqrt(p * (1 - p) / n)
    return TestResult("score z-test", z, normal_two_sided_p(z))


def binomial_test(k: int, n: int, p: float) -> TestResult:
    """Exact two-sided binomial test of ``k`` successes in ``n`` against rate ``p``.

    The p-value sums the probabilities of every outcome no more likely than
    the observed one (the usual definition, as in R's ``binom.test``).
    """
    if n <= 0:
        return TestResult("exact binomial test", 0.0, 1.0)

    def pmf(i: int) -> float:
        return math.exp(
            math.lgamma(n + 1)
            - math.lgamma(i + 1)
            - math.lgamma(n - i + 1)
            + (i * math.log(p) if i else 0.0)
            + ((n - i) * math.log1p(-p) if n - i else 0.0)
        )

    observed = pmf(k)
    total = sum(q for i in range(n + 1) if (q := pmf(i)) <= observed * (1 + 1e-7))
    return TestResult("exact binomial test", k / n, min(1.0, total))


# ---------------------------------------------------------------------------
# Samples of numbers
# ---------------------------------------------------------------------------


def welch_t_test(xs: Sequence[float], ys: Sequence[float]) -> TestResult:
    """Welch's unequal-variance t-test of mean(xs) against mean(ys) (two-sided).

    When neither sample varies (every value of ``xs`` alike and every value of
    ``ys`` alike, as repeated deterministic games give), the standard error is
    0 and the t statistic is ``(m1 - m2) / 0``.  It is answered as the limit:
    equal constants differ by nothing (statistic 0, p = 1); different
    constants give an infinite statistic (signed as ``m1 - m2``) and p = 0,
    so statistic and p-value always agree.  Read p = 0 there as "the samples
    do not overlap and show no spread", not as a measured certainty.  ``df``
    is then ``n1 + n2 - 2``.
    """
    n1, n2 = len(xs), len(ys)
    if n1 < 2 or n2 < 2:
        return TestResult("Welch t-test", 0.0, 1.0)
    m1, m2 = statistics.fmean(xs), statistics.fmean(ys)
    v1, v2 = statistics.variance(xs), statistics.variance(ys)
    se2 = v1 / n1 + v2 / n2
    if se2 == 0.0:
        if m1 == m2:
            return TestResult("Welch t-test", 0.0, 1.0, float(n1 + n2 - 2))
        return TestResult("Welch t-test", math.copysign(math.inf, m1 - m2), 0.0, float(n1 + n2 - 2))
    t = (m1 - m2) / math.sqrt(se2)
    df = se2 * se2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1))
    return TestResult("Welch t-test", t, t_two_sided_p(t, df), df)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given.

    Sort the ``m`` p-values ascending; the ``i``-th smallest (from 0) is
    multiplied by ``m - i``, and each adjusted value is the running maximum of
    those products, capped at 1 (Holm 1979, "A simple sequentially rejective
    multiple test procedure"; as ``p.adjust(method="holm")`` in R and
    ``multipletests(method="holm")`` in statsmodels).  Flagging the tests whose
    adjusted p is below ``alpha`` keeps the chance of any false flag in the
    family at most ``alpha``, whatever the tests' dependence.
    """
    m = len(p_values)
    adjusted = [1.0] * m
    running = 0.0
    for i, k in enumerate(sorted(range(m), key=lambda j: p_values[j])):
        running = max(running, min(1.0, (m - i) * p_values[k]))
        adjusted[k] = running
    return adjusted


def control_family(tests: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tests of one family (dicts of :meth:`TestResult.to_dict`), each with its Holm-adjusted p.

    Every test keeps its raw ``p_value`` and gains ``p_adjusted`` (Holm over
    the whole family, :func:`holm`), ``family`` (how many tests the family
    holds) and ``significant_raw`` (raw p below :data:`ALPHA`); ``significant``
    becomes the adjusted p below :data:`ALPHA`.
    """
    adjusted = holm([float(t["p_value"]) for t in tests])
    return [
        {
            **t,
            "p_adjusted": q,
            "family": len(tests),
            "significant_raw": float(t["p_value"]) < ALPHA,
            "significant": q < ALPHA,
        }
        for t, q in zip(tests, adjusted, strict=True)
    ]


def rank(values: Sequence[float]) -> list[float]:
    """Ranks 1..n, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        mean_rank = (i + j) / 2.0 + 1.0
        for m in range(i, j + 1):
            ranks[order[m]] = mean_rank
        i = j + 1
    return ranks


def mann_whitney_u(xs: Sequence[float], ys: Sequence[float]) -> TestResult:
    """Mann-Whitney U test (two-sided; normal approximation, tie and continuity corrected).

    The statistic reported is U of the first sample.
    """
    n1, n2 = len(xs), len(ys)
    if n1 == 0 or n2 == 0:
        return TestResult("Mann-Whitney U test", 0.0, 1.0)
    ranks = rank(list(xs) + list(ys))
    u1 = sum(ranks[:n1]) - n1 * (n1 + 1) / 2.0
    n = n1 + n2
    counts: dict[float, int] = {}
    for v in list(xs) + list(ys):
        counts[v] = counts.get(v, 0) + 1
    tie_term = sum(t**3 - t for t in counts.values())
    var = n1 * n2 / 12.0 * ((n + 1) - tie_term / (n * (n - 1))) if n > 1 else 0.0
    if var <= 0.0:
        return TestResult("Mann-Whitney U test", u1, 1.0)
    diff = u1 - n1 * n2 / 2.0
    z = (abs(diff) - 0.5) / math.sqrt(var) if abs(diff) >= 0.5 else 0.0
    return TestResult("Mann-Whitney U test", u1, normal_two_sided_p(z))


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile of already sorted values (numpy's default)."""
    if not sorted_values:
        return float("nan")
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def describe(values: Sequence[float]) -> dict[str, float | None]:
    """Mean, median, standard deviation, quartiles, range and count."""
    xs = sorted(float(v) for v in values)
    if not xs:
        return {"n": 0, "mean": None, "median": None, "stdev": None, "min": None, "q1": None, "q3": None, "max": None}
    return {
        "n": len(xs),
        "mean": statistics.fmean(xs),
        "median": statistics.median(xs),
        "stdev": statistics.stdev(xs) if len(xs) > 1 else 0.0,
        "min": xs[0],
        "q1": quantile(xs, 0.25),
        "q3": quantile(xs, 0.75),
        "max": xs[-1],
    }


class Histogram(TypedDict):
    """Bin edges (``bins + 1``) and the count in each bin."""

    edges: list[float]
    counts: list[int]


def histogram(values: Sequence[float], bins: int = 12, lo: float | None = None, hi: float | None = None) -> Histogram:
    """Counts in ``bins`` equal-width bins from ``lo`` to ``hi`` (default: the data's range)."""
    xs = [float(v) for v in values]
    if not xs:
        return {"edges": [], "counts": []}
    lo = min(xs) if lo is None else lo
    hi = max(xs) if hi is None else hi
    if hi <= lo:
        hi = lo + 1.0
    width = (hi - lo) / bins
    counts = [0] * bins
    for x in xs:
        i = int((x - lo) / width)
        counts[min(max(i, 0), bins - 1)] += 1
    return {"edges": [lo + i * width for i in range(bins + 1)], "counts": counts}
