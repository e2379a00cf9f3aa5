"""Exercises 06 (recall-oriented measures) and 07 (rank correlation): each common mistake's
hint is printed for the answer that mistake gives, the right answer passes, and the questions'
data in the notebooks agree with the answer keys.

Every number below is derived by hand in the comments, from the data of the exercises, never
taken from coursekit or from the keys.
"""

from __future__ import annotations

import math
from pathlib import Path

import nbformat
import pytest
from exercise_support import hint, load_key, public_spec
from scipy import stats

from coursekit.grading import judge_value

ROOT = Path(__file__).resolve().parents[1]
CH06, CH07 = "06_recall_oriented", "07_rank_correlation"


# --------------------------------------------------------------------------------------------
# Chapter 06. n = 6 relevant studies, N_max = 25; A finds ranks 1, 2, 4; B 3, 7, 11, 16, 22;
# C 2, 19, 21, 23, 24, 25 (all six).


def _pres(ranks: list[int]) -> float:
    # PRES = 1 - (mean of the 6 ranks - (6 + 1) / 2) / 25
    return 1 - (sum(ranks) / 6 - 3.5) / 25


# AP: A = (1/1 + 2/2 + 3/4) / 6 = 2.75 / 6; B = (1/3 + 2/7 + 3/11 + 4/16 + 5/22) / 6;
# C = (1/2 + 2/19 + 3/21 + 4/23 + 5/24 + 6/25) / 6. Dividing by the studies found: A by 3,
# B by 5, C by 6 (unchanged).
SUM_A, SUM_B = 1 + 1 + 3 / 4, 1 / 3 + 2 / 7 + 3 / 11 + 4 / 16 + 5 / 22
SUM_C = 1 / 2 + 2 / 19 + 3 / 21 + 4 / 23 + 5 / 24 + 6 / 25
AP06 = [SUM_A / 6, SUM_B / 6, SUM_C / 6]
# PRES's ranks for A: 1, 2, 4 found (h = 3), the 3 missing at 25 + 3 + 1 = 29, 30, 31.
# The slip "right after N_max": 26, 27, 28; the slip "0-based ranks": every rank minus 1.
# PRES of B: 3, 7, 11, 16, 22 and the missing one at 25 + 5 + 1 = 31 (sum 90, mean 15).
PRES_RIGHT = [_pres([1, 2, 4, 29, 30, 31]), 1 - (15 - 3.5) / 25, _pres([2, 19, 21, 23, 24, 25])]
# B's h = 5, w = 22. Best: ranks 1, 2, 3, 4, 22; worst: ranks 18 ... 22.
AP1_B = (4 + 5 / 22) / 6
AP0_B = (1 / 18 + 2 / 19 + 3 / 20 + 4 / 21 + 5 / 22) / 6
# With w = N_max = 25 by mistake: best 1, 2, 3, 4, 25; worst 21 ... 25.
AP_W25 = [(1 / 21 + 2 / 22 + 3 / 23 + 4 / 24 + 5 / 25) / 6, (4 + 5 / 25) / 6]
# Rnorm = 1 - (sum of ranks - 21) / (6 (D - 6)); B's missing study at rank D; C misses none.
# B: 59 + D; C: 114. D = 400: 6 * 394 = 2364; D = 40: 6 * 34 = 204.
RNORM_RIGHT = [1 - (459 - 21) / 2364, 1 - (114 - 21) / 2364, 1 - (99 - 21) / 204, 1 - 93 / 204]
# B's study at 22 moves to 23: the sum of ranks grows by 1, PRES drops by 1 / (6 * 25).
# It leaves the list: h = 4, the two missing ones take 25 + 4 + 1 = 30 and 31 (before: 22 and
# 31), the sum grows by 30 - 22 = 8: PRES drops by 8 / 150.
DROPS_RIGHT = [1 / 150, 8 / 150]


@pytest.mark.parametrize(
    "qid, answer",
    [
        ("q1", AP06),
        ("q2", [1, 2, 4, 29, 30, 31]),
        ("q3", PRES_RIGHT),
        ("q4", [AP0_B, AP1_B]),
        ("q5", RNORM_RIGHT),
        ("q7", DROPS_RIGHT),
    ],
)
def test_06_the_right_answer_passes(qid, answer):
    assert judge_value(public_spec(CH06, qid), answer) == f"{qid}: passed"


@pytest.mark.parametrize(
    "qid, answer, words",
    [
        # AP divided by the studies found: A by 3, B by 5, C by 6
        ("q1", [SUM_A / 3, SUM_B / 5, SUM_C / 6], "found"),
        ("q2", [1, 2, 4, 26, 27, 28], "right after N_max"),
        ("q2", [0, 1, 3, 28, 29, 30], "not at 0"),
        # the missing studies right after N_max: A 26, 27, 28; B 26
        (
            "q3",
            [_pres([1, 2, 4, 26, 27, 28]), _pres([3, 7, 11, 16, 22, 26]), PRES_RIGHT[2]],
            "right after N_max",
        ),
        # eq. 7 as printed for B: 5 "missing" (nR) at 31, 30, 29, 28, 27: sum 59 + 145 = 204;
        # for A nR = n(1 - R) = 3, for C nothing is missing: both right
        ("q3", [PRES_RIGHT[0], 1 - (204 / 6 - 3.5) / 25, PRES_RIGHT[2]], "eq. 7"),
        ("q4", [AP0_B * 6 / 5, AP1_B * 6 / 5], "divided by h"),
        ("q4", [AP1_B, AP0_B], "wrong way round"),
        ("q4", AP_W25, "not N_max"),
        # B's missing study at 26: sum 85, 85 - 21 = 64
        ("q5", [1 - 64 / 2364, RNORM_RIGHT[1], 1 - 64 / 204, RNORM_RIGHT[3]], "right after"),
        # denominator n D: 6 * 400 = 2400 and 6 * 40 = 240
        ("q5", [1 - 438 / 2400, 1 - 93 / 2400, 1 - 78 / 240, 1 - 93 / 240], "denominator"),
        # the drops not divided by n = 6
        ("q7", [6 / 150, 48 / 150], "k / n"),
        # the study that leaves taken to rank 31 (held already): 31 - 22 = 9
        ("q7", [1 / 150, 9 / 150], "keeps its place"),
        # "right after N_max" throughout: 22, 26 -> 26, 27: the sum grows by 5
        ("q7", [1 / 150, 5 / 150], "right after N_max"),
    ],
)
def test_06_each_mistake_prints_its_hint(qid, answer, words):
    assert judge_value(public_spec(CH06, qid), answer) == f"{qid}: not right yet: " + hint(
        CH06, qid, words
    )


def test_06_the_choices_follow_from_the_data():
    key = load_key(CH06)
    # q6: PRES puts C last (0.38 < 0.4933 < 0.54, from PRES_RIGHT above)
    assert PRES_RIGHT[2] < min(PRES_RIGHT[:2])
    # q9: MOR = (h + g) / 7 with g in [0, 1]: h = 5 needs MOR >= 5/7 = 0.714 > 0.70
    assert 0.705 < 5 / 7 and all(h / 7 <= v <= (h + 1) / 7 for h, v in key.TABLES["X"])
    letters = {q.qid: q.expected for q in key.QUESTIONS if hasattr(q, "options")}
    assert letters == {"q6": "b", "q8": "b", "q9": "b"}


def test_06_the_notebook_shows_the_keys_data():
    key = load_key(CH06)
    cells = nbformat.read(ROOT / "solutions" / f"{CH06}.ipynb", as_version=4).cells
    text = "\n".join(c.source for c in cells)
    for rows in key.TABLES.values():
        for h, v in rows:
            assert f"| {h} | {v:.2f} |" in text
    # the data cell is the key's public one (the cell a release replaces by a student's)
    assert [c.source for c in cells].count(key.generate(None)[0]) == 1
    # q7's moves: B's last study (rank 22) to 23, then out of the list
    assert key.moved_b(key.FOUND_AT) == {
        "one rank down": [3, 7, 11, 16, 23],
        "not returned": [3, 7, 11, 16],
    }


# --------------------------------------------------------------------------------------------
# Chapter 07. MAP (mean of 8 AP): mix 0.4625, bm25 0.43, rm3 0.42375, bert 0.42, dfr 0.4125,
# ql 0.34875. nDCG@10: bert, mix, rm3, dfr, bm25, ql. P@10 ties bm25 = rm3 and ql = dfr.

BY_MAP = ["mix", "bm25", "rm3", "bert", "dfr", "ql"]
# d = position by MAP - position by nDCG@10: bm25 2-5, ql 6-6, dfr 5-4, rm3 3-3, bert 4-1,
# mix 1-2: 9 + 0 + 1 + 0 + 9 + 1 = 20. With nDCG@10 reversed (ql first): bm25 2-2, ql 6-1,
# dfr 5-3, rm3 3-4, bert 4-6, mix 1-5: 0 + 25 + 4 + 1 + 4 + 16 = 50.
# rho = 1 - 6 * 20 / (6 * 35) = 3/7. Pairs: 10 concordant, 5 discordant (the 5 pairs of
# bm25 with dfr, rm3, bert; rm3-bert; bert-mix), tau = 5/15.
# bert falls below mix: the pair (bert, mix) turns concordant, tau = 7/15.
# MAP against P@10: 10 concordant, 3 discordant (bm25-bert, rm3-bert, bert-mix), 2 tied by
# P@10 only: tau-a = 7/15, tau-b = 7 / sqrt(13 * 15).
TAU_B = 7 / math.sqrt(13 * 15)


@pytest.mark.parametrize(
    "qid, answer",
    [
        ("q1", BY_MAP),
        ("q2", 20),
        ("q3", 3 / 7),
        ("q4", [10, 5]),
        ("q5", [5 / 15, 7 / 15]),
        ("q7", [7 / 15, TAU_B]),
    ],
)
def test_07_the_right_answer_passes(qid, answer):
    assert judge_value(public_spec(CH07, qid), answer) == f"{qid}: passed"


@pytest.mark.parametrize(
    "qid, answer, words",
    [
        ("q1", BY_MAP[::-1], "lowest MAP"),
        ("q2", 50, "lowest score"),
        ("q2", 0, "square each difference"),
        ("q3", -3 / 7, "lowest score"),  # 1 - 6 * 50 / 210
        ("q3", 1 - 20 / 70, "share"),  # divided by the maximum 70 only
        ("q4", [5, 10], "wrong way round"),
        ("q4", [20, 10], "each pair counts once"),  # ordered pairs: every pair twice
        ("q5", [5 / 15, 3 / 15], "other way"),
        ("q5", [5 / 15, 6 / 15], "moves by 2"),
        ("q5", [5 / 15, 5 / 15], "swaps two systems"),
        ("q5", [-5 / 15, -7 / 15], "lowest score"),
        ("q7", [9 / 15, 9 / 15], "as concordant"),  # (10 + 2 - 3) / 15, no pair tied
        ("q7", [5 / 15, 5 / 15], "as discordant"),  # (10 - 3 - 2) / 15
        ("q7", [TAU_B, 7 / 15], "tau-a comes first"),
        # untied pairs 15 (MAP) and 13 (P@10): 7 / ((15 + 13) / 2) = 0.5, not 7 / sqrt(195)
        ("q7", [7 / 15, 7 / 14], "geometric mean"),
    ],
)
def test_07_each_mistake_prints_its_hint(qid, answer, words):
    assert judge_value(public_spec(CH07, qid), answer) == f"{qid}: not right yet: " + hint(
        CH07, qid, words
    )


def test_07_the_choices_follow_from_the_data():
    key = load_key(CH07)
    # q9: without ties tau = (2C - 15) / 15: 0.73 = 11/15 can be printed, 0.67 = 10/15 cannot
    assert round(11 / 15, 2) == key.PRINTED["X"][1]
    assert all(round((2 * c - 15) / 15, 2) != key.PRINTED["Y"][1] for c in range(16))
    # q8: with ties the Σd² formula is not rho. Average positions: MAP 2, 6, 5, 3, 4, 1 and
    # P@10 3.5, 5.5, 5.5, 3.5, 1, 2 (bm25, ql, dfr, rm3, bert, mix): Σd² = 2.25 + 0.25 +
    # 0.25 + 0.25 + 9 + 1 = 13, so the formula gives 1 - 78/210, not rho.
    # rho with ties from scipy (Pearson on average ranks), on the means of the data cell
    map_scores = [0.43, 0.34875, 0.4125, 0.42375, 0.42, 0.4625]
    p10 = [0.4875, 0.45, 0.45, 0.4875, 0.525, 0.5125]
    rho = stats.spearmanr(map_scores, p10).statistic
    assert not math.isclose(1 - 78 / 210, rho, abs_tol=1e-4)
    letters = {q.qid: q.expected for q in key.QUESTIONS if hasattr(q, "options")}
    assert letters == {"q6": "b", "q8": "a", "q9": "b"}


def test_07_the_notebook_shows_the_keys_data():
    key = load_key(CH07)
    cells = nbformat.read(ROOT / "solutions" / f"{CH07}.ipynb", as_version=4).cells
    text = "\n".join(c.source for c in cells)
    for name, (rho, tau) in key.PRINTED.items():
        assert f"| {name} | {rho:.2f} | {tau:.2f} |" in text
    assert [c.source for c in cells].count(key.generate(None)[0]) == 1
    # q5's correction: bert (0.571, first by nDCG@10) set 0.006 below mix (0.556)
    assert key.corrected(key.NDCG10)["bert"] == pytest.approx(0.550)
    assert f"{key.CORRECTION}" in text


# --------------------------------------------------------------------------------------------
# Per-student variants (generate(rng) in the keys)
