"""Every evaluated query's ranking at once (:class:`Rankings`): what the vectorised form of
each measure of :mod:`coursekit.registry` reads, in one set of numpy arrays."""

from __future__ import annotations

import numbers
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ..validation import RELEVANCE_THRESHOLD, as_grades, check_scalar, refuse_unordered

__all__ = ["Rankings", "ranks_in_blocks"]


def ranks_in_blocks(query: np.ndarray) -> np.ndarray:
    """1, 2, 3 ... within each block of equal neighbours of ``query``: the rank of each row
    when a query's rows are together, in rank order.

    >>> ranks_in_blocks(np.array([4, 4, 4, 1, 7, 7])).tolist()
    [1, 2, 3, 1, 1, 2]
    """
    query = np.asarray(query)  # (no copy of an array)
    if query.ndim != 1:
        raise ValueError(f"query must be one-dimensional, got an array of shape {query.shape}")
    if query.size == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, query[1:] != query[:-1]])
    return np.arange(1, query.size + 1) - np.repeat(starts, np.diff(np.r_[starts, query.size]))


#: The dtype kinds of the arrays of a Rankings, and their name in an error message.
_KINDS = {
    "query": ("iu", "integers (query codes)"),
    "judged_query": ("iu", "integers (query codes)"),
    "grade": ("biuf", "numbers (grades)"),
    "judged_grade": ("biuf", "numbers (grades)"),
}


@dataclass(frozen=True)
class Rankings:
    """Every evaluated query's ranking at once, for the vectorised form of each measure. Rows
    are retrieved documents in trec_eval's order (by query, then rank): ``query`` is each row's
    query index, ``grade`` its grade (0 when unjudged), :attr:`rank` its 1-based rank;
    ``judged_query`` and ``judged_grade`` list every judgment of the evaluated queries; ``doc``
    and ``judged_doc`` (optional), doc codes for the measures that tell unjudged apart.

    The constructor checks only what costs nothing (numpy arrays of matching lengths), for
    :func:`coursekit.evaluate`, which builds them right on millions of rows; a ``Rankings``
    built by hand is built with :meth:`build`, which checks the contents as well."""

    query: np.ndarray
    grade: np.ndarray
    n_queries: int
    judged_query: np.ndarray
    judged_grade: np.ndarray
    doc: np.ndarray | None = None
    judged_doc: np.ndarray | None = None

    def __post_init__(self) -> None:
        # O(1): types and lengths only (the contents are checked by Rankings.build)
        check_scalar(self.n_queries, "n_queries", numbers.Integral, what="a count", min_val=0)
        for rows, fields in (
            ("query", ("grade", "doc")),
            ("judged_query", ("judged_grade", "judged_doc")),
        ):
            for name in (rows, *fields):
                value = getattr(self, name)
                if value is None and name.endswith("doc"):
                    continue
                if not isinstance(value, np.ndarray) or value.ndim != 1:
                    raise TypeError(
                        f"Rankings.{name} must be a 1-D numpy array, got {type(value).__name__} "
                        "(Rankings.build(...) takes lists, and checks them)"
                    )
                size = getattr(self, rows).size
                if value.size != size:
                    raise ValueError(f"Rankings.{name} has {value.size} rows, {rows} {size}")
                kinds, words = _KINDS.get(name, ("", ""))
                if value.size and kinds and value.dtype.kind not in kinds:
                    raise TypeError(f"Rankings.{name} must hold {words}, got dtype {value.dtype}")

    @classmethod
    def build(
        cls,
        query: Any,
        grade: Any,
        n_queries: int,
        judged_query: Any,
        judged_grade: Any,
        doc: Any = None,
        judged_doc: Any = None,
    ) -> Rankings:
        """A ``Rankings`` from lists or arrays, checked: query codes 0, 1 ... ``n_queries`` - 1,
        each query's rows together (in rank order), finite grades, and each retrieved
        document's grade (when not 0, unjudged) one of its query's judgments, so that no query
        retrieves more relevant documents than its judgments hold.

        >>> r = Rankings.build([0, 0, 1], [1, 0, 2], 2, [0, 1, 1], [1, 2, 0])
        >>> r.rank.tolist(), r.n_relevant.tolist()
        ([1, 2, 1], [1.0, 1.0])
        """
        check_scalar(n_queries, "n_queries", numbers.Integral, what="a count", min_val=0)
        query, judged_query = (
            _codes(query, "query", n_queries),
            _codes(judged_query, "judged_query", n_queries),
        )
        grade, judged_grade = as_grades(grade, "grade"), as_grades(judged_grade, "judged_grade")
        doc = None if doc is None else np.asarray(doc)
        judged_doc = None if judged_doc is None else np.asarray(judged_doc)
        built = cls(query, grade, int(n_queries), judged_query, judged_grade, doc, judged_doc)
        blocks = Counter(query[built.starts].tolist() if query.size else [])
        again = next((q for q, count in blocks.items() if count > 1), None)
        if again is not None:
            raise ValueError(
                f"the rows of query {again} are not together: give each query's rows one after "
                "the other, in rank order"
            )
        judged = Counter(zip(judged_query.tolist(), judged_grade.tolist(), strict=True))
        shown = Counter(
            (q, g) for q, g in zip(query.tolist(), grade.tolist(), strict=True) if g != 0
        )
        for (q, g), count in shown.items():
            if count > judged[q, g]:
                raise ValueError(
                    f"query {q} retrieves {count} documents of grade {g:g} but has "
                    f"{judged[q, g]} judgments of that grade: a retrieved document's grade is "
                    "its judgment (0 when unjudged)"
                )
        return built

    @cached_property
    def relevant(self) -> np.ndarray:
        """Whether each row is relevant (grade >= 1)."""
        return self.grade >= RELEVANCE_THRESHOLD

    @cached_property
    def hits(self) -> np.ndarray:
        """The relevant rows, in order: most measures need only these (a few in a hundred)."""
        return np.flatnonzero(self.relevant)

    @cached_property
    def hit_query(self) -> np.ndarray:
        """The query of each relevant row (of :attr:`hits`)."""
        return self.query[self.hits]

    @cached_property
    def starts(self) -> np.ndarray:
        """The first row of each query's block of rows (in the order the blocks come)."""
        return np.flatnonzero(np.r_[True, self.query[1:] != self.query[:-1]])

    @cached_property
    def rank(self) -> np.ndarray:
        """The 1-based rank of each row (:func:`ranks_in_blocks`); most measures need only
        :attr:`hit_rank` or :meth:`top`, found without it."""
        return ranks_in_blocks(self.query)

    @cached_property
    def hit_rank(self) -> np.ndarray:
        """The rank of each relevant row (of :attr:`hits`): its distance from its block's
        first row, plus 1."""
        block = np.searchsorted(self.starts, self.hits, side="right") - 1
        return self.hits - self.starts[block] + 1

    def top(self, k: int | None) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, rank)``: the rows ranked ``k`` or better in their query (every row when
        ``k`` is None), in order, and their ranks.

        >>> r = Rankings(np.array([3, 3, 3, 0]), np.zeros(4), 4, np.zeros(0), np.zeros(0))
        >>> [a.tolist() for a in r.top(2)]
        [[0, 1, 3], [1, 2, 1]]
        """
        if k is None:
            return np.arange(self.query.size), self.rank
        lengths = np.diff(np.r_[self.starts, self.query.size])
        taken = np.minimum(lengths, k)
        within = np.arange(int(taken.sum())) - np.repeat(np.cumsum(taken) - taken, taken)
        return np.repeat(self.starts, taken) + within, within + 1

    @cached_property
    def n_relevant(self) -> np.ndarray:
        """The number of relevant documents of each query (floats)."""
        relevant = self.judged_grade >= RELEVANCE_THRESHOLD
        return np.bincount(self.judged_query[relevant], minlength=self.n_queries).astype(float)

    @cached_property
    def relevant_so_far(self) -> np.ndarray:
        """At each relevant row (of :attr:`hits`), the relevant documents of its query at its
        rank or above: 1, 2, 3 ... within each query (a query's rows are together)."""
        return ranks_in_blocks(self.hit_query)

    def per_query(self, weights: np.ndarray, query: np.ndarray | None = None) -> np.ndarray:
        """The sum of ``weights`` over each query's rows (or over rows whose queries are
        ``query``, e.g. :attr:`hit_query`)."""
        query = self.query if query is None else query
        return np.bincount(query, weights=weights, minlength=self.n_queries).astype(float)

    def hits_per_query(self, keep: np.ndarray | None = None) -> np.ndarray:
        """The number of relevant rows of each query (those where ``keep``, a mask of
        :attr:`hits`, is true), as floats."""
        query = self.hit_query if keep is None else self.hit_query[keep]
        return np.bincount(query, minlength=self.n_queries).astype(float)

    def over_relevant(self, totals: np.ndarray) -> np.ndarray:
        """``totals / n_relevant``, 0 for a query with no relevant document."""
        n = self.n_relevant
        return np.where(n > 0, totals / np.where(n > 0, n, 1.0), 0.0)


def _codes(values: Any, name: str, n_queries: int) -> np.ndarray:
    """Query codes: a 1-D array of integers from 0 to ``n_queries`` - 1."""
    refuse_unordered(values, name, "query codes")
    array = np.asarray(values if isinstance(values, np.ndarray) else list(values))
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {array.shape}")
    if array.size == 0:
        return array.astype(np.int64)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers (query codes), got dtype {array.dtype}")
    outside = (array < 0) | (array >= n_queries)
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        raise ValueError(f"{name}[{i}] is {array[i]}: query codes go from 0 to n_queries - 1")
    return array
