"""nDCG of every query at once, the vectorised twin of :func:`coursekit.graded.ndcg` (read by
:mod:`coursekit.registry`): DCG summed over each query's rows within the cut-off, and the
ideal DCG counted from each query's number of judgments of each grade (or, with many distinct
grades, from its judgments sorted by grade)."""

from __future__ import annotations

import numpy as np

from . import graded
from .rankings import Rankings, ranks_in_blocks

__all__ = ["ndcg_every", "ideal_dcg_counted", "by_query_then_grade"]


def ndcg_every(r: Rankings, k: int | None, ndcg_variant: str = "trec", **_: object) -> np.ndarray:
    """nDCG@k (the whole ranking when ``k`` is None) of every query at once: DCG over each
    query's rows within the cut-off, over the ideal DCG of its judgments."""
    rows, rank = r.top(k)
    contributions = _dcg_contributions(r.grade[rows], rank, ndcg_variant)
    dcg = np.bincount(r.query[rows], weights=contributions, minlength=r.n_queries)
    ideal = ideal_dcg_counted(r.judged_query, r.judged_grade, r.n_queries, k, ndcg_variant)
    if ideal is None:
        ideal = _ideal_dcg_sorted(r, k, ndcg_variant)
    return np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1.0), 0.0)


_FEW_GRADES = 64  #: at most this many distinct grades: the ideal DCG counted, not sorted


def ideal_dcg_counted(
    queries: np.ndarray, grades: np.ndarray, n_queries: int, k: int | None, variant: str
) -> np.ndarray | None:
    """Each query's ideal DCG@k, from the number of its judgments of each grade (None when
    there are many distinct grades): in the ideal ranking a query's judgments come by grade,
    highest first, so those of the ``j``-th highest grade fill the ranks after the ``before``
    of higher grades, ``take`` of them within the cut-off; their gains at those ranks add up
    to the grade's gain times the sum of the per-rank factors from ``before + 1`` to
    ``before + take`` (a difference of their running sums). No sort of the judgments.

    >>> ideal_dcg_counted(np.array([0, 0, 0, 1]), np.array([1.0, 3.0, 1.0, 0.0]), 2, 2,
    ...                    "jarvelin").tolist()
    [4.0, 0.0]
    """
    if grades.size == 0:
        return np.zeros(n_queries)
    levels = np.unique(grades[:: max(1, grades.size // 4096)])  # a sample first: few grades
    if levels.size > _FEW_GRADES or n_queries * _FEW_GRADES > 64 * grades.size + 2**20:
        return None  # (many grades, or many queries with few judgments: sorted instead)
    level = np.minimum(np.searchsorted(levels, grades), levels.size - 1)
    if not np.array_equal(levels[level], grades):  # a grade the sample missed
        levels = np.unique(grades)
        if levels.size > _FEW_GRADES:
            return None
        level = np.searchsorted(levels, grades)
    n_levels = levels.size
    key = queries.astype(np.int64) * n_levels
    key += n_levels - 1 - level  # the highest grade first
    counts = np.bincount(key, minlength=n_queries * n_levels).reshape(n_queries, n_levels)
    before = np.cumsum(counts, axis=1) - counts
    take = counts if k is None else np.clip(k - before, 0, counts)
    filled = before + take
    per_rank = graded.discounted_gains(np.ones(int(filled.max(initial=0))), variant)
    running = np.r_[0.0, np.cumsum(per_rank)]
    gain = np.array([graded.discounted_gains([g], variant)[0] for g in levels[::-1]])
    return ((running[filled] - running[before]) * gain).sum(axis=1)


def _ideal_dcg_sorted(r: Rankings, k: int | None, variant: str) -> np.ndarray:
    """Each query's ideal DCG@k, its judgments sorted by grade (many distinct grades)."""
    # the ideal ranking: each query's judgments by grade, descending; a judgment whose gain is
    # 0 (grade 0 or below) adds nothing and comes after every positive grade, so it is left out
    grades, queries = r.judged_grade, r.judged_query
    if not np.any(graded.discounted_gains(np.unique(grades[grades <= 0]), variant)):
        positive = np.flatnonzero(grades > 0)
        grades, queries = grades[positive], queries[positive]
    query, grades = by_query_then_grade(queries, grades)
    rank = ranks_in_blocks(query)
    if k is not None:
        kept = np.flatnonzero(rank <= k)
        query, grades, rank = query[kept], grades[kept], rank[kept]
    contributions = _dcg_contributions(grades, rank, variant)
    return np.bincount(query, weights=contributions, minlength=r.n_queries)


def by_query_then_grade(queries: np.ndarray, grades: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The judgments sorted by query, then grade descending: integer grades (as trec_eval's)
    and query codes that fit 16 bits by two radix sorts (grade, then query), else packed in
    one integer, one sort of those; else a lexsort."""
    whole = grades.size == 0 or (
        np.all(np.abs(grades) < 2**31) and np.array_equal(grades, np.floor(grades))
    )
    if whole and grades.size:
        top, n_queries = int(grades.max()), int(queries.max()) + 1
        if top - int(grades.min()) < 2**16 and n_queries <= 2**16:
            # numpy's stable sort of 8- or 16-bit integers is a radix sort: linear time
            order = np.argsort(_small(top - grades), kind="stable")
            order = order[np.argsort(_small(queries[order]), kind="stable")]
            return queries[order], grades[order]
    if whole and int(queries.max(initial=0)) < 2**30:
        keys = queries.astype(np.int64) << 32
        keys |= (2**31 - 1) - grades.astype(np.int64)  # 0 .. 2**32 - 2: descending grades
        keys.sort()
        return keys >> 32, ((2**31 - 1) - (keys & 0xFFFFFFFF)).astype(float)
    order = np.lexsort((-grades, queries))
    return queries[order], grades[order]


def _small(values: np.ndarray) -> np.ndarray:
    """Non-negative integers below 2**16 as the smallest unsigned type that holds them."""
    return values.astype(np.uint8 if values.max(initial=0) < 2**8 else np.uint16)


def _dcg_contributions(grades: np.ndarray, rank: np.ndarray, variant: str) -> np.ndarray:
    """Each row's contribution to DCG, given its grade and rank, from
    :func:`coursekit.graded.discounted_gains` itself: a grade's gain is its contribution at
    rank 1, and a gain of 1 at rank r is 1 / discount."""
    levels = np.unique(grades[:: max(1, grades.size // 4096)])  # a sample first: few grades
    if not np.isin(grades, levels).all():
        levels = np.unique(grades)
    gain = np.array([graded.discounted_gains([g], variant)[0] for g in levels])
    gain = gain[np.searchsorted(levels, grades)]
    per_rank = graded.discounted_gains(np.ones(int(rank.max(initial=0))), variant)
    return gain * per_rank[rank - 1]
