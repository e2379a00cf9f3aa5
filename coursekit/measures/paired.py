"""Two systems' per-query scores, checked and paired: the shared validator of the significance
tests (:mod:`.significance`) and of power analysis (:mod:`.power`), with their other checks
(seeds, resamples) and the rule for differences that are all equal up to rounding.
"""

from __future__ import annotations

import numbers
import sys
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import numpy as np

from ..validation import check_scalar, preview

__all__ = ["paired_scores", "common_difference"]  # (and the checks the tests share)

#: The most resamples :func:`randomization_test` and :func:`bootstrap_ci` draw.
MAX_RESAMPLES = 1_000_000
#: The fewest resamples :func:`bootstrap_ci` accepts: Efron and Tibshirani (1993, ch. 19)
#: recommend at least 1000 for a confidence interval.
MIN_BOOTSTRAP_RESAMPLES = 1_000
#: Differences whose standard deviation is at most this share of the largest score (64 units
#: of rounding) are rounding error: they count as all equal (see :func:`common_difference`).
SPREAD_RTOL = 64 * float(np.finfo(float).eps)
#: Above this many resampled scores at once, the resamples are drawn in batches (memory).
_BATCH_SCORES = 2**23


def shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _listed(values: Iterable, name: str, flags: bool) -> np.ndarray:
    """A list (or a generator, read once) checked item by item, as a float array."""
    items = list(values)
    for i, item in enumerate(items):
        is_flag = isinstance(item, (bool, np.bool_))
        if (is_flag and flags) or (isinstance(item, numbers.Real) and not is_flag):
            continue
        if isinstance(item, Iterable) and not isinstance(item, (str, bytes)):
            raise ValueError(
                f"{name} must be one-dimensional: {name}[{i}] is a {type(item).__name__}"
            )
        raise TypeError(f"{name}[{i}] must be a number, got {type(item).__name__} {shown(item)}")
    try:
        return np.array(items, dtype=float)
    except OverflowError:  # an int beyond any float (10**400)
        i = next(i for i, item in enumerate(items) if abs(item) > sys.float_info.max)
        raise ValueError(f"{name}[{i}] is too large for a float: {shown(items[i])}") from None


def as_numbers(values: Any, name: str, what: str, flags: bool = True) -> np.ndarray:
    """``values`` as a one-dimensional float array: a list, tuple, generator (read once),
    numpy array or pandas Series of real numbers (``flags``: True/False count as 1/0).
    Raises ``TypeError`` for anything else (a string, a dict, a set, None, a complex number)."""
    if isinstance(values, (str, bytes, Mapping, AbstractSet)) or not isinstance(values, Iterable):
        raise TypeError(
            f"{name} must be a list or array of {what}, got {type(values).__name__} {shown(values)}"
        )
    if not isinstance(values, np.ndarray) and hasattr(values, "to_numpy"):
        values = values.to_numpy()  # pandas Series (nullable dtypes: <NA> becomes nan)
    if not isinstance(values, np.ndarray) or values.dtype == object:
        values = _listed(values, name, flags)
    if values.ndim != 1:
        raise ValueError(
            f"{name} must be a one-dimensional list of {what}, got shape {values.shape}"
        )
    if values.dtype.kind not in ("biuf" if flags else "iuf"):
        raise TypeError(f"{name} must hold real numbers, got an array of dtype {values.dtype}")
    return values.astype(float, copy=False)


def as_scores(values: Any, name: str) -> np.ndarray:
    x = as_numbers(values, name, "per-query scores")
    bad = np.flatnonzero(~np.isfinite(x))
    if bad.size:
        raise ValueError(
            f"{name}[{bad[0]}] is {x[bad[0]]}: per-query scores must be finite numbers"
        )
    return x


def _index(values: Any) -> Any:
    """The index of a pandas Series, else None (pandas is not imported for this)."""
    pandas = sys.modules.get("pandas")
    return values.index if pandas is not None and isinstance(values, pandas.Series) else None


def _by_label(a: Any, b: Any, y: np.ndarray) -> np.ndarray:
    """``b``'s scores in the order of ``a``'s labels when both are pandas Series."""
    index_a, index_b = _index(a), _index(b)
    if index_a is None or index_b is None or index_a.equals(index_b):
        return y
    if not (index_a.is_unique and index_b.is_unique):
        repeated = [*index_a[index_a.duplicated()], *index_b[index_b.duplicated()]]
        problem = f"repeated labels {preview(repeated)}"
    else:
        labels_a, labels_b = set(index_a), set(index_b)
        if labels_a == labels_b:
            return y[index_b.get_indexer(index_a)]
        only_a = preview([label for label in index_a if label not in labels_b]) or "none"
        only_b = preview([label for label in index_b if label not in labels_a]) or "none"
        problem = f"only in a: {only_a}; only in b: {only_b}"
    raise ValueError(
        f"a and b are pandas Series whose query labels differ ({problem}): align them first, "
        "e.g. a, b = a.align(b, join='inner'), or pass lists to pair them by position"
    )


def paired_scores(
    a: Sequence[float], b: Sequence[float], purpose: str = "a paired test"
) -> tuple[np.ndarray, np.ndarray]:
    """Two systems' per-query scores as float arrays, checked and paired.

    Each of ``a`` and ``b`` is a list, tuple, generator (read once), numpy array or pandas
    Series of finite real numbers (True/False count as 1/0), one per query; there must be at
    least two queries. Scores are paired by position, except when both are pandas Series:
    then they are paired by index label (``b`` is put in ``a``'s order), and labels that
    differ or repeat are refused. The differences ``a - b`` and their squares must be finite
    (scores near 1e308 overflow).

    >>> import pandas as pd
    >>> a = pd.Series([0.9, 0.1], index=["q2", "q1"])
    >>> paired_scores(a, pd.Series([0.4, 0.8], index=["q1", "q2"]))[1].tolist()
    [0.8, 0.4]
    """
    x = as_scores(a, "a")
    y = _by_label(a, b, as_scores(b, "b"))
    if x.size != y.size:
        raise ValueError(
            f"a and b must hold one score per query for the same queries: got {x.size} and {y.size}"
        )
    if x.size < 2:
        raise ValueError(f"{purpose} needs the scores of at least two queries")
    with np.errstate(over="ignore", invalid="ignore"):
        d = x - y
        squares = 4 * np.sum(d * d)  # bounds the squared deviations of every statistic here
    if not np.all(np.isfinite(d)):
        i = int(np.flatnonzero(~np.isfinite(d))[0])
        raise ValueError(
            f"a[{i}] - b[{i}] = {float(x[i])} - {float(y[i])} overflows: "
            "the differences must be finite numbers"
        )
    if not np.isfinite(squares):
        raise ValueError("the differences a - b are too large: their squares overflow")
    return x, y


def common_difference(x: np.ndarray, y: np.ndarray) -> float | None:
    """The value every difference ``x - y`` takes, up to rounding; None if they vary.

    A spread no larger than rounding error counts as none: the differences are all equal when
    their standard deviation is at most ``SPREAD_RTOL`` = 64 ε ≈ 1.4e-14 times the largest
    :math:`|x_j|` or :math:`|y_j|` (ε: machine epsilon; rounding the scores already moves a
    difference by up to about ε times their size). Their common value is 0.0 when their mean
    is that small too.

    >>> common_difference(np.array([0.1, 0.2, 0.7]), np.array([0.0, 0.1, 0.6]))  # 0.1 each
    0.09999999999999999
    >>> common_difference(np.array([0.1, 0.2, 0.7]), np.array([0.0, 0.1, 0.5])) is None
    True
    """
    d = x - y
    tolerance = SPREAD_RTOL * max(float(np.max(np.abs(x))), float(np.max(np.abs(y))))
    if np.std(d) > tolerance:
        return None
    mean = float(np.mean(d))
    return 0.0 if abs(mean) <= tolerance else mean


def all_equal_error(what: str) -> ValueError:
    """The error for differences that are all equal: no spread, so no ``what``."""
    return ValueError(
        "the differences a - b are all equal (up to rounding): their standard deviation "
        f"is 0, so no {what} exists"
    )


def check_seed(seed: Any) -> int:
    """A seed makes a result reproducible: a non-negative integer (None is refused)."""
    return int(check_scalar(seed, "seed", numbers.Integral, what="an integer", min_val=0))


def check_resamples(n_resamples: Any, minimum: int) -> int:
    what = "a positive integer" if minimum == 1 else "an integer"
    value = check_scalar(
        n_resamples,
        "n_resamples",
        numbers.Integral,
        what=what,
        min_val=minimum,
        max_val=MAX_RESAMPLES,
    )
    return int(value)


def resample_batch(n_resamples: int, n: int) -> int | None:
    """How many resamples SciPy draws at once: all of them, unless that takes much memory."""
    return None if n_resamples * n <= _BATCH_SCORES else max(1, _BATCH_SCORES // n)
