"""Unusual and malformed input to the statistics of chapter 08 (coursekit/measures/significance.py
and power.py): tiny alphas, huge effects, differences equal up to rounding, pandas Series in
another order, overflow, wrong types, seeds and resample counts. Expected values come from
scipy (ttest_rel, wilcoxon, bootstrap, nct), numerical integration or hand derivations."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import integrate, stats

import coursekit as ck

PAIRED = {
    "paired_t_test": ck.paired_t_test,
    "wilcoxon_test": ck.wilcoxon_test,
    "randomization_test": ck.randomization_test,
    "bootstrap_ci": ck.bootstrap_ci,
    "cohens_dz": ck.cohens_dz,
    "dz_interval": ck.dz_interval,
}
EVERY_PAIRED = pytest.mark.parametrize("function", PAIRED.values(), ids=PAIRED.keys())
SEEDED = pytest.mark.parametrize(
    "function", [ck.randomization_test, ck.bootstrap_ci], ids=["randomization", "bootstrap"]
)


def nct_cdf_by_integration(t: float, df: int, delta: float) -> float:
    """P(T' <= t) for T' = (Z + delta) / sqrt(V / df), V ~ chi2(df): the integral over V of
    Phi(t sqrt(V / df) - delta), by quadrature (independent of scipy's nct)."""

    def integrand(v: float) -> float:
        return stats.norm.cdf(t * math.sqrt(v / df) - delta) * stats.chi2.pdf(v, df)

    step = df * (delta / t) ** 2  # where Phi jumps from 0 to 1
    low, high = stats.chi2.ppf(1e-15, df), stats.chi2.isf(1e-15, df)
    points = [p for p in (step, df) if low < p < high]
    return integrate.quad(integrand, low, high, points=points, limit=500, epsrel=1e-12)[0]


def power_by_integration(effect: float, n: int, alpha: float) -> float:
    """P(|T'| > t_c): 1 - P(T' <= t_c) + P(T' <= -t_c), t_c = the upper alpha/2 t quantile."""
    critical, delta = stats.t.isf(alpha / 2, n - 1), effect * math.sqrt(n)
    upper = 1 - nct_cdf_by_integration(critical, n - 1, delta)
    return upper + (1 - nct_cdf_by_integration(critical, n - 1, -delta))


def power_by_nct(effect: float, n: int, alpha: float) -> float:
    """P(T' > t_c) + P(T' < -t_c) with scipy's noncentral t (the lower tail as the upper tail
    of -T')."""
    critical, delta = stats.t.isf(alpha / 2, n - 1), effect * math.sqrt(n)
    return stats.nct.sf(critical, n - 1, delta) + stats.nct.sf(critical, n - 1, -delta)


# --- power and topic set size --------------------------------------------------------------------


def test_power_with_a_tiny_alpha_uses_the_upper_tail():
    # t.ppf(1 - 5e-18) is t.ppf(1) = inf (1 - 5e-18 rounds to 1): power 0. t.isf(5e-18) is
    # about 8.6, and delta = 0.5 * sqrt(10000) = 50 is far beyond it: power 1.
    expected = power_by_nct(0.5, 10_000, 1e-17)
    assert expected == pytest.approx(1.0)
    assert ck.power_paired_t(0.5, 10_000, alpha=1e-17) == pytest.approx(expected, abs=1e-12)


def test_topic_set_size_with_a_tiny_alpha():
    # the smallest n whose power, integrated numerically, reaches 0.8 at alpha = 1e-20
    n = ck.topic_set_size(0.5, power=0.8, alpha=1e-20)
    assert power_by_integration(0.5, n, 1e-20) >= 0.8 > power_by_integration(0.5, n - 1, 1e-20)
    assert n == 457


@pytest.mark.parametrize(("effect", "n_topics"), [(20, 5), (1e10, 20), (-20, 5), (1e308, 3)])
def test_power_of_a_huge_effect_is_one(effect, n_topics):
    # scipy's noncentral t gives power 1 (to 12 digits) at d_z = 20 or 40 already; power
    # grows with |d_z|, so every larger effect has power 1 too
    reference = power_by_nct(min(abs(effect), 40), n_topics, 0.05)
    assert reference == pytest.approx(1.0, abs=1e-12)
    assert ck.power_paired_t(effect, n_topics) == pytest.approx(reference, abs=1e-12)


def test_power_beyond_the_large_noncentrality_limit_follows_scipy():
    # 3 topics, alpha = 1e-17: t_c = 3.2e8, so delta = 3e4 still has a small power, which
    # scipy's nct computes well at that size; the limit used above 1e4 must agree with it
    effect = 3e4 / math.sqrt(3)
    expected = power_by_nct(effect, 3, 1e-17)
    assert 1e-10 < expected < 1e-8
    assert ck.power_paired_t(effect, 3, 1e-17) == pytest.approx(expected, rel=1e-6)


def test_topic_set_size_up_to_the_maximum():
    # the answer lies between the last doubling (2**19 = 524,288) and MAX_TOPICS
    n = ck.topic_set_size(0.0034)
    assert 2**19 < n <= 1_000_000
    assert power_by_nct(0.0034, n, 0.05) >= 0.8 > power_by_nct(0.0034, n - 1, 0.05)


@pytest.mark.parametrize("n_topics", [1_000_001, 10**30])
def test_power_refuses_too_many_topics(n_topics):
    with pytest.raises(ValueError, match="n_topics"):
        ck.power_paired_t(0.5, n_topics)


def test_power_refuses_an_alpha_without_a_critical_value():
    # alpha / 2 underflows to 0: the critical value would be infinite
    with pytest.raises(ValueError, match="alpha=5e-324 is too small"):
        ck.power_paired_t(0.5, 10, alpha=5e-324)


# --- differences equal up to rounding ------------------------------------------------------------

EQUAL = [
    ([0.1, 0.2, 0.3, 0.7], [0.0, 0.1, 0.2, 0.6]),  # 0.1 each, but 0.7 - 0.6 is 0.0999...98
    ([1, 2, 3], [0, 1, 2]),  # exactly 1 each
    ([1000.1, 1000.2, 1000.3], [1000.0, 1000.1, 1000.2]),  # 0.1 each, rounded at 1000
]


@pytest.mark.parametrize(("a", "b"), EQUAL)
@pytest.mark.parametrize(
    ("function", "what"),
    [(ck.paired_t_test, "t statistic"), (ck.cohens_dz, "effect size"), (ck.dz_interval, "effect")],
)
def test_equal_differences_are_refused(function, what, a, b):
    with pytest.raises(ValueError, match=f"all equal .*no {what}"):
        function(a, b)


def test_differences_zero_up_to_rounding_are_identical_systems():
    # 0.1 + 0.2 is 0.30000000000000004, not 0.3: the systems still score the same
    assert ck.paired_t_test([0.3, 0.7, 0.5], [0.1 + 0.2, 0.7, 0.5]) == ("paired t-test", 0.0, 1.0)


def test_a_small_real_spread_is_kept():
    # differences 1e-12, 2e-12, 4e-12: tiny, but far above rounding at scores near 0.3
    a, b = [0.3 + 1e-12, 0.3 + 2e-12, 0.3 + 4e-12], [0.3, 0.3, 0.3]
    expected = stats.ttest_rel(a, b)
    assert ck.paired_t_test(a, b).statistic == pytest.approx(expected.statistic)
    assert ck.cohens_dz(a, b) == pytest.approx(expected.statistic / math.sqrt(3))


def test_dz_interval_of_a_huge_effect():
    # d = 1, 1, 1, 0.99999: d_z = 4e5 / sqrt(4), far beyond what scipy's nct computes.
    # Each bound delta must still give the observed t the tail probability 0.025.
    a, b = [1.0, 1.1, 1.2, 1.3], [0.0, 0.1, 0.2, 0.30001]
    d = np.array(a) - np.array(b)
    t_obs = d.mean() / d.std(ddof=1) * 2
    low, high = ck.dz_interval(a, b)
    assert low < t_obs / 2 < high
    assert nct_cdf_by_integration(t_obs, 3, low * 2) == pytest.approx(0.975, abs=1e-4)
    assert nct_cdf_by_integration(t_obs, 3, high * 2) == pytest.approx(0.025, abs=1e-4)


def test_dz_interval_at_a_confidence_next_to_one():
    # tail = 5e-17: 1 - tail rounds to 1 - 5.55e-17, so the lower bound must come from the
    # upper tail itself: nct.sf(t, 4, delta) = 5e-17 at delta = lower bound * sqrt(5)
    a, b = [0.5, 0.6, 0.9, 0.4, 0.7], [0.4, 0.4, 0.6, 0.5, 0.2]
    d = np.array(a) - np.array(b)
    t_obs = d.mean() / d.std(ddof=1) * math.sqrt(5)
    low, high = ck.dz_interval(a, b, confidence=1 - 1e-16)
    tail = (1 - (1 - 1e-16)) / 2
    assert stats.nct.sf(t_obs, 4, low * math.sqrt(5)) == pytest.approx(tail, rel=1e-6)
    assert stats.nct.cdf(t_obs, 4, high * math.sqrt(5)) == pytest.approx(tail, rel=1e-6)
    wider = ck.dz_interval(a, b, confidence=1 - 1e-12)
    assert low < wider[0] < wider[1] < high


# --- pandas Series paired by label ---------------------------------------------------------------

SHUFFLED_A = pd.Series([0.9, 0.1, 0.5], index=["q3", "q1", "q2"])
SORTED_B = pd.Series([0.05, 0.42, 0.78], index=["q1", "q2", "q3"])
# by label: q1 0.1 vs 0.05, q2 0.5 vs 0.42, q3 0.9 vs 0.78
BY_LABEL_A, BY_LABEL_B = [0.1, 0.5, 0.9], [0.05, 0.42, 0.78]


def test_series_are_paired_by_label_in_the_t_test():
    expected = stats.ttest_rel(BY_LABEL_A, BY_LABEL_B)
    result = ck.paired_t_test(SHUFFLED_A, SORTED_B)
    assert result.statistic == pytest.approx(expected.statistic)  # 4.11, not 0.217
    assert result.pvalue == pytest.approx(expected.pvalue)


def test_series_are_paired_by_label_in_wilcoxon():
    # differences 0.05, 0.08, 0.12 by label, all positive: exact p = 2 / 8
    assert ck.wilcoxon_test(SHUFFLED_A, SORTED_B).pvalue == pytest.approx(0.25)


def test_series_are_paired_by_label_in_the_randomization_test():
    # 3 queries: all 8 sign flips (exact). Only the flips all + or all - reach |0.25| / 3
    assert ck.randomization_test(SHUFFLED_A, SORTED_B).pvalue == pytest.approx(2 / 8)


def test_series_are_paired_by_label_in_the_bootstrap():
    d = np.array(BY_LABEL_A) - np.array(BY_LABEL_B)
    rng = np.random.default_rng(0)
    expected = stats.bootstrap((d,), np.mean, n_resamples=10_000, method="BCa", rng=rng)
    interval = expected.confidence_interval
    assert ck.bootstrap_ci(SHUFFLED_A, SORTED_B) == pytest.approx((interval.low, interval.high))


def test_series_are_paired_by_label_in_effect_sizes():
    d = np.array(BY_LABEL_A) - np.array(BY_LABEL_B)  # 0.05, 0.08, 0.12
    dz = d.mean() / d.std(ddof=1)
    assert ck.cohens_dz(SHUFFLED_A, SORTED_B) == pytest.approx(dz)
    low, high = ck.dz_interval(SHUFFLED_A, SORTED_B)
    t_obs = dz * math.sqrt(3)
    assert stats.nct.cdf(t_obs, 2, low * math.sqrt(3)) == pytest.approx(0.975, abs=1e-8)
    assert stats.nct.cdf(t_obs, 2, high * math.sqrt(3)) == pytest.approx(0.025, abs=1e-8)


@EVERY_PAIRED
def test_series_with_other_labels_are_refused(function):
    b = pd.Series([0.05, 0.42, 0.78], index=["q1", "q2", "q4"])
    with pytest.raises(ValueError, match="only in a: 'q3'; only in b: 'q4'.*align"):
        function(SHUFFLED_A, b)


@EVERY_PAIRED
def test_series_with_repeated_labels_are_refused(function):
    b = pd.Series([0.05, 0.42, 0.78], index=["q1", "q1", "q3"])
    with pytest.raises(ValueError, match="repeated labels 'q1'"):
        function(SHUFFLED_A, b)


# --- overflow, types, seeds, resamples -----------------------------------------------------------


@EVERY_PAIRED
def test_differences_that_overflow_are_refused(function):
    # 1e308 - (-1e308) is beyond the largest float
    with pytest.raises(ValueError, match=r"a\[0\] - b\[0\] = 1e\+308 - -1e\+308 overflows"):
        function([1e308, -1e308, 1e308], [-1e308, 1e308, 0.0])


@EVERY_PAIRED
def test_differences_whose_squares_overflow_are_refused(function):
    with pytest.raises(ValueError, match="squares overflow"):
        function([1e200, -1e200, 0.0], [0.0, 0.0, 0.0])


@EVERY_PAIRED
@pytest.mark.parametrize(
    ("scores", "error"),
    [
        (["0.5", "0.2", "0.3"], TypeError),
        ({"q1": 0.5, "q2": 0.2, "q3": 0.3}, TypeError),
        (None, TypeError),
        (5, TypeError),
        ("0.5 0.2 0.3", TypeError),
        ([0.5j, 0.2, 0.3], TypeError),
        (np.array([0.5j, 0.2, 0.3]), TypeError),
        ([[0.5, 0.2], [0.3, 0.1]], ValueError),
    ],
    ids=["strings", "dict", "None", "int", "string", "complex", "complex array", "nested"],
)
def test_scores_that_are_not_numbers_are_refused_by_name(function, scores, error):
    with pytest.raises(error, match=r"^a(\[0\])? must"):
        function(scores, [0.1, 0.2, 0.3])


@EVERY_PAIRED
def test_generators_are_read_once(function):
    a, b = [0.5, 0.6, 0.7, 0.8, 0.2], [0.4, 0.5, 0.7, 0.6, 0.3]
    assert function((x for x in a), iter(b)) == function(a, b)


def test_generators_give_scipy_s_t_test():
    a, b = [0.5, 0.6, 0.7, 0.8, 0.2], [0.4, 0.5, 0.7, 0.6, 0.3]
    expected = stats.ttest_rel(a, b)
    assert ck.paired_t_test(iter(a), iter(b)).pvalue == pytest.approx(expected.pvalue)


@pytest.mark.parametrize(
    ("pvalues", "error", "message"),
    [
        (["a"], TypeError, r"^pvalues\[0\] must be a number"),
        ({0.1: 1}, TypeError, "^pvalues must be a list"),
        (None, TypeError, "^pvalues must be a list"),
        (0.05, TypeError, "^pvalues must be a list"),
        ([True, False], TypeError, r"^pvalues\[0\] must be a number, got bool"),
        (np.array([True, False]), TypeError, "^pvalues must hold real numbers"),
        ([0.1, float("nan")], ValueError, r"^pvalues\[1\] is nan"),
    ],
)
def test_holm_refuses_what_is_not_a_p_value(pvalues, error, message):
    with pytest.raises(error, match=message):
        ck.holm(pvalues)


def test_holm_reads_a_generator():
    # sorted 0.01 (x3 = 0.03), 0.03 (x2 = 0.06), 0.04 (x1, raised to 0.06)
    assert ck.holm(p for p in (0.01, 0.04, 0.03)).tolist() == pytest.approx([0.03, 0.06, 0.06])


@SEEDED
@pytest.mark.parametrize(
    ("seed", "error"),
    [(-1, ValueError), (1.5, TypeError), ("abc", TypeError), (True, TypeError), (None, TypeError)],
)
def test_seeds_are_non_negative_integers(function, seed, error):
    with pytest.raises(error, match="^seed must be an integer"):
        function([0.5, 0.6, 0.7, 0.8, 0.9], [0.4, 0.5, 0.6, 0.7, 0.95], seed=seed)


@SEEDED
def test_too_many_resamples_are_refused(function):
    with pytest.raises(ValueError, match=r"^n_resamples must be .* in \[\d+, 1000000\]"):
        function([0.5, 0.6, 0.7, 0.8, 0.9], [0.4, 0.5, 0.6, 0.7, 0.95], n_resamples=10**12)


@pytest.mark.parametrize("n_resamples", [1, 999])
def test_too_few_bootstrap_resamples_are_refused(n_resamples):
    with pytest.raises(ValueError, match=r"^n_resamples must be an integer in \[1000, 1000000\]"):
        ck.bootstrap_ci([0.5, 0.6, 0.7, 0.8], [0.4, 0.5, 0.7, 0.6], n_resamples=n_resamples)


# --- gain_percent --------------------------------------------------------------------------------


def test_gain_over_a_baseline_too_close_to_zero_is_refused():
    with pytest.raises(ValueError, match="too large to be a number"):
        ck.gain_percent(0.5, 1e-320)


def test_gain_when_the_difference_overflows():
    # 100 * (1e307 - 1e306) overflows, but the gain is 100 * (10 - 1) = 900 %
    assert ck.gain_percent(1e307, 1e306) == pytest.approx(900.0)
    # a - b = 2e308 overflows: 100 * (1e308 / -1e308 - 1) = -200 %
    assert ck.gain_percent(1e308, -1e308) == pytest.approx(-200.0)


def test_every_pairing_of_labels_gives_the_same_t_test():
    # any order of the same labels: the t statistic of the label-wise pairs
    expected = stats.ttest_rel(BY_LABEL_A, BY_LABEL_B).statistic
    for order in itertools.permutations(["q1", "q2", "q3"]):
        b = SORTED_B[list(order)]
        assert ck.paired_t_test(SHUFFLED_A, b).statistic == pytest.approx(expected)
