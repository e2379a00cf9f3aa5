"""The matchers of :func:`coursekit.evaluate`: a run and qrels in, every query's ranking out.

A matcher ranks the run's rows of the evaluated queries in trec_eval's order (score
descending, ties by doc id descending) and finds each retrieved document's grade. They share
one protocol, :class:`Matcher`: ``match(run, qrels, task) -> Rankings | None``, None meaning
"this fast path does not apply here" (then the next one is asked). :func:`reference` is the
plain way, the one the others are tested against (``tests/test_evaluate_matchers.py``, with
hypothesis): doc ids numbered, one ``np.lexsort``, pandas' ``get_indexer``. The fast ones,
in the order they are asked (:data:`FAST`), each says in its docstring which case of
``benchmarks/bench_evaluate.py`` it wins, and by how much:

1. :func:`coursekit.evaluation.nested.nested_rankings`: nested dicts, no tie;
2. :func:`coursekit.evaluation.pairs.hashed_rankings`: many doc ids, no tie;
3. :func:`numbered`: doc ids numbered, rows ordered on integers (:mod:`coursekit.engine`),
   pairs found by direct addressing; it always applies, so it ends the list.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..engine import (
    in_trec_order,
    match_pairs,
    reference_match,
    string_ranks,
    ties_to_break,
    trec_order_and_queries,
)
from ..registry import Rankings
from .encode import Encoded, Half, Task, check_run_pairs, encode, sides
from .nested import nested_rankings  # noqa: F401 (a matcher, looked up by name: FAST)
from .pairs import at_precision, few_doc_ids, hashed_rankings  # noqa: F401 (hashed_rankings: the same)

__all__ = ["FAST", "Matcher", "numbered", "rankings", "reference"]


class Matcher(Protocol):
    """``match(run, qrels, task)``: every evaluated query's ranking with the grade of each
    retrieved document (:class:`coursekit.registry.Rankings`, queries in ``task.queries``'
    order), or None when this way does not apply."""

    def __call__(self, run: Half, qrels: Half, task: Task) -> Rankings | None: ...


def reference(run: Half, qrels: Half, task: Task) -> Rankings:
    """The plain way: doc ids of run and qrels numbered together, the rows ordered by one
    ``np.lexsort`` on (query, score descending, doc id descending: the ids' ranks from
    Python's own string order), each pair's judgment found by pandas' ``get_indexer``; a
    repeated run pair is looked for on every row. What ``evaluate(..., fast=False)`` uses."""
    run_codes, qrels_codes = sides(run, qrels)
    encoded = encode(run_codes, qrels_codes, task.missing_as_zero)
    scores = at_precision(encoded.scores, task.score_precision)
    ids = np.asarray(encoded.docs, dtype=object)
    doc_rank = np.empty(ids.size, dtype=np.int64)
    doc_rank[np.argsort(ids, kind="stable")] = np.arange(ids.size)
    query, doc = encoded.run_query, encoded.run_doc
    order = np.lexsort((-doc_rank[doc], -(scores + 0.0), query))  # (+ 0.0: -0.0 is 0.0)
    query, doc = query[order], doc[order]
    found = reference_match((query, doc), (encoded.qrels_query, encoded.qrels_doc), ids.size)
    check_run_pairs(run_codes, None, encoded.run_complete)
    return _rankings(encoded, query, doc, found, task.with_docs)


def numbered(run: Half, qrels: Half, task: Task) -> Rankings:
    """Doc ids numbered together (:func:`coursekit.engine.string_codes`), rows ordered on
    integers (:func:`coursekit.engine.trec_order_and_queries`: left as they are when already
    in trec_eval's order, else by counting), pairs found by direct addressing
    (:func:`coursekit.engine.match_pairs`, which also says whether a run pair repeats; where it
    does not apply, the reference's ``get_indexer``).

    Wins every case of ``bench_evaluate.py`` that takes it, 2026-11-27: against the
    reference's look-up alone (``get_indexer``), (a) categorical ids 0.19x pytrec_eval
    against 0.27x, (c) heavy ties, categorical 0.23x against 0.31x."""
    # many doc ids and ties to break by them: numbered in byte order (no measure needs the
    # codes: they then stay those of the reference, first appearance)
    in_byte_order = SORTED_CODES and not task.with_docs and ties_to_break(run.query, run.value)
    in_byte_order = in_byte_order and not few_doc_ids(run, BYTE_ORDER_DOC_IDS)
    run_codes, qrels_codes = sides(run, qrels, in_byte_order)
    encoded = encode(run_codes, qrels_codes, task.missing_as_zero)
    scores = at_precision(encoded.scores, task.score_precision)
    query, doc = encoded.run_query, encoded.run_doc
    if not in_trec_order(query, scores):  # else the rows stay as they are
        ranks = (lambda: None) if in_byte_order else (lambda: string_ranks(encoded.docs))
        order, query = trec_order_and_queries(query, scores, ranks, doc)
        doc = doc[order]
    qrels_pairs = (encoded.qrels_query, encoded.qrels_doc)
    # (the qrels were checked for repeated pairs by ``sides``: not looked at again; nor are
    # the run's pairs when they cannot repeat, a nested dict's keys)
    matched = match_pairs((query, doc), qrels_pairs, len(encoded.docs), True, encoded.run_distinct)
    if matched is None:
        found, repeated = reference_match((query, doc), qrels_pairs, len(encoded.docs)), None
    else:
        found, repeated = matched[0], matched[1]
    check_run_pairs(run_codes, repeated, encoded.run_complete)
    return _rankings(encoded, query, doc, found, task.with_docs)


SORTED_CODES = True
#: More distinct doc ids in a run with ties to break: numbered in byte order, not hashed and
#: then ranked as strings. Wins (``bench_evaluate.py``, default pool: 100,000 ids, 2026-11-28,
#: load 1.1, against :data:`.pairs.FEW_DOC_IDS`, 131,072, which kept that pool hashed): (c)
#: heavy ties, object string ids 0.39x pytrec_eval against 0.47x, nested dicts 0.47x against
#: 0.54x, categorical 0.19x against 0.23x; with 2,000 or 20,000 ids, either way within 5%.
BYTE_ORDER_DOC_IDS = 1 << 15


def _rankings(
    encoded: Encoded, query: np.ndarray, doc: np.ndarray, found: np.ndarray, with_docs: bool
) -> Rankings:
    grade = np.append(encoded.grades, 0.0)[found]  # found -1 (unjudged): the 0 appended
    return Rankings(
        query=query,
        grade=grade,
        n_queries=len(encoded.queries),
        judged_query=encoded.qrels_query,
        judged_grade=encoded.grades,
        doc=doc if with_docs else None,
        judged_doc=encoded.qrels_doc if with_docs else None,
    )


#: The fast matchers' names, in the order they are asked (each looked up when asked, so that
#: a test or a benchmark can replace one); the last always applies.
FAST = ("nested_rankings", "hashed_rankings", "numbered")


def rankings(run: Half, qrels: Half, task: Task, fast: bool = True) -> Rankings:
    """The first fast matcher's answer (``fast``), else the reference's."""
    for name in FAST if fast else ():
        match: Matcher = globals()[name]
        ranked = match(run, qrels, task)
        if ranked is not None:
            return ranked
    return reference(run, qrels, task)
