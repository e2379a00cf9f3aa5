"""coursekit.datasets: the worked examples hold raw data that reproduce what the sources show.

Expected values are derived by hand in each test (fractions written out), never taken from
the function under test.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import coursekit as ck
from coursekit import course


def test_keys_are_unique_and_sources_known():
    keys = [ex.key for ex in course.EXAMPLES]
    assert len(keys) == len(set(keys))
    for ex in course.EXAMPLES:
        assert ex.source in course.SOURCES
        assert ex.citation.startswith(course.SOURCES[ex.source])
        assert ex.description and ex.where


def test_unknown_key_lists_the_known_ones():
    with pytest.raises(KeyError, match="slides-ab"):
        course.example("no-such-example")


def test_unknown_source_is_an_error():
    with pytest.raises(ValueError, match="unknown source"):
        course.examples("nowhere")


def test_examples_are_read_only():
    ex = course.example("slides-ab")
    with pytest.raises(TypeError):
        ex.data["relevant"] = ()  # type: ignore[index]
    with pytest.raises(AttributeError):
        ex.key = "other"  # type: ignore[misc]


def test_examples_by_source():
    assert {ex.key for ex in course.examples("mor")} >= {"mor-systems", "mor-single"}


def test_systems_a_and_b():
    ex = course.example("slides-ab")
    relevant = ex.data["relevant"]
    # A returns d5 d1 d6 d2: d1 and d6 relevant -> 2/4; B returns 7, of which d1 d6 d10
    assert ck.precision(ex.data["retrieved"]["A"], relevant) == 2 / 4
    assert ck.recall(ex.data["retrieved"]["A"], relevant) == 2 / 4
    assert ck.precision(ex.data["retrieved"]["B"], relevant) == 3 / 7
    assert ck.recall(ex.data["retrieved"]["B"], relevant) == 3 / 4


def test_fourteen_document_list_matches_its_marks():
    ex = course.example("slides-14")
    assert len(ex.data["docs"]) == 14
    assert ex.data["docs"][13] == "990"
    assert set(ex.data["relevant_ranks_ap"]) - set(ex.data["relevant_ranks_curve"]) == {14}
    rels = ck.rels_from_ranks(ex.data["relevant_ranks_ap"], 14)
    expected = (
        Fraction(1, 1) + Fraction(2, 2) + Fraction(3, 4) + Fraction(4, 6) + Fraction(5, 13)
    ) + Fraction(6, 14)
    assert ck.average_precision(rels, 6) == pytest.approx(float(expected / 6), abs=1e-12)


def test_map_ranks_reproduce_every_printed_precision():
    # the ranks were recovered from the printed (recall, precision) points: check them back
    printed_precisions = {
        "Q1": (1, 0.5, 0.5, 0.444, 0.455, 0.429),
        "Q2": (0.5, 0.5, 0.429, 0.444, 0.500, 0.462),
    }
    ex = course.example("slides-map")
    for query, ranks in ex.data["relevant_ranks"].items():
        for found, (rank, printed) in enumerate(
            zip(ranks, printed_precisions[query], strict=True), start=1
        ):
            assert round(found / rank, 3) == pytest.approx(printed, abs=1e-9), (query, rank)


def test_top_of_list_example():
    ex = course.example("slides-top")
    rels = ck.rels_from_ranks(ex.data["relevant_ranks"], len(ex.data["docs"]))
    assert ck.precision_at(rels, 5) == 2 / 5  # relevant at 3, 5
    assert ck.r_precision(rels, ex.data["n_relevant"]) == 3 / 8  # 3, 5, 6 within 8
    assert ck.reciprocal_rank(rels) == 1 / 3


def test_dcg_example_grades_and_jarvelin_dcg():
    ex = course.example("slides-dcg")
    g = ex.data["grades"]
    import math

    hand = g[0] + sum(g[i - 1] / math.log2(i) for i in range(2, 11))
    assert ck.dcg(g, variant="jarvelin") == pytest.approx(hand, abs=1e-12)


def test_pyterrier_run_order():
    ex = course.example("pyterrier")
    # q1 by score: d3 (1.5), d1 (1.0), d2 (-0.1): the relevant d2 is third -> AP 1/3
    result = ck.evaluate(ex.data["run"], ex.data["qrels"], ["AP"])
    assert result.table().loc["q1", "AP"] == pytest.approx(1 / 3)


def test_labatut_confusion_counts():
    ex = course.example("labatut-confusion")
    relevant = set(ex.data["relevant_retrieved"]) | {f"unretrieved{i}" for i in range(14)}
    cells = ck.confusion(ex.data["retrieved"], relevant, ex.data["n_docs"])
    assert (cells.tp, cells.fp, cells.fn, cells.tn) == (6, 4, 14, 76)


def test_labatut_ranked_orderings_have_nine_relevant_in_twenty():
    ex = course.example("labatut-ranked")
    for ranks in ex.data["relevant_ranks"].values():
        assert len(ranks) == ex.data["n_relevant"] == 9
        assert max(ranks) <= ex.data["length"] == 20


def test_mor_systems_average_precision_of_system_2():
    ex = course.example("mor-systems")
    ranks = ex.data["relevant_ranks"][2]
    rels = ck.rels_from_ranks(ranks, ex.data["n_max"])
    hand = (Fraction(1, 50) + Fraction(2, 51) + Fraction(3, 53) + Fraction(4, 54)) / 4
    assert ck.average_precision(rels, 4) == pytest.approx(float(hand), abs=1e-12)
