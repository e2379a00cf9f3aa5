"""(query, doc) pairs of codes found by direct addressing: no sort, no hash.

A table with one cell per possible (query, doc) pair would hold ``n_queries * n_docs`` cells,
too many; but a few queries at a time fit a table of a few megabytes, which stays in the
processor's cache. So the rows are taken query block by query block (each side's rows grouped
by query, by counting when they are not; the queries taken in the order the run lists them
when its rows are together): each row of a block writes a number of its own (no row another's)
in the cell of its pair, and reading the cells back says whether two rows share a pair (one of
them was overwritten) and, for the other side, which row holds each pair; numbers left by
earlier blocks are told apart, not cleared. For a million rows, about
10 ms, where ordering both sides on (query, doc) by counting takes about 40 ms (both on an AMD
Zen 4); which row wins a cell written twice does not matter, only that one loses.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .counting import stable_order

__all__ = ["addressable", "match_by_address", "repeated_by_address"]

TABLE_CELLS = 1 << 20  #: cells of the table (4 MB of 32-bit row numbers): a few queries' docs
_MIN_ROWS_A_BLOCK = 256  #: fewer rows a block on average, and the blocks' loop costs too much
#: queries a block at least, the table then larger (many doc ids: 12 MB for 2**20): the loop's
#: calls cost more than the cache misses. Wins ``bench_evaluate.py --pool 1000000``'s (c) heavy
#: ties, object string ids (650,000 doc codes), 2026-11-28: the look-up 18 ms against 27 ms,
#: the qrels' repeat check 5 ms against 11 ms (one query a block); see benchmarks/README.md
_MIN_QUERIES = 3


def addressable(n_rows: int, n_queries: int, n_docs: int) -> bool:
    """Whether ``n_rows`` rows fit the table (a query's docs at least, row numbers in 32
    bits) in blocks of enough rows to pay for each block's few numpy calls."""
    if n_docs > TABLE_CELLS or n_rows >= 2**31:
        return False
    n_blocks = -(-n_queries // _per_block(n_docs))
    return n_blocks * _MIN_ROWS_A_BLOCK <= n_rows


def match_by_address(
    run: tuple[np.ndarray, np.ndarray],
    qrels: tuple[np.ndarray, np.ndarray],
    n_queries: int,
    n_docs: int,
    qrels_distinct: bool = False,
    run_distinct: bool = False,
) -> tuple[np.ndarray, bool, bool]:
    """For each run row, the qrels row with the same (query, doc) codes (-1 if none), and
    whether some pair is repeated in the run, and in the qrels (then ``found`` is not to be
    trusted: the caller reports the repeat; with ``qrels_distinct``, the caller has checked
    the qrels already, and they are not looked at again). Codes are non-negative, below
    ``n_queries`` and ``n_docs`` (see :func:`addressable`). With ``run_distinct`` (the run's
    pairs cannot repeat: a nested dict's keys), only the qrels' rows are written and the run's
    cells read.

    >>> found, run_twice, qrels_twice = match_by_address(
    ...     (np.array([0, 0, 1]), np.array([5, 6, 5])), (np.array([1, 0]), np.array([5, 6])), 2, 7)
    >>> found.tolist(), run_twice, qrels_twice
    ([-1, 1, 0], False, False)
    """
    relabel = _by_appearance(run[0], n_queries)
    if relabel is not None:  # the run's queries together, not in code order: that order
        run, qrels = (relabel[run[0]], run[1]), (relabel[qrels[0]], qrels[1])
    table = np.full(_per_block(n_docs) * n_docs, -1, dtype=np.int32)
    found = np.full(run[0].size, -1, dtype=np.int64)
    run_repeated = qrels_repeated = False
    # each row writes a number no other row writes (the run's rows their position among the
    # run's, the qrels' theirs after those): what earlier blocks left in the table is told
    # apart from this block's numbers, and is not cleared
    n_run = run[0].size
    stamps = np.arange(n_run + qrels[0].size, dtype=np.int32)
    blocks = zip(_blocks(*run, n_queries, n_docs), _blocks(*qrels, n_queries, n_docs), strict=True)
    at_run = at_qrels = 0
    for (run_rows, run_cells), (qrels_rows, qrels_cells) in blocks:
        start, end = at_run, at_run + run_cells.size
        first, last = n_run + at_qrels, n_run + at_qrels + qrels_cells.size
        if not qrels_distinct:
            qrels_repeated |= _written_over(table, qrels_cells, stamps[first:last])
        elif run_distinct:
            table[qrels_cells] = stamps[first:last]
        if run_distinct:  # each run row reads its cell: a qrels row of this block, or none
            at = table[run_cells]
            judged = np.flatnonzero((at >= first) & (at < last))
            found[run_rows[judged]] = qrels_rows[at[judged] - first]
        else:
            run_repeated |= _written_over(table, run_cells, stamps[start:end])
            at = table[qrels_cells]
            judged = np.flatnonzero((at >= start) & (at < end))  # a run row of this block
            found[run_rows[at[judged] - start]] = qrels_rows[judged]
        at_run, at_qrels = end, at_qrels + qrels_cells.size
    return found, run_repeated, qrels_repeated


def repeated_by_address(query: np.ndarray, doc: np.ndarray, n_queries: int, n_docs: int) -> bool:
    """Whether some (query, doc) pair of codes is on two rows (see :func:`addressable`).

    >>> repeated_by_address(np.array([0, 1, 0]), np.array([3, 3, 3]), 2, 4)
    True
    """
    relabel = _by_appearance(query, n_queries)
    if relabel is not None:  # (as in :func:`match_by_address`)
        query = relabel[query]
    table = np.full(_per_block(n_docs) * n_docs, -1, dtype=np.int32)
    stamps, at = np.arange(query.size, dtype=np.int32), 0
    for _, cells in _blocks(query, doc, n_queries, n_docs):
        if _written_over(table, cells, stamps[at:]):
            return True
        at += cells.size
    return False


def _by_appearance(query: np.ndarray, n_queries: int) -> np.ndarray | None:
    """New codes for the queries, in the order their rows come, when each query's rows are
    together but not in code order (a run read as written: query "10" before "9"), so that
    they need not be put in order; None when they are in code order, or not together.

    >>> _by_appearance(np.array([2, 2, 0, 1, 1]), 4).tolist()
    [1, 2, 0, 3]
    """
    if query.size < 2 or not np.any(query[1:] < query[:-1]):
        return None
    firsts = query[np.flatnonzero(np.r_[True, query[1:] != query[:-1]])]
    relabel = np.full(n_queries, -1, dtype=np.int64)
    relabel[firsts] = np.arange(firsts.size)
    if np.count_nonzero(relabel >= 0) < firsts.size:  # a query's rows in several places
        return None
    absent = np.flatnonzero(relabel < 0)
    relabel[absent] = firsts.size + np.arange(absent.size)
    return relabel


def _per_block(n_docs: int) -> int:
    """Queries a block: as many as the table holds, but at least :data:`_MIN_QUERIES`."""
    return max(TABLE_CELLS // max(n_docs, 1), _MIN_QUERIES)


def _written_over(table: np.ndarray, cells: np.ndarray, stamps: np.ndarray) -> bool:
    """Writes each row's stamp (distinct numbers, the first ``cells.size`` of ``stamps``) in
    its cell: whether two rows share a cell (one of the two stamps was then written over)."""
    stamps = stamps[: cells.size]
    table[cells] = stamps
    return not np.array_equal(table[cells], stamps)


def _blocks(
    query: np.ndarray, doc: np.ndarray, n_queries: int, n_docs: int
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """For each block of queries that fits the table (every block, even an empty one, in query
    order), its rows and each row's cell: ``(query - first query of the block) * n_docs +
    doc``."""
    order = None
    if query.size and np.any(query[1:] < query[:-1]):  # not grouped by query in code order
        order = stable_order(query, n_queries)
        counts = np.bincount(query, minlength=n_queries)  # (the codes in order: counted)
        query, doc = np.repeat(np.arange(n_queries, dtype=np.int32), counts), doc[order]
    per = _per_block(n_docs)
    starts = np.searchsorted(query, np.arange(0, n_queries + per, per))
    # every row's cell at once (the blocks' few numpy calls, not a dozen, for many doc ids)
    cells = query.astype(np.int64)  # (codes may be as small as int8)
    cells -= np.repeat(np.arange(0, starts.size - 1, dtype=np.int64) * per, np.diff(starts))
    cells *= n_docs
    cells += doc
    for start, end in zip(starts[:-1], starts[1:], strict=True):
        yield (np.arange(start, end) if order is None else order[start:end]), cells[start:end]
