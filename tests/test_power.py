"""Effect size, power, topic set size and Holm (coursekit/measures/power.py), against a seeded
Monte-Carlo simulation of paired t-tests, a brute-force search and hand derivations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import coursekit as ck

N_SIMULATIONS = 20_000


def simulated_power(effect: float, n_topics: int, alpha: float, seed: int) -> float:
    """Share of N_SIMULATIONS paired t-tests that reject, the differences drawn N(effect, 1)."""
    rng = np.random.default_rng(seed)
    differences = rng.normal(effect, 1.0, size=(N_SIMULATIONS, n_topics))
    pvalues = stats.ttest_1samp(differences, 0.0, axis=1).pvalue
    return float(np.mean(pvalues < alpha))


@pytest.mark.parametrize(
    ("effect", "n_topics", "alpha", "seed"),
    [(0.0, 10, 0.05, 1), (0.3, 25, 0.05, 2), (0.5, 20, 0.05, 3), (0.8, 12, 0.01, 4)],
)
def test_power_matches_simulation(effect, n_topics, alpha, seed):
    simulated = simulated_power(effect, n_topics, alpha, seed)
    exact = ck.power_paired_t(effect, n_topics, alpha)
    # The simulated share is a binomial proportion: its standard error is
    # sqrt(p (1 - p) / N), at most 0.0035 for N = 20,000. Four standard errors leave a
    # false failure probability below 1e-4 for each case, and still catch an error in the
    # degrees of freedom or the noncentrality, which moves power by several points.
    standard_error = math.sqrt(exact * (1 - exact) / N_SIMULATIONS)
    assert abs(simulated - exact) <= 4 * standard_error


def test_power_of_a_null_effect_is_alpha():
    for alpha in (0.01, 0.05, 0.1):
        assert ck.power_paired_t(0.0, 15, alpha) == pytest.approx(alpha, abs=1e-12)


def test_power_grows_with_topics_and_is_symmetric():
    powers = [ck.power_paired_t(0.4, n) for n in range(2, 60)]
    assert all(p2 > p1 for p1, p2 in zip(powers, powers[1:], strict=False))
    assert ck.power_paired_t(-0.4, 30) == pytest.approx(ck.power_paired_t(0.4, 30))


@pytest.mark.parametrize(
    ("effect", "power", "alpha"), [(0.5, 0.8, 0.05), (0.2, 0.8, 0.05), (1.0, 0.9, 0.01)]
)
def test_topic_set_size_is_the_smallest_n_by_brute_force(effect, power, alpha):
    brute = next(n for n in range(2, 10_000) if ck.power_paired_t(effect, n, alpha) >= power)
    assert ck.topic_set_size(effect, power, alpha) == brute


def test_topic_set_size_textbook_value():
    # d = 0.5, alpha = 0.05 two-sided, power 0.8: the normal approximation gives
    # ((1.96 + 0.8416) / 0.5)^2 = 31.4; the t distribution's heavier tails need a few more.
    n = ck.topic_set_size(0.5, 0.8, 0.05)
    assert 32 <= n <= 35
    assert ck.power_paired_t(0.5, n) >= 0.8 > ck.power_paired_t(0.5, n - 1)


def test_cohens_dz_by_hand():
    # differences 0.1, 0.3, 0.2, 0.2: mean 0.2, sample variance (0.01 + 0.01 + 0 + 0) / 3
    a, b = [0.5, 0.7, 0.6, 0.9], [0.4, 0.4, 0.4, 0.7]
    assert ck.cohens_dz(a, b) == pytest.approx(0.2 / math.sqrt(0.02 / 3))


def test_dz_interval_inverts_the_noncentral_t():
    rng = np.random.default_rng(5)
    a, b = rng.uniform(size=15), rng.uniform(size=15)
    low, high = ck.dz_interval(a, b, confidence=0.9)
    t_obs = ck.cohens_dz(a, b) * math.sqrt(15)
    assert stats.nct.cdf(t_obs, 14, low * math.sqrt(15)) == pytest.approx(0.95, abs=1e-8)
    assert stats.nct.cdf(t_obs, 14, high * math.sqrt(15)) == pytest.approx(0.05, abs=1e-8)
    assert low < ck.cohens_dz(a, b) < high


def test_dz_interval_coverage_by_simulation():
    # 2,000 samples of 10 topics with true d_z = 0.5: the 95 % interval should cover it in
    # 95 % of them; the binomial standard error is 0.0049, so 4 of them is 0.02.
    rng = np.random.default_rng(6)
    covered = 0
    for _ in range(2_000):
        d = rng.normal(0.5, 1.0, size=10)
        low, high = ck.dz_interval(d, np.zeros(10))
        covered += low <= 0.5 <= high
    assert abs(covered / 2_000 - 0.95) <= 0.02


def test_holm_by_hand():
    # m = 4. Sorted: 0.005 (x4 = 0.02), 0.01 (x3 = 0.03), 0.03 (x2 = 0.06), 0.04 (x1 = 0.04,
    # raised to the running maximum 0.06). Back in the order given:
    adjusted = ck.holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # capped at 1
    assert ck.holm([0.5, 0.6]).tolist() == [1.0, 1.0]


def test_holm_rejects_at_least_what_bonferroni_rejects():
    rng = np.random.default_rng(7)
    p = rng.uniform(0, 0.1, size=12)
    assert np.all(ck.holm(p) <= np.minimum(1, 12 * p) + 1e-15)


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: ck.power_paired_t(0.5, 1), ValueError),
        (lambda: ck.power_paired_t(0.5, 10, alpha=1.5), ValueError),
        (lambda: ck.power_paired_t("big", 10), TypeError),
        (lambda: ck.topic_set_size(0.0), ValueError),
        (lambda: ck.topic_set_size(0.5, power=1.0), ValueError),
        (lambda: ck.cohens_dz([1, 2], [1, 2, 3]), ValueError),
        (lambda: ck.cohens_dz([1, 2], [0, 1]), ValueError),
        (lambda: ck.dz_interval([1, 2, 4], [0, 0, 0], confidence=95), ValueError),
        (lambda: ck.holm([]), ValueError),
        (lambda: ck.holm([0.2, 1.2]), ValueError),
    ],
)
def test_bad_input(call, error):
    with pytest.raises(error):
        call()
