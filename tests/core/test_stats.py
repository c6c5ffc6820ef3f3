"""core/lab/stats.py against values worked out by hand or read from standard tables."""

from __future__ import annotations

import math

import pytest

from core.lab import stats


def test_wilson_interval_by_hand():
    # 8 successes in 10, z = 1.96: p = 0.8, z^2 = 3.8416
    # centre = (0.8 + 3.8416/20) / (1 + 3.8416/10) = 0.99208 / 1.38416 = 0.716738
    # half   = 1.96 / 1.38416 * sqrt(0.8*0.2/10 + 3.8416/400) = 1.416021 * 0.160012 = 0.226581
    lo, hi = stats.wilson_interval(8, 10, z=1.96)
    assert lo == pytest.approx(0.716738 - 0.226581, abs=2e-6)  # 0.4902
    assert hi == pytest.approx(0.716738 + 0.226581, abs=2e-6)  # 0.9433
    # 0 of 10: the lower end is 0 and the upper end is z^2/(n + z^2) = 3.8416/13.8416
    lo, hi = stats.wilson_interval(0, 10, z=1.96)
    assert lo == pytest.approx(0.0, abs=1e-12)
    assert hi == pytest.approx(3.8416 / 13.8416, abs=1e-9)
    # symmetric around one half for k = n/2
    lo, hi = stats.wilson_interval(50, 100)
    assert lo + hi == pytest.approx(1.0)
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)


def test_two_proportion_z_test_by_hand():
    # 45/100 against 30/100: pooled p = 75/200 = 0.375,
    # se = sqrt(0.375 * 0.625 * (1/100 + 1/100)) = sqrt(0.0046875) = 0.0684653,
    # z = 0.15 / 0.0684653 = 2.19089, two-sided p = erfc(2.19089 / sqrt 2) = 0.02846
    r = stats.two_proportion_z_test(45, 100, 30, 100)
    assert r.statistic == pytest.approx(0.15 / math.sqrt(0.0046875), rel=1e-9)
    assert r.statistic == pytest.approx(2.19089, abs=1e-5)
    assert r.p_value == pytest.approx(0.02846, abs=1e-5)
    assert r.significant
    assert not stats.two_proportion_z_test(5, 10, 6, 10).significant
    assert stats.two_proportion_z_test(0, 10, 0, 10).p_value == 1.0


def test_binomial_test_by_hand():
    # 9 of 10 against 1/2: P(X >= 9) + P(X <= 1) = 2 * (10 + 1) / 1024
    r = stats.binomial_test(9, 10, 0.5)
    assert r.p_value == pytest.approx(22 / 1024)
    # 5 of 10 against 1/2: every outcome is at most as likely as the mode
    assert stats.binomial_test(5, 10, 0.5).p_value == pytest.approx(1.0)


def test_student_t_against_table_values():
    # two-sided 5 % critical values: t(10) = 2.228, t(1) = 12.706; t(5) = 2.0 gives p = 0.1019
    assert stats.t_two_sided_p(2.228, 10) == pytest.approx(0.05, abs=2e-4)
    assert stats.t_two_sided_p(12.706, 1) == pytest.approx(0.05, abs=2e-5)
    assert stats.t_two_sided_p(2.0, 5) == pytest.approx(0.1019, abs=1e-4)
    assert stats.t_two_sided_p(0.0, 7) == pytest.approx(1.0)
    assert stats.betainc(2, 3, 0.4) == pytest.approx(0.5248)  # 1 - sum_{k<2} C(4,k) .4^k .6^(4-k)


def test_welch_t_test_by_hand():
    # xs = 1..5 (mean 3, var 2.5), ys = 2,4,..,10 (mean 6, var 10):
    # se^2 = 2.5/5 + 10/5 = 2.5, t = -3 / sqrt(2.5) = -1.89737,
    # df = 2.5^2 / (0.5^2/4 + 2^2/4) = 6.25 / 1.0625 = 5.88235
    r = stats.welch_t_test([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])
    assert r.statistic == pytest.approx(-3 / math.sqrt(2.5))
    assert r.df == pytest.approx(6.25 / 1.0625)
    assert 0.10 < r.p_value < 0.11 and not r.significant


def test_mann_whitney_by_hand():
    # complete separation of 3 and 3: U = 0, mean 4.5, variance 3*3*7/12 = 5.25,
    # z = (4.5 - 0.5) / sqrt(5.25) = 1.74574, p = 0.08086
    r = stats.mann_whitney_u([1, 2, 3], [4, 5, 6])
    assert r.statistic == 0.0
    assert r.p_value == pytest.approx(math.erfc(4 / math.sqrt(5.25) / math.sqrt(2)))
    assert stats.rank([10, 20, 20, 30]) == [1.0, 2.5, 2.5, 4.0]
    # identical samples: no evidence of a difference
    assert stats.mann_whitney_u([1, 2, 3, 4], [1, 2, 3, 4]).p_value == pytest.approx(1.0)


def test_describe_and_histogram():
    d = stats.describe([1, 2, 3, 4, 100])
    assert d["median"] == 3 and d["mean"] == 22 and d["q1"] == 2 and d["q3"] == 4 and d["max"] == 100
    h = stats.histogram([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], bins=5)
    assert sum(h["counts"]) == 11 and h["counts"][-1] == 3 and len(h["edges"]) == 6


def test_welch_with_no_spread_in_either_sample_agrees_with_its_p_value():
    """The audit's case: [1,1,1,1] against [2,2,2] gave statistic 0 with p 0 ("significant").  Different
    constants now give an infinite statistic with p = 0; equal constants no difference, p = 1."""
    r = stats.welch_t_test([1, 1, 1, 1], [2, 2, 2])
    assert r.statistic == -math.inf and r.p_value == 0.0 and r.significant
    assert r.df == 5.0
    assert stats.welch_t_test([2, 2, 2], [1, 1, 1, 1]).statistic == math.inf
    same = stats.welch_t_test([3, 3, 3], [3, 3])
    assert same.statistic == 0.0 and same.p_value == 1.0 and not same.significant


def test_holm_matches_r_p_adjust():
    # R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # capped at 1, order kept, empty family
    assert stats.holm([0.9, 0.2]) == pytest.approx([0.9, 0.4])
    assert stats.holm([0.6, 0.7, 0.8]) == pytest.approx([1.0, 1.0, 1.0])
    assert stats.holm([]) == []


def test_a_family_of_22_tests_flags_on_the_adjusted_p():
    """The audit's compare: 22 tests, deepest drama p=0.029 and lead changes p=0.0033 flagged at 5% raw;
    neither survives Holm's correction over the family.  Both p-values are kept."""
    raw = [
        stats.TestResult("Welch t-test", 2.2, 0.029).to_dict(),
        stats.TestResult("Welch t-test", 3.1, 0.0033).to_dict(),
    ]
    raw += [stats.TestResult("two-proportion z-test", 0.5, 0.5).to_dict() for _ in range(20)]
    family = stats.control_family(raw)
    assert [t["p_value"] for t in family] == [t["p_value"] for t in raw]
    assert family[1]["p_adjusted"] == pytest.approx(22 * 0.0033)
    assert family[0]["p_adjusted"] == pytest.approx(21 * 0.029)
    assert all(t["family"] == 22 for t in family)
    assert family[0]["significant_raw"] and family[1]["significant_raw"]
    assert not any(t["significant"] for t in family)
    # a difference strong enough survives
    strong = stats.control_family([stats.TestResult("z", 4.0, 1e-5).to_dict(), *raw[2:]])
    assert strong[0]["significant"] and strong[0]["p_adjusted"] == pytest.approx(21e-5)


@pytest.mark.parametrize(
    ("f", "d1", "d2", "p"),
    # the 5% and 1% points of the F distribution, as printed in its tables (NIST/SEMATECH e-Handbook, 1.3.6.7.3)
    [(4.103, 2, 10, 0.05), (2.348, 10, 20, 0.05), (4.103, 5, 20, 0.01), (4.018, 4, 30, 0.01)],
)
def test_f_upper_tail_against_table_values(f: float, d1: int, d2: int, p: float) -> None:
    assert stats.f_upper_p(f, d1, d2) == pytest.approx(p, abs=5e-4)


def test_difference_interval_reproduces_newcombes_published_examples():
    """Newcombe (1998), "Interval estimation for the difference between independent proportions", Table II,
    method 10 (the hybrid score interval from two Wilson intervals)."""
    for (k1, n1, k2, n2), expected in (
        ((56, 70, 48, 80), (0.0524, 0.3339)),
        ((9, 10, 3, 10), (0.1705, 0.8090)),
        ((5, 56, 0, 29), (-0.0381, 0.1926)),
    ):
        assert stats.difference_interval(k1, n1, k2, n2, z=1.959964) == pytest.approx(expected, abs=1e-4)
    assert stats.difference_interval(3, 0, 1, 4) == (-1.0, 1.0)  # nothing to compare: the whole range


def test_chi_square_upper_tail_at_the_tables_critical_values():
    """The 5% critical values of the chi-square distribution (any table: 3.841 for 1 degree of freedom, 5.991 for
    2, 7.815 for 3, 18.307 for 10); with 1 degree of freedom the tail is the normal's two-sided p at sqrt(x); with
    2 it is exp(-x/2)."""
    for x, df in ((3.841459, 1), (5.991465, 2), (7.814728, 3), (18.307038, 10)):
        assert stats.chi_square_upper_p(x, df) == pytest.approx(0.05, abs=1e-6)
    for z in (0.3, 1.0, 2.5, 4.0):
        assert stats.chi_square_upper_p(z * z, 1) == pytest.approx(stats.normal_two_sided_p(z), rel=1e-9)
    assert stats.chi_square_upper_p(7.0, 2) == pytest.approx(math.exp(-3.5), rel=1e-12)
    assert stats.chi_square_upper_p(0.5, 4) == pytest.approx(math.exp(-0.25) * 1.25, rel=1e-12)  # Q(2, x) by hand
    assert stats.chi_square_upper_p(0.0, 3) == 1.0


def test_pooled_difference_weighs_pairs_by_their_precision_and_tests_whether_they_share_one():
    same = stats.pooled_difference([(60, 100, 40, 100)] * 3)
    assert same is not None and same.estimate == pytest.approx(0.2) and same.q == pytest.approx(0) and same.df == 2
    assert same.p_value == pytest.approx(1.0)
    # two pairs of equal precision (shares mirrored around 1/2): the estimate is their mean, Q = w (d1 - d2)^2 / 2
    two = stats.pooled_difference([(70, 100, 30, 100), (30, 100, 70, 100)])
    assert two is not None and two.estimate == pytest.approx(0.0, abs=1e-12)
    a1, a2 = 71 / 102, 31 / 102
    w = 1 / (a1 * (1 - a1) / 102 + a2 * (1 - a2) / 102)
    assert two.q == pytest.approx(w * 0.8**2 / 2) and two.p_value == pytest.approx(stats.normal_two_sided_p(two.q**0.5))
    assert (two.high - two.low) / 2 == pytest.approx(stats.Z95 / math.sqrt(2 * w))
    # a large sample outweighs a small one; a share of 0 or 1 keeps a finite weight
    mixed = stats.pooled_difference([(300, 1000, 100, 1000), (3, 3, 0, 3)])
    assert mixed is not None and 0.2 < mixed.estimate < 0.25
    assert stats.pooled_difference([(1, 0, 1, 2)]) is None
