"""Runs and qrels for the tests of the judgments' look-up (:mod:`coursekit.evaluation.pairs`
and :mod:`coursekit.evaluation.nested`), and the grades a Python dict look-up gives."""

from __future__ import annotations

import numpy as np
import pandas as pd


def ranked_run_and_qrels(seed: int, n_queries: int = 12, per_query: int = 50):
    """A run in trec_eval's order (distinct scores) and qrels; doc ids of 1 to 20 bytes, some
    queries only in the run, some only in the qrels."""
    rng = np.random.default_rng(seed)
    pool = [f"d{i}" + "x" * int(rng.integers(0, 12)) for i in range(300)] + ["é" * 10, ""]
    run_rows, qrels_rows = [], []
    for q in range(n_queries):
        docs = rng.choice(len(pool), size=per_query, replace=False)
        scores = np.sort(rng.random(per_query))[::-1] + q  # strictly decreasing
        if q != 0:  # query "q0" is in the qrels only
            run_rows += [(f"q{q}", pool[d], float(s)) for d, s in zip(docs, scores, strict=True)]
        if q != 1:  # query "q1" is in the run only
            judged = np.r_[docs[:15], rng.choice(len(pool), size=10, replace=False)]
            grades = rng.integers(-1, 4, size=judged.size)
            seen = set()
            for d, g in zip(judged, grades, strict=True):
                if d not in seen:
                    seen.add(d)
                    qrels_rows.append((f"q{q}", pool[d], int(g)))
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    return run, qrels


def expected_grades(run: pd.DataFrame, qrels: pd.DataFrame, queries: list[str]) -> list[float]:
    """By hand: each retrieved document of an evaluated query, its grade (0 if unjudged)."""
    grade = {(q, d): float(g) for q, d, g in qrels.itertuples(index=False)}
    kept = set(queries)
    return [grade.get((q, d), 0.0) for q, d, _ in run.itertuples(index=False) if q in kept]


def shuffled(run: pd.DataFrame, seed: int) -> pd.DataFrame:
    """The run's rows in random order: ranked on query and score (the hashed look-up is for
    runs not in trec_eval's order; a ranked run's doc ids are numbered)."""
    return run.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def by_hand(run: pd.DataFrame) -> pd.DataFrame:
    """The rows in trec_eval's order for distinct scores: query id (as a string), score
    descending."""
    as_str = run.astype({"query_id": str, "doc_id": str})
    return as_str.sort_values(["query_id", "score"], ascending=[True, False], kind="stable")
