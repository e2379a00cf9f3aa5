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

import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..validation import (
    as_binary,
    check_k,
    check_n_relevant,
    check_positive_int,
    check_scalar,
    describe,
    first_ranks,
    refuse_unordered,
)

__all__ = [
    "judge",
    "rels_from_ranks",
    "precision_at",
    "recall_at",
    "average_precision",
    "r_precision",
    "reciprocal_rank",
    "mean_average_precision",
    "geometric_mean_average_precision",
    "mean_reciprocal_rank",
]


def judge(ranking: Sequence[Any], qrels: Mapping[Any, float]) -> list:
    """Grades of a ranking, rank by rank; a document absent from ``qrels`` gets 0.

    >>> judge(["d3", "d1", "d2"], {"d2": 1, "d3": 2})
    [2, 0, 1]
    """
    if isinstance(ranking, (str, bytes)):
        raise TypeError("ranking must be a sequence of document ids, got a string")
    refuse_unordered(ranking, "ranking", "document ids")
    if not isinstance(ranking, Iterable):
        raise TypeError(
            "ranking must be a sequence of document ids in rank order, "
            f"got {type(ranking).__name__} {describe(ranking)}"
        )
    if not isinstance(qrels, Mapping):
        raise TypeError(f"qrels must map document ids to grades, got {type(qrels).__name__}")
    docs = list(ranking)  # once: a generator can be read only once
    first_ranks(docs, "ranking")
    return [qrels.get(doc, 0) for doc in docs]


#: The longest list :func:`rels_from_ranks` builds (a Python list of that many ints: 80 MB).
MAX_LENGTH = 10_000_000


def rels_from_ranks(ranks: Iterable[int], length: int) -> list[int]:
    """Binary ``rels`` of a list of ``length`` documents whose relevant ones sit at ``ranks``.

    Ranks are 1-based; ``length`` is at most :data:`MAX_LENGTH`.

    >>> rels_from_ranks([1, 3], length=4)
    [1, 0, 1, 0]
    """
    if isinstance(ranks, (str, bytes, Mapping)) or not isinstance(ranks, Iterable):
        raise TypeError(
            f"ranks must be a list of 1-based ranks, got {type(ranks).__name__} {describe(ranks)}"
        )
    length = int(
        check_scalar(
            length, "length", numbers.Integral, what="a whole number", min_val=0, max_val=MAX_LENGTH
        )
    )
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
    refuse_unordered(rels, "rels")
    relevant = as_binary(rels)
    k = check_k(k)
    return int(np.count_nonzero(relevant[:k])) / k


def recall_at(rels: Sequence[float], k: int, n_relevant: int) -> float:
    """R@k: the share of the query's relevant documents found in the first k ranks.

    R@k = |relevant in ranks 1..k| / n_relevant, and 0 when the query has no relevant document.

    >>> recall_at([1, 0, 1, 0], k=2, n_relevant=4)
    0.25
    """
    refuse_unordered(rels, "rels")
    relevant = as_binary(rels)
    k = check_k(k)
    n_relevant = check_n_relevant(n_relevant, relevant)
    if n_relevant == 0:
        return 0.0
    return int(np.count_nonzero(relevant[:k])) / n_relevant


def average_precision(rels: Sequence[float], n_relevant: int) -> float:
    """AP: the mean of the precisions at the ranks of the relevant documents.

    AP = (1 / n_relevant) · Σ_k rel(k) · P@k, where rel(k) is 1 when rank k is relevant.
    Relevant documents never retrieved contribute a precision of 0 (Harman 1994, trec_eval).
    Passing the number of relevant documents *retrieved* as ``n_relevant`` gives the variant
    that averages over retrieved relevant documents only (higher, and blind to what is missed).

    >>> round(average_precision([1, 1, 0, 1, 0, 1], n_relevant=6), 4)
    0.5694
    """
    refuse_unordered(rels, "rels")
    relevant = as_binary(rels)
    n_relevant = check_n_relevant(n_relevant, relevant)
    if n_relevant == 0:
        return 0.0
    ranks = np.flatnonzero(relevant) + 1
    precisions = np.arange(1, ranks.size + 1) / ranks
    return float(precisions.sum() / n_relevant)


def r_precision(rels: Sequence[float], n_relevant: int) -> float:
    """R-precision: P@n with n = n_relevant, the number of relevant documents of the query
    (TREC's R; in this course R is recall).

    0 when the query has no relevant document. At rank n precision equals recall.

    >>> r_precision([0, 0, 1, 0, 1, 1, 0, 0], n_relevant=8)
    0.375
    """
    refuse_unordered(rels, "rels")
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
    refuse_unordered(rels, "rels")
    relevant = as_binary(rels)
    hits = np.flatnonzero(relevant)
    return 1.0 / float(hits[0] + 1) if hits.size else 0.0


def _pairs(queries: Iterable[tuple[Sequence[float], int]], name: str) -> list[tuple[Any, int]]:
    if isinstance(queries, (str, bytes, Mapping)) or not isinstance(queries, Iterable):
        raise TypeError(
            f"{name} takes a list of (rels, n_relevant) pairs, one per query; "
            f"got {type(queries).__name__}"
        )
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
    pairs = _pairs(queries, "mean_average_precision")
    return float(np.mean(_per_query(average_precision, pairs, "queries")))


def geometric_mean_average_precision(
    queries: Iterable[tuple[Sequence[float], int]], floor: float = 1e-5
) -> float:
    """GMAP: the geometric mean of the average precisions (introduced in the TREC 2004 Robust
    track, Voorhees 2005; analysed by Robertson 2006).

    GMAP = exp(mean(log(max(AP_q, floor)))); the floor (trec_eval's 0.00001) keeps one query
    with AP = 0 from sending the mean to 0. GMAP rewards improving the hardest queries.

    >>> round(geometric_mean_average_precision([([1], 1), ([0, 1], 1)]), 4)
    0.7071
    """
    pairs = _pairs(queries, "geometric_mean_average_precision")
    check_scalar(
        floor,
        "floor",
        numbers.Real,
        what="a positive number",
        min_val=0,
        max_val=1,
        include_boundaries="right",
    )
    aps = np.array(_per_query(average_precision, pairs, "queries"))
    return float(np.exp(np.mean(np.log(np.maximum(aps, floor)))))


def mean_reciprocal_rank(rankings: Iterable[Sequence[float]]) -> float:
    """MRR: the mean over queries of the reciprocal rank of the first relevant document.

    With no query there is no mean (a ``ValueError``).

    >>> mean_reciprocal_rank([[1, 0], [0, 0, 1], [0]])
    0.4444444444444444
    """
    if isinstance(rankings, (str, bytes, Mapping)) or not isinstance(rankings, Iterable):
        raise TypeError(
            "mean_reciprocal_rank takes a list of rankings (rels), one per query; "
            f"got {type(rankings).__name__} {describe(rankings)}"
        )
    rr = _per_query(reciprocal_rank, [(rels,) for rels in rankings], "rankings")
    if not rr:
        raise ValueError("mean_reciprocal_rank of no query: give one ranking per query")
    return float(np.mean(rr))


def _per_query(measure: Any, arguments: list[tuple], name: str) -> list[float]:
    """The measure of each query; an error names the query at fault (``queries[2]: ...``)."""
    values = []
    for i, args in enumerate(arguments):
        try:
            values.append(measure(*args))
        except (TypeError, ValueError) as error:
            raise type(error)(f"{name}[{i}]: {error}") from None
    return values
