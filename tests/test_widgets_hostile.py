"""The widgets under bad input: each is refused with a TypeError or ValueError that names the
argument (or control) and says what is wrong, before any control is built; a refused click
leaves the widget as it was. Expected numbers come from hand derivations in the comments."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from coursekit.views import widgets
from coursekit.views.widgets.assessors import AssessorAgreement
from coursekit.views.widgets.base import check_position
from coursekit.views.widgets.online import OnlineExperiment

# --- the shared check of a 1-based position --------------------------------------------------


@pytest.mark.parametrize("value", [0, -1, 4])
def test_a_position_outside_1_to_n_is_refused(value):
    with pytest.raises(ValueError, match=rf"rank must be between 1 and 3, got {value}"):
        check_position(value, 3)


@pytest.mark.parametrize("value", [1.0, "1", True, None])
def test_a_position_that_is_not_a_whole_number_is_refused(value):
    with pytest.raises(TypeError, match="rank must be a whole number between 1 and 3"):
        check_position(value, 3)


def test_a_position_from_numpy_is_read_as_an_int():
    assert check_position(np.int64(3), 3) == 3
    assert type(check_position(np.int64(3), 3)) is int


# --- RecallOriented (chapter 06) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"ranks": (0, 5)}, ValueError, "rank 0 is not a rank from 1"),
        ({"ranks": (1.5, 5)}, TypeError, "ranks must hold whole numbers"),
        ({"ranks": (True, 2)}, TypeError, "ranks must hold whole numbers"),
        ({"ranks": (1, 1, 5)}, ValueError, "rank 1 is given twice"),
        ({"ranks": (1, 2, 3, 4, 5), "n_relevant": 4}, ValueError, "5 ranks .* n_relevant is 4"),
        ({"ranks": {"a": 1}}, TypeError, "ranks must be a sequence"),
        ({"ranks": None}, TypeError, "ranks must be a sequence"),
        ({"n_relevant": 0}, ValueError, r"n_relevant must be a whole number in \[1, 10000\]"),
        ({"n_relevant": 20000}, ValueError, r"n_relevant .* in \[1, 10000\], got 20000"),
        ({"n_relevant": 2.7}, TypeError, "n_relevant must be a whole number"),
        ({"n_max": 0}, ValueError, r"n_max must be a whole number in \[1, 10000\], got 0"),
        ({"beta": math.nan}, ValueError, r"beta must be a number in \[0.25, 8.0\], got nan"),
        ({"beta": 100}, ValueError, r"beta must be a number in \[0.25, 8.0\], got 100"),
        ({"beta": 0}, ValueError, r"beta must be a number in \[0.25, 8.0\], got 0"),
        ({"beta": -1}, ValueError, r"beta must be a number in \[0.25, 8.0\], got -1"),
    ],
)
def test_recall_oriented_refuses_bad_arguments_with_their_own_message(kwargs, error, message):
    with pytest.raises(error, match=message):
        widgets.RecallOriented(**kwargs)


def test_recall_oriented_reads_ranks_given_as_text():
    view = widgets.RecallOriented(ranks="1, 54")
    # relevant at ranks 1 and 54, 4 relevant in all: AP = (1/1 + 2/54) / 4 = 0.2593
    assert view.values["AP (at N_max)"] == pytest.approx((1 + 2 / 54) / 4)
    assert view.values["recall (at N_max)"] == pytest.approx(2 / 4)
    assert view.ranks.value == "1, 54"
    semicolons = widgets.RecallOriented(ranks="54; 1")
    assert semicolons.values["AP (at N_max)"] == pytest.approx((1 + 2 / 54) / 4)
    with pytest.raises(ValueError, match="“5x” is not a rank"):
        widgets.RecallOriented(ranks="1, 5x")


def test_recall_oriented_reads_a_generator_of_ranks_once():
    view = widgets.RecallOriented(ranks=(r for r in (1, 54)))
    assert view.values["AP (at N_max)"] == pytest.approx((1 + 2 / 54) / 4)
    assert view.ranks.value == "1, 54"


def test_recall_oriented_load_checks_the_name_before_changing_anything():
    view = widgets.RecallOriented(ranks=(1, 2), n_relevant=6, n_max=50)
    before = (view.ranks.value, view.n_relevant.value, view.n_max.value, dict(view.values))
    with pytest.raises(ValueError, match="unknown preset 'system 9'.*system 1, system 2"):
        view.load("system 9")
    after = (view.ranks.value, view.n_relevant.value, view.n_max.value, dict(view.values))
    assert after == before


# --- RelevanceToggler (chapters 02 to 04) -----------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"n_relevant": 20000}, ValueError, r"n_relevant .* in \[0, 10000\], got 20000"),
        ({"n_relevant": -3}, ValueError, r"n_relevant .* in \[0, 10000\], got -3"),
        ({"n_relevant": 2.5}, TypeError, "n_relevant must be a whole number"),
        ({"n_relevant": "3"}, TypeError, "n_relevant must be a whole number"),
        ({"rels": [1, 0, 1], "n_relevant": 1}, ValueError, "n_relevant=1 is smaller than the 2"),
        ({"rels": [1, 0, 1], "k": 10}, ValueError, r"k must be a whole number in \[1, 3\]"),
        ({"k": 0}, ValueError, r"k must be a whole number in \[1, 10\], got 0"),
        ({"k": -1}, ValueError, r"k must be a whole number in \[1, 10\], got -1"),
        ({"k": 2.5}, TypeError, "k must be a whole number"),
        ({"rels": [1, 0, 1], "length": -1}, ValueError, "length must be a positive integer"),
        ({"rels": [1, 0, 1], "length": 2}, ValueError, "length=2 is shorter than rels"),
        ({"length": 2.5}, TypeError, "length must be a positive integer"),
        ({"rels": ["1", "0"]}, TypeError, r"rels\[0\] \(rank 1\) must be a number"),
        ({"rels": None}, TypeError, "rels must be a sequence"),
        ({"rels": []}, ValueError, "rels is empty"),
        ({"rels": {1, 0}}, TypeError, "rels must be a sequence"),
    ],
)
def test_relevance_toggler_refuses_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        widgets.RelevanceToggler(**kwargs)


def test_relevance_toggler_k_defaults_to_5_or_the_number_of_ranks():
    five = widgets.RelevanceToggler([1, 0, 1, 0, 0, 0])  # P@5 = 2/5
    assert five.values["P@5"] == pytest.approx(2 / 5)
    three = widgets.RelevanceToggler([1, 0, 1])  # fewer than 5 ranks: P@3 = 2/3
    assert three.values["P@3"] == pytest.approx(2 / 3)
    padded = widgets.RelevanceToggler([1, 0, 1], length=6, k=6)  # P@6 = 2/6
    assert padded.rels == [1, 0, 1, 0, 0, 0]
    assert padded.values["P@6"] == pytest.approx(2 / 6)


@pytest.mark.parametrize(
    ("rank", "error"), [(0, ValueError), (-1, ValueError), (4, ValueError), (1.0, TypeError)]
)
def test_relevance_toggler_toggle_refuses_ranks_outside_1_to_n(rank, error):
    view = widgets.RelevanceToggler([1, 0, 1], n_relevant=2)
    before = dict(view.values)
    with pytest.raises(error, match="rank must be .*between 1 and 3"):
        view.toggle(rank)
    assert view.rels == [1, 0, 1] and view.values == before


def test_relevance_toggler_toggle_refuses_text():
    view = widgets.RelevanceToggler([1, 0, 1])
    with pytest.raises(TypeError, match="rank must be a whole number"):
        view.toggle("1")
    assert view.rels == [1, 0, 1]


# --- SetBasedExplorer (chapter 01) --------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"tp": -5}, ValueError, r"tp must be a whole number in \[0, 100000\], got -5"),
        ({"tp": 2.7}, TypeError, "tp must be a whole number"),
        ({"tp": "6"}, TypeError, "tp must be a whole number"),
        ({"fn": math.nan}, TypeError, "fn must be a whole number"),
        ({"tn": None}, TypeError, "tn must be a whole number"),
        ({"beta": 100}, ValueError, r"beta must be a number in \[0.125, 8.0\], got 100"),
        ({"beta": math.inf}, ValueError, r"beta must be a number in \[0.125, 8.0\], got inf"),
        ({"beta": 0}, ValueError, r"beta must be a number in \[0.125, 8.0\], got 0"),
    ],
)
def test_set_based_explorer_refuses_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        widgets.SetBasedExplorer(**kwargs)


def test_set_based_set_counts_checks_everything_before_changing_anything():
    view = widgets.SetBasedExplorer(tp=6, fp=4, fn=14, tn=76)
    before = (view._state(), dict(view.values))
    with pytest.raises(ValueError, match=r"tp must be a whole number in \[0, 100000\]"):
        view.set_counts(fp=5, tp=-3)
    with pytest.raises(ValueError, match=r"beta must be a number in \[0.125, 8.0\]"):
        view.set_counts(fn=1, beta=9)
    assert (view._state(), dict(view.values)) == before
    view.set_counts(tp=3, fp=1, fn=6, tn=90)  # still works: P = 3/4, R = 3/9
    assert view.values["precision"] == pytest.approx(3 / 4)
    assert view.values["recall"] == pytest.approx(3 / 9)


# --- GradedJudgments (chapter 05) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"gains": [2.7, 1]}, ValueError, r"gains\[0\] \(rank 1\) must be a whole number grade"),
        ({"gains": "3210"}, TypeError, "gains must be a sequence .* got the string"),
        ({"gains": [4, 1]}, ValueError, r"gains\[0\] .* must be 0, 1, 2 or 3"),
        ({"gains": [1, -1]}, ValueError, r"gains\[1\] .* must be 0, 1, 2 or 3"),
        ({"gains": [math.nan]}, ValueError, r"gains\[0\] .* whole number grade, got nan"),
        ({"gains": ["a"]}, TypeError, r"gains\[0\] .* whole number grade, got str"),
        ({"gains": [True]}, TypeError, r"gains\[0\] .* whole number grade, got bool"),
        ({"gains": []}, ValueError, "gains is empty"),
        ({"gains": [1, 2], "ideal": "12"}, TypeError, "ideal must be a sequence .* string"),
        ({"gains": [1, 2], "ideal": {"d1": 1}}, TypeError, r"ideal .*its values: list"),
        ({"gains": [1, 2], "ideal": [2, 1.5]}, ValueError, r"ideal\[1\] must be a whole number"),
        ({"gains": [1, 2], "ideal": [2, 1, 10**400]}, ValueError, r"ideal\[2\] is too large"),
    ],
)
def test_graded_judgments_refuses_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        widgets.GradedJudgments(**kwargs)


def test_graded_judgments_reads_whole_floats_and_judged_grades_of_a_dict():
    view = widgets.GradedJudgments(gains=[2.0, np.int64(1)], ideal={"a": 2, "b": 1}.values())
    assert view.gains == [2, 1]
    # Järvelin: DCG = 2 + 1 / log2(2) = 3, and the ideal is the ranking itself: nDCG = 1
    assert view.values["DCG"] == pytest.approx(3.0)
    assert view.values["nDCG"] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("rank", "grade", "error", "message"),
    [
        (0, 3, ValueError, "rank must be between 1 and 3, got 0"),
        (-1, 3, ValueError, "rank must be between 1 and 3, got -1"),
        (9, 3, ValueError, "rank must be between 1 and 3, got 9"),
        (1.0, 3, TypeError, "rank must be a whole number"),
        (1, 5, ValueError, "grade must be 0, 1, 2 or 3"),
        (1, 2.5, ValueError, "grade must be a whole number grade"),
        (1, "3", TypeError, "grade must be a whole number grade"),
    ],
)
def test_graded_set_grade_refuses_bad_clicks_and_changes_nothing(rank, grade, error, message):
    view = widgets.GradedJudgments(gains=(3, 0, 2))
    before = dict(view.values)
    with pytest.raises(error, match=message):
        view.set_grade(rank, grade)
    assert view.gains == [3, 0, 2] and view.values == before


# --- RankCorrelation (chapter 07) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (({"A": 3, "B": 1, "C": 2}, ["A", "B", "C"]), "first must be a sequence .* dict"),
        (("ABC",), "first must be a sequence .* got the string 'ABC'"),
        ((["A", "B"], {"A", "B"}), "second must be a sequence .* set"),
        (([["A"], "B"],), "first: the item at rank 1 must be a string or a number"),
    ],
)
def test_rank_correlation_refuses_what_is_not_a_ranking(args, message):
    with pytest.raises(TypeError, match=message):
        widgets.RankCorrelation(*args)


def test_rank_correlation_names_the_ranking_that_repeats_an_item():
    with pytest.raises(ValueError, match="second: item 'A' appears twice"):
        widgets.RankCorrelation(["A", "B"], ["A", "A"])


def test_rank_correlation_reads_generators_once():
    same = widgets.RankCorrelation(x for x in ["A", "B", "C"])
    assert same.values["Spearman rho"] == pytest.approx(1.0)  # the same order twice
    reversed_ = widgets.RankCorrelation((x for x in "ABC"), (x for x in "CBA"))
    # reversed: d = (2, 0, 2), rho = 1 - 6 * 8 / (3 * 8) = -1; every pair discordant
    assert reversed_.values["Spearman rho"] == pytest.approx(-1.0)
    assert reversed_.values["discordant pairs"] == 3


@pytest.mark.parametrize(
    ("which", "position", "error", "message"),
    [
        (-1, 1, ValueError, "which must be 0 .* or 1 .*, got -1"),
        (2, 1, ValueError, "which must be 0 .* or 1 .*, got 2"),
        (1.0, 1, TypeError, "which must be 0"),
        (1, 1.5, TypeError, "position must be a whole number between 1 and 2"),
        (1, 0, ValueError, "position must be between 1 and 2, got 0"),
        (1, -1, ValueError, "position must be between 1 and 2, got -1"),
        (1, 3, ValueError, "position must be between 1 and 2, got 3"),
    ],
)
def test_rank_correlation_swap_refuses_bad_clicks(which, position, error, message):
    view = widgets.RankCorrelation(["A", "B", "C"])
    with pytest.raises(error, match=message):
        view.swap(which, position)
    assert view.orders == [["A", "B", "C"], ["A", "B", "C"]]


# --- OnlineExperiment (chapter 10) ---------------------------------------------------------------

RANKS = {
    "good": {"q1": ["d1", "d2", "d3"], "q2": ["d4", "d5"]},
    "bad": {"q1": ["d3", "d2", "d1"], "q2": ["d5", "d4"]},
}
QRELS = {"q1": {"d1": 2, "d2": 0}, "q2": {"d4": 1}}


def with_ranking(ranking) -> dict:
    return {"good": {"q1": ranking}, "bad": RANKS["bad"]}


@pytest.mark.parametrize(
    ("rankings", "qrels", "error", "message"),
    [
        (RANKS, {"q1": {"d1": 2, "d2": math.nan}}, ValueError, r"qrels\['q1'\]\['d2'\] .*nan"),
        (RANKS, {"q1": {"d1": math.inf}}, ValueError, r"qrels\['q1'\]\['d1'\] .* finite"),
        (RANKS, {"q1": {"d1": "x"}}, TypeError, r"qrels\['q1'\]\['d1'\] must be a grade"),
        (RANKS, {"q1": {"d1": None}}, TypeError, r"qrels\['q1'\]\['d1'\] must be a grade"),
        (with_ranking({"d1", "d2"}), QRELS, TypeError, r"rankings\['good'\]\['q1'\] .* set"),
        (with_ranking("d1d2d3"), QRELS, TypeError, r"rankings\['good'\]\['q1'\] .* string"),
        (with_ranking(["d1", ["d2"]]), QRELS, TypeError, "document at rank 2 must be a string"),
        (with_ranking(["d1", 1, "1"]), QRELS, ValueError, "document '1' appears twice"),
        ({"a": {"x1": ["d1"]}, "b": {"x1": ["d2"]}}, QRELS, ValueError, "ranks none of the"),
        ({1: RANKS["good"], "1": RANKS["bad"]}, QRELS, ValueError, "two systems named '1'"),
        (RANKS, {1: {"d1": 1}, "1": {"d1": 2}}, ValueError, "two queries named '1'"),
    ],
)
def test_online_refuses_bad_rankings_and_grades(rankings, qrels, error, message):
    with pytest.raises(error, match=message):
        OnlineExperiment(rankings, qrels, max_sessions=50, n_sessions=50)


@pytest.mark.parametrize(("seed", "error"), [(-1, ValueError), (2.7, TypeError), ("0", TypeError)])
def test_online_seed_is_a_whole_number_from_0(seed, error):
    with pytest.raises(error, match="seed must be an integer"):
        OnlineExperiment(RANKS, QRELS, max_sessions=50, n_sessions=50, seed=seed)


def test_online_system_names_are_read_as_text():
    view = OnlineExperiment(
        {1: RANKS["good"], 2: RANKS["bad"]}, QRELS, a=1, b=2, max_sessions=50, n_sessions=50
    )
    assert view.systems == ["1", "2"]
    assert (view.a.value, view.b.value) == ("1", "2")
    view.select(a=2, b=1)
    assert (view.a.value, view.b.value) == ("2", "1")
    with pytest.raises(ValueError, match="a=3 is not a system; the systems .*read as text"):
        view.select(a=3)
    assert (view.a.value, view.b.value) == ("2", "1")


# --- AssessorAgreement (chapter 09) --------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (
            {"rankings": {1: ["d1", "d2"], "1": ["d2", "d1"]}},
            ValueError,
            "rankings has two systems named '1'",
        ),
        (
            {"items": [1, 2, 3], "rankings": {"a": ["d1", "d2", "d3"], "b": ["d3", "d1"]}},
            ValueError,
            "no ranked document is among the judged items",
        ),
        (
            {"rankings": {"a": ["d1", ["x"]], "b": ["d2"]}},
            TypeError,
            "system 'a': the document at rank 2 must be a string",
        ),
        (
            {"rankings": {"a": ["d1", 1, "1"], "b": ["d2"]}},
            ValueError,
            "system 'a': document '1' appears twice",
        ),
        ({"items": "d1d"}, TypeError, "items must be a sequence .* string"),
    ],
)
def test_assessors_refuse_rankings_that_do_not_match(kwargs, error, message):
    options = {"first": [1, 0, 1], "items": ["d1", "d2", "d3"]}
    with pytest.raises(error, match=message):
        AssessorAgreement(**(options | kwargs))


# --- CompareSystems (chapter 08) -----------------------------------------------------------------

QUERIES = ["q1", "q2", "q3"]


def scores(base: list) -> dict[str, pd.DataFrame]:
    frame = pd.DataFrame({"base": base, "new": [0.3, 0.5, 0.3]}, index=QUERIES)
    return {"AP": frame}


@pytest.mark.parametrize(
    ("seed", "error"),
    [
        ("x", TypeError),
        (None, TypeError),
        (math.nan, TypeError),
        (2.7, TypeError),
        (-1, ValueError),
    ],
)
def test_compare_seed_is_a_whole_number_from_0(seed, error):
    with pytest.raises(error, match="seed must be an integer"):
        widgets.CompareSystems(scores([0.2, 0.4, 0.3]), seed=seed)


def test_compare_refuses_a_score_too_large_for_a_float():
    table = pd.DataFrame({"base": [0.2, 10**400, 0.3], "new": [0.3, 0.5, 0.3]}, index=QUERIES)
    with pytest.raises(ValueError, match="system 'base', query 'q2': the score .* too large"):
        widgets.CompareSystems({"AP": table.astype(object)})


@pytest.mark.parametrize(
    ("base", "error", "message"),
    [
        (["0.2", "0.4", "0.3"], TypeError, "system 'base', query 'q1': the score must be a number"),
        ([0.2, True, 0.3], TypeError, "query 'q2': the score must be a number, got bool"),
        ([True, False, True], TypeError, "the scores of system 'base' are True/False"),
        ([0.2, pd.NA, 0.3], ValueError, "'base' has no finite score for query 'q2'"),
    ],
)
def test_compare_refuses_scores_that_are_not_numbers(base, error, message):
    with pytest.raises(error, match=message):
        widgets.CompareSystems(scores(base))


def test_compare_whole_scores_in_an_object_table_are_read():
    table = pd.DataFrame({"base": [0, 1, 0], "new": [1, 1, 0]}, index=QUERIES, dtype=object)
    view = widgets.CompareSystems({"P@1": table})
    # by hand: means 1/3 and 2/3, B higher on q1 only
    assert view.values["mean A"] == pytest.approx(1 / 3)
    assert view.values["mean B"] == pytest.approx(2 / 3)
    assert view.values["queries where B is higher"] == 1
