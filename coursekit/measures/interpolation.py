"""Interpolated precision: the precision-recall curve read at fixed recall levels.

:func:`interpolated_precision` from a ranking (recall levels compared exactly, on counts);
:func:`interpolate_points` from printed (recall, precision) points, when a source gives only
those.

English / French / Italian: interpolated precision / précision interpolée / precisione
interpolata; recall level / niveau de rappel / livello di richiamo.
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from fractions import Fraction
from typing import Any

import numpy as np

from ..validation import as_binary, check_n_relevant, describe, refuse_unordered

__all__ = [
    "STANDARD_RECALL_LEVELS",
    "interpolated_precision",
    "interpolate_points",
    "interpolated_step",
]

#: The 11 standard recall levels 0.0, 0.1, ..., 1.0 (written as i / 10, never 0.1 * i).
STANDARD_RECALL_LEVELS: tuple[float, ...] = tuple(i / 10 for i in range(11))


def _simplest_between(low: Fraction, high: Fraction) -> Fraction:
    """The fraction with the smallest denominator in [low, high] (0 <= low <= high)."""
    whole = math.floor(low)
    if whole == low:
        return Fraction(whole)
    if whole + 1 <= high:
        return Fraction(whole + 1)
    # low and high lie strictly between two whole numbers: continue on 1 / (fractional part)
    return whole + 1 / _simplest_between(1 / (high - whole), 1 / (low - whole))


@functools.lru_cache(maxsize=1024)
def _level_fraction(level: float) -> Fraction:
    # 8 units in the last place: the error of 0.1 * 7, or of ten additions of 0.1
    spread = Fraction(8 * math.ulp(level))
    exact = Fraction(level)
    return _simplest_between(max(exact - spread, Fraction(0)), min(exact + spread, Fraction(1)))


def _as_fraction(level: Any, name: str = "a recall level") -> Fraction:
    """A recall level as an exact fraction: the simplest one within a few float rounding errors
    of it, so 0.7 and 0.1 * 7 both become 7/10, 3 / 10007 becomes 3/10007 and 0.33334
    becomes 16667/50000."""
    if isinstance(level, (bool, np.bool_)) or not isinstance(level, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(level).__name__} {describe(level)}")
    try:
        value = float(level)
    except OverflowError:  # an int of 400 digits
        value = math.inf
    if not math.isfinite(value) or not 0 <= value <= 1:
        raise ValueError(f"{name} is {describe(level)}: a recall level must be in [0, 1]")
    return _level_fraction(value)


def _levels(levels: Any) -> list[Fraction]:
    """The recall levels (default: the 11 standard ones), checked, as exact fractions."""
    if levels is None:
        levels = STANDARD_RECALL_LEVELS
    elif isinstance(levels, (str, bytes)) or not isinstance(levels, Iterable):
        raise TypeError(
            "levels must be a list of recall levels between 0 and 1, "
            f"got {type(levels).__name__} {describe(levels)}"
        )
    elif isinstance(levels, (AbstractSet, Mapping)):
        raise TypeError(
            "levels must be a list of recall levels between 0 and 1; "
            f"a {type(levels).__name__} has no order for the values returned"
        )
    return [_as_fraction(level, f"levels[{i}]") for i, level in enumerate(levels)]


def interpolated_precision(
    rels: Sequence[float], n_relevant: int, levels: Iterable[float] | None = None
) -> np.ndarray:
    """Interpolated precision at each recall level (default: the 11 standard levels).

    The value at level r is the highest precision reached at any rank whose recall is >= r,
    and 0 when recall r is never reached: P_interp(r) = max {P(k) : R(k) >= r}.
    Recall levels are compared exactly, on counts: a level is read as the simplest fraction
    a/b within a few float rounding errors of it (0.7 and 0.1 * 7 both as 7/10, 3 / 10007 as
    3/10007), and rank k reaches it when b · found(k) >= a · n_relevant, so that 7 found out
    of 10 reaches 0.7 and 1 found out of 3 does not reach 0.33334. (trec_eval counts the
    documents needed as ``(long)(r · n + 0.9)`` in floating point, which for 0.7 · 3 gives
    2: it lets 2 of 3 relevant documents reach recall 0.7. coursekit does not.)

    >>> interpolated_precision([1, 0, 1, 0], n_relevant=2).round(3).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.667, 0.667, 0.667, 0.667, 0.667]
    """
    refuse_unordered(rels, "rels")
    relevant = as_binary(rels)
    n_relevant = check_n_relevant(n_relevant, relevant)
    fractions = _levels(levels)
    found = np.cumsum(relevant, dtype=np.int64)
    precision = found / np.arange(1, relevant.size + 1)
    # best[k] = the highest precision at rank k or later (precision can only fall after k).
    best = np.maximum.accumulate(precision[::-1])[::-1] if relevant.size else precision
    result = np.zeros(len(fractions))
    if n_relevant == 0 or relevant.size == 0:
        return result
    for i, level in enumerate(fractions):
        needed = math.ceil(level * n_relevant)  # found >= level · n_relevant, in integers
        if needed <= int(found[-1]):
            result[i] = best[np.searchsorted(found, needed)]
    return result


def interpolate_points(
    recalls: Sequence[float], precisions: Sequence[float], levels: Iterable[float] | None = None
) -> np.ndarray:
    """Interpolate printed (recall, precision) points at recall levels (default: the 11 standard).

    For when a source gives only the points of a curve, not the ranking: the value at level r is
    the highest precision among points with recall >= r (0 if none). Printed recalls are rounded,
    so they are compared with a tolerance of 1e-9; prefer :func:`interpolated_precision` when
    the ranking is known.

    >>> interpolate_points([0.5, 1.0], [1.0, 0.5], levels=[0.0, 0.5, 0.6, 1.0]).tolist()
    [1.0, 1.0, 0.5, 0.5]
    """
    r, p = _points(recalls, precisions)
    grid = [float(level) for level in _levels(levels)]
    return np.array([p[r >= level - 1e-9].max(initial=0.0) for level in grid])


def interpolated_step(
    recalls: Sequence[float], precisions: Sequence[float]
) -> tuple[np.ndarray, np.ndarray]:
    """The interpolated precision at every recall r from 0 to 1, max{P : R >= r} over the
    (recall, precision) points (0 beyond the highest recall reached), as the corners of a step
    drawn "pre" (``ax.step(x, y, where="pre")``): between two recalls reached it takes the value
    of the higher one. The 11 levels of :func:`interpolated_precision` lie on it; a step drawn
    through those 11 values alone would pass below points between the levels.

    >>> x, y = interpolated_step([0.0, 0.5, 0.5, 1.0], [0.0, 1.0, 0.5, 0.67])
    >>> x.tolist(), y.tolist()
    ([0.0, 0.5, 1.0], [1.0, 1.0, 0.67])
    >>> [v.tolist() for v in interpolated_step([0.25, 0.5], [0.5, 0.4])]  # recall 1 not reached
    [[0.0, 0.25, 0.5, 1.0], [0.5, 0.5, 0.4, 0.0]]
    """
    r, p = _points(recalls, precisions)
    order = np.argsort(r, kind="stable")
    r, p = r[order], p[order]
    best_from = np.maximum.accumulate(p[::-1])[::-1]  # best precision at this recall or more
    reached = np.unique(r[r > 0])
    envelope = best_from[np.searchsorted(r, reached, side="left")]
    x = np.r_[0.0, reached]
    y = np.r_[envelope[:1] if envelope.size else [0.0], envelope]
    if x[-1] < 1:  # recall 1 never reached: no precision at the higher levels
        x, y = np.r_[x, 1.0], np.r_[y, 0.0]
    return x, y


def _points(recalls: Any, precisions: Any) -> tuple[np.ndarray, np.ndarray]:
    """Printed (recall, precision) points, checked: two lists of proportions, one per point."""
    r = _proportions(recalls, "recalls")
    p = _proportions(precisions, "precisions")
    if r.shape != p.shape:
        raise ValueError(
            "recalls and precisions must have the same length (one point each), "
            f"got {r.size} and {p.size}"
        )
    return r, p


def _proportions(values: Any, name: str) -> np.ndarray:
    """Printed recalls or precisions: a list of numbers in [0, 1], as a float array."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(
            f"{name} must be a list of numbers between 0 and 1, "
            f"got {type(values).__name__} {describe(values)}"
        )
    refuse_unordered(values, name, "points")
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    for i, item in enumerate(items):
        if isinstance(item, (bool, np.bool_)) or not isinstance(item, numbers.Real):
            raise TypeError(
                f"{name}[{i}] must be a number, got {type(item).__name__} {describe(item)}"
            )
        if not 0 <= item <= 1:  # False for nan too
            raise ValueError(f"{name}[{i}] is {describe(item)}: it must be between 0 and 1")
    return np.asarray(items, dtype=float)
