"""bpref, infAP and the condensed list against trec_eval (through pytrec_eval) and by hand.

The random runs and qrels hold the three kinds of retrieved document trec_eval distinguishes:
judged (grades 0, 1, 2), in the pool but unjudged (qrels grade -1, trec_eval's
RELVALUE_UNJUDGED) and absent from the qrels (RELVALUE_NONPOOL). pytrec_eval stores scores as
float32, so the scores are small whole numbers (exact in float32) and distinct within a query:
the ranking is never decided by a tie-break.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from coursekit.measures.graded import ndcg
from coursekit.measures.incomplete import (
    INFAP_EPSILON,
    bpref,
    condensed,
    infap,
    judge_incomplete,
    judgment_counts,
)
from coursekit.measures.ranked import average_precision

pytrec_eval = pytest.importorskip("pytrec_eval")

SEEDS = range(6)
TOLERANCE = 1e-12
NAN = math.nan


def make_data(seed: int, n_queries: int = 40) -> tuple[dict, dict]:
    """A seeded run and qrels, both ``{query: {doc: value}}``."""
    rng = np.random.default_rng(seed)
    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, int]] = {}
    for i in range(n_queries):
        q = f"q{i}"
        pool = [f"d{j}" for j in range(int(rng.integers(5, 80)))]
        # grade -1 = pooled, unjudged; some queries have no relevant or no non-relevant document
        kind = i % 4
        if kind == 0:
            grades, p = [-1, 0, 1, 2], [0.2, 0.5, 0.2, 0.1]
        elif kind == 1:
            grades, p = [-1, 0], [0.3, 0.7]  # no relevant document
        elif kind == 2:
            grades, p = [-1, 1, 2], [0.3, 0.4, 0.3]  # no judged non-relevant document
        else:
            grades, p = [0, 1], [0.9, 0.1]  # many more non-relevant than relevant
        in_qrels = rng.random(len(pool)) < 0.6
        judged = [d for d, keep in zip(pool, in_qrels, strict=True) if keep] or [pool[0]]
        qrels[q] = {d: int(rng.choice(grades, p=p)) for d in judged}
        length = int(rng.integers(1, len(pool) + 1))
        retrieved = rng.choice(pool, size=length, replace=False)
        scores = rng.permutation(length) + 1  # distinct whole numbers, exact in float32
        run[q] = {str(d): float(s) for d, s in zip(retrieved, scores, strict=True)}
    return run, qrels


def reference(run: dict, qrels: dict, measures: set[str], **options) -> dict:
    return pytrec_eval.RelevanceEvaluator(qrels, measures, **options).evaluate(run)


def ranked_docs(scores: dict[str, float]) -> list[str]:
    return sorted(scores, key=lambda d: -scores[d])  # scores are distinct


def grades_and_pool(docs: list[str], judgments: dict[str, int]) -> tuple[list, list]:
    """The test's own reading of the qrels, written out independently of the module."""
    grades, pooled = [], []
    for doc in docs:
        if doc not in judgments:
            grades.append(NAN)
            pooled.append(False)
        elif judgments[doc] < 0:
            grades.append(NAN)
            pooled.append(True)
        else:
            grades.append(float(judgments[doc]))
            pooled.append(False)
    return grades, pooled


def counts(judgments: dict[str, int]) -> tuple[int, int]:
    values = list(judgments.values())
    return sum(v >= 1 for v in values), sum(0 <= v < 1 for v in values)


# --- against trec_eval -------------------------------------------------------------------------


def test_the_random_data_covers_every_case():
    run, qrels = make_data(0)
    kinds = set()
    for q, scores in run.items():
        grades, pooled = grades_and_pool(ranked_docs(scores), qrels[q])
        n_rel, n_nonrel = counts(qrels[q])
        kinds.add("pooled unjudged" if any(pooled) else "no pooled unjudged")
        outside = [math.isnan(g) and not p for g, p in zip(grades, pooled, strict=True)]
        kinds.add("nonpool" if any(outside) else "")
        kinds.add("no relevant" if n_rel == 0 else "relevant")
        kinds.add("no nonrel" if n_nonrel == 0 else "")
        kinds.add("N > R" if n_nonrel > n_rel > 0 else "")
        kinds.add("N < R" if 0 < n_nonrel < n_rel else "")
    assert {"pooled unjudged", "nonpool", "no relevant", "no nonrel", "N > R", "N < R"} <= kinds


@pytest.mark.parametrize("seed", SEEDS)
def test_bpref_and_infap_equal_trec_eval(seed):
    run, qrels = make_data(seed)
    expected = reference(run, qrels, {"bpref", "infAP"})
    assert set(expected) == set(run)
    for q, scores in run.items():
        grades, pooled = grades_and_pool(ranked_docs(scores), qrels[q])
        n_rel, n_nonrel = counts(qrels[q])
        got_bpref = bpref(grades, n_rel, n_nonrel)
        got_infap = infap(grades, n_rel, pooled=pooled)
        assert got_bpref == pytest.approx(expected[q]["bpref"], abs=TOLERANCE), q
        assert got_infap == pytest.approx(expected[q]["infAP"], abs=TOLERANCE), q


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_judge_incomplete_and_judgment_counts_read_qrels_as_trec_eval(seed):
    run, qrels = make_data(seed)
    for q, scores in run.items():
        docs = ranked_docs(scores)
        expected_grades, expected_pooled = grades_and_pool(docs, qrels[q])
        grades, pooled = judge_incomplete(docs, qrels[q])
        np.testing.assert_array_equal(grades, expected_grades)
        assert pooled.tolist() == expected_pooled
        assert judgment_counts(qrels[q]) == counts(qrels[q])
        assert judgment_counts(list(qrels[q].values())) == counts(qrels[q])


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_condensed_list_is_trec_eval_judged_docs_only(seed):
    """AP' and nDCG' on the condensed list equal trec_eval -J's map and ndcg."""
    run, qrels = make_data(seed)
    expected = reference(run, qrels, {"map", "ndcg"}, judged_docs_only_flag=True)
    for q, scores in run.items():
        grades, _ = grades_and_pool(ranked_docs(scores), qrels[q])
        judged_grades = [g for g in qrels[q].values() if g >= 0]
        short = condensed(grades)
        assert short.tolist() == [g for g in grades if not math.isnan(g)]
        n_rel, _ = counts(qrels[q])
        assert average_precision(short, n_rel) == pytest.approx(expected[q]["map"], abs=1e-12)
        assert ndcg(short, ideal=judged_grades) == pytest.approx(expected[q]["ndcg"], abs=1e-12)


# --- by hand -----------------------------------------------------------------------------------


def test_bpref_by_hand():
    # ranks: R, n, unjudged, R, n, n, R ; R = 4 judged relevant, N = 3 judged non-relevant
    grades = [1, 0, None, 2, 0, 0, 1]
    # min(N, R) = 3. Relevant at rank 1: no n above -> 1.
    # Relevant at rank 4: 1 n above -> 1 - 1/3. Relevant at rank 7: 3 n above -> 1 - 3/3.
    # The fourth relevant document is not retrieved: it contributes 0.
    expected = (1 + (1 - 1 / 3) + (1 - 3 / 3) + 0) / 4
    assert bpref(grades, n_relevant=4, n_nonrelevant=3) == pytest.approx(expected, abs=1e-15)


def test_bpref_caps_nonrelevant_above_at_r():
    # R = 1, N = 5: two judged non-relevant above the relevant document; min(2, R) / min(N, R)
    # = 1 / 1 -> contributes 0 (the uncapped ratio 2 / 1 would give -1).
    assert bpref([0, 0, 1], n_relevant=1, n_nonrelevant=5) == 0.0


def test_bpref_ignores_unjudged_documents():
    assert bpref([None, None, 1, None], 1, 2) == 1.0
    assert bpref([NAN, 1, NAN], 1, 0) == 1.0


def test_infap_by_hand():
    # ranks: 1 R, 2 not in pool, 3 pooled unjudged, 4 n, 5 R ; R = 3
    grades = [1, None, None, 0, 1]
    pooled = [False, False, True, False, False]
    eps = INFAP_EPSILON
    at_1 = 1.0
    # rank k = 5: above it 4 documents, 3 in the pool (rank 1, 3, 4), 1 relevant, 1 non-relevant
    k = 5
    at_5 = 1 / k + ((k - 1) / k) * (3 / (k - 1)) * ((1 + eps) / (1 + 1 + 2 * eps))
    expected = (at_1 + at_5) / 3
    assert infap(grades, n_relevant=3, pooled=pooled) == pytest.approx(expected, abs=1e-15)
    # without the pooled flag rank 3 counts as outside the pool: 2 of the 4 above
    at_5 = 1 / k + ((k - 1) / k) * (2 / (k - 1)) * ((1 + eps) / (1 + 1 + 2 * eps))
    assert infap(grades, n_relevant=3) == pytest.approx((at_1 + at_5) / 3, abs=1e-15)


def test_infap_with_complete_judgments_is_ap_up_to_epsilon():
    grades = [0, 1, 1, 0, 0, 1, 0]
    # AP with R = 4: (1/2 + 2/3 + 3/6) / 4
    ap = (1 / 2 + 2 / 3 + 3 / 6) / 4
    assert infap(grades, 4) == pytest.approx(ap, abs=1e-5)
    assert infap(grades, 4) != ap


def test_no_relevant_document_scores_zero():
    assert bpref([0, None], 0, 1) == 0.0
    assert infap([0, None], 0) == 0.0
    assert bpref([], 0, 0) == 0.0
    assert infap([], 3) == 0.0


def test_condensed_accepts_nan_and_none():
    assert condensed(np.array([NAN, 2.0, NAN, 0.0])).tolist() == [2.0, 0.0]
    assert condensed([]).tolist() == []


# --- bad input ---------------------------------------------------------------------------------


def test_bad_grades():
    with pytest.raises(TypeError, match=r"grades\[1\]"):
        bpref([1, "x"], 1, 0)
    with pytest.raises(ValueError, match=r"grades\[0\].*finite"):
        infap([math.inf], 1)
    with pytest.raises(TypeError, match="grades"):
        condensed("101")
    with pytest.raises(ValueError, match="grades must be one-dimensional"):
        condensed(np.zeros((2, 2)))


def test_bad_counts():
    with pytest.raises(ValueError, match="n_relevant=1 is smaller than the 2"):
        bpref([1, 1], 1, 0)
    with pytest.raises(ValueError, match="n_nonrelevant=1 is smaller than the 2"):
        bpref([0, 0, 1], 1, 1)
    with pytest.raises(TypeError, match="n_nonrelevant"):
        bpref([1], 1, 2.5)
    with pytest.raises(ValueError, match="n_relevant"):
        infap([1], -1)


def test_bad_pooled():
    with pytest.raises(ValueError, match="pooled must hold one True/False per rank"):
        infap([1, None], 1, pooled=[False])
    with pytest.raises(TypeError, match="pooled must hold True or False"):
        infap([1, None], 1, pooled=[0, 1])
    with pytest.raises(TypeError, match="pooled must be a sequence"):
        infap([1, None], 1, pooled="no")


def test_bad_judge_incomplete():
    with pytest.raises(ValueError, match="appears twice"):
        judge_incomplete(["d1", "d1"], {})
    with pytest.raises(TypeError, match="qrels must map"):
        judge_incomplete(["d1"], [1])
    with pytest.raises(TypeError, match="ranking must be a sequence"):
        judge_incomplete("d1", {})
