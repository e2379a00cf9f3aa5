"""``evaluate()``: every measure of a run, query by query, against relevance judgments.

Conventions follow trec_eval, the field's reference implementation:

* each query's documents are ordered by score, descending, ties broken by doc id descending;
  the rank column of a run is ignored;
* a grade >= 1 is relevant; 0 and negative grades are judged but never relevant and never gain;
* the queries evaluated (and averaged) are those present in both the run and the qrels, or, with
  ``missing_as_zero=True`` (trec_eval -c), every qrels query, the ones the run lacks scoring 0;
* a query with no relevant document scores 0.

Two paths compute the same numbers: the readable one calls the per-query functions of
:mod:`coursekit.ranked`, :mod:`coursekit.graded` and :mod:`coursekit.recall` query by query
(``fast=False``); the vectorised one computes AP, P@k, R@k, Rprec, RR, nDCG and nDCG@k for all
queries at once with numpy, and is tested equal to the readable one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .graded import VARIANTS
from .registry import Measure, parse_measure
from .trec import as_qrels_frame, as_run_frame, sort_run

__all__ = ["Evaluation", "evaluate"]

_FAST_FAMILIES = {"AP", "P", "R", "Rprec", "RR", "nDCG", "NumRet", "NumRel", "NumRelRet"}


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
        lines = [f"Evaluation over {len(self.queries)} queries (mean):"]
        width = max(len(m) for m in self.mean.index)
        lines += [f"  {m:<{width}}  {v:.4f}" for m, v in self.mean.items()]
        return "\n".join(lines)


def _measures(measures: str | Measure | Iterable[str | Measure]) -> list[Measure]:
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    parsed = [m if isinstance(m, Measure) else parse_measure(m) for m in measures]
    if not parsed:
        raise ValueError("no measure to compute: give names such as ['AP', 'P@10', 'nDCG@10']")
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
) -> Evaluation:
    """Evaluate a run against qrels: each measure for each query, and their means.

    ``run`` and ``qrels`` are DataFrames (see :mod:`coursekit.trec`), paths to TREC files, or
    dicts ``{query_id: {doc_id: score_or_grade}}``. ``measures`` are names such as ``"AP"``,
    ``"P@10"``, ``"R@100"``, ``"Rprec"``, ``"RR"``, ``"nDCG"``, ``"nDCG@10"``, ``"IPrec@0.3"``,
    ``"PRES@100"``, ``"MOR@100"`` (see :func:`coursekit.registry.known_measures`).

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
    if ndcg_variant not in VARIANTS:
        raise ValueError(
            f"unknown nDCG variant {ndcg_variant!r}: choose one of {', '.join(VARIANTS)}"
        )
    parsed = _measures(measures)
    qrels_frame = as_qrels_frame(qrels)
    run_frame = as_run_frame(run)
    qrels_queries = pd.unique(qrels_frame["query_id"])
    if missing_as_zero:
        queries = sorted(qrels_queries)
    else:
        queries = sorted(set(qrels_queries) & set(pd.unique(run_frame["query_id"])))
    if not queries:
        raise ValueError(
            "no query is both in the run and in the qrels: check that their query ids match "
            f"(run: {_preview(run_frame['query_id'])}; qrels: {_preview(qrels_frame['query_id'])})"
        )
    values: dict[str, np.ndarray] = {}
    slow = [m for m in parsed if not (fast and m.family in _FAST_FAMILIES)]
    if len(slow) < len(parsed):
        values.update(_fast_path(run_frame, qrels_frame, queries, parsed, ndcg_variant))
    if slow:
        values.update(_reference_path(run_frame, qrels_frame, queries, slow, ndcg_variant))
    wide = pd.DataFrame(
        {m.name: values[m.name] for m in parsed}, index=pd.Index(queries, name="query_id")
    )
    tidy = wide.reset_index().melt(id_vars="query_id", var_name="measure", value_name="value")
    return Evaluation(per_query=tidy, mean=wide.mean(axis=0))


def _preview(ids: pd.Series) -> str:
    unique = list(pd.unique(ids))
    return ", ".join(map(repr, unique[:3])) + (" ..." if len(unique) > 3 else "")


def _reference_path(
    run: pd.DataFrame,
    qrels: pd.DataFrame,
    queries: list[str],
    measures: list[Measure],
    ndcg_variant: str,
) -> dict[str, np.ndarray]:
    """Query by query, with the readable per-query functions."""
    judgments = {
        q: dict(zip(group.doc_id, group.relevance.tolist(), strict=True))
        for q, group in qrels.groupby("query_id", sort=False)
    }
    ordered = sort_run(run)
    rankings = {q: group.doc_id.tolist() for q, group in ordered.groupby("query_id", sort=False)}
    values = {m.name: np.zeros(len(queries)) for m in measures}
    for i, q in enumerate(queries):
        judged = judgments.get(q, {})
        rels = np.array([judged.get(doc, 0) for doc in rankings.get(q, [])], dtype=float)
        grades = np.array(list(judged.values()), dtype=float)
        n_relevant = int(np.count_nonzero(grades >= 1))
        for m in measures:
            values[m.name][i] = m(rels, n_relevant, grades, ndcg_variant=ndcg_variant)
    return values


def _fast_path(
    run: pd.DataFrame,
    qrels: pd.DataFrame,
    queries: list[str],
    measures: list[Measure],
    ndcg_variant: str,
) -> dict[str, np.ndarray]:
    """All queries at once: rows sorted by (query, -score, -doc id), then per-query sums."""
    n_q = len(queries)
    index = pd.Index(queries)
    run_q = index.get_indexer(run["query_id"])
    qrels_q = index.get_indexer(qrels["query_id"])
    run_keep, qrels_keep = run_q >= 0, qrels_q >= 0
    run_q, qrels_q = run_q[run_keep], qrels_q[qrels_keep]
    scores = run["score"].to_numpy(dtype=float)[run_keep]
    grades = qrels["relevance"].to_numpy(dtype=float)[qrels_keep]

    # Doc ids as integer codes in sorted (string) order, shared by run and qrels.
    run_docs = run["doc_id"].to_numpy()[run_keep]
    qrels_docs = qrels["doc_id"].to_numpy()[qrels_keep]
    codes, uniques = pd.factorize(np.concatenate([run_docs, qrels_docs]), sort=True)
    run_d, qrels_d = codes[: run_docs.size], codes[run_docs.size :]

    # The grade of each retrieved document (0 when unjudged).
    width = max(len(uniques), 1)
    qrels_key = qrels_q.astype(np.int64) * width + qrels_d
    key_order = np.argsort(qrels_key, kind="stable")
    sorted_keys = qrels_key[key_order]
    run_key = run_q.astype(np.int64) * width + run_d
    run_grade = np.zeros(run_key.size)
    if sorted_keys.size:
        pos = np.minimum(np.searchsorted(sorted_keys, run_key), sorted_keys.size - 1)
        found = sorted_keys[pos] == run_key
        run_grade[found] = grades[key_order[pos[found]]]

    # trec_eval's order: query, score descending, doc id descending.
    order = np.lexsort((-run_d, -scores, run_q))
    q = run_q[order]
    g = run_grade[order]
    rank = _ranks_within(q, n_q)
    rel = g >= 1

    n_rel = np.bincount(qrels_q[grades >= 1], minlength=n_q).astype(float)
    safe_n_rel = np.where(n_rel > 0, n_rel, 1.0)
    cum_rel = _cumsum_within(rel.astype(float), q, n_q)

    def per_query(weights: np.ndarray) -> np.ndarray:
        return np.bincount(q, weights=weights, minlength=n_q)

    out: dict[str, np.ndarray] = {}
    for m in measures:
        if m.family not in _FAST_FAMILIES:
            continue
        k = m.cutoff
        if m.family == "AP":
            value = per_query(np.where(rel, cum_rel / rank, 0.0)) / safe_n_rel
        elif m.family == "P":
            value = per_query(rel & (rank <= k)) / k
        elif m.family == "R":
            value = per_query(rel & (rank <= k)) / safe_n_rel
        elif m.family == "Rprec":
            value = per_query(rel & (rank <= n_rel[q])) / safe_n_rel
        elif m.family == "RR":
            value = np.zeros(n_q)
            rows = np.flatnonzero(rel)
            first_q, first = np.unique(q[rows], return_index=True)
            value[first_q] = 1.0 / rank[rows[first]]
        elif m.family == "nDCG":
            dcg = per_query(_discounted(g, rank, k, ndcg_variant))
            ideal_order = np.lexsort((-grades, qrels_q))
            iq = qrels_q[ideal_order]
            ideal = np.bincount(
                iq,
                weights=_discounted(grades[ideal_order], _ranks_within(iq, n_q), k, ndcg_variant),
                minlength=n_q,
            )
            value = np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1.0), 0.0)
        elif m.family == "NumRet":
            value = np.bincount(q, minlength=n_q).astype(float)
        elif m.family == "NumRel":
            value = n_rel.copy()
        else:  # NumRelRet
            value = per_query(rel.astype(float))
        if m.family in ("AP", "R", "Rprec"):
            value = np.where(n_rel > 0, value, 0.0)
        out[m.name] = value.astype(float)
    return out


def _ranks_within(q: np.ndarray, n_q: int) -> np.ndarray:
    """1-based position of each row within its run of equal, sorted query codes."""
    if q.size == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
    first = np.zeros(n_q, dtype=np.int64)
    first[q[starts]] = starts
    return np.arange(q.size) - first[q] + 1


def _cumsum_within(values: np.ndarray, q: np.ndarray, n_q: int) -> np.ndarray:
    """Cumulative sum of ``values`` restarting at each query (rows sorted by query)."""
    if q.size == 0:
        return values
    total = np.cumsum(values)
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
    before = np.zeros(n_q)
    before[q[starts]] = total[starts] - values[starts]
    return total - before[q]


def _discounted(grades: np.ndarray, rank: np.ndarray, k: int | None, variant: str) -> np.ndarray:
    gain = np.maximum(grades, 0.0)
    if variant == "burges":
        gain = np.exp2(gain) - 1.0
    if variant == "jarvelin":
        contribution = gain / np.maximum(np.log2(rank), 1.0)
    else:
        contribution = gain / np.log2(rank + 1.0)
    return contribution if k is None else np.where(rank <= k, contribution, 0.0)
