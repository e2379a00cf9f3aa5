"""trec_eval's order on integer codes: query, score descending, doc id descending.

Ids are compared as strings (trec_eval's ``strcmp``: byte order, which for UTF-8 is code point
order, as Python compares strings), but sorted only once, as the list of distinct ids; rows are
then ordered on integers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .counting import MIN_ROWS, countable, order_by


def string_ranks(ids: Any) -> np.ndarray:
    """The rank of each of the distinct ``ids`` (strings) in string order, 0 for the smallest.

    >>> string_ranks(np.array(["b", "a", "c"], dtype=object)).tolist()
    [1, 0, 2]
    """
    import pyarrow as pa  # imported on first use: ``import coursekit`` stays light
    import pyarrow.compute as pc

    strings = pa.array(ids, type=pa.large_string()) if not isinstance(ids, pa.Array) else ids
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
    doc code (see :func:`string_ranks`), or None when the codes are those ranks (numbered in
    byte order: :func:`coursekit.engine.sorted_codes`), and is called only when some rows
    need it.

    >>> ids = np.array(["a", "b", "c"], dtype=object)
    >>> trec_order(np.zeros(3, int), np.array([1.0, 2.0, 1.0]), lambda: string_ranks(ids),
    ...            np.arange(3)).tolist()
    [1, 2, 0]
    """
    return trec_order_and_queries(query, scores, doc_ranks, doc)[0]


def trec_order_and_queries(
    query: np.ndarray, scores: np.ndarray, doc_ranks: Callable[[], np.ndarray], doc: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`trec_order` and ``query[order]``, found without gathering a million codes in
    random order: rows already ranked stay with their queries (only tied rows of one query
    move), others come query code by query code.

    >>> order, queries = trec_order_and_queries(
    ...     np.array([1, 0, 1]), np.array([1.0, 5.0, 2.0]), lambda: None, np.arange(3))
    >>> order.tolist(), queries.tolist()
    ([1, 2, 0], [0, 1, 1])
    """
    n = query.size
    if n == 0:
        return np.zeros(0, dtype=np.intp), query
    tied = None
    if _by_score(query, scores):
        order = np.arange(n)  # already ranked, as a run file usually is (queries in any order)
        in_order = query
    else:
        order, complete, tied = _by_query_and_score(query, scores, doc_ranks, doc)
        in_order = np.repeat(np.arange(int(query.max()) + 1, dtype=query.dtype), np.bincount(query))
        if complete:
            return order, in_order
    if tied is None:
        tied = _tied(query, scores, order)
    if not tied.any():
        return order, in_order
    # sort each block of tied rows on the doc ids' string ranks, descending
    tied_with_previous = np.r_[False, tied]
    rows = np.flatnonzero(tied_with_previous | np.r_[tied, False])
    block = np.cumsum(~tied_with_previous[rows])
    ranks = _ranks_of(doc_ranks(), doc[order[rows]])
    within = np.lexsort((-ranks, block))
    order[rows] = order[rows[within]]
    return order, in_order


def _ranks_of(ranks: np.ndarray | None, doc: np.ndarray) -> np.ndarray:
    """The string rank of each doc code (``ranks`` None: the codes are the ranks)."""
    return doc.astype(np.int64) if ranks is None else ranks[doc]


def ties_to_break(query: np.ndarray, scores: np.ndarray) -> bool:
    """Whether ordering the rows will very likely break ties by doc id (then
    :func:`trec_order` asks for every doc id's rank): rows not in trec_eval's order already,
    and few distinct scores among a sample of them.

    >>> ties_to_break(np.zeros(8, int), np.array([1.0, 2.0] * 4))
    True
    """
    return _few_scores(scores) and not in_trec_order(query, scores)


def in_trec_order(query: np.ndarray, scores: np.ndarray) -> bool:
    """Whether the rows are already in trec_eval's order with no tie to break: each query's
    rows together, scores strictly decreasing (then :func:`trec_order` is the identity).

    >>> in_trec_order(np.array([1, 1, 0]), np.array([2.0, 1.0, 5.0]))
    True
    """
    if query.size < 2:
        return True
    return _by_score(query, scores, strictly=True)


_HEAD = 4096  #: rows looked at first by :func:`_by_score`


def _by_score(query: np.ndarray, scores: np.ndarray, strictly: bool = False) -> bool:
    """Whether each query's rows are together and by score descending (``strictly``: with no
    two equal scores in a query). The first rows are looked at first: rows in any order
    usually show it there, and then the million others are not."""
    if query.size > _HEAD and not _by_score(query[:_HEAD], scores[:_HEAD], strictly):
        return False
    same_query = query[1:] == query[:-1]
    n = query.size
    if n - int(np.count_nonzero(same_query)) != np.count_nonzero(np.bincount(query)):
        return False
    rising = scores[1:] >= scores[:-1] if strictly else scores[1:] > scores[:-1]
    return not np.any(same_query & rising)


def untied_order(query: np.ndarray, scores: np.ndarray) -> np.ndarray | None:
    """The row order trec_eval ranks in, when no two rows of a query have equal scores: each
    query's rows together (queries in code order), by score descending; None when some rows
    tie (their order needs the doc ids: :func:`trec_order`), or many scores are equal.

    >>> untied_order(np.array([1, 0, 1]), np.array([1.0, 5.0, 2.0])).tolist()
    [1, 2, 0]
    >>> untied_order(np.array([1, 0, 1]), np.array([1.0, 5.0, 1.0])) is None
    True
    >>> untied_order(np.array([0, 0, 1]), np.array([2.0, 2.0, 1.0])) is None
    True
    """
    if _few_scores(scores):
        return None  # few distinct scores: ties to break, very likely
    if _by_score(query, scores) and not _by_score(query, scores, strictly=True):
        return None  # each query's rows in order already, but some scores equal: ties
    order, tied = _by_query_then_score(query, scores)
    return None if tied.any() else order


def _by_query_and_score(
    query: np.ndarray, scores: np.ndarray, doc_ranks: Callable[[], np.ndarray], doc: np.ndarray
) -> tuple[np.ndarray, bool, np.ndarray | None]:
    """Rows by query code, then score descending; whether ties are already broken by doc id
    descending (else tied rows are in any order); and, when known, which rows tie with the
    next (see :func:`_by_query_then_score`)."""
    # Few distinct scores (each score's level, then counting): wins (c) heavy ties,
    # 2026-11-28, against the general way below, categorical 0.30x pytrec_eval against 0.92x
    # (pool 100,000), object string ids 0.55x against 0.84x (pool 1,000,000); counting
    # rather than one sort of the packed key, 0.30x against 0.36x and 0.55x against 0.71x.
    few = _score_levels(scores)
    if few is not None:  # few distinct scores, so ties: small integer keys
        level, n_levels = few
        ranks = doc_ranks()
        width = int((doc if ranks is None else ranks).max(initial=0)) + 1
        n_queries = int(query.max(initial=0)) + 1
        # doc ids descending: each distinct id's rank reversed, then read for every row
        kind = np.int32 if width < 2**31 else np.int64
        if ranks is None:  # the codes are the ranks
            descending = np.subtract(width - 1, doc, dtype=kind)
        else:
            descending = (width - 1 - ranks).astype(kind)[doc]
        by_count = order_by([(query, n_queries), (level, n_levels), (descending, width)])
        if by_count is not None:
            return by_count, True, None
        return np.lexsort((descending, level, query)), True, None  # (not countable: rare)
    # tied rows are re-ordered by doc id afterwards, and doc ids are distinct within a query,
    # so their order here does not matter
    order, tied = _by_query_then_score(query, scores)
    return order, False, tied


def _by_query_then_score(query: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows by query code, then score descending (tied rows in any order), and which rows tie
    with the next one (``tied[i]``: rows ``order[i]`` and ``order[i + 1]`` have the same query
    and equal scores).

    By counting (:func:`_counted_by_query_then_score`) where it applies; else one sort of
    integers: query code, the score's leading bits (as an integer in the scores' reverse
    order: :func:`descending_keys`) and row number packed in 63 bits; rows whose query and
    leading bits are equal (close scores: with a million rows and a thousand queries, 21 bits
    of mantissa, so within 10**-6 of each other) are then ordered on their whole scores, and
    only they can tie.

    The packed sort is reached by no case of ``bench_evaluate.py`` as it runs (counting
    applies to all), only by inputs that counting refuses (an outlier or infinite score, fewer
    than ``MIN_ROWS`` rows). Forced (counting off), it wins against the argsort below,
    2026-11-28, in turn in one process: (c) unsorted, distinct scores, ``--pool 1000000``
    (load 6.2-7.5) categorical 0.51x pytrec_eval against 0.84x, nested dicts 0.53x against
    0.80x; default pool (load 3.7-4.5) categorical 0.31x against 0.45x, object string ids
    0.54x against 0.68x, nested dicts 0.63x against 0.86x; the step alone, a million shuffled
    rows of 1000 queries, 58 ms against 129 ms (with one score of 1e300, which counting
    refuses: 85 ms, counting's try included, against 120 ms).
    """
    counted = _counted_by_query_then_score(query, scores)
    if counted is not None:
        return counted
    n = query.size
    row_bits = max(int(n - 1).bit_length(), 1)
    query_bits = int(query.max(initial=0)).bit_length()
    score_bits = 63 - row_bits - query_bits
    if score_bits < 20:  # too few bits: many rows would share their leading bits
        by_score = np.argsort(-scores)
        small = query.astype(np.uint16) if query.max() < 2**16 else query
        # a stable sort on small integers is a radix sort: linear time
        order = by_score[np.argsort(small[by_score], kind="stable")]
        return order, _tied(query, scores, order)
    keys = descending_keys(scores)
    keys >>= np.uint64(64 - score_bits)
    packed = keys.view(np.int64)  # (below 2**score_bits: non-negative)
    if query_bits:
        packed |= query.astype(np.int64) << score_bits
    packed <<= row_bits
    packed |= np.arange(n, dtype=np.int64)
    packed.sort()
    order = packed & ((1 << row_bits) - 1)
    packed >>= row_bits  # query and leading bits
    return order, _refined(order, packed[1:] == packed[:-1], scores)


def _counted_by_query_then_score(
    query: np.ndarray, scores: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """As :func:`_by_query_then_score`, by counting (:mod:`.counting`) (wins ``--pool
    1000000``'s (c) unsorted, distinct scores, categorical, 2026-11-28: 0.39x pytrec_eval
    against 0.62x with the packed sort, load 3.4): the scores cut into
    ``n / 8`` intervals of equal width between the lowest and the highest, the rows ordered by
    query and interval, those sharing both then on their whole scores. None for few rows,
    scores that are not all finite, or scores so unevenly spread that many rows share an
    interval with another (then the sort of integers is faster)."""
    n = scores.size
    n_queries = int(query.max(initial=0)) + 1
    n_bins = n // 8
    if n < MIN_ROWS or not countable(n, n_queries):
        return None
    low, high = float(scores.min()), float(scores.max())
    spread = high - low
    if not math.isfinite(spread):  # an infinite score (or NaN), or a spread beyond floats
        return None
    scale = (n_bins - 1) / spread if spread > 0 else 0.0
    if not math.isfinite(scale):  # scores closer together than a float's range allows
        return None
    # bin 0 for the highest scores; rounding keeps the order (a higher score: a bin as low)
    position = np.subtract(high, scores)
    position *= scale
    bins = position.astype(np.int32)
    np.minimum(bins, n_bins - 1, out=bins)
    order = order_by([(query, n_queries), (bins, n_bins)])
    if order is None:
        return None
    # ordered by query code: the codes in order are counted, not gathered
    query_ordered = np.repeat(np.arange(n_queries, dtype=np.int32), np.bincount(query))
    bins = bins[order]
    same = (bins[1:] == bins[:-1]) & (query_ordered[1:] == query_ordered[:-1])
    if np.count_nonzero(same) > n // 8:
        return None
    return order, _refined(order, same, scores)


def _refined(order: np.ndarray, same: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Puts the rows of ``order`` that share their query and leading part of the score with the
    next one (``same``) in order of their whole scores, descending, in place; returns which
    rows then tie with the next (same query, equal score)."""
    shared = np.flatnonzero(same)
    if shared.size:
        rows = np.flatnonzero(np.r_[same, False] | np.r_[False, same])
        group = np.cumsum(np.r_[True, ~same][rows])
        within = np.lexsort((-scores[order[rows]], group))
        order[rows] = order[rows[within]]
        same[shared] = scores[order[shared]] == scores[order[shared + 1]]
    return same


def _tied(query: np.ndarray, scores: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Whether each row of ``order`` has the same query and score as the next one."""
    q, s = query[order], scores[order]
    return (q[1:] == q[:-1]) & (s[1:] == s[:-1])


def descending_keys(scores: np.ndarray) -> np.ndarray:
    """Each score as a 64-bit unsigned integer, the highest score the lowest integer; equal
    scores (0.0 and -0.0 too) give equal integers. The packed sort's keys (its win, audited
    2026-11-28: :func:`_by_query_then_score`).

    >>> keys = descending_keys(np.array([2.0, -1.0, 0.0, -0.0, 0.5]))
    >>> keys.argsort(kind="stable").tolist(), bool(keys[2] == keys[3])
    ([0, 4, 2, 3, 1], True)
    """
    negated = np.negative(scores, dtype=np.float64)
    negated += 0.0  # -0.0 is 0.0
    bits = negated.view(np.uint64)
    # IEEE 754 order: a positive float's bits grow with it, a negative float's shrink; set
    # the sign bit of the positive ones and flip every bit of the negative ones
    flip = bits >> np.uint64(63)
    np.negative(flip, out=flip)  # 0, or every bit set
    flip |= np.uint64(1 << 63)
    bits ^= flip
    return bits


def _few_scores(scores: np.ndarray) -> bool:
    """Whether a sample of the scores has at most a quarter as many distinct values as rows."""
    import pandas as pd  # as the rest of trec/; here only when rows need sorting

    sample = scores[: max(64, scores.size // 64)]
    return scores.size >= 8 and pd.unique(sample).size <= sample.size // 4


def _score_levels(scores: np.ndarray) -> tuple[np.ndarray, int] | None:
    """``(level, n)``: the rank of each score among the ``n`` distinct scores, descending (0 for
    the highest), when there are at most a quarter as many distinct scores as rows; else None.
    Scores are hashed (a sample first; then all, by pyarrow, in half the time of pandas),
    not sorted: only the distinct ones are sorted."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not _few_scores(scores):
        return None
    encoded = pc.dictionary_encode(pa.array(scores + 0.0))  # + 0.0: -0.0 is 0.0, as == says
    distinct = encoded.dictionary.to_numpy()
    if distinct.size > scores.size // 4:
        return None
    codes = encoded.indices.to_numpy()
    rank = np.empty(distinct.size, dtype=np.int32 if distinct.size < 2**31 else np.int64)
    rank[np.argsort(distinct)[::-1]] = np.arange(distinct.size)
    return rank[codes], distinct.size
