"""trec_eval's order on integer codes: query, score descending, doc id descending.

Ids are compared as strings (trec_eval's ``strcmp``: byte order, which for UTF-8 is code point
order, as Python compares strings), but sorted only once, as the list of distinct ids; rows are
then ordered on integers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .codes import byte_order


def string_ranks(ids: Any) -> np.ndarray:
    """The rank of each of the distinct ``ids`` (strings) in string order, 0 for the smallest.

    >>> string_ranks(np.array(["b", "a", "c"], dtype=object)).tolist()
    [1, 0, 2]
    """
    import pyarrow as pa  # imported on first use: ``import coursekit`` stays light
    import pyarrow.compute as pc

    strings = pa.array(ids, type=pa.large_string()) if not isinstance(ids, pa.Array) else ids
    order = byte_order(strings)  # on integers: several times faster than sorting strings
    if order is None:
        order = pc.sort_indices(strings).to_numpy()
    ranks = np.empty(len(strings), dtype=np.int64)
    ranks[order] = np.arange(len(strings))
    return ranks


def trec_order(
    query: np.ndarray, scores: np.ndarray, doc_ranks: Callable[[], np.ndarray], doc: np.ndarray
) -> np.ndarray:
    """The row order trec_eval ranks in: each query's rows together, by score descending, ties
    by doc id descending (queries in code order, or as they come when already grouped).

    ``query`` and ``doc`` are integer codes; ``doc_ranks()`` returns the string rank of every
    doc code (see :func:`string_ranks`) and is called only when some rows need it.

    >>> ids = np.array(["a", "b", "c"], dtype=object)
    >>> trec_order(np.zeros(3, int), np.array([1.0, 2.0, 1.0]), lambda: string_ranks(ids),
    ...            np.arange(3)).tolist()
    [1, 2, 0]
    """
    n = query.size
    if n == 0:
        return np.zeros(0, dtype=np.intp)
    if _by_score(query, scores):
        order = np.arange(n)  # already ranked, as a run file usually is (queries in any order)
    else:
        order, complete = _by_query_and_score(query, scores, doc_ranks, doc)
        if complete:
            return order
    q, s = query[order], scores[order]
    tied = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    if not tied.any():
        return order
    # sort each block of tied rows on the doc ids' string ranks, descending
    tied_with_previous = np.r_[False, tied]
    rows = np.flatnonzero(tied_with_previous | np.r_[tied, False])
    block = np.cumsum(~tied_with_previous[rows])
    ranks = doc_ranks()[doc[order[rows]]]
    width = int(ranks.max()) + 1
    if int(block[-1]) < 2**62 // width:  # one integer key: one sort
        within = _argsort_distinct(block.astype(np.int64) * width + (width - 1 - ranks))
    else:
        within = np.lexsort((-ranks, block))
    order[rows] = order[rows[within]]
    return order


def in_trec_order(query: np.ndarray, scores: np.ndarray) -> bool:
    """Whether the rows are already in trec_eval's order with no tie to break: each query's
    rows together, scores strictly decreasing (then :func:`trec_order` is the identity).

    >>> in_trec_order(np.array([1, 1, 0]), np.array([2.0, 1.0, 5.0]))
    True
    """
    if query.size < 2:
        return True
    return _by_score(query, scores, strictly=True)


def _by_score(query: np.ndarray, scores: np.ndarray, strictly: bool = False) -> bool:
    """Whether each query's rows are together and by score descending (``strictly``: with no
    two equal scores in a query)."""
    same_query = query[1:] == query[:-1]
    n = query.size
    if n - int(np.count_nonzero(same_query)) != np.count_nonzero(np.bincount(query)):
        return False
    rising = scores[1:] >= scores[:-1] if strictly else scores[1:] > scores[:-1]
    return not np.any(same_query & rising)


def _by_query_and_score(
    query: np.ndarray, scores: np.ndarray, doc_ranks: Callable[[], np.ndarray], doc: np.ndarray
) -> tuple[np.ndarray, bool]:
    """Rows by query code, then score descending, and whether ties are already broken by doc id
    descending (else tied rows are in any order)."""
    few = _score_levels(scores)
    if few is not None:  # few distinct scores, so ties: one integer key
        level, n_levels = few
        key = query.astype(np.int64) * n_levels
        key += n_levels - 1 - level
        ranks = doc_ranks()
        width = int(ranks.max(initial=0)) + 1
        if int(key.max()) < 2**62 // width:  # and the doc id too: no tie left to break
            key *= width
            key += width - 1 - ranks[doc]
            return _argsort_distinct(key), True
        return _argsort_distinct(key), False
    # not a stable sort (2-3 times faster): tied rows are re-ordered by doc id afterwards, and
    # doc ids are distinct within a query, so their order here does not matter
    by_score = np.argsort(-scores)
    # a stable sort on small integers is a radix sort: linear time
    small = query.astype(np.uint16) if query.max() < 2**16 else query
    return by_score[np.argsort(small[by_score], kind="stable")], False


def _score_levels(scores: np.ndarray) -> tuple[np.ndarray, int] | None:
    """``(level, n)``: the rank of each score among the ``n`` distinct scores (0 for the
    lowest), when there are at most a quarter as many distinct scores as rows; else None.
    Scores are hashed (a sample first), not sorted: only the distinct ones are sorted."""
    import pandas as pd  # as the rest of trec/; here only when scores tie a lot

    n = scores.size
    if n < 8 or pd.unique(scores[: max(64, n // 64)]).size > n // 4:
        return None
    codes, distinct = pd.factorize(scores + 0.0)  # + 0.0: -0.0 is 0.0, as == says
    if distinct.size > n // 4:
        return None
    rank = np.empty(distinct.size, dtype=np.int64)
    rank[np.argsort(distinct)] = np.arange(distinct.size)
    return rank[codes], distinct.size


def _argsort_distinct(keys: np.ndarray) -> np.ndarray:
    """A stable argsort of non-negative int64 ``keys``: when key and row number fit in 63 bits,
    one plain sort of both packed in an integer (several times faster than an argsort)."""
    n = keys.size
    row_bits = max(int(n - 1).bit_length(), 1)
    top = int(keys.max(initial=0))
    if top.bit_length() + row_bits > 63:
        return np.argsort(keys, kind="stable")
    packed = (keys << row_bits) | np.arange(n, dtype=np.int64)
    packed.sort()
    return packed & ((1 << row_bits) - 1)
