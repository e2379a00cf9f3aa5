"""Unusual or malformed input to the per-query measures: the right number or a clear error.

Each expected value is derived by hand in the test (or computed with exact fractions); each
error names the argument at fault. No test here relies on the function under test for its
expected value.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import coursekit as ck
from coursekit.views.tables import sideways

log2 = math.log2


def no_warning(call):
    """The value of ``call()``; a RuntimeWarning (overflow, divide by zero) fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


# --- 1. an iterable argument is read once ---------------------------------------------------------


def test_ndcg_of_a_generator_equals_ndcg_of_the_list():
    # grades 3, 0, 2: DCG = 3/log2(2) + 0 + 2/log2(4) = 4; ideal 3, 2, 0: 3 + 2/log2(3)
    assert ck.ndcg(g for g in [3, 0, 2]) == pytest.approx(4 / (3 + 2 / log2(3)))


def test_judge_of_a_generator():
    assert ck.judge((d for d in ["d1", "d2"]), {"d1": 1}) == [1, 0]


def test_mean_curve_of_generator_curves():
    assert ck.mean_curve([(x for x in [1, 2]), iter([3, 4])]).tolist() == [2.0, 3.0]


# --- 2. nDCG: ideal holds every judged grade, so nDCG <= 1 ---------------------------------------


@pytest.mark.parametrize(
    "gains, ideal",
    [([3, 3, 3], [1]), ([1, 1], [1]), ([1, 2], [True, False]), ([3], []), ([0, 3], [2, 2])],
)
def test_ndcg_refuses_an_ideal_missing_a_retrieved_grade(gains, ideal):
    with pytest.raises(ValueError, match="ideal must list every judged grade of the query"):
        ck.ndcg(gains, ideal=ideal)
    with pytest.raises(ValueError, match="ideal must list every judged grade of the query"):
        ck.ideal_gains(gains, ideal=ideal)


def test_ndcg_ideal_needs_only_the_grades_above_zero():
    # unjudged (0) and negative grades gain nothing: ideal need not list them.
    # DCG = 0 + 1/log2(3); ideal 1: IDCG = 1
    assert ck.ndcg([0, 1, -1], ideal=[1]) == pytest.approx(1 / log2(3))


@pytest.mark.parametrize(
    "ideal, error, words",
    [
        (5, TypeError, "ideal must list every judged grade of the query, got int 5"),
        ({1, 0}, TypeError, "ideal must list .* a set keeps each grade only once"),
        ({"d1": 1}, TypeError, "ideal must list every judged grade of the query, got dict"),
    ],
)
def test_ndcg_ideal_of_the_wrong_kind(ideal, error, words):
    with pytest.raises(error, match=words):
        ck.ndcg([1, 0], ideal=ideal)


# --- 3. recall levels compared exactly -----------------------------------------------------------


@pytest.mark.parametrize(
    "rels, n_relevant, level, expected",
    [
        # 1 of 3 found at rank 2: recall 1/3 = 0.33333... < 0.33334, never reached
        ([0, 1], 3, 0.33334, 0.0),
        # 3 of 10007 found at rank 3: recall 3/10007 reaches the level, precision 3/3
        ([1] * 3, 10007, 3 / 10007, 1.0),
        # 99999 of 100000 found at rank 99999: recall 0.99999, precision 1
        ([1] * 99999, 100000, 0.99999, 1.0),
        # 1 of 3 found: reaches 1/3 exactly (as a float), precision 1/2
        ([0, 1], 3, 1 / 3, 0.5),
    ],
)
def test_interpolated_precision_levels_beyond_four_digits(rels, n_relevant, level, expected):
    assert ck.interpolated_precision(rels, n_relevant, levels=[level]).tolist() == [expected]


def test_standard_levels_are_ceil_of_tenths_times_n_relevant():
    """Guard (passes before and after the fix): on the 11 standard levels a level i/10 needs
    ceil(i · n / 10) relevant documents found, computed here in integers."""
    rng = np.random.default_rng(3)
    for n_relevant in range(1, 41):
        rels = rng.permutation([1] * n_relevant + [0] * 15)[: n_relevant + 10].tolist()
        found = np.cumsum(rels)
        precision = found / np.arange(1, len(rels) + 1)
        expected = []
        for i in range(11):
            needed = -(-i * n_relevant // 10)
            ranks = [k for k in range(len(rels)) if found[k] >= needed]
            expected.append(max(precision[ranks[0] :]) if ranks else 0.0)
        assert ck.interpolated_precision(rels, n_relevant).tolist() == expected, n_relevant


# --- 4. grades of 1024 or more: 2^g overflows a float --------------------------------------------


def test_err_of_grades_beyond_1023():
    # R = (2^g − 1)/2^1030: 1 − 2^−1030 (= 1.0 in floating point) for grade 1030
    assert no_warning(lambda: ck.err([1030], max_grade=1030)) == 1.0
    # grade 1029: R = 1/2 − 2^−1030 ≈ 1/2; then grade 1030 (R ≈ 1) at rank 2:
    # ERR = 1/2 + (1/2) · 1 · (1 − 1/2) = 0.75
    assert no_warning(lambda: ck.err([1029, 1030], max_grade=1030)) == pytest.approx(0.75)


def test_burges_ndcg_of_grades_beyond_1023():
    assert no_warning(lambda: ck.ndcg([1030, 0], variant="burges")) == 1.0
    # gains 2^1029 and 2^1030 (the − 1 is lost): divided by 2^1030, DCG = 1/2 + 1/log2(3)
    # and IDCG = 1 + (1/2)/log2(3)
    expected = (0.5 + 1 / log2(3)) / (1 + 0.5 / log2(3))
    assert no_warning(lambda: ck.ndcg([1029, 1030], variant="burges")) == pytest.approx(expected)


@pytest.mark.parametrize(
    "call",
    [
        lambda: ck.dcg([1030, 0], variant="burges"),
        lambda: ck.dcg_curve([1, 1030], variant="burges"),
        lambda: ck.discounted_gains([1030], variant="burges"),
    ],
    ids=["dcg", "dcg_curve", "discounted_gains"],
)
def test_burges_dcg_of_grades_beyond_1023_is_refused(call):
    with pytest.raises(ValueError, match=r"gains\[\d\] \(rank \d\) is 1030: .*too large"):
        no_warning(call)


# --- 5. Fleiss' kappa of very large counts -------------------------------------------------------


def fleiss_exact(table):
    """Fleiss' kappa in exact fractions (the formula of the docstring, independently)."""
    n_items, n = len(table), sum(table[0])
    observed = sum(Fraction(sum(c * c for c in row) - n, n * (n - 1)) for row in table) / n_items
    shares = [Fraction(sum(col), n_items * n) for col in zip(*table, strict=True)]
    expected = sum(p * p for p in shares)
    return float((observed - expected) / (1 - expected))


@pytest.mark.parametrize(
    "table",
    [
        [[2**62, 0], [0, 2**62]],
        [[4e9, 0], [0, 4e9]],
        [[1e300, 0], [0, 1e300]],
        [[10**20, 0], [0, 10**20]],
        [[3 * 10**9, 10**9], [10**9, 3 * 10**9]],
        [[2**62, 2**62], [2**62, 2**62]],
    ],
)
def test_fleiss_kappa_of_huge_counts(table):
    exact = fleiss_exact([[int(c) for c in row] for row in table])
    assert ck.fleiss_kappa(table) == pytest.approx(exact, abs=1e-12)
    assert -1.0 <= ck.fleiss_kappa(table) <= 1.0


# --- 6. GMAP needs a positive floor --------------------------------------------------------------


def test_gmap_refuses_floor_zero():
    with pytest.raises(ValueError, match=r"floor must be a positive number in \(0, 1\], got 0"):
        no_warning(lambda: ck.geometric_mean_average_precision([([0], 1), ([1], 1)], floor=0))


# --- 7. clearly invalid input is refused ---------------------------------------------------------

NAN = float("nan")
INVALID = {
    "precision above 1": (
        lambda: ck.interpolate_points([0.5], [3.0]),
        ValueError,
        r"precisions\[0\] is 3.0: it must be between 0 and 1",
    ),
    "recall above 1": (lambda: ck.interpolate_points([1.5], [1.0]), ValueError, r"recalls\[0\]"),
    "negative recall": (lambda: ck.interpolate_points([-0.5], [1]), ValueError, r"recalls\[0\]"),
    "curve above its ideal": (
        lambda: ck.normalised_curve([[5]], [[1]]),
        ValueError,
        "above the mean of ideal_curves",
    ),
    "fewer ideal curves": (
        lambda: ck.normalised_curve([[1], [1]], [[2]]),
        ValueError,
        "one vector per query, for the same queries: got 2 and 1",
    ),
    "nan ideal curve": (
        lambda: ck.normalised_curve([[1, 1]], [[NAN, NAN]]),
        ValueError,
        r"ideal_curves\[0\]\[0\] \(rank 1\) is .*nan",
    ),
    "negative curve": (
        lambda: ck.normalised_curve([[-1]], [[1]]),
        ValueError,
        r"curves\[0\] at rank 1 is -1: a cumulated gain cannot be negative",
    ),
    "nan in mean_curve": (
        lambda: ck.mean_curve([[1, NAN]]),
        ValueError,
        r"curves\[0\]\[1\] \(rank 2\) is .*nan",
    ),
    "None in mean_curve": (
        lambda: ck.mean_curve([[None]]),
        TypeError,
        r"curves\[0\]\[0\] \(rank 1\) must be a number",
    ),
    "area above 1": (
        lambda: ck.curve_area([5, 5]),
        ValueError,
        r"curve\[0\] \(rank 1\) is 5: a normalised curve lies between 0 and 1",
    ),
    "negative area": (lambda: ck.curve_area([-1]), ValueError, "lies between 0 and 1"),
    "set as rels": (
        lambda: ck.average_precision({1, 0}, 5),
        TypeError,
        "rels must be a sequence of relevance grades in rank order.*a set has no rank order",
    ),
    "dict keys as rels": (
        lambda: ck.precision_at({1: "x"}.keys(), 5),
        TypeError,
        "rels must be a sequence .* has no rank order",
    ),
    "set as ranking": (
        lambda: ck.judge({"d1", "d2"}, {"d1": 1}),
        TypeError,
        "ranking must be a sequence of document ids in rank order.*a set",
    ),
    "dict as ranking": (
        lambda: ck.judge({"d1": 0.9, "d2": 0.5}, {"d1": 1}),
        TypeError,
        "ranking must be a sequence of document ids in rank order.*a dict",
    ),
    "set as gains": (lambda: ck.ndcg({3, 1}), TypeError, "gains must be a sequence .* set"),
    "set as grades": (lambda: ck.rbp({1, 0}), TypeError, "grades must be a sequence .* set"),
    "set in pr_table": (lambda: ck.pr_table({1, 0}, 2), TypeError, "rels must be .* set"),
    "set in pres": (lambda: ck.pres({1, 0}, 2, 5), TypeError, "rels must be .* set"),
    "set as a curve": (lambda: ck.mean_curve([{1, 2}]), TypeError, r"curves\[0\] must be"),
    "None label": (
        lambda: ck.cohen_kappa([None, 1, 0], [1, 1, 0]),
        ValueError,
        r"a\[0\] is None: every item needs a label",
    ),
    "pandas NA label": (
        lambda: ck.cohen_kappa([1, 1, 0], [1, pd.NA, 0]),
        ValueError,
        r"b\[1\] is <NA>: every item needs a label",
    ),
    "None rating": (
        lambda: ck.fleiss_kappa([["r", None], ["r", "r"]], ratings=True),
        ValueError,
        r"ratings\[0\]\[1\] is None",
    ),
    "None in a table": (
        lambda: ck.fleiss_kappa([[None, 1], [1, 1]]),
        ValueError,
        r"ratings\[0\]\[0\] is None",
    ),
    "bool as length": (
        lambda: ck.rels_from_ranks([], False),
        TypeError,
        "length must be a whole number, got bool False",
    ),
}


@pytest.mark.parametrize("case", INVALID)
def test_invalid_input_is_refused(case):
    call, error, words = INVALID[case]
    with pytest.raises(error, match=words):
        call()


def test_rels_from_ranks_takes_a_numpy_zero_like_a_zero():
    assert ck.rels_from_ranks([], np.int64(0)) == []
    assert ck.rels_from_ranks([2], np.int64(3)) == [0, 1, 0]


# --- 8. clear errors instead of tracebacks from inside Python, numpy or scipy --------------------

TRACEBACKS = {
    "judge(None)": (lambda: ck.judge(None, {}), TypeError, "ranking must be a sequence .*None"),
    "judge(5)": (lambda: ck.judge(5, {}), TypeError, "ranking must be a sequence .* int 5"),
    "judge(list of lists)": (
        lambda: ck.judge([["d1"]], {}),
        TypeError,
        "ranking: the document at rank 1 must be a string or a number",
    ),
    "rels_from_ranks(None)": (
        lambda: ck.rels_from_ranks(None, 3),
        TypeError,
        "ranks must be a list of 1-based ranks",
    ),
    "rels_from_ranks(3)": (lambda: ck.rels_from_ranks(3, 3), TypeError, "ranks must be a list"),
    "gmap(None)": (
        lambda: ck.geometric_mean_average_precision(None),
        TypeError,
        r"geometric_mean_average_precision takes a list of \(rels, n_relevant\) pairs",
    ),
    "gmap(5)": (lambda: ck.geometric_mean_average_precision(5), TypeError, "takes a list"),
    "mrr(None)": (
        lambda: ck.mean_reciprocal_rank(None),
        TypeError,
        "mean_reciprocal_rank takes a list of rankings",
    ),
    "mrr(5)": (lambda: ck.mean_reciprocal_rank(5), TypeError, "takes a list of rankings"),
    "levels=0.5": (
        lambda: ck.interpolated_precision([1], 1, levels=0.5),
        TypeError,
        "levels must be a list of recall levels",
    ),
    "levels as a set": (
        lambda: ck.interpolated_precision([1], 1, levels={0.5, 1.0}),
        TypeError,
        "levels must be a list .* a set has no order",
    ),
    "level of 2": (
        lambda: ck.interpolated_precision([1], 1, levels=[0.5, 2]),
        ValueError,
        r"levels\[1\] is 2: a recall level must be in \[0, 1\]",
    ),
    "interpolate_points(None)": (
        lambda: ck.interpolate_points(None, None),
        TypeError,
        "recalls must be a list of numbers",
    ),
    "interpolate_points(0.5)": (
        lambda: ck.interpolate_points(0.5, 1.0),
        TypeError,
        "recalls must be a list of numbers .* float 0.5",
    ),
    "interpolate_points(strings)": (
        lambda: ck.interpolate_points(["a"], ["b"]),
        TypeError,
        r"recalls\[0\] must be a number, got str 'a'",
    ),
    "interpolate_points(a string)": (
        lambda: ck.interpolate_points("0.5", "1"),
        TypeError,
        "recalls must be a list of numbers .* str '0.5'",
    ),
    "mean_curve(None)": (lambda: ck.mean_curve(None), TypeError, "curves must be a list"),
    "mean_curve(5)": (lambda: ck.mean_curve(5), TypeError, "curves must be a list"),
    "mean_curve(strings)": (
        lambda: ck.mean_curve([["a"]]),
        TypeError,
        r"curves\[0\]\[0\] \(rank 1\) must be a number, got str",
    ),
    "mean_curve(dict)": (
        lambda: ck.mean_curve({"q1": [1]}),
        TypeError,
        r"curves must be a list .* \(for a dict, pass its values\)",
    ),
    "normalised_curve(None)": (
        lambda: ck.normalised_curve(None, [[1]]),
        TypeError,
        "curves must be a list",
    ),
    "positions(list of lists)": (
        lambda: ck.positions([["d1"], ["d2"]]),
        TypeError,
        "ranking: the item at rank 1 must be a string or a number",
    ),
    "spearman_rho(list of lists)": (
        lambda: ck.spearman_rho([["d1"], ["d2"]], ["d1", "d2"]),
        TypeError,
        "a: the item at rank 1 must be a string or a number",
    ),
    "kendall_tau(list of lists)": (
        lambda: ck.kendall_tau(["d1", "d2"], [["d2"], ["d1"]]),
        TypeError,
        "b: the item at rank 1 must be a string or a number",
    ),
    "concordant_pairs(list of lists)": (
        lambda: ck.concordant_pairs([["d1"], ["d2"]], ["d1", "d2"]),
        TypeError,
        "a: the item at rank 1 must be a string or a number",
    ),
    "string scores": (
        lambda: ck.positions({"d1": "a", "d2": "b"}),
        TypeError,
        r"ranking\['d1'\] must be a score \(a number\), got str 'a'",
    ),
    "complex scores": (
        lambda: ck.kendall_tau({"d1": 1, "d2": 2}, {"d1": 1j, "d2": 2}),
        TypeError,
        r"b\['d1'\] must be a score",
    ),
    "list scores": (
        lambda: ck.positions({"a": [1, 2], "b": [3, 4]}),
        TypeError,
        r"ranking\['a'\] must be a score",
    ),
    "score beyond a float": (
        lambda: ck.positions({"a": 10**400, "b": 1}),
        ValueError,
        "the scores of ranking must be finite numbers",
    ),
    "ideal=5": (lambda: ck.ndcg([1, 0], ideal=5), TypeError, "ideal must list"),
    "unhashable retrieved id": (
        lambda: ck.precision(["d1", ["d2"]], ["d1"]),
        TypeError,
        "retrieved must hold document ids",
    ),
    "sideways digits": (
        lambda: sideways(ck.pr_table([1], 1), digits=-1),
        ValueError,
        r"digits must be a number of decimals in \[0, 20\], got -1",
    ),
    "sideways of a list": (
        lambda: sideways([1, 2]),
        TypeError,
        "frame must be a pandas DataFrame",
    ),
}


@pytest.mark.parametrize("case", TRACEBACKS)
def test_clear_error_names_the_argument(case):
    call, error, words = TRACEBACKS[case]
    with pytest.raises(error, match=words):
        call()


@pytest.mark.parametrize("function", [ck.f_measure, ck.e_measure, ck.f_prime])
def test_huge_beta_gives_the_limit(function):
    # F_beta = (1 + b²)PR / (b²P + R) -> R as beta grows (b² = 1e400: 1/b² is 0 in a float);
    # E = 1 − F
    expected = 0.75 if function is ck.e_measure else 0.25
    value = no_warning(lambda: function(0.5, 0.25, beta=1e200))
    assert value == pytest.approx(expected, rel=1e-15)


def test_f_prime_names_ap():
    with pytest.raises(ValueError, match=r"ap must be a number in \[0, 1\], got 2"):
        ck.f_prime(2, 0.25)


def test_pres_and_rnorm_of_a_huge_number_of_relevant_documents():
    # n relevant, 1 found at rank 1, the n − 1 others missing at their worst ranks. PRES with
    # N_max = 5: ranks 1 and 5 + i (i = 2..n): Σ r = 1 + 5(n − 1) + n(n + 1)/2 − 1, so
    # PRES = 1 − (Σ r / n − (n + 1)/2) / 5 = 1/n. Rnorm in N documents: the others at ranks
    # N − n + i, so Σ r − n(n + 1)/2 = (n − 1)(N − n) and Rnorm = 1 − (n − 1)/n = 1/n.
    n = 10**12
    assert ck.pres([1], n, 5) == pytest.approx(1 / n, abs=1e-4)  # a float sum of ~5e11
    assert ck.rnorm([1], n, 10 * n) == pytest.approx(1 / n, rel=1e-3)


# --- 9. errors that say which argument and which query -------------------------------------------


def test_points_given_as_rows():
    with pytest.raises(TypeError, match=r"recalls\[0\] must be a number, got list \[0.5, 1\]"):
        ck.interpolate_points([[0.5, 1]], [[1, 0.5]])


def test_map_error_names_the_query():
    with pytest.raises(ValueError, match=r"queries\[1\]: n_relevant=1 is smaller than the 2"):
        ck.mean_average_precision([([1], 1), ([1, 1], 1)])
    with pytest.raises(ValueError, match=r"queries\[0\]: n_relevant=0 is smaller"):
        ck.geometric_mean_average_precision([([1], 0)])


def test_mrr_errors():
    with pytest.raises(TypeError, match="mean_reciprocal_rank takes a list of rankings .* str"):
        ck.mean_reciprocal_rank("ab")
    with pytest.raises(TypeError, match=r"rankings\[1\]: rels must be a sequence .* str 'ab'"):
        ck.mean_reciprocal_rank([[1], "ab"])


def test_cascade_clicks_with_grades_beyond_a_float_exponent():
    # R = (2^1030 - 1) / 2^1030: the user is all but sure to click the first document (the
    # old code computed inf / inf = nan there, and so never clicked)
    from coursekit.measures.clicks import cascade_clicks

    for seed in range(20):
        assert cascade_clicks([1030, 0], np.random.default_rng(seed), max_grade=1030) == [0]


def test_a_document_id_that_cannot_be_hashed_is_named():
    from coursekit.validation import as_id_set

    with pytest.raises(TypeError, match=r"retrieved\[1\] must be a document id .*list \['b'\]"):
        as_id_set(["a", ["b"]], "retrieved")


def test_mor_ap_bounds_of_millions_of_relevant_documents():
    # AP0 = (1/n) Σ_{i=1..h} i / (d + i) with d = w − h, i.e. (h − d·(H_w − H_d)) / n, and
    # H_w − H_d = ψ(w + 1) − ψ(d + 1) (digamma): scipy's, computed without the sum
    from scipy.special import digamma

    h, w, n = 3 * 2**20 + 5, 4 * 2**20, 5 * 2**20
    d = w - h
    expected = (h - d * (digamma(w + 1) - digamma(d + 1))) / n
    worst, best = ck.mor_ap_bounds(h, w, n)
    assert worst == pytest.approx(expected, rel=1e-9)
    assert best == pytest.approx((h - 1 + h / w) / n, rel=1e-12)
    # w = h: every term is 1, AP0 = h / n
    assert ck.mor_ap_bounds(h, h, h) == (pytest.approx(1.0, rel=1e-12), 1.0)


def test_rels_from_ranks_refuses_a_length_beyond_its_limit():
    with pytest.raises(ValueError, match=r"length must be a whole number in \[0, 10000000\]"):
        ck.rels_from_ranks([1], 10**10)
