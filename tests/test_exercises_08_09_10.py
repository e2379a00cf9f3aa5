"""Exercises 08, 09 and 10: each common mistake's hint is printed for the answer that mistake
gives, the right answer passes, the notebooks show the keys' data, and each per-student variant
keeps the text true and is solved by its own solution. Numbers are derived by hand in the
comments (08, on the course collection: with pytrec_eval and scipy), never taken from coursekit."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from exercise_support import collection_ap_by_topic, load_key, public_spec, says
from scipy import stats

from coursekit.grading import judge_value, judging

ROOT = Path(__file__).resolve().parents[1]
CH08, CH09, CH10 = "08_comparing_systems", "09_relevance_judgments", "10_users_online"
CHAPTERS = [CH08, CH09, CH10]


# --------------------------------------------------------------------------------------------
# Chapter 08, on the course collection: per-topic AP from pytrec_eval (a topic a run does not
# answer: 0), p-values and power from scipy.


@pytest.fixture(scope="module")
def ap08() -> dict[str, dict[str, float]]:
    """Per-topic AP of A (bm25_b0_stem) and B (tfidf) by pytrec_eval, on the topics each answers."""
    topics, out = collection_ap_by_topic(("bm25_b0_stem", "tfidf"))
    out["topics"] = topics
    return out


def _both(ap08) -> tuple[np.ndarray, np.ndarray]:
    """A's and B's AP on every topic of the qrels (0 where a run answers nothing)."""
    return tuple(
        np.array([ap08[s].get(t, 0.0) for t in ap08["topics"]]) for s in ("bm25_b0_stem", "tfidf")
    )


def test_08_mistakes_on_maps_gains_counts_and_p_value(ap08):
    a, b = _both(ap08)
    map_a, map_b = a.mean(), b.mean()
    assert judge_value(public_spec(CH08, "q1"), [map_a, map_b]) == "q1: passed"
    # tfidf answers 53 of the 54 topics: its mean over those only is higher
    answered_b = np.mean(list(ap08["tfidf"].values()))
    assert len(ap08["tfidf"]) < len(ap08["topics"])
    says(CH08, "q1", [map_a, answered_b], "missing_as_zero")
    says(CH08, "q1", [map_b, map_a], "comes first")
    # (the gain and the wins, q2 and q3 of the second edition, are gone: see test_ch08_exercises)
    p = stats.ttest_rel(a, b).pvalue
    assert judge_value(public_spec(CH08, "q4"), p) == "q4: passed"
    says(CH08, "q4", p / 2, "halved")
    says(CH08, "q4", stats.ttest_ind(a, b).pvalue, "unpaired")


def test_08_a_p_value_is_checked_to_significant_digits_not_decimals(ap08):
    # p is about 2.07e-4: to 4 decimals, 0.0002, and so were the Wilcoxon test's p (2.3e-4),
    # the randomization test's floor (2/10,001) and 0.00015, which all passed
    a, b = _both(ap08)
    p = stats.ttest_rel(a, b).pvalue
    assert 1e-4 < p < 1e-3
    spec = public_spec(CH08, "q4")
    assert spec.significant is True
    for wrong in (stats.wilcoxon(a, b).pvalue, 2 / 10_001, 0.00015, 0.0002):
        assert judge_value(spec, wrong).startswith("q4: not right yet"), wrong
    assert judge_value(spec, float(f"{p:.3e}")) == "q4: passed"  # 4 significant digits
    assert judge_value(spec, float(f"{p:.1e}")) == (
        "q4: right to 2 significant digits only: give at least 4 significant digits "
        "(do not round before the end)"
    )


# q5 on [0.011, 0.020, 0.004, 0.041]: sorted 0.004 * 4 = 0.016, 0.011 * 3 = 0.033,
# 0.020 * 2 = 0.040, 0.041 * 1 = 0.041: Holm rejects 4. Bonferroni (times 4): 0.044, 0.080,
# 0.016, 0.164: 2. Multipliers the wrong way (1, 2, 3, 4): 0.004, 0.022, 0.060 stops: 2.
# No correction: 4 and 4.
@pytest.mark.parametrize(
    "answer, words",
    [([2, 2], "the largest by 1"), ([4, 4], "without any correction"), ([2, 4], "comes first")],
)
def test_08_holm_mistakes(answer, words):
    assert judge_value(public_spec(CH08, "q5"), [4, 2]) == "q5: passed"
    says(CH08, "q5", answer, words)


def gain_over_a(a, b):
    return 100.0 * (a - b) / a


def test_08_a_gain_function_divided_by_a_gets_its_hint():
    assert "not by a" in judging.judge_function_here(public_spec(CH08, "q9"), gain_over_a)


# --------------------------------------------------------------------------------------------
# Chapter 09. 200 documents: both yes 120, both no 50, yes/no 20, no/yes 10.
# P(A) = 170/200 = 0.85; assessor 1 says yes to 140/200 = 0.7, assessor 2 to 130/200 = 0.65.
# P(E) = 0.7 * 0.65 + 0.3 * 0.35 = 0.56; kappa = 0.29 / 0.44.
# Assessor 1's shares only: 0.49 + 0.09 = 0.58, kappa 0.27 / 0.42; assessor 2's only:
# 0.4225 + 0.1225 = 0.545, kappa 0.305 / 0.455; the "no" term forgotten: P(E) = 0.455, kappa
# 0.395 / 0.545. Pooled: P(yes) = 270/400 = 0.675, P(E) = 0.455625 + 0.105625 = 0.56125,
# kappa 0.28875 / 0.43875.

Q1 = [0.85, 0.56, 0.29 / 0.44]
POOLED = 0.28875 / 0.43875


@pytest.mark.parametrize(
    "qid, answer",
    [
        ("q1", Q1),
        ("q2", POOLED),
        # Fleiss: P_i = (Σ n_ij² - 3) / 6 = 1, 1/3, 1, 1/3: mean 2/3; p = 6/12 each: P_e = 1/2
        ("q3", [2 / 3, 1 / 2, 1 / 3]),
        # bpref, R = 4, N = 5, min = 4: rank 1 (none above) 1; rank 4 (rank 3 above) 3/4;
        # rank 8 (ranks 3, 6, 7 above) 1/4: 2 / 4
        ("q4", 0.5),
        # AP: 1/1, 2/4, 3/8 over 4 = 0.46875; AP' on [1, 0, 1, 0, 0, 1]: 1, 2/3, 3/6 over 4
        ("q5", [0.46875, (1 + 2 / 3 + 0.5) / 4]),
    ],
)
def test_09_the_right_answer_passes(qid, answer):
    assert judge_value(public_spec(CH09, qid), answer) == f"{qid}: passed"


@pytest.mark.parametrize(
    "qid, answer, words",
    [
        ("q1", [0.85, 0.58, 0.27 / 0.42], "assessor 1's label shares only"),
        ("q1", [0.85, 0.545, 0.305 / 0.455], "assessor 2's label shares only"),
        ("q1", [0.85, 0.455, 0.395 / 0.545], "both say 'no'"),
        ("q1", [0.85, 0.56, 0.85], "corrects P(A)"),  # P(E) forgotten
        ("q1", [0.85, 0.56, 0.29], "divides P(A) - P(E)"),
        ("q1", [0.85, 0.56125, POOLED], "pooled chance agreement"),
        ("q2", 0.29 / 0.44, "Cohen's kappa of q1"),
        ("q2", 0.27 / 0.42, "not only assessor 1's"),
        # P_i = Σ n_ij² / 9 = 1, 5/9, 1, 5/9: mean 7/9, kappa (7/9 - 1/2) / (1/2) = 5/9
        ("q3", [7 / 9, 1 / 2, 5 / 9], "pairs of different assessors"),
        ("q3", [2 / 3, 1 / 2, 1 / 6], "divides mean P_i - P_e"),
        # unjudged as non-relevant: rank 4 has 2 above (3/4 -> 1/2), rank 8 has 5, capped at 4
        # (0): (1 + 0.5 + 0) / 4
        ("q4", 1.5 / 4, "skips unjudged"),
        # divided by N = 5: 1 + 4/5 + 2/5 = 2.2, over 4
        ("q4", 2.2 / 4, "min(R, N)"),
        # over the 3 relevant documents retrieved: 2 / 3
        ("q4", 2 / 3, "not by those retrieved"),
        ("q5", [1.875 / 3, (1 + 2 / 3 + 0.5) / 3], "relevant documents retrieved"),
        ("q5", [(1 + 2 / 3 + 0.5) / 4, 0.46875], "comes first"),
    ],
)
def test_09_each_mistake_prints_its_hint(qid, answer, words):
    says(CH09, qid, answer, words)


def kappa_first_shares(a, b):
    n = len(a)
    p_a = sum(x == y for x, y in zip(a, b, strict=True)) / n
    p_e = sum((list(a).count(c) / n) ** 2 for c in set(a))  # assessor 1's shares only
    return float("nan") if p_e >= 1 else (p_a - p_e) / (1 - p_e)


def test_09_a_kappa_function_with_one_lists_shares_gets_its_hint():
    # on ["y", "y"] / ["n", "n"]: P(E) = 1 from the first list alone (nan), 0 by Cohen's
    message = judging.judge_function_here(public_spec(CH09, "q9"), kappa_first_shares)
    assert "assessor 1's label shares only" in message


def test_08_q9_a_gain_rounded_early_fails_the_self_check():
    # 100 (0.3341 - 0.3125) / 0.3125 = 6.912: rounded to 1 decimal, 6.9; the other public
    # cases' gains (5, -25, 0, -100) are whole numbers and could not catch it
    def rounded(a, b):
        return round(100 * (a - b) / b, 1)

    message = judging.judge_function_here(public_spec(CH08, "q9"), rounded)
    assert message.startswith("q9: wrong on the case 'a small gain'")


def scott_pi(a, b):
    n = len(a)
    p_a = sum(x == y for x, y in zip(a, b, strict=True)) / n
    both = list(a) + list(b)
    p_e = sum((both.count(c) / (2 * n)) ** 2 for c in set(both))  # the labels pooled
    return float("nan") if p_e >= 1 else (p_a - p_e) / (1 - p_e)


def kappa_zero_when_undefined(a, b):
    n = len(a)
    p_a = sum(x == y for x, y in zip(a, b, strict=True)) / n
    labels = set(a) | set(b)
    p_e = sum((list(a).count(c) / n) * (list(b).count(c) / n) for c in labels)
    return 0.0 if p_e >= 1 else (p_a - p_e) / (1 - p_e)


def test_09_the_public_cases_catch_pooled_shares_and_a_0_for_nan():
    # y y y n y / y n n n y: P(A) = 3/5; Cohen P(E) = 4/5 * 2/5 + 1/5 * 3/5 = 11/25, kappa =
    # (15/25 - 11/25) / (14/25) = 2/7; pooled shares 6/10 and 4/10: P(E) = 13/25, pi = 1/6.
    # Both passed the self-check, which then had only equal shares and no "all the same" case
    pooled = judging.judge_function_here(public_spec(CH09, "q9"), scott_pi)
    assert "Scott's pi" in pooled
    zero = judging.judge_function_here(public_spec(CH09, "q9"), kappa_zero_when_undefined)
    assert zero.startswith("q9: wrong on the case 'edge case: all the same'")


# --------------------------------------------------------------------------------------------
# Chapter 10. rels [1, 0, 1, 1, 0], p = 0.8: RBP = 0.2 (1 + 0.8² + 0.8³) = 0.2 * 2.152 =
# 0.4304, residual 0.8⁵ = 0.32768. Rank 2 unjudged: 0.2 * 0.8 + 0.32768 = 0.48768.
# ERR, grades [2, 0, 1], g_max 2: R = 3/4, 0, 1/4; ERR = 3/4 + (1/4)(1)(1/4)/3 = 0.7708333.
# Team draft, a = d2 d5 d1 d7 d3 d8, b = d5 d4 d2 d6 d1 d9, coins a b a: a d2, b d5; b d4, a d1
# (d5 shown); a d7, b d6 (d2 shown).

Z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
VAR = 0.40 * 0.60 + 0.42 * 0.58  # 0.4836


@pytest.mark.parametrize(
    "qid, answer",
    [
        ("q1", [0.4304, 0.32768]),
        ("q2", 0.48768),
        ("q3", [0.75, 0.0, 0.25, 0.75 + 0.0625 / 3]),
        ("q4", ["d2", "d5", "d4", "d1", "d7", "d6"]),
        ("q6", math.ceil(Z**2 * VAR / 0.02**2)),  # 9489.3...: 9490
    ],
)
def test_10_the_right_answer_passes(qid, answer):
    assert judge_value(public_spec(CH10, qid), answer) == f"{qid}: passed"


@pytest.mark.parametrize(
    "qid, answer, words",
    [
        ("q1", [2.152, 0.32768], "factor 1 - p"),  # (1 - p) left out
        ("q1", [0.4304 * 0.8, 0.32768], "rank 1 weighs 1 - p"),  # p^i for p^(i-1)
        ("q1", [0.4304, 1 - 0.4304], "not 1 - value"),
        ("q2", 0.32768, "adds its own weight"),
        ("q2", 0.16, "below the list"),
        ("q2", 0.2 * 0.64 + 0.32768, "rank 1 weighs 1 - p"),
        ("q2", 0.8 + 0.32768, "factor 1 - p"),
        # grades as g / g_max: R = 1, 0, 1/2, ERR = 1
        ("q3", [1.0, 0.0, 0.5, 1.0], "not a probability"),
        # (2^g - 1) / (2^g_max - 1): R = 1, 0, 1/3, ERR = 1
        ("q3", [1.0, 0.0, 1 / 3, 1.0], "best grade leaves"),
        # no 1/r: 3/4 + 1/4 * 1/4
        ("q3", [0.75, 0.0, 0.25, 0.8125], "worth 1/r"),
        ("q4", ["d2", "d5", "d4", "d5", "d1", "d2"], "skip those already placed"),  # no skip
        ("q4", ["d2", "d5", "d1", "d4", "d7", "d6"], "its own coin"),  # coin a every round
        ("q6", math.floor(Z**2 * VAR / 0.02**2), "round up"),
        (
            "q6",
            math.ceil((stats.norm.ppf(0.95) + stats.norm.ppf(0.8)) ** 2 * VAR / 0.02**2),
            "z_0.95",
        ),
        ("q6", math.ceil(stats.norm.ppf(0.975) ** 2 * VAR / 0.02**2), "power enters"),
        ("q6", 2 * math.ceil(Z**2 * VAR / 0.02**2), "not both"),
    ],
)
def test_10_each_mistake_prints_its_hint(qid, answer, words):
    says(CH10, qid, answer, words)


def rbp_without_tail(grades, p):
    value = residual = 0.0
    for i, g in enumerate(grades):
        weight = (1 - p) * p**i
        if g is None:
            residual += weight
        elif g >= 1:
            value += weight
    return [value, residual]


def test_10_an_rbp_function_without_the_tail_gets_its_hint():
    message = judging.judge_function_here(public_spec(CH10, "q10"), rbp_without_tail)
    assert "p^depth" in message


# --------------------------------------------------------------------------------------------
# The notebooks show the keys' data; hints never show an expected value


# --------------------------------------------------------------------------------------------
# Per-student variants (generate(rng) in the keys)


def test_10_a_variants_clicks_give_another_winner_when_misread_1_based():
    key = load_key(CH10)

    def winner(labels):
        a, b = labels.count("a"), labels.count("b")
        return "a" if a > b else "b" if b > a else "c"  # c) a tie

    for seed in range(5):
        source, questions = key.generate(np.random.default_rng(seed))
        scope: dict = {}
        exec(source, scope)  # noqa: S102 - the key's own data cell
        teams, clicks = scope["teams"], scope["clicks"]
        zero_based = [teams[i] for i in clicks]
        one_based = [teams[i - 1] for i in clicks]
        assert winner(zero_based) != winner(one_based)
        assert next(q.expected for q in questions if q.qid == "q5") == winner(zero_based)
