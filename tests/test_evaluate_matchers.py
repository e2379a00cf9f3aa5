"""Every fast matcher of ``evaluate`` (:mod:`coursekit.evaluation.matchers`) gives the
reference's rankings wherever it applies: the same rows in the same order, the same grades,
the same judgments. Runs and qrels drawn by hypothesis, with tied scores, ids longer than the
32 bytes that pack into integers, unjudged documents, queries with no run row or no
judgment, each as a DataFrame, a categorical DataFrame and nested dicts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import coursekit as ck
from coursekit.engine import addressing
from coursekit.evaluation import matchers, pairs
from coursekit.evaluation.encode import Task, evaluated_queries, halves

SETTINGS = settings(
    max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)

doc_ids = st.one_of(
    st.sampled_from(["d1", "d2", "d10", "D1", "d1\x00", "é", "doc12345", "a" * 8, "b" * 9]),
    st.text(alphabet="abcé-_0123456789", min_size=1, max_size=40),  # past 32 bytes too
)
queries = st.sampled_from(["q0", "q1", "q2", "10", "9"])


@st.composite
def run_and_qrels(draw):
    """Distinct (query, doc) pairs on each side; q0 in both (one query to evaluate)."""
    levels = draw(st.sampled_from(["ties", "distinct"]))
    scores = st.sampled_from([0.5, 1.0, 1.0 + 1e-12, -0.0, 0.0, 2.0])
    if levels == "distinct":
        scores = st.floats(-1e3, 1e3, allow_nan=False)
    run_pairs = draw(st.lists(st.tuples(queries, doc_ids), min_size=1, max_size=40, unique=True))
    run_pairs = [("q0", run_pairs[0][1])] + [p for p in run_pairs[1:] if p[0] != "q0"]
    judged = draw(st.lists(st.tuples(queries, doc_ids), max_size=30, unique=True))
    judged_from_run = draw(st.lists(st.sampled_from(run_pairs), max_size=20, unique=True))
    qrels_pairs = list(dict.fromkeys([run_pairs[0]] + judged_from_run + judged))
    run = pd.DataFrame(run_pairs, columns=["query_id", "doc_id"])
    run["score"] = [draw(scores) for _ in run_pairs]
    qrels = pd.DataFrame(qrels_pairs, columns=["query_id", "doc_id"])
    qrels["relevance"] = [draw(st.integers(-1, 3)) for _ in qrels_pairs]
    return run, qrels


def forms(run: pd.DataFrame, qrels: pd.DataFrame, form: str) -> tuple[object, object]:
    if form == "dicts":
        return ck.run_to_dict(run), ck.qrels_to_dict(qrels)
    if form == "categorical":
        ids = {"query_id": "category", "doc_id": "category"}
        return run.astype(ids), qrels.astype(ids)
    return run, qrels


def assert_same(fast, reference) -> None:
    """The same rankings: each query's rows in the same order (the queries' blocks may come in
    another order: a run already ranked keeps its queries' order), the same judgments."""
    assert fast.n_queries == reference.n_queries
    by_query = np.argsort(fast.query, kind="stable")
    assert fast.query[by_query].tolist() == reference.query.tolist()
    assert fast.grade[by_query].tolist() == reference.grade.tolist()  # row by row
    judged = sorted(zip(fast.judged_query.tolist(), fast.judged_grade.tolist(), strict=True))
    assert judged == sorted(
        zip(reference.judged_query.tolist(), reference.judged_grade.tolist(), strict=True)
    )
    if fast.doc is not None:
        assert fast.doc[by_query].tolist() == reference.doc.tolist()


@pytest.mark.parametrize("form", ["frame", "categorical", "dicts"])
@pytest.mark.parametrize("name", matchers.FAST)
@pytest.mark.parametrize("hash_tables", [False, True])
@SETTINGS
@given(data=run_and_qrels(), missing_as_zero=st.booleans(), float32=st.booleans())
def test_every_fast_matcher_gives_the_references_rankings(
    name, form, hash_tables, data, missing_as_zero, float32
):
    if hash_tables and name != "hashed_rankings":
        return  # (the choice only hashed pairs make)
    run, qrels = forms(*data, form)
    precision = "float32" if float32 else "float64"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pairs, "FEW_DOC_IDS", 0)  # hashed pairs, whatever the doc ids' count
        patch.setattr(pairs, "use_hash_tables", lambda n_keys: hash_tables)
        patch.setattr(addressing, "_MIN_ROWS_A_BLOCK", 1)  # direct addressing, however few rows
        for with_docs in (False, True):
            run_half, qrels_half = halves(run, qrels)
            chosen = evaluated_queries(run_half.queries, qrels_half.queries, missing_as_zero)
            task = Task(chosen, missing_as_zero, precision, with_docs)
            fast = getattr(matchers, name)(run_half, qrels_half, task)
            reference = matchers.reference(*halves(run, qrels), task)
            if fast is None:
                assert name != "numbered"  # (the last fast matcher always applies)
                continue
            assert_same(fast, reference)


@pytest.mark.parametrize("form", ["frame", "categorical", "dicts"])
@SETTINGS
@given(data=run_and_qrels(), float32=st.booleans())
def test_doc_ids_numbered_in_byte_order_give_the_references_rankings(form, data, float32):
    """The numbered matcher with its doc ids numbered in byte order (as for many doc ids and
    ties to break: then the codes are the ranks), whatever the run's ids and scores."""
    run, qrels = forms(*data, form)
    task = Task(["q0"], False, "float32" if float32 else "float64", False)  # (no doc codes)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pairs, "FEW_DOC_IDS", 0)
        patch.setattr(matchers, "BYTE_ORDER_DOC_IDS", 0)
        patch.setattr(matchers, "ties_to_break", lambda query, scores: True)
        fast = matchers.numbered(*halves(run, qrels), task)
    assert_same(fast, matchers.reference(*halves(run, qrels), task))


def test_the_reference_ranks_as_trec_eval_by_hand():
    """Score descending, ties by doc id descending (as strings: "d2" before "d10"), -0.0 equal
    to 0.0; unjudged documents grade 0; a query with no run row has none."""
    run = pd.DataFrame(
        {
            "query_id": ["q", "q", "q", "q"],
            "doc_id": ["d10", "d2", "é", "a"],
            "score": [1.0, 1.0, 0.0, -0.0],
        }
    )
    qrels = pd.DataFrame(
        {"query_id": ["q", "q", "r"], "doc_id": ["d2", "a", "x"], "relevance": [2, 1, 1]}
    )
    task = Task(["q", "r"], True, "float64", True)
    ranked = matchers.reference(*halves(run, qrels), task)
    assert ranked.query.tolist() == [0, 0, 0, 0]  # "r": judged, not retrieved
    assert ranked.grade.tolist() == [2.0, 0.0, 0.0, 1.0]  # d2, d10, é, a
    assert ranked.n_queries == 2


def test_evaluate_slow_and_fast_agree_on_ties_and_long_ids():
    rng = np.random.default_rng(3)
    ids = [f"doc-{i:03d}-" + "x" * int(rng.integers(0, 40)) for i in range(200)]
    run = pd.DataFrame(
        {
            "query_id": np.repeat(["a", "b", "c"], 60),
            "doc_id": np.concatenate([rng.choice(ids, 60, replace=False) for _ in range(3)]),
            "score": rng.integers(0, 5, 180) / 2,
        }
    )
    qrels = run.sample(40, random_state=1)[["query_id", "doc_id"]].assign(
        relevance=rng.integers(0, 3, 40)
    )
    measures = ["AP", "nDCG@10", "P@5", "Bpref"]
    fast = ck.evaluate(run, qrels, measures).table()
    slow = ck.evaluate(run, qrels, measures, fast=False).table()
    pd.testing.assert_frame_equal(fast, slow, check_exact=False, rtol=0, atol=1e-12)
