"""The judgments' look-up for nested dicts, in the dicts themselves, for :func:`coursekit.evaluate`.

A run given as ``{query_id: {doc_id: score}}`` already pairs every doc id with its query, and
its keys cannot repeat. So when no two scores of a query tie (no tie is broken by doc id), the
doc ids need not be read into arrays at all: each retrieved document's grade is found in the
qrels' dict of its query, by dict operations that use the hashes the dicts store (see
:func:`_grades`), the run's keys read in the order they lie in memory. The doc ids are only
checked to be strings (``str.join``), so that 7 and "7" are not taken for different ids (such
dicts take :mod:`.pairs`' path, which reads them as strings).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import chain, islice

import numpy as np

from ..registry import Rankings
from ..trec import id_text
from .encode import Half, Task
from .pairs import ranked_run

__all__ = ["nested_rankings"]

_EMPTY: Mapping = {}


def nested_rankings(run: Half, qrels: Half, task: Task) -> Rankings | None:
    """Every evaluated query's ranking with the grade of each retrieved document (a matcher:
    :mod:`.matchers`); None unless both sides are nested dicts with string doc ids and distinct
    query ids, no two scores of a query tie, and no measure needs doc codes.

    Wins (``bench_evaluate.py``, 2026-11-27, against the next matcher that applies, the
    numbered one): (a) nested dicts 0.45x pytrec_eval against 0.57x, (c) unsorted, nested
    dicts 0.44x against 0.56x."""
    if task.with_docs or run.nested is None or qrels.nested is None:
        return None
    if not (run.keys and qrels.keys):
        return None
    ranked = ranked_run(run, qrels, task)
    if ranked is None or not (run.distinct and qrels.distinct):  # ties first: cheaper to see
        return None
    return ranked.rankings(_grades(run.nested, qrels.nested, run.value.size), qrels)


def _grades(run: Mapping, qrels: Mapping, n_retrieved: int) -> np.ndarray:
    """For each retrieved document (run row, as given), its grade; 0 when unjudged.

    Query by query, a new dict of the retrieved doc ids, each 0 (``dict.fromkeys`` copies a
    dict's keys with their stored hashes), is updated with the judgments: a judged retrieved
    document's 0 becomes its grade, in place, and the judged documents not retrieved come
    after the retrieved ones, which are then read in order. A fifth faster than looking each
    retrieved document up in the judgments (``judged.get(doc_id, 0)``), a call each.

    >>> _grades({"q": {"a": 2.0, "b": 1.0}}, {"q": {"c": 1, "b": 2}}, 2).tolist()
    [0.0, 2.0]
    """
    by_id = {id_text(q): judged for q, judged in qrels.items()}  # (query ids distinct as text)
    return np.fromiter(
        chain.from_iterable(
            _graded(retrieved, by_id.get(id_text(q), _EMPTY)) for q, retrieved in run.items()
        ),
        dtype=np.float64,
        count=n_retrieved,
    )


def _graded(retrieved: Mapping, judged: Mapping) -> Iterator:
    """The grade of each retrieved document of one query, in order (0 when unjudged)."""
    grades = dict.fromkeys(retrieved, 0)
    grades.update(judged)
    return islice(grades.values(), len(retrieved))
