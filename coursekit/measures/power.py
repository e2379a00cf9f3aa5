"""Effect size, statistical power, topic-set size and multiple comparisons (chapter 08).

``a`` and ``b`` are the per-topic scores of two systems on the *same* topics, in the same
order (two pandas Series are paired by label, see
:func:`coursekit.measures.paired.paired_scores`). Everything here concerns the
**paired** t-test on their differences :math:`d_j = a_j - b_j`, :math:`j = 1 \\dots n`.

- :func:`cohens_dz` and :func:`dz_interval`: the standardised mean difference and its exact
  confidence interval (by inverting the noncentral t distribution);
- :func:`power_paired_t`: the probability that a two-sided paired t-test at level
  :math:`\\alpha` rejects when the true effect is a given :math:`d_z`;
- :func:`topic_set_size`: the smallest number of topics reaching a given power (Sakai 2016);
- :func:`holm`: Holm–Bonferroni adjusted p-values, for many comparisons at once.

References: J. Cohen, *Statistical Power Analysis for the Behavioral Sciences*, 2nd ed., 1988;
T. Sakai, "Topic set size design", *Information Retrieval Journal* 19(3), 256–283, 2016;
S. Holm, "A simple sequentially rejective multiple test procedure", *Scandinavian Journal of
Statistics* 6(2), 65–70, 1979.

English / French / Italian: effect size / taille d'effet / dimensione dell'effetto;
statistical power / puissance statistique / potenza statistica.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..validation import check_positive_int, check_scalar
from .paired import all_equal_error, as_numbers, common_difference, paired_scores

__all__ = ["cohens_dz", "dz_interval", "holm", "power_paired_t", "topic_set_size"]

#: The largest number of topics :func:`power_paired_t` and :func:`topic_set_size` consider.
MAX_TOPICS = 1_000_000
#: Beyond this noncentrality |delta|, SciPy's noncentral t loses accuracy and then fails
#: (near 1e5 to 1e6): :func:`power_paired_t` uses its limit instead.
LARGE_NONCENTRALITY = 1e4


def _differences(a: Sequence[float], b: Sequence[float]) -> np.ndarray:
    x, y = paired_scores(a, b, purpose="an effect size")
    if common_difference(x, y) is not None:
        raise all_equal_error("effect size")
    return x - y


def _check_alpha(alpha: float) -> float:
    return float(
        check_scalar(
            alpha,
            "alpha",
            numbers.Real,
            what="a significance level",
            min_val=0,
            max_val=1,
            include_boundaries="neither",
        )
    )


def _check_effect(effect: float) -> float:
    return float(check_scalar(effect, "effect", numbers.Real, what="an effect size d_z"))


def _check_n_topics(n_topics: Any) -> int:
    n = check_positive_int(n_topics, "n_topics")
    if n < 2:
        raise ValueError(f"n_topics must be at least 2 for a paired t-test, got {n}")
    if n > MAX_TOPICS:
        raise ValueError(f"n_topics must be at most {MAX_TOPICS:,}, got {n}")
    return n


def _critical_value(alpha: float, df: int) -> float:
    """The upper alpha/2 quantile of Student's t (``isf``: ``ppf(1 - alpha/2)`` rounds to
    ``ppf(1)`` = inf for alpha below about 1e-16)."""
    from scipy.stats import t

    critical = float(t.isf(alpha / 2, df))
    if not (math.isfinite(critical) and critical > 0):
        raise ValueError(f"alpha={alpha!r} is too small for a t-test with {df + 1} topics")
    return critical


def cohens_dz(a: Sequence[float], b: Sequence[float]) -> float:
    """Cohen's :math:`d_z`: the mean paired difference in units of its standard deviation.

    .. math:: d_z = \\bar d / s_d, \\qquad s_d^2 = \\frac{1}{n-1} \\sum_j (d_j - \\bar d)^2

    It is the paired t statistic without the :math:`\\sqrt n`: :math:`t = d_z \\sqrt n`.
    Reference: Cohen (1988), section 2.3.5. Differences that are all equal up to rounding
    (:func:`~coursekit.measures.significance.common_difference`) have :math:`s_d = 0`: refused.

    >>> round(cohens_dz([0.5, 0.6, 0.9], [0.4, 0.4, 0.6]), 4)  # d = .1, .2, .3
    2.0
    """
    d = _differences(a, b)
    return float(d.mean() / d.std(ddof=1))


def _nct_root(t_obs: float, df: int, tail: float, lower: bool) -> float:
    """The noncentrality delta that leaves ``tail`` above the observed t (``lower`` bound) or
    below it (upper bound); nan where SciPy's noncentral t fails (very large delta). Each
    tail is computed directly (``sf``, ``cdf``), not as 1 minus the other: a tail of 1e-17
    would round away."""
    from scipy.optimize import brentq
    from scipy.stats import nct

    def f(delta: float) -> float:
        # both fall as delta grows (nct.cdf(t_obs, df, delta) falls from 1 to 0): one root
        if lower:
            return tail - float(nct.sf(t_obs, df, delta))
        return float(nct.cdf(t_obs, df, delta)) - tail

    # widen a bracket around t_obs step by step (far tails of nct.cdf can be NaN)
    low, high, step = t_obs - 1.0, t_obs + 1.0, 1.0
    while f(low) <= 0:
        low, step = low - step, step * 2
    step = 1.0
    while f(high) >= 0:
        high, step = high + step, step * 2
    if math.isnan(f(low)) or math.isnan(f(high)):
        return math.nan
    return brentq(f, low, high, xtol=1e-12)


def _chi_limit(t_obs: float, df: int, tail: float) -> tuple[float, float]:
    """The bounds on delta as |t| grows: T' ≈ delta / S with S² = V / df, V ~ χ²(df), so
    delta = t √(q / df) for the χ² quantiles q at ``tail`` and 1 − ``tail``."""
    from scipy.stats import chi2

    ends = [t_obs * math.sqrt(q / df) for q in (chi2.ppf(tail, df), chi2.isf(tail, df))]
    return min(ends), max(ends)


def dz_interval(
    a: Sequence[float], b: Sequence[float], confidence: float = 0.95
) -> tuple[float, float]:
    """The exact confidence interval of :math:`d_z` (noncentral t inversion).

    :math:`t = d_z \\sqrt n` follows a noncentral t distribution with :math:`n - 1` degrees of
    freedom and noncentrality :math:`\\delta = d_z^{true} \\sqrt n`. The bounds are the
    :math:`\\delta` for which the observed t is the upper and the lower
    :math:`(1 - \\text{confidence})/2` quantile, divided by :math:`\\sqrt n`.

    Where SciPy's noncentral t fails (:math:`|t|` above about 1e5: differences nearly equal),
    the bounds are its limit :math:`\\delta = t \\sqrt{\\chi^2_{n-1, q} / (n - 1)}` for the
    quantiles :math:`q` = tail and 1 − tail, within about :math:`1/|t|` of the exact bounds.
    Differences all equal up to rounding are refused, as by :func:`cohens_dz`.

    >>> low, high = dz_interval([0.5, 0.6, 0.9, 0.4], [0.4, 0.4, 0.6, 0.5])
    >>> round(float(low), 3), round(float(high), 3)
    (-0.437, 1.818)
    """
    level = check_scalar(
        confidence,
        "confidence",
        numbers.Real,
        what="a confidence level",
        min_val=0,
        max_val=1,
        include_boundaries="neither",
    )
    d = _differences(a, b)
    n = d.size
    t_obs = float(d.mean() / d.std(ddof=1)) * np.sqrt(n)
    tail = (1 - level) / 2
    with warnings.catch_warnings():  # where SciPy's nct fails it warns: its limit is used
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = _nct_root(t_obs, n - 1, tail, True), _nct_root(t_obs, n - 1, tail, False)
    if math.isnan(low) or math.isnan(high):
        low, high = _chi_limit(t_obs, n - 1, tail)
    return float(low / np.sqrt(n)), float(high / np.sqrt(n))


def power_paired_t(effect: float, n_topics: int, alpha: float = 0.05) -> float:
    """Power of the two-sided paired t-test at level ``alpha`` with ``n_topics`` topics.

    With :math:`\\nu = n - 1`, :math:`\\delta = d_z \\sqrt n` and :math:`t_c` the
    :math:`1 - \\alpha/2` quantile of the central t distribution with :math:`\\nu` degrees
    of freedom,

    .. math:: 1 - \\beta = P(T'_{\\nu,\\delta} > t_c) + P(T'_{\\nu,\\delta} < -t_c),

    where :math:`T'` is noncentral t (``scipy.stats.nct``). Sakai (2016), section 3.
    ``n_topics`` is 2 to ``MAX_TOPICS`` (1,000,000). Beyond :math:`|\\delta|` = 1e4, where
    SciPy's noncentral t fails, the power is its limit
    :math:`P(\\chi^2_\\nu < \\nu\\, \\delta^2 / t_c^2)` (the normal part of :math:`T'` is
    negligible next to :math:`\\delta`).

    >>> round(power_paired_t(0.5, 34), 3)  # the textbook case: about 80 %
    0.808
    >>> round(power_paired_t(0.0, 10, alpha=0.05), 3)  # no effect: power = alpha
    0.05
    """
    from scipy.stats import chi2, nct

    effect = _check_effect(effect)
    n = _check_n_topics(n_topics)
    alpha = _check_alpha(alpha)
    df, delta = n - 1, effect * math.sqrt(n)
    critical = _critical_value(alpha, df)
    if abs(delta) > LARGE_NONCENTRALITY:
        ratio = delta / critical
        return float(chi2.cdf(df * ratio * ratio, df))
    # P(T' < -t_c) as P(T'(-delta) > t_c): nct.cdf is NaN in that far tail for large delta
    return min(1.0, float(nct.sf(critical, df, delta) + nct.sf(critical, df, -delta)))


def topic_set_size(effect: float, power: float = 0.8, alpha: float = 0.05) -> int:
    """The smallest number of topics n for which :func:`power_paired_t` reaches ``power``.

    Sakai's topic set size design (2016): fix the smallest effect :math:`d_z` worth detecting,
    the level :math:`\\alpha` and the power :math:`1 - \\beta`, and search n. Power grows with
    n, so the search walks up from n = 2 (after a doubling to bracket the answer). More than
    ``MAX_TOPICS`` (1,000,000) topics is refused.

    >>> topic_set_size(0.5, power=0.8, alpha=0.05)
    34
    """
    effect = _check_effect(effect)
    target = float(
        check_scalar(
            power,
            "power",
            numbers.Real,
            what="a power",
            min_val=0,
            max_val=1,
            include_boundaries="neither",
        )
    )
    alpha = _check_alpha(alpha)
    if effect == 0:
        raise ValueError("effect must not be 0: no number of topics detects a null effect")
    if target <= alpha:
        return 2  # power of any test is at least about alpha
    high = 2
    while power_paired_t(effect, high, alpha) < target:
        if high == MAX_TOPICS:
            raise ValueError(f"more than {MAX_TOPICS:,} topics would be needed")
        high = min(2 * high, MAX_TOPICS)
    low = max(2, high // 2)
    while low < high:  # smallest n in [low, high] with enough power
        mid = (low + high) // 2
        if power_paired_t(effect, mid, alpha) >= target:
            high = mid
        else:
            low = mid + 1
    return int(low)


def holm(pvalues: Sequence[float]) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values, in the order given.

    Sort the m p-values, :math:`p_{(1)} \\le \\dots \\le p_{(m)}`; the adjusted value of the
    i-th smallest is

    .. math:: \\tilde p_{(i)} = \\min\\Bigl(1, \\max_{j \\le i} (m - j + 1)\\, p_{(j)}\\Bigr).

    Reject every hypothesis whose adjusted p-value is at most :math:`\\alpha`: the chance of
    any false rejection stays at most :math:`\\alpha` (Holm 1979), and Holm never rejects
    less than Bonferroni (:math:`m\\,p_i`). ``pvalues`` is a list, array, pandas Series or
    generator of numbers in [0, 1] (True/False are refused: they are not p-values).

    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    p = as_numbers(pvalues, "pvalues", "p-values", flags=False)
    if p.size == 0:
        raise ValueError("pvalues must be a non-empty one-dimensional list of p-values")
    outside = np.flatnonzero(~((p >= 0) & (p <= 1)))
    if outside.size:
        raise ValueError(f"pvalues[{outside[0]}] is {p[outside[0]]}: p-values must lie in [0, 1]")
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = (m - np.arange(m)) * p[order]
    adjusted = np.minimum(1.0, np.maximum.accumulate(scaled))
    result = np.empty(m)
    result[order] = adjusted
    return result
