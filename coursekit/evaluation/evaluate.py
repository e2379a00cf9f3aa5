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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..measures.graded import VARIANTS
from ..registry import Measure, parse_measure
from ..trec import as_qrels_frame, as_run_frame, check_no_duplicates, factorize_ids, sort_run
from ..validation import check_bool, check_choice

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
    check_choice(ndcg_variant, "nDCG variant", VARIANTS)
    missing_as_zero = check_bool(missing_as_zero, "missing_as_zero")
    fast = check_bool(fast, "fast")
    parsed = _measures(measures)
    qrels_frame = as_qrels_frame(qrels)
    run_frame = as_run_frame(run, check_duplicates=not fast)
    qrels_queries = pd.unique(qrels_frame["query_id"])
    if missing_as_zero:
        queries = sorted(qrels_queries)
    else:
        run_queries = set(pd.unique(run_frame["query_id"]))
        if isinstance(run, Mapping):  # a query with an empty ranking is still in the run
            run_queries |= {str(q) for q in run}
        queries = sorted(set(qrels_queries) & run_queries)
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
    run_all_q, run_all_queries = _codes(run["query_id"], blocks=True)
    qrels_all_q, qrels_all_queries = _codes(qrels["query_id"], blocks=True)
    run_q = index.get_indexer(run_all_queries)[run_all_q]
    qrels_q = index.get_indexer(qrels_all_queries)[qrels_all_q]

    # Doc ids as integer codes shared by run and qrels (each id hashed at most once).
    run_d, run_docs = _codes(run["doc_id"])
    qrels_d, qrels_docs = _codes(qrels["doc_id"])
    in_run = pd.Index(run_docs).get_indexer(qrels_docs)
    qrels_d = np.where(in_run >= 0, in_run, run_docs.size + np.arange(qrels_docs.size))[qrels_d]
    width = max(run_docs.size + qrels_docs.size, 1)
    n_keys = (max(run_all_queries.size, index.size) + 1) * width
    key_type = np.int32 if n_keys < 2**31 else np.int64  # smaller keys sort faster
    run_key_all = run_all_q.astype(key_type) * key_type(width) + run_d.astype(key_type)
    if run_key_all.size > 1:
        sorted_run_keys = np.sort(run_key_all)
        if np.any(sorted_run_keys[1:] == sorted_run_keys[:-1]):
            check_no_duplicates(run, "run", "retrieved")

    run_keep, qrels_keep = run_q >= 0, qrels_q >= 0
    run_q, qrels_q, run_d = run_q[run_keep], qrels_q[qrels_keep], run_d[run_keep]
    scores = run["score"].to_numpy(dtype=float)[run_keep]
    grades = qrels["relevance"].to_numpy(dtype=float)[qrels_keep]

    # The grade of each retrieved document (0 when unjudged).
    qrels_key = qrels_q.astype(key_type) * key_type(width) + qrels_d[qrels_keep].astype(key_type)
    key_order = np.argsort(qrels_key, kind="stable")
    sorted_keys = qrels_key[key_order]
    run_key = run_q.astype(key_type) * key_type(width) + run_d.astype(key_type)
    run_grade = np.zeros(run_key.size)
    if sorted_keys.size:
        pos = np.minimum(np.searchsorted(sorted_keys, run_key), sorted_keys.size - 1)
        found = sorted_keys[pos] == run_key
        run_grade[found] = grades[key_order[pos[found]]]

    order = _trec_order(run_q, scores, run_d, run_docs)
    q = run_q[order]
    g = run_grade[order]
    starts, lengths = _groups(q)
    rank = np.arange(q.size) - np.repeat(starts, lengths) + 1
    rel = g >= 1

    n_rel = np.bincount(qrels_q[grades >= 1], minlength=n_q).astype(float)
    safe_n_rel = np.where(n_rel > 0, n_rel, 1.0)
    cum_rel = np.cumsum(rel)
    if starts.size:
        cum_rel = cum_rel - np.repeat(cum_rel[starts] - rel[starts], lengths)

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


def _codes(column: pd.Series, blocks: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Integer codes and the ids they stand for (an object array).

    A categorical column (as :func:`coursekit.read_run` returns) already has them. With
    ``blocks``, each run of equal neighbours is hashed once (a query's rows are usually
    contiguous).
    """
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.codes.to_numpy(), column.cat.categories.to_numpy(dtype=object)
    return factorize_ids(column.to_numpy(dtype=object), blocks=blocks)


def _trec_order(
    q: np.ndarray, scores: np.ndarray, doc_codes: np.ndarray, doc_ids: np.ndarray
) -> np.ndarray:
    """Row order: each query's rows together, by score descending, and doc id descending
    among equal scores (queries need not be in any particular order).

    ``doc_codes`` index ``doc_ids`` (unsorted uniques); only the ids of tied rows are sorted.
    """
    same_query = q[1:] == q[:-1]
    n_blocks = q.size - int(np.count_nonzero(same_query))
    contiguous = q.size == 0 or n_blocks == np.count_nonzero(np.bincount(q))
    if contiguous and not np.any(same_query & (scores[1:] > scores[:-1])):
        # Already ranked, as a run file usually is: each query's rows together, by score.
        order = np.arange(q.size)
    else:
        by_score = np.argsort(-scores, kind="stable")
        # A stable sort on small integer codes is a radix sort: linear time.
        q_small = q.astype(np.uint16) if q.size and q.max() < 2**16 else q
        order = by_score[np.argsort(q_small[by_score], kind="stable")]
    q_sorted, s_sorted = q[order], scores[order]
    tied = (q_sorted[1:] == q_sorted[:-1]) & (s_sorted[1:] == s_sorted[:-1])
    if tied.any():
        tied_with_previous = np.r_[False, tied]
        in_block = tied_with_previous | np.r_[tied, False]
        rows = np.flatnonzero(in_block)
        block = np.cumsum(~tied_with_previous[rows])
        tied_codes, inverse = np.unique(doc_codes[order[rows]], return_inverse=True)
        string_rank = np.empty(tied_codes.size, dtype=np.int64)
        string_rank[np.argsort(doc_ids[tied_codes], kind="stable")] = np.arange(tied_codes.size)
        order[rows] = order[rows][np.lexsort((-string_rank[inverse], block))]
    return order


def _groups(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start row and length of each run of equal values in ``q`` (sorted by query)."""
    if q.size == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
    return starts, np.diff(np.r_[starts, q.size])


def _ranks_within(q: np.ndarray, n_q: int) -> np.ndarray:
    """1-based position of each row within its run of equal, sorted query codes."""
    if q.size == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
    first = np.zeros(n_q, dtype=np.int64)
    first[q[starts]] = starts
    return np.arange(q.size) - first[q] + 1


def _discounted(grades: np.ndarray, rank: np.ndarray, k: int | None, variant: str) -> np.ndarray:
    gain = np.maximum(grades, 0.0)
    if variant == "burges":
        gain = np.exp2(gain) - 1.0
    if variant == "jarvelin":
        contribution = gain / np.maximum(np.log2(rank), 1.0)
    else:
        contribution = gain / np.log2(rank + 1.0)
    return contribution if k is None else np.where(rank <= k, contribution, 0.0)
