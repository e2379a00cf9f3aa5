"""Every evaluated query's ranking at once (:class:`Rankings`): what the vectorised form of
each measure of :mod:`coursekit.registry` reads, in one set of numpy arrays."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..validation import RELEVANCE_THRESHOLD

__all__ = ["Rankings", "ranks_in_blocks"]


def ranks_in_blocks(query: np.ndarray) -> np.ndarray:
    """1, 2, 3 ... within each block of equal neighbours of ``query``: the rank of each row
    when a query's rows are together, in rank order.

    >>> ranks_in_blocks(np.array([4, 4, 4, 1, 7, 7])).tolist()
    [1, 2, 3, 1, 1, 2]
    """
    if query.size == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, query[1:] != query[:-1]])
    return np.arange(1, query.size + 1) - np.repeat(starts, np.diff(np.r_[starts, query.size]))


@dataclass(frozen=True)
class Rankings:
    """Every evaluated query's ranking at once, for the vectorised form of each measure. Rows
    are retrieved documents in trec_eval's order (by query, then rank): ``query`` is each row's
    query index, ``grade`` its grade (0 when unjudged), :attr:`rank` its 1-based rank;
    ``judged_query`` and ``judged_grade`` list every judgment of the evaluated queries; ``doc``
    and ``judged_doc`` (optional), doc codes for the measures that tell unjudged apart."""

    query: np.ndarray
    grade: np.ndarray
    n_queries: int
    judged_query: np.ndarray
    judged_grade: np.ndarray
    doc: np.ndarray | None = None
    judged_doc: np.ndarray | None = None

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
