"""Exercises 01 (precision, recall, F), 02 (curves, interpolation) and 04 (top of the list):
each common mistake's hint is printed for the answer that mistake gives, the right answer
passes, the notebooks show the keys' data, and per-student variants keep the text true.

Every number below is derived by hand in the comments, from the data of the exercises, never
taken from coursekit or from the keys.
"""

from __future__ import annotations

import math
from pathlib import Path

import nbformat
import numpy as np
import pytest
from exercise_support import load_key, public_spec, says

from coursekit.grading import Choice, judge_value, judging

ROOT = Path(__file__).resolve().parents[1]
CH01, CH02, CH04 = "01_precision_recall", "02_curves_interpolation", "04_top_of_list"
CHAPTERS = [CH01, CH02, CH04]


KEYS = {chapter: load_key(chapter) for chapter in CHAPTERS}


# --------------------------------------------------------------------------------------------
# Chapter 01. D = 40, n = 8 relevant, N = 10 retrieved; relevant and retrieved in common: d02,
# d05, d07, d13, d23, so TP = 5, FP = 5, FN = 3, TN = 40 - 13 = 27. P = 1/2, R = 5/8.
# q4: one missed relevant and 9 non-relevant documents added: TP 6, FP 14, FN 2, TN 18 of 20
# retrieved: P = 6/20, R = 6/8, accuracy (6 + 18)/40.
# q5: F1 = 2 (1/2)(5/8) / (1/2 + 5/8) = 5/9; arithmetic mean 9/16.
# q6: alpha/P + (1 - alpha)/R = alpha/1 + (1 - alpha) 8 with 1/P = 2, 1/R = 1.6:
# 2 alpha + 1.6 (1 - alpha) = alpha + 8 (1 - alpha), so 7.4 alpha = 6.4, alpha = 32/37 and
# beta^2 = (1 - alpha)/alpha = 5/32.
BETA_01 = math.sqrt(5 / 32)


@pytest.mark.parametrize(
    "qid, answer",
    [
        ("q1", [5, 5, 3, 27]),
        ("q2", 0.5),
        ("q3", 5 / 8),
        ("q4", [6 / 20, 6 / 8, 24 / 40]),
        ("q5", 5 / 9),
        ("q6", BETA_01),
        ("q7", 32 / 40),
    ],
)
def test_01_the_right_answer_passes(qid, answer):
    assert judge_value(public_spec(CH01, qid), answer) == f"{qid}: passed"


@pytest.mark.parametrize(
    "qid, answer, words",
    [
        ("q1", [5, 3, 5, 27], "wrong way round"),
        ("q1", [5, 5, 3, 30], "not true negatives"),  # TN taken as 40 - 10
        ("q2", 5 / 8, "that is recall"),
        ("q3", 0.5, "that is precision"),
        ("q4", [6 / 10, 6 / 8, 24 / 40], "precision divides by the new number"),
        ("q4", [6 / 20, 5 / 8, 24 / 40], "recall grows"),
        ("q4", [6 / 20, 6 / 8, 32 / 40], "accuracy moves too"),  # (5 + 27) / 40, as before
        ("q4", [6 / 20, 6 / 8, 33 / 40], "left TN as it was"),  # (6 + 27) / 40
        ("q5", 9 / 16, "arithmetic mean"),
        ("q6", 5 / 32, "you gave beta^2"),
        ("q6", 32 / 37, "you gave alpha"),
        ("q6", math.sqrt(32 / 5), "wrong way round"),
    ],
)
def test_01_each_mistake_prints_its_hint(qid, answer, words):
    assert says(CH01, qid, answer, words)


def test_01_the_choices_follow_from_the_data():
    key = KEYS[CH01]
    # q8: X: TP = 6 of 12, recall 6/8 = 0.75, F1 = 12/20 = 0.60: possible. Y: precision 0.50
    # of 6 gives TP = 3 and recall 3/8 = 0.375, never 0.40 (nor does any other TP of 6).
    assert key.TABLES["Y"][:3] == (6, 0.50, 0.40)
    assert all(round(tp / 8, 2) != 0.40 or round(tp / 6, 2) != 0.50 for tp in range(7))
    # q9: the script counts (5 + 1) / 11 = 0.5455, coursekit 5 / 10; b) would be 5/11,
    # c) 4/9, d) 5/8: only a) gives the two printed values
    data = _data_cell(CH01)
    log = key.logged(data["retrieved"], data["relevant"])
    assert len(log) == 11 and len(set(log)) == 10
    letters = {q.qid: q.expected for q in key.QUESTIONS if isinstance(q, Choice)}
    assert letters == {"q8": "b", "q9": "a"}


def _beta_not_squared(precision, recall, beta=1.0):
    if precision == 0 or recall == 0:
        return 0.0
    return (1 + beta) * precision * recall / (beta * precision + recall)


def test_01_q10_a_function_with_beta_not_squared_gets_its_hint():
    # beta = 2 on P = 0.4, R = 0.8: 3 * 0.32 / 1.6 = 0.6 instead of 5 * 0.32 / 2.4 = 0.6667
    message = judging.judge_function_here(public_spec(CH01, "q10"), _beta_not_squared)
    assert "beta is squared" in message


# --------------------------------------------------------------------------------------------
# Chapter 02. A on t1 (n = 6): relevant at ranks 1, 3, 4, 9; TP(k) = 1, 1, 2, 3, 3, 3, 3, 3, 4,
# 4, 4, 4; P(k) = 1, 1/2, 2/3, 3/4, 3/5, 1/2, 3/7, 3/8, 4/9, 4/10, 4/11, 4/12: it rises at
# ranks 3, 4 and 9.
TP_A1 = [1, 1, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4]
P_A1 = [c / k for k, c in enumerate(TP_A1, start=1)]
R_A1 = [c / 6 for c in TP_A1]
# Interpolated: levels 0, 0.1 reached at rank 1 (precision 1); 0.2 to 0.5 need 2 or 3 found
# (rank 3 on: best 3/4, at rank 4); 0.6 needs 4 found (rank 9 on: best 4/9); 0.7 to 1 never
# reached. Without the maximum, levels 0.2 and 0.3 would read 2/3 at rank 3, where they are
# first reached.
IAP_A1 = [1, 1, 3 / 4, 3 / 4, 3 / 4, 3 / 4, 4 / 9, 0, 0, 0, 0]
FIRST_A1 = [1, 1, 2 / 3, 2 / 3, 3 / 4, 3 / 4, 4 / 9, 0, 0, 0, 0]
# B averaged over t1 and t2: t1 (ranks 2, 4, 5, 7, 9, 11 of 6) gives 3/5 up to level 0.5, then
# 4/7, 5/9, 5/9, 6/11, 6/11; t2 (ranks 2, 3, 5, 8 of 4) gives 2/3 up to 0.5, then 3/5, 3/5,
# 1/2, 1/2, 1/2.
B1 = [3 / 5] * 6 + [4 / 7, 5 / 9, 5 / 9, 6 / 11, 6 / 11]
B2 = [2 / 3] * 6 + [3 / 5, 3 / 5, 1 / 2, 1 / 2, 1 / 2]
IAP_B = [(x + y) / 2 for x, y in zip(B1, B2, strict=True)]
# A averaged: t2 (ranks 1, 3 of 4) gives 1 up to 0.2, 2/3 from 0.3 to 0.5, then 0.
A2 = [1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 0, 0, 0, 0, 0]
IAP_A = [(x + y) / 2 for x, y in zip(IAP_A1, A2, strict=True)]
# Without the maximum (the precision at the first rank reaching each level), B: t1 0, 1/2,
# 1/2, 1/2, 3/5, 3/5, 4/7, 5/9, 5/9, 6/11, 6/11; t2 0, 1/2, 1/2, 2/3, 2/3, 2/3, 3/5, 3/5,
# 1/2, 1/2, 1/2.
B1_FIRST = [0, 1 / 2, 1 / 2, 1 / 2, 3 / 5, 3 / 5, 4 / 7, 5 / 9, 5 / 9, 6 / 11, 6 / 11]
B2_FIRST = [0, 1 / 2, 1 / 2, 2 / 3, 2 / 3, 2 / 3, 3 / 5, 3 / 5, 1 / 2, 1 / 2, 1 / 2]


@pytest.mark.parametrize(
    "qid, answer",
    [("q1", P_A1), ("q2", R_A1), ("q3", [3, 4, 9]), ("q4", IAP_A1), ("q6", IAP_B), ("q7", 0.6)],
)
def test_02_the_right_answer_passes(qid, answer):
    assert judge_value(public_spec(CH02, qid), answer) == f"{qid}: passed"


@pytest.mark.parametrize(
    "qid, answer, words",
    [
        ("q1", R_A1, "that is recall"),
        ("q1", TP_A1, "divide it by k"),
        ("q2", P_A1, "that is precision"),
        ("q2", [c / 4 for c in TP_A1], "A retrieved"),  # 4 of the 6 relevant retrieved
        ("q3", [2, 3, 8], "not at 0"),
        # a level never reached carries the value of level 0.6
        ("q4", IAP_A1[:7] + [4 / 9] * 4, "the level before"),
        # the precision where each level is first reached, without the maximum
        ("q4", FIRST_A1, "first reached"),
        # levels read as ranks: the best precision from rank i + 1 on
        (
            "q4",
            [1, 3 / 4, 3 / 4, 3 / 4, 3 / 5, 1 / 2, 4 / 9, 4 / 9, 4 / 9, 4 / 10, 4 / 11],
            "not ranks",
        ),
        ("q6", IAP_A, "system A's curve"),
        ("q6", [2 * x for x in IAP_B], "summed"),
        ("q6", [(x + y) / 2 for x, y in zip(B1_FIRST, B2_FIRST, strict=True)], "first reached"),
        ("q7", 6, "not its position"),
    ],
)
def test_02_each_mistake_prints_its_hint(qid, answer, words):
    assert says(CH02, qid, answer, words)


def _levels_times_tenth(rels, n_relevant, levels=None):
    if levels is None:
        levels = [0.1 * i for i in range(11)]
    found, points = 0, []
    for rank, grade in enumerate(rels, start=1):
        if grade >= 1:
            found += 1
        points.append((found, found / rank))
    return [
        max([p for f, p in points if n_relevant > 0 and f / n_relevant >= level], default=0.0)
        for level in levels
    ]


def _first_reaching(rels, n_relevant, levels=None):
    if levels is None:
        levels = [i / 10 for i in range(11)]
    found, points = 0, []
    for rank, grade in enumerate(rels, start=1):
        if grade >= 1:
            found += 1
        points.append((found, found / rank))
    values = []
    for level in levels:
        reached = [p for f, p in points if n_relevant > 0 and f >= level * n_relevant - 1e-9]
        values.append(reached[0] if reached else 0.0)
    return values


@pytest.mark.parametrize(
    "func, words",
    [
        # 7 of 10 relevant first: recall 0.7 at rank 7, but 0.1 * 7 = 0.7000000000000001
        (_levels_times_tenth, "i / 10"),
        # 3 of 5 at ranks 2, 3, 5: level 0.2 is first reached at rank 2 (1/2), the best from
        # there is 2/3 at rank 3
        (_first_reaching, "first reached"),
    ],
)
def test_02_q5_a_mistaken_function_gets_its_hint(func, words):
    message = judging.judge_function_here(public_spec(CH02, "q5"), func)
    assert "wrong on the case" in message and words in message, message


def test_02_the_choices_follow_from_the_data():
    # q8: at level 0.1 A averages 1 and B 19/30; at level 1.0 A 0 and B 23/44
    assert IAP_A[1] > IAP_B[1] and IAP_B[10] > IAP_A[10]
    letters = {q.qid: q.expected for q in KEYS[CH02].QUESTIONS if isinstance(q, Choice)}
    assert letters == {"q8": "b", "q9": "b", "q10": "a"}


# --------------------------------------------------------------------------------------------
# Chapter 04. S: u1 relevant at 2, 5 (n = 2); u2 at 3, 4, 5, 7 (n = 5); u3 none (n = 1);
# u4 at 2, 3, 4, 6, 7, 9 (n = 8); u5 at 3, 4, 6 (n = 3). T's first relevant: 1, 1, 4, 1, 1.


@pytest.mark.parametrize(
    "qid, answer",
    [
        ("q1", [2 / 5, 3 / 5, 0, 3 / 5, 2 / 5]),
        ("q2", [1 / 2, 3 / 5, 0, 5 / 8, 1 / 3]),  # P@2, P@5, P@1, P@8, P@3
        ("q3", 8),  # P@8 = R@8 = 5/8
        ("q4", [1 / 2, 1 / 3, 0, 1 / 2, 1 / 3]),
        ("q5", [1 / 3, 17 / 20]),  # S: (5/3) / 5; T: (4 + 1/4) / 5
        ("q8", 0.3),
    ],
)
def test_04_the_right_answer_passes(qid, answer):
    assert judge_value(public_spec(CH04, qid), answer) == f"{qid}: passed"


@pytest.mark.parametrize(
    "qid, answer, words",
    [
        ("q1", [2 / 2, 3 / 5, 0, 3 / 8, 2 / 3], "recall at 5"),
        ("q1", [2 / 5, 3 / 5, 0, 4 / 5, 3 / 5], "you counted 6"),  # ranks 1 to 6
        ("q2", [2 / 2, 4 / 5, 0, 6 / 8, 3 / 3], "whole page"),
        ("q2", [2 / 10, 4 / 10, 0, 6 / 10, 3 / 10], "not at 10"),
        ("q2", [1 / 2, 3 / 5, 0, 6 / 8, 2 / 3], "one more"),  # first n + 1 documents
        ("q3", 7, "not at 0"),
        ("q4", [1, 1 / 2, 0, 1, 1 / 2], "not at 0"),  # 1 / (rank - 1)
        ("q4", [1, 1, 1, 1, 1], "first document returned"),
        ("q4", [1 / 2, 1 / 3, 1 / 11, 1 / 2, 1 / 3], "just after the page"),
        ("q4", [2, 3, 0, 2, 3], "you gave the rank"),
        ("q5", [5 / 12, 17 / 20], "every query counts"),  # S over the 4 queries it answers
        ("q5", [1 / 2.5, 1 / 1.6], "reciprocal of the mean rank"),  # mean ranks 2.5 and 1.6
        ("q5", [17 / 20, 1 / 3], "comes first"),
        ("q8", 1.0, "divides by 10 even"),  # 3 relevant of 3 retrieved
        ("q8", 3, "a number of documents"),
    ],
)
def test_04_each_mistake_prints_its_hint(qid, answer, words):
    assert says(CH04, qid, answer, words)


def _r_precision_divided_by_retrieved(rels, n_relevant):
    if n_relevant == 0:
        return 0.0
    top = rels[:n_relevant]
    if not top:
        return 0.0
    return sum(1 for g in top if g >= 1) / len(top)


def test_04_q10_dividing_by_the_retrieved_gets_its_hint():
    # [1, 1] with n = 5: 2/5 = 0.4, not 2/2
    message = judging.judge_function_here(
        public_spec(CH04, "q10"), _r_precision_divided_by_retrieved
    )
    assert "shorter than n" in message and "not by the documents retrieved" in message


def test_04_the_choices_follow_from_the_data():
    # q7: MRR 1/3 (S) < 17/20 (T); mean P@10 (2 + 4 + 0 + 6 + 3)/50 = 0.3 (S) > 7/50 (T)
    letters = {q.qid: q.expected for q in KEYS[CH04].QUESTIONS if isinstance(q, Choice)}
    assert letters == {"q6": "c", "q7": "c", "q9": "b"}


def test_04_the_notebook_uses_n_for_the_number_of_relevant_documents():
    text = "\n".join(
        c.source
        for c in nbformat.read(ROOT / "solutions" / f"{CH04}.ipynb", as_version=4).cells
        if c.cell_type == "markdown"
    )
    assert "we know n, the" in text and "we know R" not in text and "rank R" not in text


# --------------------------------------------------------------------------------------------
# Every chapter: hints, the data cell, variants


def _data_cell(chapter: str) -> dict:
    """The variables of the solution notebook's data cell (after "## The example")."""
    cells = nbformat.read(ROOT / "solutions" / f"{chapter}.ipynb", as_version=4).cells
    at = next(i for i, c in enumerate(cells) if c.source.startswith("## The example"))
    names: dict = {"ck": __import__("coursekit")}
    exec(cells[at + 1].source, names)
    return names


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_public_data_cell_is_the_notebooks(chapter):
    key = KEYS[chapter]
    for folder in ("solutions", "exercises"):
        cells = nbformat.read(ROOT / folder / f"{chapter}.ipynb", as_version=4).cells
        assert [c.source for c in cells].count(key.generate(None)[0]) == 1


def _names(source: str) -> dict:
    names: dict = {"ck": __import__("coursekit")}
    exec(source, names)
    return names


def test_variants_keep_the_text_true():
    for seed in range(20):
        rng = np.random.default_rng(seed)
        # 01: n relevant, N retrieved of D (ids d01 ... dD), 2 <= TP < n and TP < N; the sure
        # document (P = 1, R = 1/n) ties with the system at some beta > 0: 1/F_beta =
        # alpha/P + (1 - alpha)/R is equal for both when alpha (1/P - 1) = (1 - alpha)(n - 1/R)
        d = _names(KEYS[CH01].generate(rng)[0])
        n, size = len(set(d["relevant"])), len(set(d["retrieved"]))
        tp = len(set(d["relevant"]) & set(d["retrieved"]))
        assert set(d["relevant"]) | set(d["retrieved"]) <= {f"d{i:02d}" for i in range(1, 100)}
        assert 2 <= tp < min(n, size + 1) and tp < size
        assert d["n_docs"] - n - (size - tp) >= 9  # q4 adds 9 documents neither
        alpha = (n - n / tp) / (n - n / tp + size / tp - 1)
        beta = KEYS[CH01].tie_beta(tp / size, tp / n, n)
        assert beta > 0 and math.isclose(beta**2, (1 - alpha) / alpha)
        # 02: A finds 2 to 5 of t1's 6 and 1 or 3 of t2's 4, B all of them, in 12 ranks
        d = _names(KEYS[CH02].generate(rng)[0])
        assert 2 <= sum(d["system_a"]["t1"]) <= 5 and sum(d["system_a"]["t2"]) in (1, 3)
        assert [sum(d["system_b"][t]) for t in ("t1", "t2")] == [6, 4]
        assert all(len(s[t]) == 12 for s in (d["system_a"], d["system_b"]) for t in ("t1", "t2"))
        # 04: S finds nothing for u3; u5 has fewer than 10 relevant documents (q8); S's
        # precision and recall on u4 meet at k = n only: TP(k)/k = TP(k)/n > 0
        d = _names(KEYS[CH04].generate(rng)[0])
        assert d["system_s"]["u3"] == [0] * 10
        assert 1 <= d["n_relevant"]["u5"] < 10 and 3 <= d["n_relevant"]["u4"] <= 10
        assert sum(d["system_s"]["u4"][: d["n_relevant"]["u4"]]) > 0
