"""``evaluate()``: every measure of a run, query by query, against relevance judgments.

Conventions follow trec_eval, the field's reference implementation:

* each query's documents are ordered by score, descending, ties broken by doc id descending;
  the rank column of a run is ignored;
* a grade >= 1 is relevant; 0 and negative grades are judged but never relevant and never gain;
* the queries evaluated (and averaged) are those present in both the run and the qrels, or, with
  ``missing_as_zero=True`` (trec_eval -c), every qrels query, the ones the run lacks scoring 0;
* a query with no relevant document scores 0;
* scores are compared as 64-bit floats (as trec_eval 10 does); ``score_precision="float32"``
  compares them as trec_eval 9 and pytrec_eval (so PyTerrier) do, as 32-bit floats: scores
  that differ only beyond float32's 7 significant digits then tie, and tie by doc id.

Whatever the input (DataFrames with string, categorical or pyarrow ids, nested dicts, files),
it is first read and checked (:mod:`.encode`); then a matcher (:mod:`.matchers`) ranks each
query's rows and finds each retrieved document's grade: the first fast one that applies (nested
dicts, hashed pairs, numbered codes), or, with ``fast=False``, the plain reference they are
tested against. Two paths then compute the same numbers: the vectorised one calls each
measure's vectorised form for all queries at once (:class:`coursekit.registry.Rankings`); the
readable one (``fast=False``, and for measures without a vectorised form) calls the per-query
functions of :mod:`coursekit.measures` query by query. They are tested equal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..i18n import _
from ..measures.graded import VARIANTS
from ..registry import DOC_FAMILIES, Measure, Rankings, parse_measure
from ..validation import check_bool, check_choice
from .encode import Task, evaluated_queries, halves
from .matchers import rankings as ranked_by_a_matcher

__all__ = ["Evaluation", "evaluate", "SCORE_PRECISIONS"]

SCORE_PRECISIONS = ("float64", "float32")


@dataclass(frozen=True)
class Evaluation:
    """The result of :func:`evaluate`.

    ``per_query``: a tidy DataFrame, one row per (query, measure), columns query_id, measure,
    value. ``mean``: the mean of each measure over the evaluated queries.
    """

    per_query: pd.DataFrame
    mean: pd.Series

    def table(self) -> pd.DataFrame:
        """The per-query values as a wide table: one row per query, one column per measure."""
        wide = self.per_query.pivot(index="query_id", columns="measure", values="value")
        return wide[list(self.mean.index)].rename_axis(columns=None)

    @property
    def queries(self) -> list[str]:
        """The evaluated queries, in order."""
        return list(dict.fromkeys(self.per_query["query_id"]))

    def __repr__(self) -> str:
        n = len(self.queries)
        head = _("Evaluation over 1 query:") if n == 1 else _("Evaluation over {n} queries (mean):")
        lines = [head.format(n=n)]
        width = max(len(m) for m in self.mean.index)
        lines += [f"  {m:<{width}}  {v:.4f}" for m, v in self.mean.items()]
        return "\n".join(lines)


def measure_list(
    measures: Any,
    parse: Callable[[Any], Measure] | None = None,
    examples: Sequence[str] = ("AP", "P@10", "nDCG@10"),
) -> list[Measure]:
    """``measures`` (a name, a Measure or a list of them) parsed by ``parse`` (the registry's
    :func:`parse_measure` by default), none asked twice; ``examples`` are named in messages."""
    parse = parse or (lambda m: m if isinstance(m, Measure) else parse_measure(m))
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    if not isinstance(measures, Iterable):
        raise TypeError(
            f"measures must be a measure name such as {examples[0]!r} or a list of them, "
            f"got {type(measures).__name__} {measures!r}"
        )
    parsed = [parse(m) for m in measures]
    if not parsed:
        raise ValueError(f"no measure to compute: give names such as {list(examples)}")
    names = [m.name for m in parsed]
    repeated = {n for n in names if names.count(n) > 1}
    if repeated:
        raise ValueError(f"measure(s) asked twice: {', '.join(sorted(repeated))}")
    return parsed


def evaluate(
    run: Any,
    qrels: Any,
    measures: str | Sequence[str | Measure] = ("AP", "P@10", "nDCG@10"),
    *,
    missing_as_zero: bool = False,
    ndcg_variant: str = "trec",
    fast: bool = True,
    score_precision: str = "float64",
) -> Evaluation:
    """Evaluate a run against qrels: each measure for each query, and their means.

    ``run`` and ``qrels`` are DataFrames (see :mod:`coursekit.trec`), paths to TREC files, or
    dicts ``{query_id: {doc_id: score_or_grade}}``; scores are numbers, grades integers (as
    trec_eval reads them: 1.0 is 1, 0.5 or ``True`` is refused). ``measures`` are names such
    as ``"AP"``, ``"P@10"``, ``"R@100"``, ``"Rprec"``, ``"RR"``, ``"nDCG"``, ``"nDCG@10"``,
    ``"IPrec@0.3"``, ``"PRES@100"``, ``"MOR@100"``, ``"Bpref"``, ``"infAP"``, ``"RBP(p=0.8)"``,
    ``"ERR@20"`` (see :func:`coursekit.registry.known_measures`). Bpref and infAP tell apart a
    retrieved document absent from the qrels (unjudged) and one with a negative grade (pooled,
    unjudged), as trec_eval does; ERR's maximum grade G is the highest grade in ``qrels`` (at
    least 1).

    ``score_precision``: ``"float64"`` (the default, as trec_eval 10) ranks on the scores as
    given; ``"float32"`` first rounds them to 32-bit floats, as trec_eval 9 and pytrec_eval
    (hence PyTerrier) store them, so that scores equal in float32 tie and are ordered by doc id
    descending. The two differ only when two scores of a query agree to about 7 significant
    digits; use ``"float32"`` to reproduce pytrec_eval's numbers exactly.

    >>> run = {"q1": {"d1": 1.0, "d2": -0.1, "d3": 1.5}, "q2": {"d1": 1.5, "d2": 0.2, "d3": 0.5}}
    >>> qrels = {"q1": {"d2": 1}, "q2": {"d2": 1, "d3": 1}}
    >>> result = evaluate(run, qrels, ["AP", "nDCG"])
    >>> result.table().round(4)
             AP    nDCG
    query_id
    q1        0.3333  0.5000
    q2        0.5833  0.6934
    >>> round(float(result.mean["AP"]), 4)
    0.4583
    """
    check_choice(ndcg_variant, "nDCG variant", VARIANTS)
    check_choice(score_precision, "score_precision", SCORE_PRECISIONS)
    missing_as_zero = check_bool(missing_as_zero, "missing_as_zero")
    fast = check_bool(fast, "fast")
    parsed = measure_list(measures)
    run_half, qrels_half = halves(run, qrels)
    with_docs = any(m.family in DOC_FAMILIES for m in parsed)
    queries = evaluated_queries(run_half.queries, qrels_half.queries, missing_as_zero)
    task = Task(queries, missing_as_zero, score_precision, with_docs)
    rankings = ranked_by_a_matcher(run_half, qrels_half, task, fast)  # (:mod:`.matchers`)
    # ERR's maximum grade G: the highest grade of the qrels given (at least 1), as trec_eval-style
    # tools take the collection's maximum grade
    max_grade = max(1.0, float(qrels_half.value.max()))
    options = {"ndcg_variant": ndcg_variant, "max_grade": max_grade}
    values: dict[str, np.ndarray] = {}
    slow = [m for m in parsed if not (fast and m.vectorised is not None)]
    for m in parsed:
        if m not in slow:
            values[m.name] = m.every(rankings, **options)
    if slow:
        values.update(_query_by_query(rankings, slow, options))
    names = [m.name for m in parsed]
    n_queries = len(queries)
    # one row per (query, measure), measure by measure (as DataFrame.melt, built directly)
    tidy = pd.DataFrame(
        {
            "query_id": pd.array(np.tile(np.asarray(queries, dtype=object), len(names)), "str"),
            "measure": pd.array(np.repeat(np.asarray(names, dtype=object), n_queries), "str"),
            "value": np.concatenate([values[name] for name in names]).astype(float),
        }
    )
    wide = pd.DataFrame({name: values[name] for name in names})
    return Evaluation(per_query=tidy, mean=wide.mean(axis=0))


def _query_by_query(
    rankings: Rankings, measures: list[Measure], options: dict[str, Any]
) -> dict[str, np.ndarray]:
    """Query by query, with the readable per-query functions."""
    n_q = rankings.n_queries
    by_query = np.argsort(rankings.query, kind="stable")  # each query's rows stay in rank order
    bounds = np.searchsorted(rankings.query[by_query], np.arange(n_q + 1))
    judged_order = np.argsort(rankings.judged_query, kind="stable")
    judged_bounds = np.searchsorted(rankings.judged_query[judged_order], np.arange(n_q + 1))
    values = {m.name: np.zeros(n_q) for m in measures}
    with_docs = rankings.doc is not None and rankings.judged_doc is not None
    for i in range(n_q):
        rows = by_query[bounds[i] : bounds[i + 1]]
        judgments = judged_order[judged_bounds[i] : judged_bounds[i + 1]]
        rels = rankings.grade[rows]
        grades = rankings.judged_grade[judgments]
        n_relevant = int(np.count_nonzero(grades >= 1))
        docs = {}
        if with_docs:  # doc codes, for the measures that tell unjudged documents apart
            docs = {"docs": rankings.doc[rows], "judged_docs": rankings.judged_doc[judgments]}
        for m in measures:
            values[m.name][i] = m(rels, n_relevant, grades, **options, **docs)
    return values
