"""Exercises 11 (diversity and novelty): the right answers pass, each common mistake's hint is
printed for the answer that mistake gives, the function question catches its slips, the
multiple-choice answers hold, and each per-student variant keeps the text true. Numbers are
derived by hand in the comments or by the small independent implementation below, never taken
from coursekit or from the key's own code."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from exercise_support import load_key, public_spec, says

import coursekit as ck
from coursekit.grading import judge_value, judging

CH11 = "11_diversity_novelty"
L3, L5, L6 = math.log2(3), math.log2(5), math.log2(6)

# The public data (the notebook's data cell), subtopics each document is relevant to:
# d01 upkeep; d02 cost size upkeep; d03 filter upkeep; d04 cost filter upkeep (size 0);
# d05 law; d06 none; d07 filter law size (cost 0); d08 filter; d09 none (law 0); d10 size.
# ranking d10 d11 d08 d02 d09 d05 d03 d04 (d11 unjudged), k = 5, alpha = 0.5.

# q1: d10 size (1 of 5), d11 nothing, d08 filter, d02 adds cost and upkeep, d09 nothing (its
# law is a 0), d05 law: all 5
Q1 = [0.2, 0.2, 0.4, 0.8, 0.8, 1.0, 1.0, 1.0]
# q2: d10 size 1; d11 0; d08 filter 1; d02 cost 1 + size 0.5 + upkeep 1; d09 0
Q2 = [1.0, 0.0, 1.0, 2.5, 0.0]
# q3: d02, d04, d07 gain 3 each: the last id, d07. Then d04 cost 1 + filter 0.5 + upkeep 1 and
# d02 cost 1 + size 0.5 + upkeep 1 tie at 2.5: d04. Then d02 0.5 + 0.5 + 0.5 = 1.5 (d03 0.5 +
# 0.5, d05 1 ... less): d02. Then d05 law 0.5 and d03 filter 0.25 + upkeep 0.25 tie: d05. Then
# d03 0.5 (d01, d08, d10 0.25).
Q3 = ["d07", "d04", "d02", "d05", "d03"]
IDEAL_GAINS = [3.0, 2.5, 1.5, 0.5, 0.5]
RUN_DCG = 1 + 1 / 2 + 2.5 / L5
IDEAL_DCG = sum(g / math.log2(r + 1) for r, g in enumerate(IDEAL_GAINS, start=1))
Q4 = [RUN_DCG, IDEAL_DCG, RUN_DCG / IDEAL_DCG]
# q5, per subtopic (top 5: d10 d11 d08 d02 d09): cost, relevant d02 d04, d02 at rank 4;
# filter, d03 d04 d07 d08, d08 at rank 3; law, d05 d07, none; size, d02 d07 d10, ranks 1 and 4;
# upkeep, d01 d02 d03 d04, d02 at rank 4
IDCG = {n: sum(1 / math.log2(r + 1) for r in range(1, n + 1)) for n in range(1, 6)}
NDCG_S = {
    "cost": (1 / L5) / IDCG[2],
    "filter": (1 / 2) / IDCG[4],
    "law": 0.0,
    "size": (1 + 1 / L5) / IDCG[3],
    "upkeep": (1 / L5) / IDCG[4],
}
INTENT = {"cost": 0.3, "filter": 0.2, "law": 0.2, "size": 0.15, "upkeep": 0.15}
Q5 = sum(INTENT[s] * NDCG_S[s] for s in INTENT)


def test_the_public_data_are_those_derived_here():
    scope: dict = {}
    exec(load_key(CH11).generate(None)[0], scope)  # noqa: S102 - the key's own data cell
    assert scope["ranking"] == ["d10", "d11", "d08", "d02", "d09", "d05", "d03", "d04"]
    assert scope["k"] == 5 and scope["alpha"] == 0.5 and scope["intent"] == INTENT
    assert scope["judgments"]["d09"] == {"law": 0} and scope["judgments"]["d06"] == {}


@pytest.mark.parametrize(
    "qid, answer",
    [("q1", Q1), ("q2", Q2), ("q3", Q3), ("q4", Q4), ("q5", Q5), ("q6", "b"), ("q7", "a")]
    + [("q8", "c")],
)
def test_11_the_right_answer_passes(qid, answer):
    assert judge_value(public_spec(CH11, qid), answer) == f"{qid}: passed"


@pytest.mark.parametrize(
    "qid, answer, words",
    [
        # d09's law 0 counted: law covered at rank 5
        ("q1", [0.2, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0, 1.0], "a grade of 0"),
        # documents relevant to some subtopic over r: d10, d08, d02, d05, d03, d04
        ("q1", [1.0, 0.5, 2 / 3, 0.75, 0.6, 4 / 6, 5 / 7, 6 / 8], "not documents"),
        ("q2", [1.0, 0.0, 1.0, 3.0, 0.0], "α = 0, no novelty"),
        ("q2", [0.5, 0.0, 0.5, 1.25, 0.0], "above rank r only"),
        ("q2", [1.0, 0.0, 1.0, 2.0, 0.0], "still gains, only less"),
        ("q2", [1.0, 0.0, 1.0, 2.5, 1.0], "a grade of 0"),
        # sorted by count, ties to the last id: d07 d04 d02 (3), d03 (2), d10 (the last 1)
        ("q3", ["d07", "d04", "d02", "d03", "d10"], "recompute every candidate"),
        # ties to the first id: d02 (3); d07 2.5; d04 1.5; d03 and d05 tie at 0.5: d03; d05
        ("q3", ["d02", "d07", "d04", "d03", "d05"], "id comes last"),
        # greedy over the ranked documents only: d04; d02 (2); d05 (1); d03 (0.75); d10 (0.5)
        ("q3", ["d04", "d02", "d05", "d03", "d10"], "every judged document"),
        # the ranking's own gains sorted: 2.5, 1, 1, 0, 0
        ("q4", [RUN_DCG, 2.5 + 1 / L3 + 0.5, RUN_DCG / (2.5 + 1 / L3 + 0.5)], "gains sorted"),
        # the subtopic counts sorted, no novelty: 3, 3, 3, 2, 1
        (
            "q4",
            [
                RUN_DCG,
                3 + 3 / L3 + 1.5 + 2 / L5 + 1 / L6,
                RUN_DCG / (3 + 3 / L3 + 1.5 + 2 / L5 + 1 / L6),
            ],
            "novelty gains too",
        ),
        (
            "q4",
            [
                1 + 1 / L3 + 2.5 / 2,
                3 + 2.5 + 1.5 / L3 + 0.5 / 2 + 0.5 / L5,
                (1 + 1 / L3 + 2.5 / 2) / (3 + 2.5 + 1.5 / L3 + 0.5 / 2 + 0.5 / L5),
            ],
            "log2(r + 1)",
        ),
        ("q5", sum(NDCG_S.values()) / 5, "not 1 / number of subtopics"),
        # each subtopic's ideal from the 8 ranked documents: cost 2, filter 3, law 1, size 2,
        # upkeep 3 relevant
        (
            "q5",
            0.3 * (1 / L5) / IDCG[2]
            + 0.2 * 0.5 / IDCG[3]
            + 0.15 * (1 + 1 / L5) / IDCG[2]
            + 0.15 * (1 / L5) / IDCG[3],
            "ranked or not",
        ),
        (
            "q5",
            (0.3 / L5 + 0.2 * 0.5 + 0.15 * (1 + 1 / L5) + 0.15 / L5)
            / (0.3 * IDCG[2] + 0.2 * IDCG[4] + 0.2 * IDCG[2] + 0.15 * IDCG[3] + 0.15 * IDCG[4]),
            "ratio of weighted DCG sums",
        ),
    ],
)
def test_11_each_mistake_prints_its_hint(qid, answer, words):
    assert says(CH11, qid, answer, words)


def test_11_q6_coverage_and_early_relevance_disagree():
    # X: three documents of subtopic 1; Y: nothing, subtopic 1, subtopic 2 (3 subtopics)
    x = _dcg([1, 0.5, 0.25], 3)  # 1 + 0.5 / log2(3) + 0.25 / 2
    y = _dcg([0, 1, 1], 3)  # 1 / log2(3) + 1 / 2
    assert x == pytest.approx(1.4405, abs=1e-4) and y == pytest.approx(1.1309, abs=1e-4)
    assert x > y  # alpha-nDCG@3 (the same ideal divides both) prefers X; S-recall 1/3 < 2/3


def _gains(order, covers, alpha):
    seen: dict = {}
    out = []
    for d in order:
        out.append(sum((1 - alpha) ** seen.get(s, 0) for s in covers.get(d, ())))
        for s in covers.get(d, ()):
            seen[s] = seen.get(s, 0) + 1
    return out


def _dcg(gains, k):
    return sum(g / math.log2(r + 1) for r, g in enumerate(gains[:k], start=1))


def test_11_q7_alpha_0_is_ndcg_with_subtopic_counts_not_ndcg_ia():
    covers = {"d1": ("a", "b"), "d2": ("a",), "d3": ("b",), "d4": ()}
    judgments = {d: {s: 1 for s in subs} for d, subs in covers.items()}
    ranking = ["d2", "d1", "d4", "d3"]
    # alpha = 0: gains 1, 2, 0, 1; ideal 2, 1, 1, 0
    run = 1 + 2 / L3 + 1 / L5
    ideal = 2 + 1 / L3 + 1 / 2
    assert ck.alpha_ndcg(ranking, judgments, k=4, alpha=0) == pytest.approx(run / ideal)
    # nDCG-IA: subtopic a at ranks 1, 2 (1.0); b at ranks 2, 4: (1/L3 + 1/L5) / (1 + 1/L3)
    ndcg_ia = (1 + (1 / L3 + 1 / L5) / (1 + 1 / L3)) / 2
    assert abs(ndcg_ia - run / ideal) > 0.01


def test_11_q8_the_greedy_ideal_can_be_beaten():
    # d1 {b, d}, d2 {a, c}, d3 {b}, d4 {a, d}; k = 2. Greedy: d1, d2, d4 tie at 2, the last id
    # d4; then d2 gains 0.5 + 1: 2 + 1.5 / log2(3). [d1, d2] gains 2 + 2 / log2(3).
    covers = {"d1": ("b", "d"), "d2": ("a", "c"), "d3": ("b",), "d4": ("a", "d")}
    judgments = {d: {s: 1 for s in subs} for d, subs in covers.items()}
    best = max(itertools.permutations(covers, 2), key=lambda o: _dcg(_gains(o, covers, 0.5), 2))
    assert sorted(best) == ["d1", "d2"]
    expected = (2 + 2 / L3) / (2 + 1.5 / L3)
    assert ck.alpha_ndcg(["d1", "d2"], judgments, k=2) == pytest.approx(expected)
    assert expected > 1


def novelty_right(ranking, judgments, alpha):
    seen, out = {}, []
    for doc in ranking:
        subs = [s for s, g in judgments.get(doc, {}).items() if g >= 1]
        out.append(sum((1 - alpha) ** seen.get(s, 0) for s in subs))
        for s in subs:
            seen[s] = seen.get(s, 0) + 1
    return out


def novelty_no_penalty(ranking, judgments, alpha):
    return [sum(1 for g in judgments.get(d, {}).values() if g >= 1) for d in ranking]


def novelty_zero_counts(ranking, judgments, alpha):
    seen, out = {}, []
    for doc in ranking:
        subs = list(judgments.get(doc, {}))  # every subtopic graded, 0 included
        out.append(sum((1 - alpha) ** seen.get(s, 0) for s in subs))
        for s in subs:
            seen[s] = seen.get(s, 0) + 1
    return out


def novelty_numpy(ranking, judgments, alpha):
    import numpy

    return numpy.array(novelty_right(ranking, judgments, alpha))


def test_11_the_function_question():
    spec = public_spec(CH11, "q9")
    assert spec.allowed == ("numpy",)
    assert judging.judge_function_here(spec, novelty_right) == "q9: passed"
    assert judging.judge_function_here(spec, novelty_numpy) == "q9: passed"
    assert "gains less each time" in judging.judge_function_here(spec, novelty_no_penalty)
    assert "a grade of 0" in judging.judge_function_here(spec, novelty_zero_counts)


def test_11_the_hidden_cases_agree_with_the_hand_written_function():
    for label, args in load_key(CH11).QUESTIONS[-1].hidden:
        assert np.allclose(novelty_right(*args), ck.novelty_gains(*args)), label


def _relevant(judgments, doc):
    return [s for s, g in judgments.get(doc, {}).items() if g >= 1]


@pytest.mark.parametrize("seed", range(6))
def test_11_a_variant_keeps_the_text_true(seed):
    key = load_key(CH11)
    source, questions = key.generate(np.random.default_rng(seed))
    scope: dict = {}
    exec(source, scope)  # noqa: S102 - the key's own data cell
    judgments, ranking, k = scope["judgments"], scope["ranking"], scope["k"]
    intent, alpha = scope["intent"], scope["alpha"]
    assert alpha == 0.5 and 4 <= k <= 6
    assert len(ranking) == len(set(ranking)) == 8
    assert set(ranking) <= set(judgments) | {"d11"} and sorted(judgments) == [
        f"d{i:02d}" for i in range(1, 11)
    ]
    # the subtopics of intent are those with a relevant document; the probabilities sum to 1
    assert sorted(intent) == sorted({s for d in judgments for s in _relevant(judgments, d)})
    assert math.isclose(sum(intent.values()), 1.0) and min(intent.values()) > 0
    expected = {q.qid: q.expected for q in questions if hasattr(q, "expected")}
    # q2 and q3 against this file's own greedy (ties to the last id)
    covers = {d: _relevant(judgments, d) for d in judgments}
    assert np.allclose(expected["q2"], _gains(ranking[:k], covers, alpha))
    picks: list = []
    for _ in range(k):
        left = sorted(d for d in judgments if d not in picks)
        picks.append(max(left, key=lambda d: (_gains([*picks, d], covers, alpha)[-1], d)))
    assert expected["q3"] == picks
    ideal = _dcg(_gains(picks, covers, alpha), k)
    run = _dcg(_gains(ranking, covers, alpha), k)
    assert np.allclose(expected["q4"], [run, ideal, run / ideal])
    # q1 and q5 by hand
    seen: set = set()
    curve = []
    for doc in ranking:
        seen |= set(covers.get(doc, ()))
        curve.append(len(seen) / len(intent))
    assert np.allclose(expected["q1"], curve)
    ia = 0.0
    for s, p in intent.items():
        n_rel = sum(s in subs for subs in covers.values())
        gains = [float(s in covers.get(d, ())) for d in ranking]
        ia += p * _dcg(gains, k) / _dcg([1.0] * n_rel, k)
    assert expected["q5"] == pytest.approx(ia)
