"""Rows ordered on small integer keys by counting, not comparing.

When every key is a small integer (a query code, a doc code, a score's rank among few distinct
scores), a stable counting sort orders n rows in time linear in n and in the number of
possible keys: count each key, then place each row after the rows of smaller keys, in the
order the rows come. Several keys (most significant first) are ordered one counting pass each,
from the least significant (a least-significant-digit radix sort: each pass keeps the order of
the previous one among equal keys). For a million rows and a hundred thousand possible keys, a
pass takes 4-5 ms, where numpy's sort of the same keys packed in 64-bit integers takes 15 ms on
processors with a fast AVX-512 sort and 50-70 ms on the others (AMD's Zen 4).

The counting pass is pandas' (``groupsort_indexer``, which its ``groupby`` uses); when pandas
does not offer it, numpy's stable sort gives the same order, more slowly.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["stable_order", "order_by"]

try:  # pandas' counting sort, in every pandas since 0.x; a private name, so not relied on
    from pandas._libs.algos import groupsort_indexer as _groupsort_indexer
except ImportError:  # pragma: no cover - depends on the pandas installed
    _groupsort_indexer = None

MIN_ROWS = 1 << 12  #: below this, a comparison sort is as fast: no counting pass


def countable(n_rows: int, n_keys: int) -> bool:
    """Whether counting orders ``n_rows`` rows with ``n_keys`` possible keys faster than
    sorting: not many more possible keys than rows (a pass costs both)."""
    return n_keys <= 2 * n_rows


def stable_order(keys: np.ndarray, n_keys: int) -> np.ndarray:
    """``np.argsort(keys, kind="stable")`` for integer ``keys`` in ``range(n_keys)``: by counting
    when it is faster (:func:`countable`).

    >>> stable_order(np.array([2, 0, 2, 1, 0]), 3).tolist()
    [1, 4, 3, 0, 2]
    """
    if _groupsort_indexer is None or keys.size < MIN_ROWS or not countable(keys.size, n_keys):
        return np.argsort(keys, kind="stable")
    keys = keys.astype(np.intp, copy=False)
    # pandas does not check the range (a key out of it would write outside its counts)
    if int(keys.min()) < 0 or int(keys.max()) >= n_keys:
        raise ValueError(f"keys must lie in range({n_keys})")
    try:
        order, _ = _groupsort_indexer(keys, n_keys)
    except (TypeError, ValueError):  # a pandas whose private function has changed
        return np.argsort(keys, kind="stable")
    return order


def order_by(keys: Sequence[tuple[np.ndarray, int]]) -> np.ndarray | None:
    """The stable order of rows by several integer keys, most significant first, each given
    as ``(values, n)`` with every value in ``range(n)`` (as ``np.lexsort`` of the keys
    reversed): one counting pass for each key, or for neighbouring keys taken together when
    they have few combinations (a few rows: one ``np.lexsort``); None when some key has too
    many values to count (:func:`countable`).

    >>> order_by([(np.array([1, 0, 1, 0]), 2), (np.array([0, 1, 1, 0]), 2)]).tolist()
    [3, 1, 0, 2]
    """
    n_rows = keys[0][0].size
    if n_rows < MIN_ROWS:
        return np.lexsort([values for values, _ in reversed(keys)])
    passes: list[tuple[np.ndarray, int]] = []
    for values, n in keys:
        if passes and countable(n_rows, passes[-1][1] * n):
            before, n_before = passes.pop()
            combined = before.astype(np.intp)  # (then in place: one array, not three)
            combined *= n
            combined += values
            values, n = combined, n_before * n
        if not countable(n_rows, n):
            return None
        passes.append((values, n))
    *more, (least, n_least) = passes
    order = stable_order(least, n_least)
    if not more:
        return order
    # rows and keys are gathered in random order: from 32-bit copies (half the memory read,
    # which is what such a gather waits for) where they fit
    small = np.int32 if n_rows < 2**31 else np.intp
    order = order.astype(small)
    for values, n in reversed(more):
        keys = values.astype(np.int32 if n <= 2**31 else np.int64, copy=False)
        order = order[stable_order(keys[order], n)]
    return order  # (32-bit row numbers where they fit)
