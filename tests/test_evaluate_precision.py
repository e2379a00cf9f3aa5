"""Score precision: trec_eval 10 compares scores as float64, trec_eval 9 and pytrec_eval (so
PyTerrier) as float32. ``evaluate(score_precision=...)`` reproduces either exactly."""

from __future__ import annotations

import numpy as np
import pytest
import pytrec_eval

import coursekit as ck

# d1 and d2 differ in float64 (by 1e-10) but are the same float32: float32 keeps about 7
# significant digits, and 0.1's float32 neighbours are 7.5e-9 apart.
RUN = {"q": {"d1": 0.1000000001, "d2": 0.1, "d3": 0.05}}
QRELS = {"q": {"d1": 1, "d2": 0}}


def test_the_scores_tie_in_float32_only():
    assert RUN["q"]["d1"] != RUN["q"]["d2"]
    assert np.float32(RUN["q"]["d1"]) == np.float32(RUN["q"]["d2"])


def test_float64_keeps_near_equal_scores_apart_as_trec_eval_10():
    # by hand: d1 (0.1000000001) > d2 (0.1) > d3, so the relevant d1 is at rank 1:
    # AP = (1/1) / 1 = 1, RR = 1
    table = ck.evaluate(RUN, QRELS, ["AP", "RR"]).table()
    assert table.loc["q"].tolist() == [1.0, 1.0]


@pytest.mark.parametrize("fast", [True, False])
def test_float32_ties_them_by_doc_id_as_pytrec_eval(fast):
    # by hand: in float32 d1 and d2 tie; ties go by doc id descending, so d2 then d1: the
    # relevant d1 is at rank 2, AP = (1/2) / 1 = 0.5, RR = 0.5
    table = ck.evaluate(RUN, QRELS, ["AP", "RR"], score_precision="float32", fast=fast).table()
    expected = pytrec_eval.RelevanceEvaluator(QRELS, {"map", "recip_rank"}).evaluate(RUN)["q"]
    assert expected == {"map": 0.5, "recip_rank": 0.5}
    assert table.loc["q"].tolist() == [expected["map"], expected["recip_rank"]]


def test_float32_agrees_with_pytrec_eval_on_random_near_equal_scores():
    rng = np.random.default_rng(7)
    run, qrels = {}, {}
    for q in range(30):
        base = rng.normal(size=40)
        scores = np.repeat(base[:20], 2) + rng.choice([0.0, 1e-9, 3e-8], size=40)
        docs = [f"d{i}" for i in rng.permutation(200)[:40]]
        run[str(q)] = dict(zip(docs, scores.tolist(), strict=True))
        qrels[str(q)] = {d: int(rng.integers(0, 3)) for d in rng.choice(docs, 15, replace=False)}
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut_10", "P_10"}).evaluate(run)
    table = ck.evaluate(run, qrels, ["AP", "nDCG@10", "P@10"], score_precision="float32").table()
    for q, values in expected.items():
        got = table.loc[q]
        assert got["AP"] == pytest.approx(values["map"], abs=1e-12)
        assert got["nDCG@10"] == pytest.approx(values["ndcg_cut_10"], abs=1e-12)
        assert got["P@10"] == pytest.approx(values["P_10"], abs=1e-12)


def test_unknown_score_precision():
    with pytest.raises(ValueError, match="unknown score_precision 'half': choose one of float64"):
        ck.evaluate(RUN, QRELS, ["AP"], score_precision="half")
