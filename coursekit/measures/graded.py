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

import math
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import numpy as np

from ..validation import as_grades, check_choice, check_k, refuse_unordered

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
    refuse_unordered(gains, name)
    return np.maximum(as_grades(gains, name), 0.0)


def _discounts(size: int, variant: str) -> np.ndarray:
    ranks = np.arange(1, size + 1)
    if variant == "jarvelin":
        return np.maximum(np.log2(ranks), 1.0)
    return np.log2(ranks + 1)


def _contributions(g: np.ndarray, variant: str) -> np.ndarray:
    """gain / discount at each rank; ``inf`` where the burges gain 2^g − 1 overflows."""
    if variant == "burges":
        with np.errstate(over="ignore"):
            g = np.exp2(g) - 1.0
    return g / _discounts(g.size, variant)


def _finite(values: np.ndarray, g: np.ndarray, variant: str, what: str) -> np.ndarray:
    """``values`` if finite, else a ``ValueError``: the grades are too large for a float."""
    if np.all(np.isfinite(values)):
        return values
    if variant == "burges" and np.any(g >= 1024):
        rank = int(np.flatnonzero(g >= 1024)[0]) + 1
        raise ValueError(
            f"gains[{rank - 1}] (rank {rank}) is {g[rank - 1]:g}: its burges gain 2^g − 1 is "
            "too large for a float (grades must be below 1024)"
        )
    raise ValueError(f"the {what} of these gains is too large for a float")


def discounted_gains(gains: Sequence[float], variant: str = "trec") -> np.ndarray:
    """Each rank's contribution to DCG: its gain divided by its discount.

    >>> discounted_gains([3, 2, 3], variant="jarvelin").round(4).tolist()
    [3.0, 2.0, 1.8928]
    >>> discounted_gains([3, 2, 3], variant="trec").round(4).tolist()
    [3.0, 1.2619, 1.5]
    """
    variant = check_variant(variant)
    g = _gains(gains)
    return _finite(_contributions(g, variant), g, variant, "discounted gain")


def cumulative_gain(gains: Sequence[float]) -> np.ndarray:
    """The cumulated gain vector CG: CG[i] = G[1] + ... + G[i] (no discount).

    >>> cumulative_gain([3, 2, 3, 0, 1]).tolist()
    [3.0, 5.0, 8.0, 8.0, 9.0]
    """
    g = _gains(gains)
    with np.errstate(over="ignore"):
        return _finite(np.cumsum(g), g, "trec", "cumulated gain")


def dcg_curve(gains: Sequence[float], variant: str = "trec") -> np.ndarray:
    """The DCG vector: DCG[i] = DCG at cut-off i, for i = 1 .. len(gains).

    >>> dcg_curve([3, 2, 3], variant="jarvelin").round(4).tolist()
    [3.0, 5.0, 6.8928]
    """
    variant = check_variant(variant)
    g = _gains(gains)
    with np.errstate(over="ignore"):
        return _finite(np.cumsum(_contributions(g, variant)), g, variant, "DCG")


def _dcg(g: np.ndarray, k: int | None, variant: str) -> float:
    """DCG@k of checked gains; ``inf`` when it overflows a float."""
    contributions = _contributions(g, variant)
    if k is not None:
        contributions = contributions[:k]
    with np.errstate(over="ignore"):
        return float(contributions.sum())


def dcg(gains: Sequence[float], k: int | None = None, variant: str = "trec") -> float:
    """Discounted cumulated gain at cut-off k (the whole list when k is None).

    See the module docstring for the three variants' formulas.

    >>> round(dcg([3, 2, 3, 0, 1, 2], variant="jarvelin"), 4)
    8.0972
    >>> round(dcg([3, 2, 3, 0, 1, 2], k=3), 4)
    5.7619
    """
    variant = check_variant(variant)
    g = _gains(gains)
    k = None if k is None else check_k(k)
    value = _dcg(g, k, variant)
    _finite(np.array([value]), g, variant, "DCG")
    return value


def _judged(ideal: Any) -> np.ndarray:
    """``ideal``: every judged grade of the query, in any order (a set would merge grades)."""
    if isinstance(ideal, (str, bytes, Mapping)) or not isinstance(ideal, Iterable):
        raise TypeError(
            "ideal must list every judged grade of the query, "
            f"got {type(ideal).__name__} {ideal!r:.40}"
        )
    if isinstance(ideal, AbstractSet):
        raise TypeError(
            "ideal must list every judged grade of the query, such as a list, got "
            f"{type(ideal).__name__} {ideal!r:.40}: a set keeps each grade only once"
        )
    return _gains(ideal, "ideal")


def _check_includes(judged: np.ndarray, retrieved: np.ndarray) -> None:
    """Every grade above 0 that the ranking retrieves is one of the judged grades (as a
    multiset): otherwise the ideal is not the best ranking of the query and nDCG passes 1."""
    found = retrieved[retrieved > 0]
    if not found.size:
        return
    grades, needed = np.unique(found, return_counts=True)
    pool = np.sort(judged[judged > 0])
    have = np.searchsorted(pool, grades, "right") - np.searchsorted(pool, grades, "left")
    short = np.flatnonzero(have < needed)
    if short.size:
        i = short[0]
        raise ValueError(
            "ideal must list every judged grade of the query, those of the ranking included: "
            f"the ranking has {needed[i]} grade(s) of {grades[i]:g}, ideal only {have[i]}"
        )


def ideal_gains(gains: Sequence[float], ideal: Iterable[float] | None = None) -> np.ndarray:
    """The ideal gain vector: the grades sorted from highest to lowest.

    When ``ideal`` (all judged grades of the query) is given it is used, not only the grades
    the ranking happens to retrieve; otherwise the ranking's own grades are sorted. ``ideal``
    must then include every grade above 0 of the ranking (a ``ValueError`` otherwise).

    >>> ideal_gains([0, 2, 1], ideal=[2, 1, 3, 0]).tolist()
    [3.0, 2.0, 1.0, 0.0]
    """
    g = _gains(gains)
    if ideal is None:
        return np.sort(g)[::-1]
    judged = _judged(ideal)
    _check_includes(judged, g)
    return np.sort(judged)[::-1]


def ndcg(
    gains: Sequence[float],
    k: int | None = None,
    ideal: Iterable[float] | None = None,
    variant: str = "trec",
) -> float:
    """Normalised DCG: DCG@k of the ranking divided by DCG@k of the ideal ranking.

    nDCG@k = DCG@k / IDCG@k, in [0, 1]; 0 when the ideal DCG is 0 (no relevant document).
    ``ideal`` lists every judged grade of the query (see :func:`ideal_gains`), so it includes
    every grade above 0 that the ranking retrieves; without it the ideal is the best
    reordering of the retrieved grades, which overestimates nDCG when relevant documents were
    missed.

    >>> round(ndcg([0, 1, 1], ideal=[1, 1, 0]), 4)
    0.6934
    >>> round(ndcg([0, 1], ideal=[1, 1, 1]), 4)
    0.2961
    """
    variant = check_variant(variant)
    g = _gains(gains)  # once: a generator can be read only once
    k = None if k is None else check_k(k)
    # contiguous, as before: numpy's exp2 may differ in the last bit on a reversed view
    ideal_vector = np.ascontiguousarray(ideal_gains(g, ideal))
    best = _dcg(ideal_vector, k, variant)
    if best == 0.0:
        return 0.0
    actual = _dcg(g, k, variant)
    if math.isfinite(best) and math.isfinite(actual):
        return actual / best
    # A DCG too large for a float (burges gains of grades near 1024): dividing every gain by
    # the top ideal gain leaves the ratio as it is; (2^g − 1) / 2^top = 2^(g − top) − 2^−top.
    top = ideal_vector[0]

    def scaled(values: np.ndarray) -> float:
        with np.errstate(under="ignore"):
            if variant == "burges":
                values = np.exp2(values - top) - np.exp2(-top)
            else:
                values = values / top
        values = values / _discounts(values.size, variant)
        return float(values[:k].sum())

    return scaled(g) / scaled(ideal_vector)


def _stack(
    curves: Iterable[Sequence[float]], length: int | None, name: str = "curves"
) -> np.ndarray:
    if isinstance(curves, (str, bytes, Mapping)) or not isinstance(curves, Iterable):
        raise TypeError(
            f"{name} must be a list of vectors, one per query (for a dict, pass its values), "
            f"got {type(curves).__name__} {curves!r:.40}"
        )
    arrays = []
    for i, curve in enumerate(curves):
        refuse_unordered(curve, f"{name}[{i}]", "values")
        arrays.append(as_grades(curve, f"{name}[{i}]"))
    if not arrays:
        raise ValueError("no curve to average: give one vector per query")
    empty = [i for i, a in enumerate(arrays) if a.size == 0]
    if empty:
        raise ValueError(
            f"{name}[{empty[0]}] is empty: each curve must be a non-empty one-dimensional vector"
        )
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

    NCG[i] = CG_m[i] / ICG_m[i] (and the same with DCG); 0 where the ideal is 0. Both lists
    hold one curve per query, of the same queries; no value may be negative, and the mean
    curve may not pass the mean ideal curve (the ideal is the best ranking).

    >>> normalised_curve([[0, 1, 2]], [[1, 2, 2]]).tolist()
    [0.0, 0.5, 1.0]
    """
    actual = _stack(curves, length)
    best = _stack(ideal_curves, actual.shape[1], "ideal_curves")
    if actual.shape[0] != best.shape[0]:
        raise ValueError(
            "curves and ideal_curves must hold one vector per query, for the same queries: "
            f"got {actual.shape[0]} and {best.shape[0]}"
        )
    for name, values in (("curves", actual), ("ideal_curves", best)):
        if np.any(values < 0):
            query, rank = (int(x[0]) for x in np.nonzero(values < 0))
            raise ValueError(
                f"{name}[{query}] at rank {rank + 1} is {values[query, rank]:g}: "
                "a cumulated gain cannot be negative"
            )
    mean_actual, mean_best = actual.mean(axis=0), best.mean(axis=0)
    above = np.flatnonzero(mean_actual > mean_best * (1 + 1e-9))  # 1e-9: rounding of sums
    if above.size:
        rank = int(above[0]) + 1
        raise ValueError(
            f"at rank {rank} the mean of curves ({mean_actual[rank - 1]:g}) is above the mean "
            f"of ideal_curves ({mean_best[rank - 1]:g}): an ideal curve is the best that any "
            "ranking of its query can reach"
        )
    safe = np.where(mean_best > 0, mean_best, 1.0)
    return np.where(mean_best > 0, mean_actual / safe, 0.0)


def curve_area(curve: Sequence[float]) -> float:
    """Area under a normalised curve over ranks 1..L, divided by L (so 1 = ideal everywhere).

    Each rank counts as a bar of width 1: the area is the mean of the curve's values, each in
    [0, 1] (a normalised curve: 1 is the ideal).

    >>> curve_area([0.0, 0.5, 1.0])
    0.5
    """
    refuse_unordered(curve, "curve", "values")
    values = as_grades(curve, "curve")
    outside = np.flatnonzero((values < 0) | (values > 1 + 1e-9))  # 1e-9: rounding of ratios
    if outside.size:
        rank = int(outside[0]) + 1
        raise ValueError(
            f"curve[{rank - 1}] (rank {rank}) is {values[rank - 1]:g}: a normalised curve "
            "lies between 0 and 1"
        )
    if values.size == 0:
        return 0.0
    return float(values.mean())
