"""Measures for graded relevance: cumulated gain, DCG and nDCG (Järvelin & Kekäläinen 2002).

``gains`` are the relevance grades of a ranked list in rank order (for example 0, 1, 2, 3).
Negative grades are judged but never gain: they count as 0.

Three formulations of the discounted cumulated gain appear in the literature and in the course
material; each function takes ``variant=`` to choose one:

========== ============================================== ==========================================
variant    DCG_p                                          where it comes from
========== ============================================== ==========================================
"jarvelin" rel_1 + Σ_{i=2..p} rel_i / log2(i)             Järvelin & Kekäläinen (2002); slides 000,
                                                          notes 004
"trec"     Σ_{i=1..p} rel_i / log2(i + 1)                 trec_eval's ``ndcg`` (the default here
                                                          and in :func:`coursekit.evaluate`)
"burges"   Σ_{i=1..p} (2^rel_i − 1) / log2(i + 1)         Burges et al. (2005); talk 001's
                                                          "utility 2^rel − 1"
========== ============================================== ==========================================

For binary grades "trec" and "burges" agree; "jarvelin" does not discount rank 2.

English / French / Italian: cumulated gain / gain cumulé / guadagno cumulato; ideal ranking /
classement idéal / ranking ideale.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ..validation import as_grades, check_choice, check_k

__all__ = [
    "VARIANTS",
    "cumulative_gain",
    "discounted_gains",
    "dcg_curve",
    "dcg",
    "ideal_gains",
    "ndcg",
    "mean_curve",
    "normalised_curve",
    "curve_area",
]

VARIANTS = ("jarvelin", "trec", "burges")


def check_variant(variant: str) -> str:
    """One of :data:`VARIANTS` (the three DCG formulations), or a ``ValueError`` listing them."""
    return check_choice(variant, "DCG variant", VARIANTS)


def _gains(gains: Sequence[float], name: str = "gains") -> np.ndarray:
    return np.maximum(as_grades(gains, name), 0.0)


def discounted_gains(gains: Sequence[float], variant: str = "trec") -> np.ndarray:
    """Each rank's contribution to DCG: its gain divided by its discount.

    >>> discounted_gains([3, 2, 3], variant="jarvelin").round(4).tolist()
    [3.0, 2.0, 1.8928]
    >>> discounted_gains([3, 2, 3], variant="trec").round(4).tolist()
    [3.0, 1.2619, 1.5]
    """
    variant = check_variant(variant)
    g = _gains(gains)
    ranks = np.arange(1, g.size + 1)
    if variant == "jarvelin":
        return g / np.maximum(np.log2(ranks), 1.0)
    if variant == "burges":
        g = np.exp2(g) - 1.0
    return g / np.log2(ranks + 1)


def cumulative_gain(gains: Sequence[float]) -> np.ndarray:
    """The cumulated gain vector CG: CG[i] = G[1] + ... + G[i] (no discount).

    >>> cumulative_gain([3, 2, 3, 0, 1]).tolist()
    [3.0, 5.0, 8.0, 8.0, 9.0]
    """
    return np.cumsum(_gains(gains))


def dcg_curve(gains: Sequence[float], variant: str = "trec") -> np.ndarray:
    """The DCG vector: DCG[i] = DCG at cut-off i, for i = 1 .. len(gains).

    >>> dcg_curve([3, 2, 3], variant="jarvelin").round(4).tolist()
    [3.0, 5.0, 6.8928]
    """
    return np.cumsum(discounted_gains(gains, variant))


def dcg(gains: Sequence[float], k: int | None = None, variant: str = "trec") -> float:
    """Discounted cumulated gain at cut-off k (the whole list when k is None).

    See the module docstring for the three variants' formulas.

    >>> round(dcg([3, 2, 3, 0, 1, 2], variant="jarvelin"), 4)
    8.0972
    >>> round(dcg([3, 2, 3, 0, 1, 2], k=3), 4)
    5.7619
    """
    contributions = discounted_gains(gains, variant)
    if k is not None:
        contributions = contributions[: check_k(k)]
    return float(contributions.sum())


def ideal_gains(gains: Sequence[float], ideal: Iterable[float] | None = None) -> np.ndarray:
    """The ideal gain vector: the grades sorted from highest to lowest.

    When ``ideal`` (all judged grades of the query) is given it is used, not only the grades
    the ranking happens to retrieve; otherwise the ranking's own grades are sorted.

    >>> ideal_gains([0, 2, 1], ideal=[2, 1, 3, 0]).tolist()
    [3.0, 2.0, 1.0, 0.0]
    """
    source = _gains(gains) if ideal is None else _gains(list(ideal), "ideal")
    return np.sort(source)[::-1]


def ndcg(
    gains: Sequence[float],
    k: int | None = None,
    ideal: Iterable[float] | None = None,
    variant: str = "trec",
) -> float:
    """Normalised DCG: DCG@k of the ranking divided by DCG@k of the ideal ranking.

    nDCG@k = DCG@k / IDCG@k, in [0, 1]; 0 when the ideal DCG is 0 (no relevant document).
    ``ideal`` lists every judged grade of the query (see :func:`ideal_gains`); without it the
    ideal is the best reordering of the retrieved grades, which overestimates nDCG when
    relevant documents were missed.

    >>> round(ndcg([0, 1, 1], ideal=[1, 1, 0]), 4)
    0.6934
    >>> round(ndcg([0, 1], ideal=[1, 1, 1]), 4)
    0.2961
    """
    ideal_vector = ideal_gains(gains, ideal)
    best = dcg(ideal_vector, k, variant)
    if best == 0.0:
        return 0.0
    return dcg(gains, k, variant) / best


def _stack(curves: Iterable[Sequence[float]], length: int | None) -> np.ndarray:
    arrays = [np.asarray(c, dtype=float) for c in curves]
    if not arrays:
        raise ValueError("no curve to average: give one vector per query")
    if any(a.ndim != 1 or a.size == 0 for a in arrays):
        raise ValueError("each curve must be a non-empty one-dimensional vector")
    n = max(a.size for a in arrays) if length is None else check_k(length)
    # A cumulated curve stays flat after the end of its list: pad with its last value.
    return np.vstack([np.pad(a[:n], (0, max(0, n - a.size)), mode="edge") for a in arrays])


def mean_curve(curves: Iterable[Sequence[float]], length: int | None = None) -> np.ndarray:
    """Average cumulated vectors (CG or DCG) over queries, position by position.

    CG_m[i] = (1 / N_q) · Σ_j CG_j[i]. Shorter vectors are extended with their last value
    (a cumulated gain does not change after the list ends).

    >>> mean_curve([[1, 2, 3], [3, 3]]).tolist()
    [2.0, 2.5, 3.0]
    """
    return _stack(curves, length).mean(axis=0)


def normalised_curve(
    curves: Iterable[Sequence[float]],
    ideal_curves: Iterable[Sequence[float]],
    length: int | None = None,
) -> np.ndarray:
    """NCG or NDCG curve: the averaged curve divided by the averaged ideal curve.

    NCG[i] = CG_m[i] / ICG_m[i] (and the same with DCG); 0 where the ideal is 0.

    >>> normalised_curve([[0, 1, 2]], [[1, 2, 2]]).tolist()
    [0.0, 0.5, 1.0]
    """
    actual = _stack(curves, length)
    best = _stack(ideal_curves, actual.shape[1])
    mean_actual, mean_best = actual.mean(axis=0), best.mean(axis=0)
    safe = np.where(mean_best > 0, mean_best, 1.0)
    return np.where(mean_best > 0, mean_actual / safe, 0.0)


def curve_area(curve: Sequence[float]) -> float:
    """Area under a normalised curve over ranks 1..L, divided by L (so 1 = ideal everywhere).

    Each rank counts as a bar of width 1: the area is the mean of the curve's values.

    >>> curve_area([0.0, 0.5, 1.0])
    0.5
    """
    values = as_grades(curve, "curve")
    if values.size == 0:
        return 0.0
    return float(values.mean())
