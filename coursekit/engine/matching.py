"""Equal (query, doc) pairs of integer codes: the judgments' look-up and the duplicate checks.

* :func:`reference_match`: for each run row, the qrels row of the same pair, by pandas'
  ``Index.get_indexer`` on ``query * n_docs + doc``: the reference every faster way is
  tested against.
* :func:`match_pairs`: the same by direct addressing (:mod:`.addressing`), which also says
  whether a pair repeats on either side; None when the codes do not fit its table (then the
  caller takes :func:`reference_match`).
* :func:`first_repeated_pair`, :func:`first_repeated`: the first row whose pair (or key)
  was seen before, for the readers' and ``evaluate``'s duplicate checks.
* :func:`use_hash_tables`: whether equal 64-bit keys are found by a hash table or a sort,
  by their number alone (no timing of the machine).
"""

from __future__ import annotations

import numpy as np

from .addressing import addressable, match_by_address, repeated_by_address
from .counting import countable, order_by, stable_order

__all__ = [
    "HASHED_KEYS",
    "first_repeated",
    "first_repeated_pair",
    "match_pairs",
    "reference_match",
    "use_hash_tables",
]

#: Keys for which a hash table is used rather than a sort (see :func:`use_hash_tables`).
HASHED_KEYS = range(1 << 18, (1 << 20) + 1)


def use_hash_tables(n_keys: int) -> bool:
    """Whether to find equal keys among ``n_keys`` 64-bit integers with pandas' hash table
    rather than numpy's sort: for 262,144 to 1,048,576 keys (:data:`HASHED_KEYS`).

    The rule is on the count alone. Below, sorting is cheap whatever the processor; above, a
    hash table no longer fits the cache and costs more a key as it grows (40 ns a key at half
    a million on an AMD Zen 4, 90 at two million, 135 at ten million), where a sort stays at
    48-69 ns. Within, on the Zen 4 where the benchmarks run (numpy's AVX-512 sort is slow
    there), the hash tables win: ``bench_evaluate.py --pool 1000000``, 2026-11-27, the hashed
    pairs' look-up of a million run rows, (a) categorical ids 0.39x pytrec_eval against 0.49x
    with the sort, (a) Python strings 0.61x against 0.75x. On a
    processor with a fast sort they would lose a little there; the rule no longer times the
    machine (once a process) to find out, as it did until 2026-11-27: the answer changes
    only the speed, never a number.
    """
    return n_keys in HASHED_KEYS


def reference_match(
    run: tuple[np.ndarray, np.ndarray], qrels: tuple[np.ndarray, np.ndarray], n_docs: int
) -> np.ndarray:
    """For each run row, the qrels row with the same (query, doc) codes, -1 if none (the
    qrels' pairs distinct). ``run`` and ``qrels`` are ``(query codes, doc codes)``, every doc
    code in ``range(n_docs)``; the codes are widened to 64 bits before they are paired.

    >>> reference_match((np.array([0, 1]), np.array([2, 2])), (np.array([1]), np.array([2])), 3)
    array([-1,  0])
    """
    import pandas as pd  # (imported on first use: ``import coursekit`` stays light)

    width = max(n_docs, 1)
    qrels_key = qrels[0].astype(np.int64) * width + qrels[1]
    return pd.Index(qrels_key).get_indexer(run[0].astype(np.int64) * width + run[1])


def match_pairs(
    run: tuple[np.ndarray, np.ndarray],
    qrels: tuple[np.ndarray, np.ndarray],
    n_docs: int,
    qrels_distinct: bool = False,
    run_distinct: bool = False,
) -> tuple[np.ndarray, bool, bool] | None:
    """:func:`reference_match` by direct addressing, a few queries at a time
    (:mod:`.addressing`), and whether some pair is repeated in the run, and in the qrels; None
    when the codes do not fit its table (more than 2**20 doc codes, or too few rows a block).
    ``qrels_distinct``: the caller has checked that no pair of the qrels repeats;
    ``run_distinct``: no pair of the run can repeat (a nested dict's keys).

    Wins every case of ``bench_evaluate.py`` that numbers doc ids (2026-11-27, against
    :func:`reference_match`): (a) categorical ids 0.19x pytrec_eval against 0.27x, (a)
    pyarrow strings 0.31x against 0.39x. Until then, when the codes did not fit the table,
    the rows were ordered on ``query, doc, side`` by counting or one packed sort; no case of
    the benchmark took that way, and counting was no faster than the reference where forced
    (0.27x against 0.27x): removed.

    >>> run, qrels = (np.arange(600) // 300, np.arange(600) % 300), (np.array([1]), np.array([7]))
    >>> found, run_repeated, qrels_repeated = match_pairs(run, qrels, 300)
    >>> np.flatnonzero(found >= 0).tolist(), run_repeated, qrels_repeated
    ([307], False, False)
    >>> match_pairs((run[0][:3], run[1][:3]), qrels, 300) is None  # (too few rows a block)
    True
    """
    (run_query, run_doc), (qrels_query, qrels_doc) = run, qrels
    n_docs = max(n_docs, 1)
    n_queries = int(max(run_query.max(initial=0), qrels_query.max(initial=0))) + 1
    low = min(run_query.min(initial=0), run_doc.min(initial=0), qrels_query.min(initial=0))
    n_rows = run_query.size + qrels_query.size
    if min(low, qrels_doc.min(initial=0)) < 0 or not addressable(n_rows, n_queries, n_docs):
        return None
    return match_by_address(run, qrels, n_queries, n_docs, qrels_distinct, run_distinct)


def first_repeated_pair(query: np.ndarray, doc: np.ndarray, n_docs: int) -> int | None:
    """Row of the first (query, doc) pair of codes seen before, or None; every doc code is
    below ``n_docs`` (-1 for a missing id). Whether there is one is found by direct
    addressing (:mod:`.addressing`) when that applies; the row, with the rows ordered on both
    codes by counting (:mod:`.counting`), or as :func:`first_repeated` of one key.

    When each query's rows are together (as in a run or qrels file), ordering on the doc code
    alone is enough: a doc's rows then keep their order, and those of one query are
    neighbours, since no row of another query lies between them.

    >>> first_repeated_pair(np.array([0, 1, 0, 0]), np.array([5, 5, 6, 5]), 7)
    3
    """
    n_docs = max(n_docs, 1)
    order = None
    if query.size and min(query.min(), doc.min()) >= 0:  # (-1: a missing id, not counted)
        n_queries = int(query.max()) + 1
        if addressable(query.size, n_queries, n_docs) and not repeated_by_address(
            query, doc, n_queries, n_docs
        ):
            return None  # (when some pair is repeated, the rows below find the first)
        if countable(query.size, n_docs) and _grouped(query, n_queries):
            order = stable_order(doc, n_docs)
        else:
            order = order_by([(query, n_queries), (doc, n_docs)])
    if order is None:
        return first_repeated(query.astype(np.int64) * n_docs + doc)
    q, d = query[order], doc[order]
    repeated = np.flatnonzero((q[1:] == q[:-1]) & (d[1:] == d[:-1]))
    # equal pairs keep their rows' order: the one after each equal neighbour was seen before
    return int(order[repeated + 1].min()) if repeated.size else None


def _grouped(query: np.ndarray, n_queries: int) -> bool:
    """Whether each query's rows are together (one block of neighbours a query)."""
    blocks = 1 + int(np.count_nonzero(query[1:] != query[:-1]))
    return blocks == int(np.count_nonzero(np.bincount(query, minlength=n_queries)))


def first_repeated(keys: np.ndarray) -> int | None:
    """Row of the first value of ``keys`` seen before, or None; when there is none, one sort,
    or one hash table (:func:`use_hash_tables`).

    >>> first_repeated(np.array([4, 2, 4, 2])), first_repeated(np.array([1, 2]))
    (2, None)
    """
    if use_hash_tables(keys.size):
        import pandas as pd

        if pd.Index(keys, copy=False).is_unique:
            return None
    else:
        ordered = np.sort(keys)
        if not np.any(ordered[1:] == ordered[:-1]):
            return None
    order = np.argsort(keys, kind="stable")
    repeated = np.flatnonzero(keys[order][1:] == keys[order][:-1])
    return int(order[1:][repeated].min())
