"""Unit tests of coursekit: relative gain and paired significance tests."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

import coursekit as ck

A = [0.52, 0.61, 0.70, 0.83, 0.45, 0.38, 0.77, 0.66]
B = [0.40, 0.55, 0.71, 0.62, 0.41, 0.30, 0.70, 0.69]


# --- gain_percent --------------------------------------------------------------------------------


def test_gain_percent():
    assert ck.gain_percent(0.42, 0.40) == pytest.approx(100 * (0.42 - 0.40) / 0.40)
    assert ck.gain_percent(0.42, 0.40) == pytest.approx(5.0)


def test_gain_percent_negative_when_worse():
    assert ck.gain_percent(0.30, 0.40) == pytest.approx(-25.0)


def test_gain_percent_zero_baseline_is_undefined():
    with pytest.raises(ValueError, match="division by zero"):
        ck.gain_percent(0.3, 0.0)


def test_gain_percent_rejects_non_number():
    with pytest.raises(TypeError, match="b must be a finite number"):
        ck.gain_percent(0.3, "0.2")
    with pytest.raises(TypeError, match="a must be a finite number"):
        ck.gain_percent(True, 0.2)


# --- paired_t_test -------------------------------------------------------------------------------


def test_paired_t_test_matches_scipy():
    result = ck.paired_t_test(A, B)
    expected = stats.ttest_rel(A, B)
    assert isinstance(result, ck.TestResult)
    assert result.test == "paired t-test"
    assert result.statistic == pytest.approx(expected.statistic)
    assert result.pvalue == pytest.approx(expected.pvalue)


def test_paired_t_test_statistic_by_hand():
    d = np.array(A) - np.array(B)
    t = d.mean() / (d.std(ddof=1) / np.sqrt(d.size))
    assert ck.paired_t_test(A, B).statistic == pytest.approx(t)


def test_paired_t_test_identical_systems():
    assert ck.paired_t_test([0.1, 0.2, 0.3], [0.1, 0.2, 0.3]) == ("paired t-test", 0.0, 1.0)


def test_paired_t_test_rejects_different_lengths():
    with pytest.raises(ValueError, match="got 3 and 2"):
        ck.paired_t_test([0.1, 0.2, 0.3], [0.1, 0.2])


def test_paired_t_test_rejects_single_query():
    with pytest.raises(ValueError, match="at least two queries"):
        ck.paired_t_test([0.1], [0.2])


def test_paired_t_test_rejects_nan():
    with pytest.raises(ValueError, match="finite"):
        ck.paired_t_test([0.1, float("nan")], [0.2, 0.3])


# --- wilcoxon_test -------------------------------------------------------------------------------


def test_wilcoxon_matches_scipy():
    result = ck.wilcoxon_test(A, B)
    expected = stats.wilcoxon(A, B)
    assert result.test == "Wilcoxon signed-rank"
    assert result.statistic == pytest.approx(expected.statistic)
    assert result.pvalue == pytest.approx(expected.pvalue)


def test_wilcoxon_exact_p_by_hand():
    # differences 0.1, 0.1, 0.1, 0.1, -0.05: |d| ranks 0.05 -> 1, the four 0.1 -> 2..5;
    # W- = 1 (the only negative difference has rank 1), W+ = 14, statistic min = 1
    a = [0.5, 0.6, 0.7, 0.8, 0.9]
    b = [0.4, 0.5, 0.6, 0.7, 0.95]
    result = ck.wilcoxon_test(a, b)
    assert result.statistic == pytest.approx(1.0)
    # exact null: each of the 2^5 sign patterns equally likely; W <= 1 for the subsets {} and
    # {rank 1} of negative ranks, two-sided p = 2 * 2 / 32
    assert result.pvalue == pytest.approx(2 * 2 / 32)
    assert result.pvalue == pytest.approx(stats.wilcoxon(a, b).pvalue)


def test_wilcoxon_drops_zero_differences():
    a = [0.5, 0.6, 0.7, 0.8, 0.9, 0.3]
    b = [0.4, 0.5, 0.7, 0.6, 0.95, 0.1]
    expected = stats.wilcoxon(a, b, zero_method="wilcox")
    result = ck.wilcoxon_test(a, b)
    # the zero difference (0.7 - 0.7) is dropped: among the 5 others, -0.05 is the smallest
    # in size, rank 1, and the only negative one: W- = 1 (ranking the zero too would give 2)
    assert result.statistic == pytest.approx(1.0)
    assert result.statistic == pytest.approx(expected.statistic)
    assert result.pvalue == pytest.approx(expected.pvalue)


@pytest.mark.parametrize("seed", range(40))
def test_wilcoxon_with_ties_and_zeros_matches_scipy(seed):
    # zero and tied differences on at most 13 queries: SciPy runs an exact permutation test
    # one sign flip at a time; coursekit computes all flips at once and must agree with it
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 14))
    grid = [0.0, 0.1, 0.25, 0.5, 1.0]
    a, b = rng.choice(grid, n), rng.choice(grid, n)
    b[0] = a[0] + 0.125  # at least one nonzero difference
    result = ck.wilcoxon_test(a, b)
    expected = stats.wilcoxon(a, b, zero_method="wilcox")
    assert result.statistic == pytest.approx(float(expected.statistic), abs=1e-12)
    assert result.pvalue == pytest.approx(float(expected.pvalue), abs=1e-12)


def test_wilcoxon_exact_permutation_by_hand():
    # differences 0.3, 0.3, 0, -0.2, 0.1: the zero is dropped, the ranks of |d| are 3.5, 3.5,
    # 2, 1; R+ = 3.5 + 3.5 + 1 = 8, R- = 2, statistic min = 2. The 16 sign flips of the four
    # nonzero values give R+ = the sums of the subsets of {3.5, 3.5, 2, 1}: 0, 1, 2, 3, 3.5,
    # 3.5, 4.5, 4.5, 5.5, 5.5, 6.5, 6.5, 7, 8, 9, 10. R+ >= 8 in 3 of them, R+ <= 8 in 14:
    # p = 2 * min(3, 14) / 16
    result = ck.wilcoxon_test([0.5, 0.4, 0.3, 0.2, 0.2], [0.2, 0.1, 0.3, 0.4, 0.1])
    assert result.statistic == 2.0
    assert result.pvalue == pytest.approx(2 * 3 / 16)


def test_wilcoxon_identical_systems():
    assert ck.wilcoxon_test([0.1, 0.2], [0.1, 0.2]) == ("Wilcoxon signed-rank", 0.0, 1.0)


# --- randomization_test --------------------------------------------------------------------------


def _exact_sign_flip_p(a, b):
    d = np.array(a) - np.array(b)
    observed = abs(d.mean())
    flips = [abs((d * np.array(s)).mean()) for s in itertools.product([1, -1], repeat=d.size)]
    return sum(f >= observed - 1e-12 for f in flips) / len(flips)


def test_randomization_exact_on_few_queries():
    # differences 0.25, 0.25, 0.5, -0.25, 0.25 (exact in binary); 2^5 = 32 sign flips
    a = [0.5, 0.75, 1.0, 0.25, 0.5]
    b = [0.25, 0.5, 0.5, 0.5, 0.25]
    result = ck.randomization_test(a, b)
    assert result.test == "randomization"
    assert result.statistic == pytest.approx(np.mean(np.array(a) - np.array(b)))
    # In units of 0.25 the magnitudes are 1, 1, 2, 1, 1 (total 6) and the observed sum is 4.
    # A sign flip gives S = 6 - 2 * (mass given a minus sign): S >= 4 when that mass is 0 or
    # one of the four 1s (5 ways), and S <= -4 symmetrically (5 ways): p = 10 / 32.
    expected = _exact_sign_flip_p(a, b)
    assert expected == pytest.approx(10 / 32)
    assert result.pvalue == pytest.approx(expected)


def test_randomization_reproducible_with_same_seed():
    rng = np.random.default_rng(7)
    a = rng.uniform(0, 1, 20)
    b = a - rng.normal(0.03, 0.1, 20)
    first = ck.randomization_test(a, b, n_resamples=2000, seed=3)
    second = ck.randomization_test(a, b, n_resamples=2000, seed=3)
    assert first == second
    assert 0.0 < first.pvalue <= 1.0
    assert first.statistic == pytest.approx(np.mean(a - b))


def test_randomization_close_to_exact_with_many_resamples():
    rng = np.random.default_rng(11)
    a = rng.uniform(0, 1, 12)
    b = a - rng.normal(0.05, 0.1, 12)
    exact = _exact_sign_flip_p(a, b)  # 4096 flips
    approx = ck.randomization_test(a, b, n_resamples=3000, seed=0).pvalue
    assert approx == pytest.approx(exact, abs=0.04)


def test_randomization_rejects_bad_n_resamples():
    with pytest.raises(ValueError, match="n_resamples must be a positive integer"):
        ck.randomization_test([0.1, 0.2], [0.2, 0.3], n_resamples=0)


# --- bootstrap_ci --------------------------------------------------------------------------------


def test_bootstrap_ci_contains_observed_mean_difference():
    low, high = ck.bootstrap_ci(A, B, n_resamples=2000)
    observed = np.mean(np.array(A) - np.array(B))
    assert low < observed < high


def test_bootstrap_ci_reproducible_and_narrower_at_lower_confidence():
    wide = ck.bootstrap_ci(A, B, confidence=0.95, n_resamples=2000, seed=5)
    assert wide == ck.bootstrap_ci(A, B, confidence=0.95, n_resamples=2000, seed=5)
    narrow = ck.bootstrap_ci(A, B, confidence=0.5, n_resamples=2000, seed=5)
    assert wide[0] <= narrow[0] < narrow[1] <= wide[1]


def test_bootstrap_ci_matches_scipy_bca_of_the_mean_difference():
    d = np.array(A) - np.array(B)
    expected = stats.bootstrap(
        (d,),
        np.mean,
        confidence_level=0.9,
        n_resamples=2000,
        method="BCa",
        rng=np.random.default_rng(4),
    ).confidence_interval
    low, high = ck.bootstrap_ci(A, B, confidence=0.9, n_resamples=2000, seed=4)
    assert (low, high) == pytest.approx((expected.low, expected.high))


def test_bootstrap_ci_constant_difference_is_a_point():
    assert ck.bootstrap_ci([0.5, 0.75, 1.0], [0.25, 0.5, 0.75]) == (0.25, 0.25)


def test_bootstrap_ci_rejects_bad_confidence():
    with pytest.raises(ValueError, match=r"confidence must be a number in \(0, 1\)"):
        ck.bootstrap_ci(A, B, confidence=1.0)
