"""Measures of a ranked list with binary relevance.

Every function takes ``rels``, the relevance grades of a ranked list in rank order (rank 1
first); a grade >= 1 counts as relevant, 0 and negative grades do not. Where recall is involved
they also take ``n_relevant``, the number of relevant documents the collection holds for the
query (retrieved or not). An empty ranking is valid and scores 0.

English / French / Italian: average precision / précision moyenne / precisione media;
interpolated precision / précision interpolée / precisione interpolata; reciprocal rank /
rang réciproque / rango reciproco.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ..validation import (
    as_binary,
    check_k,
    check_n_relevant,
    check_positive_int,
    check_unit_interval,
)

__all__ = [
    "STANDARD_RECALL_LEVELS",
    "judge",
    "rels_from_ranks",
    "precision_at",
    "recall_at",
    "interpolated_precision",
    "interpolate_points",
    "average_precision",
    "r_precision",
    "reciprocal_rank",
    "mean_average_precision",
    "geometric_mean_average_precision",
    "mean_reciprocal_rank",
]

#: The 11 standard recall levels 0.0, 0.1, ..., 1.0 (written as i / 10, never 0.1 * i).
STANDARD_RECALL_LEVELS: tuple[float, ...] = tuple(i / 10 for i in range(11))


def judge(ranking: Sequence[Any], qrels: Mapping[Any, float]) -> list:
    """Grades of a ranking, rank by rank; a document absent from ``qrels`` gets 0.

    >>> judge(["d3", "d1", "d2"], {"d2": 1, "d3": 2})
    [2, 0, 1]
    """
    if isinstance(ranking, (str, bytes)):
        raise TypeError("ranking must be a sequence of document ids, got a string")
    if not isinstance(qrels, Mapping):
        raise TypeError(f"qrels must map document ids to grades, got {type(qrels).__name__}")
    seen: set = set()
    for position, doc in enumerate(ranking, start=1):
        if doc in seen:
            raise ValueError(
                f"document {doc!r} appears twice in the ranking (again at rank {position})"
            )
        seen.add(doc)
    return [qrels.get(doc, 0) for doc in ranking]


def rels_from_ranks(ranks: Iterable[int], length: int) -> list[int]:
    """Binary ``rels`` of a list of ``length`` documents whose relevant ones sit at ``ranks``.

    Ranks are 1-based.

    >>> rels_from_ranks([1, 3], length=4)
    [1, 0, 1, 0]
    """
    if not (isinstance(length, int) and length == 0):
        length = check_positive_int(length, "length")
    rels = [0] * length
    for rank in ranks:
        rank = check_positive_int(rank, "each rank")
        if rank > length:
            raise ValueError(f"rank {rank} is beyond the end of a list of length {length}")
        if rels[rank - 1]:
            raise ValueError(f"rank {rank} is given twice")
        rels[rank - 1] = 1
    return rels


def precision_at(rels: Sequence[float], k: int) -> float:
    """P@k: the share of relevant documents among the first k ranks.

    P@k = |relevant in ranks 1..k| / k. A list shorter than k is padded with non-relevant
    documents, as trec_eval does.

    >>> precision_at([0, 0, 1, 0, 1], k=5)
    0.4
    """
    relevant = as_binary(rels)
    k = check_k(k)
    return int(np.count_nonzero(relevant[:k])) / k


def recall_at(rels: Sequence[float], k: int, n_relevant: int) -> float:
    """R@k: the share of the query's relevant documents found in the first k ranks.

    R@k = |relevant in ranks 1..k| / n_relevant, and 0 when the query has no relevant document.

    >>> recall_at([1, 0, 1, 0], k=2, n_relevant=4)
    0.25
    """
    relevant = as_binary(rels)
    k = check_k(k)
    n_relevant = check_n_relevant(n_relevant, relevant)
    if n_relevant == 0:
        return 0.0
    return int(np.count_nonzero(relevant[:k])) / n_relevant


def _as_fraction(level: Any) -> Fraction:
    """A recall level as an exact fraction (0.7 and 0.1 * 7 both become 7/10)."""
    if isinstance(level, (bool, np.bool_)) or not isinstance(level, numbers.Real):
        raise TypeError(f"a recall level must be a number, got {type(level).__name__} {level!r}")
    if not math.isfinite(float(level)) or not 0 <= level <= 1:
        raise ValueError(f"a recall level must be in [0, 1], got {level!r}")
    return Fraction(float(level)).limit_denominator(10_000)


def interpolated_precision(
    rels: Sequence[float], n_relevant: int, levels: Iterable[float] | None = None
) -> np.ndarray:
    """Interpolated precision at each recall level (default: the 11 standard levels).

    The value at level r is the highest precision reached at any rank whose recall is >= r,
    and 0 when recall r is never reached: P_interp(r) = max {P(k) : R(k) >= r}.
    Recall levels are compared exactly, on counts: rank k reaches level r = a/b when
    b · found(k) >= a · n_relevant, so that 7 found out of 10 reaches 0.7. (trec_eval counts
    the documents needed as ``(long)(r · n + 0.9)`` in floating point, which for 0.7 · 3 gives
    2: it lets 2 of 3 relevant documents reach recall 0.7. coursekit does not.)

    >>> interpolated_precision([1, 0, 1, 0], n_relevant=2).round(3).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.667, 0.667, 0.667, 0.667, 0.667]
    """
    relevant = as_binary(rels)
    n_relevant = check_n_relevant(n_relevant, relevant)
    fractions = [
        _as_fraction(level) for level in (STANDARD_RECALL_LEVELS if levels is None else levels)
    ]
    found = np.cumsum(relevant, dtype=np.int64)
    precision = found / np.arange(1, relevant.size + 1)
    # best[k] = the highest precision at rank k or later (precision can only fall after k).
    best = np.maximum.accumulate(precision[::-1])[::-1] if relevant.size else precision
    result = np.zeros(len(fractions))
    if n_relevant == 0:
        return result
    for i, level in enumerate(fractions):
        reached = np.flatnonzero(level.denominator * found >= level.numerator * n_relevant)
        if reached.size:
            result[i] = best[reached[0]]
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
    r = np.asarray(list(recalls), dtype=float)
    p = np.asarray(list(precisions), dtype=float)
    if r.ndim != 1 or r.shape != p.shape:
        raise ValueError(
            "recalls and precisions must be two lists of the same length, "
            f"got {r.size} and {p.size}"
        )
    if r.size and (not np.all(np.isfinite(r)) or not np.all(np.isfinite(p))):
        raise ValueError("recalls and precisions must be finite numbers")
    grid = [
        float(_as_fraction(level))
        for level in (STANDARD_RECALL_LEVELS if levels is None else levels)
    ]
    return np.array([p[r >= level - 1e-9].max(initial=0.0) for level in grid])


def average_precision(rels: Sequence[float], n_relevant: int) -> float:
    """AP: the mean of the precisions at the ranks of the relevant documents.

    AP = (1 / n_relevant) · Σ_k rel(k) · P@k, where rel(k) is 1 when rank k is relevant.
    Relevant documents never retrieved contribute a precision of 0 (Harman 1994, trec_eval).
    Passing the number of relevant documents *retrieved* as ``n_relevant`` gives the variant
    that averages over retrieved relevant documents only (higher, and blind to what is missed).

    >>> round(average_precision([1, 1, 0, 1, 0, 1], n_relevant=6), 4)
    0.5694
    """
    relevant = as_binary(rels)
    n_relevant = check_n_relevant(n_relevant, relevant)
    if n_relevant == 0:
        return 0.0
    ranks = np.flatnonzero(relevant) + 1
    precisions = np.arange(1, ranks.size + 1) / ranks
    return float(precisions.sum() / n_relevant)


def r_precision(rels: Sequence[float], n_relevant: int) -> float:
    """R-precision: P@R with R = n_relevant, the number of relevant documents of the query.

    0 when the query has no relevant document. At rank R precision equals recall.

    >>> r_precision([0, 0, 1, 0, 1, 1, 0, 0], n_relevant=8)
    0.375
    """
    relevant = as_binary(rels)
    n_relevant = check_n_relevant(n_relevant, relevant)
    if n_relevant == 0:
        return 0.0
    return int(np.count_nonzero(relevant[:n_relevant])) / n_relevant


def reciprocal_rank(rels: Sequence[float]) -> float:
    """RR = 1 / rank of the first relevant document, 0 if none is retrieved.

    Voorhees & Tice (1999); suited to navigational search and question answering.

    >>> reciprocal_rank([0, 0, 1, 1])
    0.3333333333333333
    """
    relevant = as_binary(rels)
    hits = np.flatnonzero(relevant)
    return 1.0 / float(hits[0] + 1) if hits.size else 0.0


def _pairs(queries: Iterable[tuple[Sequence[float], int]], name: str) -> list[tuple[Any, int]]:
    pairs = list(queries)
    for i, pair in enumerate(pairs):
        if not (isinstance(pair, tuple) and len(pair) == 2):
            raise TypeError(
                f"{name} takes a list of (rels, n_relevant) pairs, one per query; "
                f"item {i} is {type(pair).__name__}"
            )
    if not pairs:  # 0.0 would read as a system that finds nothing
        raise ValueError(f"{name} of no query: give one (rels, n_relevant) pair per query")
    return pairs


def mean_average_precision(queries: Iterable[tuple[Sequence[float], int]]) -> float:
    """MAP: the arithmetic mean of the queries' average precisions.

    ``queries`` is a list of ``(rels, n_relevant)`` pairs, one per query; with no query there is
    no mean (a ``ValueError``: 0.0 would read as a system finding nothing).

    >>> mean_average_precision([([0, 0, 1], 1), ([0, 1, 1], 2)])
    0.4583333333333333
    """
    if isinstance(queries, (str, bytes, Mapping)) or not isinstance(queries, Iterable):
        raise TypeError(
            "mean_average_precision takes a list of (rels, n_relevant) pairs, one per query; "
            f"got {type(queries).__name__}"
        )
    pairs = _pairs(queries, "mean_average_precision")
    return float(np.mean([average_precision(r, n) for r, n in pairs]))


def geometric_mean_average_precision(
    queries: Iterable[tuple[Sequence[float], int]], floor: float = 1e-5
) -> float:
    """GMAP: the geometric mean of the average precisions (Robertson 2006).

    GMAP = exp(mean(log(max(AP_q, floor)))); the floor (trec_eval's 0.00001) keeps one query
    with AP = 0 from sending the mean to 0. GMAP rewards improving the hardest queries.

    >>> round(geometric_mean_average_precision([([1], 1), ([0, 1], 1)]), 4)
    0.7071
    """
    pairs = _pairs(queries, "geometric_mean_average_precision")
    check_unit_interval(floor, "floor")
    aps = np.array([average_precision(r, n) for r, n in pairs])
    return float(np.exp(np.mean(np.log(np.maximum(aps, floor)))))


def mean_reciprocal_rank(rankings: Iterable[Sequence[float]]) -> float:
    """MRR: the mean over queries of the reciprocal rank of the first relevant document.

    With no query there is no mean (a ``ValueError``).

    >>> mean_reciprocal_rank([[1, 0], [0, 0, 1], [0]])
    0.4444444444444444
    """
    rr = [reciprocal_rank(rels) for rels in rankings]
    if not rr:
        raise ValueError("mean_reciprocal_rank of no query: give one ranking per query")
    return float(np.mean(rr))
