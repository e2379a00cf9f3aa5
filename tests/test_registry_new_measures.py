"""Bpref, infAP, RBP(p=...) and ERR@k in the registry and through ``evaluate``.

Bpref and infAP are compared with trec_eval (through pytrec_eval) on seeded random data with
retrieved documents absent from the qrels and pooled, unjudged ones (grade -1); RBP and ERR
with the functions of :mod:`coursekit.measures.user` called directly on each query, and with a
hand derivation of one small query.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import coursekit as ck
from coursekit.measures.user import err, rbp
from coursekit.registry import known_measures, parse_measure

pytrec_eval = pytest.importorskip("pytrec_eval")

NAN = math.nan


def make_data(seed: int, n_queries: int = 30) -> tuple[dict, dict]:
    """A seeded run and qrels ``{query: {doc: value}}``; scores distinct in float32."""
    rng = np.random.default_rng(seed)
    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, int]] = {}
    for i in range(n_queries):
        q = f"q{i}"
        pool = [f"d{j}" for j in range(int(rng.integers(5, 60)))]
        grades, p = [[-1, 0, 1, 2], [-1, 0], [-1, 1, 3], [0, 1]][i % 4], None
        in_qrels = rng.random(len(pool)) < 0.6
        judged = [d for d, keep in zip(pool, in_qrels, strict=True) if keep] or [pool[0]]
        qrels[q] = {d: int(rng.choice(grades, p=p)) for d in judged}
        length = int(rng.integers(1, len(pool) + 1))
        retrieved = rng.choice(pool, size=length, replace=False)
        scores = (rng.permutation(length) + 1) / 8  # distinct, exact in float32
        run[q] = {str(d): float(s) for d, s in zip(retrieved, scores, strict=True)}
    return run, qrels


def ranked_grades(scores: dict[str, float], judgments: dict[str, int]) -> list[float]:
    """Grades in rank order (scores distinct), 0 for a document absent from the qrels."""
    return [float(judgments.get(d, 0)) for d in sorted(scores, key=lambda d: -scores[d])]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("fast", [True, False])
def test_bpref_and_infap_equal_trec_eval(seed, fast):
    run, qrels = make_data(seed)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"bpref", "infAP"}).evaluate(run)
    table = ck.evaluate(run, qrels, ["Bpref", "infAP"], fast=fast).table()
    assert sorted(table.index) == sorted(expected)
    unjudged = sum(d not in qrels[q] for q in run for d in run[q])
    pooled = sum(qrels[q].get(d, 0) < 0 for q in run for d in run[q])
    assert unjudged > 0 and pooled > 0  # the data has both kinds of unjudged documents
    for q, values in expected.items():
        assert table.loc[q, "Bpref"] == pytest.approx(values["bpref"], abs=1e-12), q
        assert table.loc[q, "infAP"] == pytest.approx(values["infAP"], abs=1e-12), q


def test_bpref_and_infap_from_a_dataframe():
    run, qrels = make_data(7)
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    frame = ck.evaluate(run, qrels, ["Bpref", "infAP"]).table()
    import pandas as pd

    run_frame = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"]).sample(
        frac=1.0, random_state=0
    )
    from_frame = ck.evaluate(run_frame, qrels, ["Bpref", "infAP"]).table()
    pd.testing.assert_frame_equal(frame, from_frame)


@pytest.mark.parametrize("seed", range(3))
def test_rbp_and_err_equal_the_functions(seed):
    run, qrels = make_data(seed)
    names = ["RBP(p=0.8)", "RBP(p=0.5)", "ERR@20", "ERR@5", "ERR"]
    table = ck.evaluate(run, qrels, names).table()
    top = max(1, max(g for judged in qrels.values() for g in judged.values()))
    assert top == 3
    for q in table.index:
        grades = ranked_grades(run[q], qrels[q])
        assert table.loc[q, "RBP(p=0.8)"] == rbp(grades, p=0.8).value
        assert table.loc[q, "RBP(p=0.5)"] == rbp(grades, p=0.5).value
        assert table.loc[q, "ERR@20"] == err(grades, max_grade=top, k=20)
        assert table.loc[q, "ERR@5"] == err(grades, max_grade=top, k=5)
        assert table.loc[q, "ERR"] == err(grades, max_grade=top)


def test_rbp_and_err_by_hand():
    # q1 ranks d3 (grade 2), d1 (absent from the qrels), d2 (grade 1), d4 (grade 0).
    # The other query's grade 3 sets ERR's G = 3 for the whole evaluation.
    run = {"q1": {"d1": 0.5, "d2": 0.25, "d3": 1.0, "d4": 0.125}, "q2": {"x": 1.0}}
    qrels = {"q1": {"d2": 1, "d3": 2, "d4": 0, "d9": 1}, "q2": {"x": 3}}
    table = ck.evaluate(run, qrels, ["RBP(p=0.5)", "RBP", "ERR@20", "ERR@2"]).table()
    # RBP, binary gains 1, 0, 1, 0: (1 - p)(1 + p^2)
    assert table.loc["q1", "RBP(p=0.5)"] == pytest.approx(0.5 * (1 + 0.25), abs=1e-15)
    assert table.loc["q1", "RBP(p=0.8)"] == pytest.approx(0.2 * (1 + 0.64), abs=1e-15)
    # ERR, G = 3: R = (2^g - 1) / 8, so 3/8, 0, 1/8, 0
    r1, r3 = 3 / 8, 1 / 8
    assert table.loc["q1", "ERR@20"] == pytest.approx(r1 + (1 - r1) * r3 / 3, abs=1e-15)
    assert table.loc["q1", "ERR@2"] == pytest.approx(r1, abs=1e-15)
    assert table.loc["q2", "ERR@20"] == pytest.approx(7 / 8, abs=1e-15)


def test_names_and_known_measures():
    assert parse_measure("RBP(p=0.8)").name == "RBP(p=0.8)"
    assert parse_measure("RBP").name == "RBP(p=0.8)"
    assert parse_measure("RBP( p = 0.95 )").param == 0.95
    assert parse_measure("ERR@20").param == 20
    assert parse_measure("Bpref").vectorised is None
    listing = known_measures()
    for family in ("Bpref", "infAP", "RBP", "ERR"):
        assert any(line.startswith(family) for line in listing.splitlines()), family
    assert "RBP(p=0.8)" in listing and "ERR@k" in listing


@pytest.mark.parametrize(
    "name, message",
    [
        ("RBP(p=1.5)", "strictly between 0 and 1"),
        ("RBP(p=0)", "strictly between 0 and 1"),
        ("RBP(p=1)", "strictly between 0 and 1"),
        ("RBP(q=0.5)", "RBP(p=0.8)"),
        ("RBP@10", "no @ parameter"),
        ("ERR@0", "positive integer"),
        ("ERR@2.5", "positive integer"),
        ("Bpref@10", "no @ parameter"),
        ("AP(p=0.5)", "no (...) parameter"),
    ],
)
def test_bad_parameters_are_clear_value_errors(name, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_measure(name)
    run, qrels = {"q": {"d": 1.0}}, {"q": {"d": 1}}
    with pytest.raises(ValueError):
        ck.evaluate(run, qrels, [name])


def test_measures_called_alone():
    # rels as grades with nan for unjudged; ERR's G from the query's own judgments
    assert parse_measure("Bpref")(np.array([NAN, 1.0, 0.0]), 1, np.array([1.0, 0.0])) == 1.0
    assert parse_measure("ERR@20")(np.array([2.0]), 1, np.array([2.0, 0.0])) == 0.75


@pytest.mark.parametrize("variant", ["trec", "jarvelin", "burges"])
@pytest.mark.parametrize("k", [None, 1, 5, 10])
def test_ideal_dcg_counted_equals_each_querys_grades_sorted(variant, k):
    """The ideal DCG@k from counts of each grade (``ndcg_every.ideal_dcg_counted``) against
    each query's grades sorted by hand and summed by ``graded.dcg``; negative and
    fractional grades among them, and a query with no judgment."""
    from coursekit.measures import graded
    from coursekit.measures.ndcg_every import ideal_dcg_counted

    rng = np.random.default_rng(len(variant) + (k or 0))
    queries = rng.integers(0, 30, 600)
    queries[queries == 7] = 8  # query 7: no judgment
    grades = rng.choice([-1.0, 0.0, 0.5, 1.0, 2.0, 3.0], size=600)
    got = ideal_dcg_counted(queries, grades, 30, k, variant)
    for q in range(30):
        ideal = sorted(grades[queries == q], reverse=True)
        expected = graded.dcg(ideal, k=k, variant=variant) if ideal else 0.0
        assert got[q] == pytest.approx(expected, abs=1e-12, rel=0)
