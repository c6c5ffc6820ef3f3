"""Statistics for playtesting, in pure standard library (``math``, ``statistics``).

Rates get Wilson score intervals and are compared by the two-proportion
z-test (pooled); a single rate against a fixed value (is the first seat's
share of the decisive games 1/K?) gets an exact two-sided binomial test.
Samples of numbers (final wealth, margins, game lengths) are compared by
Welch's t-test (Student's t distribution through the regularised incomplete
beta function) and by the Mann-Whitney U test (normal approximation with tie
and continuity correction).  Every test returns its statistic and a two-sided
p-value; :data:`ALPHA` is the level at which a difference is called
significant.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

ALPHA = 0.05
Z95 = 1.959963984540054  # the 97.5 % point of the standard normal distribution


# ---------------------------------------------------------------------------
# Distributions
# ---------------------------------------------------------------------------


def normal_cdf(x: float) -> float:
    """P(Z <= x) for a standard normal Z."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|)."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
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


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (95 % by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


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
    """Welch's unequal-variance t-test of mean(xs) against mean(ys) (two-sided)."""
    n1, n2 = len(xs), len(ys)
    if n1 < 2 or n2 < 2:
        return TestResult("Welch t-test", 0.0, 1.0)
    m1, m2 = statistics.fmean(xs), statistics.fmean(ys)
    v1, v2 = statistics.variance(xs), statistics.variance(ys)
    se2 = v1 / n1 + v2 / n2
    if se2 == 0.0:
        return TestResult("Welch t-test", 0.0, 1.0 if m1 == m2 else 0.0, float(n1 + n2 - 2))
    t = (m1 - m2) / math.sqrt(se2)
    df = se2 * se2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1))
    return TestResult("Welch t-test", t, t_two_sided_p(t, df), df)


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
