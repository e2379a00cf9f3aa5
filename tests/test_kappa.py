"""Cohen's and Fleiss' kappa: against scikit-learn, hand derivations and Manning et al. §8.5."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from coursekit.measures.agreement import (
    agreement_table,
    cohen_kappa,
    fleiss_kappa,
    rating_table,
)

sklearn_metrics = pytest.importorskip("sklearn.metrics")

# Manning, Raghavan & Schütze, Introduction to Information Retrieval (2008), Table 8.2:
# 400 documents; both judges yes 300, both no 70, judge 1 yes / judge 2 no 20,
# judge 1 no / judge 2 yes 10.
JUDGE1 = ["yes"] * 300 + ["no"] * 70 + ["yes"] * 20 + ["no"] * 10
JUDGE2 = ["yes"] * 300 + ["no"] * 70 + ["no"] * 20 + ["yes"] * 10


# --- Cohen's kappa ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_cohen_kappa_equals_sklearn(seed):
    rng = np.random.default_rng(seed)
    n_items = int(rng.integers(2, 300))
    n_labels = int(rng.integers(2, 6))
    a = rng.integers(0, n_labels, size=n_items)
    # b agrees with a on a random share of the items, else picks at random
    agree = rng.random(n_items) < rng.random()
    b = np.where(agree, a, rng.integers(0, n_labels, size=n_items))
    expected = sklearn_metrics.cohen_kappa_score(a, b)
    if math.isnan(expected):
        assert math.isnan(cohen_kappa(a.tolist(), b.tolist()))
    else:
        assert cohen_kappa(a.tolist(), b.tolist()) == pytest.approx(expected, abs=1e-12)
        assert cohen_kappa(a, b) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_cohen_kappa_equals_sklearn_on_string_labels(seed):
    rng = np.random.default_rng(100 + seed)
    names = np.array(["non", "partial", "relevant", "highly"])
    a = names[rng.integers(0, 4, size=50)]
    b = np.where(rng.random(50) < 0.6, a, names[rng.integers(0, 4, size=50)])
    expected = sklearn_metrics.cohen_kappa_score(a, b)
    assert cohen_kappa(list(a), list(b)) == pytest.approx(expected, abs=1e-12)


def test_manning_et_al_example_pooled_as_in_the_book():
    # P(A) = (300 + 70) / 400 = 37/40
    p_agree = Fraction(300 + 70, 400)
    assert p_agree == Fraction(37, 40)
    # pooled marginals: P(nonrelevant) = (80 + 90) / 800 = 17/80 (0.2125),
    # P(relevant) = (320 + 310) / 800 = 63/80 (0.7875)
    p_non, p_rel = Fraction(80 + 90, 800), Fraction(320 + 310, 800)
    assert (float(p_non), float(p_rel)) == (0.2125, 0.7875)
    p_chance = p_non**2 + p_rel**2  # 4258/6400 = 0.6653125, the book's "0.665"
    assert p_chance == Fraction(4258, 6400)
    kappa = (p_agree - p_chance) / (1 - p_chance)  # 1662/2142 = 277/357
    assert kappa == Fraction(277, 357)
    assert round(float(kappa), 3) == 0.776  # the book's value
    assert cohen_kappa(JUDGE1, JUDGE2, pooled=True) == pytest.approx(float(kappa), abs=1e-15)


def test_manning_et_al_example_with_cohens_own_marginals():
    # judge 1 says yes to 320 of 400, judge 2 to 310 of 400
    p_agree = Fraction(37, 40)
    p_chance = Fraction(320, 400) * Fraction(310, 400) + Fraction(80, 400) * Fraction(90, 400)
    assert p_chance == Fraction(665, 1000)  # 0.8 * 0.775 + 0.2 * 0.225
    kappa = (p_agree - p_chance) / (1 - p_chance)  # 0.26 / 0.335 = 52/67
    assert kappa == Fraction(52, 67)
    assert round(float(kappa), 3) == 0.776
    assert cohen_kappa(JUDGE1, JUDGE2) == pytest.approx(float(kappa), abs=1e-15)
    assert cohen_kappa(JUDGE1, JUDGE2) == pytest.approx(
        sklearn_metrics.cohen_kappa_score(JUDGE1, JUDGE2), abs=1e-15
    )


def test_agreement_table_of_the_book_example():
    labels, counts = agreement_table(JUDGE1, JUDGE2)
    assert labels == ["no", "yes"]
    # rows: judge 1, columns: judge 2
    assert counts.tolist() == [[70, 10], [20, 300]]
    labels, counts = agreement_table(JUDGE1, JUDGE2, labels=["yes", "no"])
    assert labels == ["yes", "no"]
    assert counts.tolist() == [[300, 20], [10, 70]]


def test_labels_order_does_not_change_kappa_and_unused_labels_are_allowed():
    a, b = [0, 1, 2, 1, 0], [0, 1, 1, 1, 2]
    # P(A) = 3/5; marginals a: 0 2/5, 1 2/5, 2 1/5; b: 0 1/5, 1 3/5, 2 1/5
    p_chance = Fraction(2, 5) * Fraction(1, 5) + Fraction(2, 5) * Fraction(3, 5) + Fraction(1, 25)
    expected = (Fraction(3, 5) - p_chance) / (1 - p_chance)
    assert cohen_kappa(a, b) == pytest.approx(float(expected), abs=1e-15)
    assert cohen_kappa(a, b, labels=[2, 1, 0, 3]) == pytest.approx(float(expected), abs=1e-15)


def test_perfect_and_chance_level_agreement():
    assert cohen_kappa(["r", "n", "r"], ["r", "n", "r"]) == 1.0
    # each judge says r half the time, independently: P(A) = 1/2 = P(E)
    assert cohen_kappa(["r", "r", "n", "n"], ["r", "n", "r", "n"]) == 0.0
    assert cohen_kappa(["r", "n"], ["n", "r"]) == -1.0


def test_a_single_label_used_by_both_is_nan():
    assert math.isnan(cohen_kappa(["r", "r"], ["r", "r"]))
    assert math.isnan(fleiss_kappa([[3, 0], [3, 0]]))


# --- Fleiss' kappa -----------------------------------------------------------------------------


def test_fleiss_kappa_by_hand():
    # 5 items, 3 raters, 3 categories
    table = [[3, 0, 0], [0, 3, 0], [1, 1, 1], [2, 1, 0], [0, 1, 2]]
    n = 3
    # P_i = (sum_j n_ij^2 - n) / (n (n - 1)):
    #   (9 - 3)/6 = 1, (9 - 3)/6 = 1, (1 + 1 + 1 - 3)/6 = 0, (4 + 1 - 3)/6 = 1/3,
    #   (1 + 4 - 3)/6 = 1/3
    p_items = [Fraction(1), Fraction(1), Fraction(0), Fraction(1, 3), Fraction(1, 3)]
    assert p_items == [Fraction(sum(x * x for x in row) - n, n * (n - 1)) for row in table]
    p_bar = sum(p_items) / 5  # (8/3) / 5 = 8/15
    assert p_bar == Fraction(8, 15)
    # p_j = column sums / (N n) = 6/15, 6/15, 3/15
    p_j = [Fraction(6, 15), Fraction(6, 15), Fraction(3, 15)]
    p_e = sum(p * p for p in p_j)  # 4/25 + 4/25 + 1/25 = 9/25
    assert p_e == Fraction(9, 25)
    kappa = (p_bar - p_e) / (1 - p_e)  # (13/75) / (16/25) = 13/48
    assert kappa == Fraction(13, 48)
    assert fleiss_kappa(table) == pytest.approx(float(kappa), abs=1e-15)
    assert fleiss_kappa(np.array(table)) == pytest.approx(float(kappa), abs=1e-15)


def test_fleiss_kappa_of_fleiss_style_worked_example():
    """10 items, 14 raters, 5 categories (the example of Wikipedia's "Fleiss' kappa" article)."""
    table = [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
    n, n_items = 14, 10
    p_items = [Fraction(sum(x * x for x in row) - n, n * (n - 1)) for row in table]
    columns = [sum(row[j] for row in table) for j in range(5)]
    assert columns == [20, 28, 39, 21, 32]
    p_j = [Fraction(c, n_items * n) for c in columns]
    p_bar = sum(p_items) / n_items
    p_e = sum(p * p for p in p_j)
    kappa = (p_bar - p_e) / (1 - p_e)
    # the published rounded values
    assert [round(float(p), 3) for p in p_j] == [0.143, 0.2, 0.279, 0.15, 0.229]
    assert (round(float(p_bar), 3), round(float(p_e), 3), round(float(kappa), 3)) == (
        0.378,
        0.213,
        0.21,
    )
    assert fleiss_kappa(table) == pytest.approx(float(kappa), abs=1e-15)


def test_fleiss_kappa_from_label_lists():
    ratings = [["r", "r", "r"], ["n", "n", "n"], ["r", "n", "x"], ["r", "r", "n"], ["x", "n", "x"]]
    # the same counts as test_fleiss_kappa_by_hand with categories r, n, x -> 13/48
    assert fleiss_kappa(ratings) == pytest.approx(13 / 48, abs=1e-15)
    numeric = [[2, 2, 2], [0, 0, 0], [2, 0, 1], [2, 2, 0], [1, 0, 1]]
    assert fleiss_kappa(numeric, ratings=True) == pytest.approx(13 / 48, abs=1e-15)
    labels, counts = rating_table(numeric)
    assert labels == [0, 1, 2]
    assert counts.tolist() == [[0, 0, 3], [3, 0, 0], [1, 1, 1], [1, 0, 2], [1, 2, 0]]


def test_fleiss_kappa_with_two_raters_is_the_books_pooled_kappa():
    ratings = [[x, y] for x, y in zip(JUDGE1, JUDGE2, strict=True)]
    assert fleiss_kappa(ratings) == pytest.approx(277 / 357, abs=1e-15)


# --- bad input ---------------------------------------------------------------------------------


def test_cohen_kappa_bad_input():
    with pytest.raises(ValueError, match="a and b must judge the same items"):
        cohen_kappa([1, 0], [1])
    with pytest.raises(TypeError, match="a must be a sequence of labels"):
        cohen_kappa("yes", ["y", "e", "s"])
    with pytest.raises(ValueError, match="empty"):
        cohen_kappa([], [])
    with pytest.raises(ValueError, match="missing from labels"):
        cohen_kappa([1, 2], [1, 1], labels=[1])
    with pytest.raises(TypeError, match="pooled must be True or False"):
        cohen_kappa([1, 2], [1, 1], pooled="yes")
    with pytest.raises(TypeError, match=r"b\[1\] must be a label"):
        cohen_kappa([1, 2], [1, [2]])
    with pytest.raises(ValueError, match=r"a\[0\] is nan"):
        cohen_kappa([math.nan], [1.0])


def test_fleiss_kappa_bad_input():
    with pytest.raises(ValueError, match="row 0 sums to 3, row 1 to 2"):
        fleiss_kappa([[3, 0], [1, 1]])
    with pytest.raises(ValueError, match="at least 2 ratings per item"):
        fleiss_kappa([[1, 0], [0, 1]])
    with pytest.raises(ValueError, match="whole numbers >= 0"):
        fleiss_kappa([[3, -1], [1, 1]])
    with pytest.raises(ValueError, match="whole numbers >= 0"):
        fleiss_kappa([[1.5, 0.5], [1, 1]])
    with pytest.raises(ValueError, match="items × categories"):
        fleiss_kappa([1, 2, 3])
    with pytest.raises(ValueError, match=r"ratings\[0\] has 3, ratings\[1\] has 2"):
        fleiss_kappa([["a", "b", "a"], ["a", "b"]])
    with pytest.raises(TypeError, match="table must be"):
        fleiss_kappa(3)
