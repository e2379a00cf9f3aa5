"""Comparing two systems: relative gain and paired significance tests over per-query scores.

``a`` and ``b`` are the per-query scores of systems A and B on the *same* queries, in the same
order (for example the AP of each query). Lists and arrays are paired by position; two pandas
Series are paired by their index labels (see :func:`.paired.paired_scores`). The tests come from
``scipy.stats``; this module fixes their pairing, their defaults and a seed, and returns one
small result type.

English / French / Italian: significance test / test de significativité / test di
significatività; paired / apparié / appaiato.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..validation import check_finite, check_scalar
from .paired import (
    MIN_BOOTSTRAP_RESAMPLES,
    all_equal_error,
    check_resamples,
    check_seed,
    common_difference,
    paired_scores,
    resample_batch,
)

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


def gain_percent(a: float, b: float) -> float:
    """Relative gain of A over B in percent: 100 · (A − B) / B.

    A common rule of thumb in the course material calls a gain of 5 % or more a real
    improvement; a significance test says more (see :func:`paired_t_test`). A baseline ``b``
    so close to 0 that the gain is not a finite number is refused.

    >>> round(gain_percent(0.42, 0.40), 6)
    5.0
    """
    a, b = check_finite(a, "a"), check_finite(b, "b")
    if b == 0:
        raise ValueError("the gain over a baseline scoring 0 is undefined (division by zero)")
    gain = 100.0 * (a - b) / b
    if not math.isfinite(gain):  # a - b or 100 (a - b) overflowed: the same gain another way
        gain = 100.0 * (a / b - 1.0)
    if not math.isfinite(gain):
        raise ValueError(f"the gain of a={a!r} over b={b!r} is too large to be a number")
    return gain


def paired_t_test(a: Sequence[float], b: Sequence[float]) -> TestResult:
    """Student's paired t-test on the per-query differences (``scipy.stats.ttest_rel``).

    Assumes the differences are roughly normal; two-sided. Identical systems (every
    difference 0) give t = 0 and p = 1; differences that are all equal but not 0 have no
    spread, so no t statistic: they are refused (see :func:`common_difference`). ``a`` and
    ``b`` are paired as :func:`paired_scores` says (two pandas Series by label).

    >>> round(paired_t_test([0.5, 0.6, 0.7, 0.8], [0.4, 0.5, 0.7, 0.6]).pvalue, 3)
    0.092
    """
    x, y = paired_scores(a, b)
    common = common_difference(x, y)
    if common == 0:
        return TestResult("paired t-test", 0.0, 1.0)
    if common is not None:
        raise all_equal_error("t statistic")
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
    SciPy. Every other case is SciPy's own computation. ``a`` and ``b`` are paired as
    :func:`paired_scores` says (two pandas Series by label).

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
    extreme as the observed one. ``n_resamples`` is 1 to ``MAX_RESAMPLES`` (1,000,000); the
    ``seed``, a non-negative integer, makes the p-value reproducible. ``a`` and ``b`` are
    paired as :func:`paired_scores` says (two pandas Series by label).

    >>> randomization_test([0.5, 0.6, 0.7, 0.8], [0.4, 0.5, 0.7, 0.6], seed=1).pvalue
    0.25
    """
    x, y = paired_scores(a, b)
    n_resamples = check_resamples(n_resamples, 1)
    seed = check_seed(seed)
    from scipy import stats  # on first use: import coursekit stays light

    result = stats.permutation_test(
        (x, y),
        _mean_difference,
        permutation_type="samples",
        vectorized=True,
        n_resamples=n_resamples,
        batch=resample_batch(n_resamples, x.size),
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
    ``n_resamples`` is ``MIN_BOOTSTRAP_RESAMPLES`` (1,000) to ``MAX_RESAMPLES`` (1,000,000);
    the ``seed``, a non-negative integer, makes the interval reproducible. ``a`` and ``b``
    are paired as :func:`paired_scores` says (two pandas Series by label).

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
    n_resamples = check_resamples(n_resamples, MIN_BOOTSTRAP_RESAMPLES)
    seed = check_seed(seed)
    differences = x - y
    if np.all(differences == differences[0]):
        return float(differences[0]), float(differences[0])
    from scipy import stats  # on first use: import coursekit stays light

    result = stats.bootstrap(
        (differences,),
        np.mean,
        confidence_level=confidence,
        n_resamples=n_resamples,
        batch=resample_batch(n_resamples, x.size),
        method="BCa",
        rng=np.random.default_rng(seed),
    )
    low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError("the BCa bootstrap interval cannot be computed for these differences")
    return low, high
