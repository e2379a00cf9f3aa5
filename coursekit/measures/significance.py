"""Comparing two systems: relative gain and paired significance tests over per-query scores.

``a`` and ``b`` are the per-query scores of systems A and B on the *same* queries, in the same
order (for example the AP of each query). The tests come from ``scipy.stats``; this module fixes
their pairing, their defaults and a seed, and returns one small result type.

English / French / Italian: significance test / test de significativité / test di
significatività; paired / apparié / appaiato.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..validation import check_finite, check_positive_int, check_scalar

__all__ = [
    "TestResult",
    "gain_percent",
    "paired_t_test",
    "wilcoxon_test",
    "randomization_test",
    "bootstrap_ci",
]


class TestResult(NamedTuple):
    """The outcome of a paired test: its statistic and two-sided p-value."""

    __test__ = False  # not a pytest test class

    test: str
    statistic: float
    pvalue: float


def paired_scores(
    a: Sequence[float], b: Sequence[float], purpose: str = "a paired test"
) -> tuple[np.ndarray, np.ndarray]:
    """Two systems' per-query scores as float arrays, checked: one-dimensional, the same length,
    at least two queries, finite numbers."""
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError("a and b must be one-dimensional lists of per-query scores")
    if x.size != y.size:
        raise ValueError(
            f"a and b must hold one score per query for the same queries: got {x.size} and {y.size}"
        )
    if x.size < 2:
        raise ValueError(f"{purpose} needs the scores of at least two queries")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise ValueError("per-query scores must be finite numbers")
    return x, y


def gain_percent(a: float, b: float) -> float:
    """Relative gain of A over B in percent: 100 · (A − B) / B.

    A common rule of thumb in the course material calls a gain of 5 % or more a real
    improvement; a significance test says more (see :func:`paired_t_test`).

    >>> round(gain_percent(0.42, 0.40), 6)
    5.0
    """
    a, b = check_finite(a, "a"), check_finite(b, "b")
    if b == 0:
        raise ValueError("the gain over a baseline scoring 0 is undefined (division by zero)")
    return 100.0 * (a - b) / b


def paired_t_test(a: Sequence[float], b: Sequence[float]) -> TestResult:
    """Student's paired t-test on the per-query differences (``scipy.stats.ttest_rel``).

    Assumes the differences are roughly normal; two-sided.

    >>> round(paired_t_test([0.5, 0.6, 0.7, 0.8], [0.4, 0.5, 0.7, 0.6]).pvalue, 3)
    0.092
    """
    x, y = paired_scores(a, b)
    if np.all(x - y == 0):
        return TestResult("paired t-test", 0.0, 1.0)
    from scipy import stats  # on first use: import coursekit stays light

    result = stats.ttest_rel(x, y)
    return TestResult("paired t-test", float(result.statistic), float(result.pvalue))


def _sign_flips(n: int) -> np.ndarray:
    """All 2**n ways to flip the signs of n values: a boolean array 2**n x n (True: flipped)."""
    return ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(bool)


def _signed_rank_permutation_p(d: np.ndarray, ranks: np.ndarray, observed: float) -> float:
    """Two-sided p-value of the exact permutation test of the statistic R+ over all 2**n sign
    flips of the differences ``d``, computed as ``scipy.stats.permutation_test`` does (twice the
    smaller tail, with its relative tolerance), but on every flip at once."""
    null = np.where(_sign_flips(d.size), d < 0, d > 0) @ ranks  # R+ under every flip
    gamma = abs(np.finfo(float).eps * 100 * observed)
    lower = np.count_nonzero(null <= observed + gamma) / null.size
    upper = np.count_nonzero(null >= observed - gamma) / null.size
    return float(min(1.0, 2 * min(lower, upper)))


def wilcoxon_test(a: Sequence[float], b: Sequence[float]) -> TestResult:
    """Wilcoxon signed-rank test on the per-query differences (``scipy.stats.wilcoxon``).

    Uses the signs and ranks of the differences, not their size; zero differences are dropped
    (``zero_method="wilcox"``); two-sided; the statistic is min(R+, R−).

    With zero or tied differences and at most 13 queries, SciPy's default is an exact
    permutation test over the 2**n sign flips, which ``scipy.stats.wilcoxon`` evaluates one flip
    at a time (about half a second for 12 queries, too slow for a widget). This function gives
    the same p-value by computing the statistic of every flip in one matrix product (flipping
    signs does not change the ranks of the absolute differences); the tests compare it with
    SciPy. Every other case is SciPy's own computation.

    >>> wilcoxon_test([0.5, 0.6, 0.7, 0.8, 0.9], [0.4, 0.5, 0.6, 0.7, 0.95]).pvalue
    0.125
    >>> wilcoxon_test([0.5, 0.6, 0.7, 0.8], [0.4, 0.5, 0.7, 0.6]).pvalue  # a tie, a zero
    0.25
    """
    x, y = paired_scores(a, b)
    d = x - y
    if np.all(d == 0):
        return TestResult("Wilcoxon signed-rank", 0.0, 1.0)
    from scipy import stats  # on first use: import coursekit stays light

    nonzero = d[d != 0]
    has_ties = np.unique(np.abs(nonzero)).size < nonzero.size
    if d.size <= 13 and (has_ties or nonzero.size < d.size):
        ranks = np.zeros(d.size)
        ranks[d != 0] = stats.rankdata(np.abs(nonzero), method="average")
        r_plus, r_minus = float(ranks[d > 0].sum()), float(ranks[d < 0].sum())
        pvalue = _signed_rank_permutation_p(d, ranks, r_plus)
        return TestResult("Wilcoxon signed-rank", min(r_plus, r_minus), pvalue)
    result = stats.wilcoxon(x, y, zero_method="wilcox")
    return TestResult("Wilcoxon signed-rank", float(result.statistic), float(result.pvalue))


def _mean_difference(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.mean(x - y, axis=axis)


def randomization_test(
    a: Sequence[float], b: Sequence[float], n_resamples: int = 10_000, seed: int = 0
) -> TestResult:
    """Paired randomization (permutation) test of the mean difference (Fisher; Smucker et al. 2007).

    Under the null hypothesis the labels A and B of each query are exchangeable: the test
    swaps them at random ``n_resamples`` times (``scipy.stats.permutation_test`` with
    ``permutation_type="samples"``) and reports how often the mean difference is at least as
    extreme as the observed one. Seeded, so the p-value is reproducible.

    >>> randomization_test([0.5, 0.6, 0.7, 0.8], [0.4, 0.5, 0.7, 0.6], seed=1).pvalue
    0.25
    """
    x, y = paired_scores(a, b)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    from scipy import stats  # on first use: import coursekit stays light

    result = stats.permutation_test(
        (x, y),
        _mean_difference,
        permutation_type="samples",
        vectorized=True,
        n_resamples=n_resamples,
        alternative="two-sided",
        rng=np.random.default_rng(seed),
    )
    return TestResult("randomization", float(result.statistic), float(result.pvalue))


def bootstrap_ci(
    a: Sequence[float],
    b: Sequence[float],
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
) -> tuple[float, float]:
    """Bootstrap confidence interval of the mean per-query difference A − B.

    Resamples queries with replacement (``scipy.stats.bootstrap``, BCa method). An interval
    that excludes 0 points to a real difference on this population of queries.

    >>> low, high = bootstrap_ci([0.5, 0.6, 0.7, 0.8, 0.9], [0.4, 0.5, 0.6, 0.7, 0.95])
    >>> bool(low < 0.07 < high)
    True
    """
    x, y = paired_scores(a, b)
    check_scalar(
        confidence,
        "confidence",
        numbers.Real,
        what="a number",
        min_val=0,
        max_val=1,
        include_boundaries="neither",
    )
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    differences = x - y
    if np.all(differences == differences[0]):
        return float(differences[0]), float(differences[0])
    from scipy import stats  # on first use: import coursekit stays light

    result = stats.bootstrap(
        (differences,),
        np.mean,
        confidence_level=confidence,
        n_resamples=n_resamples,
        method="BCa",
        rng=np.random.default_rng(seed),
    )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)
