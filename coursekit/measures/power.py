"""Effect size, statistical power, topic-set size and multiple comparisons (chapter 08).

``a`` and ``b`` are the per-topic scores of two systems on the *same* topics, in the same
order. Everything here concerns the **paired** t-test on their differences
:math:`d_j = a_j - b_j`, :math:`j = 1 \\dots n`.

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

import numbers
from collections.abc import Sequence

import numpy as np

from ..validation import check_positive_int, check_scalar
from .significance import paired_scores

__all__ = ["cohens_dz", "dz_interval", "holm", "power_paired_t", "topic_set_size"]

#: The largest number of topics :func:`topic_set_size` will consider.
MAX_TOPICS = 1_000_000


def _differences(a: Sequence[float], b: Sequence[float]) -> np.ndarray:
    x, y = paired_scores(a, b, purpose="an effect size")
    d = x - y
    if np.std(d) == 0:
        raise ValueError("the differences a - b are all equal: their standard deviation is 0")
    return d


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


def cohens_dz(a: Sequence[float], b: Sequence[float]) -> float:
    """Cohen's :math:`d_z`: the mean paired difference in units of its standard deviation.

    .. math:: d_z = \\bar d / s_d, \\qquad s_d^2 = \\frac{1}{n-1} \\sum_j (d_j - \\bar d)^2

    It is the paired t statistic without the :math:`\\sqrt n`: :math:`t = d_z \\sqrt n`.
    Reference: Cohen (1988), section 2.3.5.

    >>> round(cohens_dz([0.5, 0.6, 0.9], [0.4, 0.4, 0.6]), 4)  # d = .1, .2, .3
    2.0
    """
    d = _differences(a, b)
    return float(d.mean() / d.std(ddof=1))


def dz_interval(
    a: Sequence[float], b: Sequence[float], confidence: float = 0.95
) -> tuple[float, float]:
    """The exact confidence interval of :math:`d_z` (noncentral t inversion).

    :math:`t = d_z \\sqrt n` follows a noncentral t distribution with :math:`n - 1` degrees of
    freedom and noncentrality :math:`\\delta = d_z^{true} \\sqrt n`. The bounds are the
    :math:`\\delta` for which the observed t is the upper and the lower
    :math:`(1 - \\text{confidence})/2` quantile, divided by :math:`\\sqrt n`.

    >>> low, high = dz_interval([0.5, 0.6, 0.9, 0.4], [0.4, 0.4, 0.6, 0.5])
    >>> round(float(low), 3), round(float(high), 3)
    (-0.437, 1.818)
    """
    from scipy.optimize import brentq
    from scipy.stats import nct

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
    t_obs = cohens_dz(a, b) * np.sqrt(n)
    tail = (1 - level) / 2

    def bound(target: float) -> float:
        # nct.cdf(t_obs, df, delta) falls from 1 to 0 as delta grows: one root.
        def f(delta: float) -> float:
            return float(nct.cdf(t_obs, n - 1, delta)) - target

        # widen a bracket around t_obs step by step (far tails of nct.cdf can be NaN)
        low, high, step = t_obs - 1.0, t_obs + 1.0, 1.0
        while f(low) <= 0:
            low, step = low - step, step * 2
        step = 1.0
        while f(high) >= 0:
            high, step = high + step, step * 2
        return brentq(f, low, high, xtol=1e-12)

    return float(bound(1 - tail) / np.sqrt(n)), float(bound(tail) / np.sqrt(n))


def power_paired_t(effect: float, n_topics: int, alpha: float = 0.05) -> float:
    """Power of the two-sided paired t-test at level ``alpha`` with ``n_topics`` topics.

    With :math:`\\nu = n - 1`, :math:`\\delta = d_z \\sqrt n` and :math:`t_c` the
    :math:`1 - \\alpha/2` quantile of the central t distribution with :math:`\\nu` degrees
    of freedom,

    .. math:: 1 - \\beta = P(T'_{\\nu,\\delta} > t_c) + P(T'_{\\nu,\\delta} < -t_c),

    where :math:`T'` is noncentral t (``scipy.stats.nct``). Sakai (2016), section 3.

    >>> round(power_paired_t(0.5, 34), 3)  # the textbook case: about 80 %
    0.808
    >>> round(power_paired_t(0.0, 10, alpha=0.05), 3)  # no effect: power = alpha
    0.05
    """
    from scipy.stats import nct, t

    effect = _check_effect(effect)
    n = check_positive_int(n_topics, "n_topics")
    if n < 2:
        raise ValueError(f"n_topics must be at least 2 for a paired t-test, got {n}")
    alpha = _check_alpha(alpha)
    df, delta = n - 1, effect * np.sqrt(n)
    critical = t.ppf(1 - alpha / 2, df)
    return float(nct.sf(critical, df, delta) + nct.cdf(-critical, df, delta))


def topic_set_size(effect: float, power: float = 0.8, alpha: float = 0.05) -> int:
    """The smallest number of topics n for which :func:`power_paired_t` reaches ``power``.

    Sakai's topic set size design (2016): fix the smallest effect :math:`d_z` worth detecting,
    the level :math:`\\alpha` and the power :math:`1 - \\beta`, and search n. Power grows with
    n, so the search walks up from n = 2 (after a doubling to bracket the answer).

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
        high *= 2
        if high > MAX_TOPICS:
            raise ValueError(f"more than {MAX_TOPICS} topics would be needed")
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
    less than Bonferroni (:math:`m\\,p_i`).

    >>> holm([0.01, 0.04, 0.03]).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1 or p.size == 0:
        raise ValueError("pvalues must be a non-empty one-dimensional list of p-values")
    if not np.all((p >= 0) & (p <= 1)):
        raise ValueError("pvalues must lie in [0, 1]")
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = (m - np.arange(m)) * p[order]
    adjusted = np.minimum(1.0, np.maximum.accumulate(scaled))
    result = np.empty(m)
    result[order] = adjusted
    return result
