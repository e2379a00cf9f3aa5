"""Reading and writing TREC run and qrels files, the dict forms, and evaluating them."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest
from files_support import write_file

import coursekit as ck

RUN = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "q2": {"d4": 0.5, "d5": 0.9}}
QRELS = {"q1": {"d1": 1, "d3": 2, "d9": 1, "d2": -1}, "q2": {"d4": 1}, "q3": {"d1": 1}}

# Hand derivation for RUN against QRELS (q3 is not in the run):
#   q1 ranks d1, d2, d3 -> grades 1, -1, 2; relevant: d1, d3, d9 (3)
#   q2 ranks d5 (0.9), d4 (0.5) -> grades 0, 1; relevant: d4 (1)
EXPECTED = {
    "q1": {
        "AP": (1 / 1 + 2 / 3) / 3,
        "P@2": 1 / 2,
        "RR": 1.0,
        "nDCG": (1 + 0 + 2 / math.log2(4)) / (2 + 1 / math.log2(3) + 1 / math.log2(4)),
    },
    "q2": {"AP": (1 / 2) / 1, "P@2": 1 / 2, "RR": 1 / 2, "nDCG": (1 / math.log2(3)) / 1},
}
MEASURES = ["AP", "P@2", "RR", "nDCG"]


def _check_expected(result):
    table = result.table()
    assert list(table.index) == ["q1", "q2"]
    for q, values in EXPECTED.items():
        for m, v in values.items():
            assert table.loc[q, m] == pytest.approx(v), (q, m)


# --- evaluate on the dict forms ------------------------------------------------------------------


@pytest.mark.parametrize("fast", [True, False])
def test_evaluate_dicts_hand_derived(fast):
    result = ck.evaluate(RUN, QRELS, MEASURES, fast=fast)
    _check_expected(result)
    assert result.mean["AP"] == pytest.approx((EXPECTED["q1"]["AP"] + EXPECTED["q2"]["AP"]) / 2)
    assert result.queries == ["q1", "q2"]


def test_evaluate_per_query_is_tidy():
    result = ck.evaluate(RUN, QRELS, ["AP", "RR"])
    assert list(result.per_query.columns) == ["query_id", "measure", "value"]
    assert len(result.per_query) == 2 * 2
    row = result.per_query.query("query_id == 'q2' and measure == 'RR'")
    assert row["value"].tolist() == pytest.approx([1 / 2])


@pytest.mark.parametrize("fast", [True, False])
def test_evaluate_missing_as_zero_includes_qrels_queries_absent_from_run(fast):
    result = ck.evaluate(RUN, QRELS, ["AP"], missing_as_zero=True, fast=fast)
    assert result.queries == ["q1", "q2", "q3"]
    assert result.table().loc["q3", "AP"] == 0.0
    assert result.mean["AP"] == pytest.approx((EXPECTED["q1"]["AP"] + 1 / 2 + 0) / 3)


def test_evaluate_measure_objects_and_registry():
    measure = ck.parse_measure("P@2")
    assert (measure.name, measure.family, measure.param) == ("P@2", "P", 2)
    assert measure([1, 0, 1], 2, [1, 1]) == pytest.approx(1 / 2)
    result = ck.evaluate(RUN, QRELS, measure)
    assert list(result.mean.index) == ["P@2"]
    assert "IPrec@r" in ck.known_measures()


def test_evaluate_slow_only_measures_hand_derived():
    result = ck.evaluate(RUN, QRELS, ["IPrec@0.5", "PRES@3", "MOR@3", "NumRel", "NumRelRet"])
    table = result.table()
    # q1: relevant at ranks 1, 3 of 3; recall 1/3 at rank 1 (P 1), 2/3 at rank 3 (P 2/3)
    assert table.loc["q1", "IPrec@0.5"] == pytest.approx(2 / 3)
    # PRES@3: ranks 1, 3 and the missing 3rd at 3 + 3 = 6: 1 - ((1 + 3 + 6)/3 - 2) / 3
    assert table.loc["q1", "PRES@3"] == pytest.approx(1 - (10 / 3 - 2) / 3)
    # MOR@3 for q2: h = 1, w = 2, g = AP = 1/2, n = 1: (1*3 + 3 - 2 + 1/2) / (2 * 3)
    assert table.loc["q2", "MOR@3"] == pytest.approx(4.5 / 6)
    assert table["NumRel"].tolist() == [3, 1]
    assert table["NumRelRet"].tolist() == [2, 1]


def test_evaluate_no_common_query():
    with pytest.raises(ValueError, match="no query is both in the run and in the qrels"):
        ck.evaluate({"x": {"d1": 1.0}}, QRELS, ["AP"])


def test_evaluate_numeric_query_ids_match_strings():
    result = ck.evaluate({401: {7: 1.0}}, {"401": {"7": 1}}, ["AP"])
    assert result.queries == ["401"]
    assert result.mean["AP"] == 1.0


# --- write_run / read_run ------------------------------------------------------------------------


def test_write_run_writes_trec_order_and_renumbered_ranks(tmp_path):
    path = tmp_path / "run.txt"
    ck.write_run(RUN, path, run_name="mine")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [line.split() for line in lines] == [
        ["q1", "Q0", "d1", "1", "3.0", "mine"],
        ["q1", "Q0", "d2", "2", "2.0", "mine"],
        ["q1", "Q0", "d3", "3", "1.0", "mine"],
        ["q2", "Q0", "d5", "1", "0.9", "mine"],
        ["q2", "Q0", "d4", "2", "0.5", "mine"],
    ]


@pytest.mark.parametrize("fast", [True, False])
def test_write_run_then_read_run_round_trips(tmp_path, fast):
    path = tmp_path / "run.txt"
    ck.write_run(RUN, path)
    back = ck.read_run(path)
    assert list(back.columns) == ["query_id", "doc_id", "rank", "score", "run"]
    assert ck.run_to_dict(back) == RUN
    direct = ck.evaluate(RUN, QRELS, MEASURES, fast=fast)
    from_file = ck.evaluate(path, QRELS, MEASURES, fast=fast)
    _check_expected(from_file)
    pd.testing.assert_frame_equal(direct.table(), from_file.table())


def test_write_run_keeps_scores_exactly(tmp_path):
    run = {"q": {"a": 0.1 + 0.2, "b": 1 / 3, "c": -2.5e-7}}
    path = tmp_path / "run.txt"
    ck.write_run(run, path)
    assert ck.run_to_dict(ck.read_run(path)) == run


def test_write_run_rejects_run_name_with_space(tmp_path):
    with pytest.raises(ValueError, match="run name cannot contain white space"):
        ck.write_run(RUN, tmp_path / "run.txt", run_name="my run")


def test_read_run_then_write_run_round_trips(tmp_path):
    source = write_file(tmp_path, "in.txt", "q1 Q0 d2 1 2.0 bm25\nq1 Q0 d1 2 1.0 bm25\n")
    out = tmp_path / "out.txt"
    ck.write_run(ck.read_run(source), out)
    assert out.read_text(encoding="utf-8").split() == source.read_text(encoding="utf-8").split()


def test_read_run_keeps_rank_column_as_written(tmp_path):
    path = write_file(tmp_path, "run.txt", "q1 Q0 dA 7 0.5 r\nq1 Q0 dB 3 0.9 r\n")
    run = ck.read_run(path)
    assert run["rank"].tolist() == [7, 3]
    assert run["score"].tolist() == [0.5, 0.9]
    assert run["run"].tolist() == ["r", "r"]


RANK_DISAGREES = "q1 Q0 dA 1 0.5 r\nq1 Q0 dB 2 0.9 r\nq1 Q0 dC 3 0.9 r\nq1 Q0 dD 4 0.1 r\n"


@pytest.mark.parametrize("fast", [True, False])
def test_rank_column_is_ignored_scores_decide_ties_by_doc_id_descending(tmp_path, fast):
    path = write_file(tmp_path, "run.txt", RANK_DISAGREES)
    qrels = {"q1": {"dC": 1, "dD": 1}}
    # By score: dB and dC tie at 0.9 -> doc id descending: dC, dB; then dA, dD
    # rels [1, 0, 0, 1]: AP = (1/1 + 2/4) / 2, RR = 1, P@1 = 1
    # (by the rank column: dA, dB, dC, dD -> AP (1/3 + 2/4)/2; ties ascending -> AP 1/2)
    table = ck.evaluate(path, qrels, ["AP", "RR", "P@1"], fast=fast).table()
    assert table.loc["q1"].tolist() == pytest.approx([(1 / 1 + 2 / 4) / 2, 1.0, 1.0])


def test_sort_run_orders_like_trec_eval():
    frame = pd.DataFrame(
        {
            "query_id": ["q2", "q1", "q1", "q1", "q1"],
            "doc_id": ["x", "d10", "d9", "d2", "d1"],
            "score": [1.0, 0.5, 0.5, 0.7, 0.1],
        }
    )
    ordered = ck.sort_run(frame)
    # q1: d2 (0.7), then d9 and d10 tie at 0.5 -> "d9" > "d10" as strings, then d1; then q2
    assert ordered["doc_id"].tolist() == ["d2", "d9", "d10", "d1", "x"]
    assert ordered["rank"].tolist() == [1, 2, 3, 4, 1]


@pytest.mark.parametrize("fast", [True, False])
def test_tie_broken_by_doc_id_string_descending(fast):
    run = {"q": {"d10": 1.0, "d9": 1.0}}
    assert ck.evaluate(run, {"q": {"d9": 1}}, ["RR"], fast=fast).mean["RR"] == 1.0
    assert ck.evaluate(run, {"q": {"d10": 1}}, ["RR"], fast=fast).mean["RR"] == 1 / 2


def test_as_run_frame_from_dict_assigns_ranks():
    frame = ck.as_run_frame({"q": {"a": 0.2, "b": 0.8}})
    assert list(frame.columns) == ["query_id", "doc_id", "rank", "score", "run"]
    assert frame["doc_id"].tolist() == ["b", "a"]
    assert frame["rank"].tolist() == [1, 2]
    assert frame["run"].tolist() == ["coursekit", "coursekit"]


# --- read_qrels / write_qrels --------------------------------------------------------------------


def test_read_qrels_keeps_negative_grades(tmp_path):
    path = write_file(tmp_path, "qrels.txt", "q1 0 d1 2\nq1 0 d2 -1\nq1 0 d3 0\nq2 0 d1 1\n")
    qrels = ck.read_qrels(path)
    assert list(qrels.columns) == ["query_id", "doc_id", "relevance"]
    assert qrels["relevance"].tolist() == [2, -1, 0, 1]
    assert ck.qrels_to_dict(qrels) == {"q1": {"d1": 2, "d2": -1, "d3": 0}, "q2": {"d1": 1}}


@pytest.mark.parametrize("fast", [True, False])
def test_negative_grades_are_neither_relevant_nor_gain(tmp_path, fast):
    path = write_file(tmp_path, "qrels.txt", "q1 0 d1 -2\nq1 0 d2 1\nq1 0 d3 -1\n")
    run = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    table = ck.evaluate(run, path, ["AP", "P@3", "nDCG"], fast=fast).table()
    # rels [-2, 1, -1]: one relevant, at rank 2; DCG = 1/log2(3), IDCG = 1
    assert table.loc["q1"].tolist() == pytest.approx([1 / 2, 1 / 3, 1 / math.log2(3)])


def test_read_qrels_refuses_fractional_grades(tmp_path):
    # trec_eval reads grades as integers: 0.5 and 1.5 would silently become other gains
    path = write_file(tmp_path, "qrels.txt", "q1 0 d1 1\nq1 0 d2 1.5\n")
    with pytest.raises(
        ValueError, match=f"{re.escape(str(path))}, line 2: the grade '1.5' is not an"
    ):
        ck.read_qrels(path)


def test_read_qrels_skips_blank_lines(tmp_path):
    path = write_file(tmp_path, "qrels.txt", "\nq1 0 d1 1\n\n   \nq1 0 d2 0\n\n")
    assert ck.qrels_to_dict(path) == {"q1": {"d1": 1, "d2": 0}}


def test_read_run_skips_blank_lines(tmp_path):
    path = write_file(tmp_path, "run.txt", "\n\nq1 Q0 d1 1 2.0 r\n\n\nq1 Q0 d2 2 1.0 r\n")
    assert ck.run_to_dict(path) == {"q1": {"d1": 2.0, "d2": 1.0}}


def test_write_qrels_then_read_qrels_round_trips(tmp_path):
    path = tmp_path / "qrels.txt"
    ck.write_qrels(QRELS, path)
    assert ck.qrels_to_dict(ck.read_qrels(path)) == QRELS
    assert [line.split() for line in path.read_text(encoding="utf-8").splitlines()][:2] == [
        ["q1", "0", "d1", "1"],
        ["q1", "0", "d3", "2"],
    ]


def test_read_qrels_then_write_qrels_round_trips(tmp_path):
    source = write_file(tmp_path, "in.txt", "q1 0 d1 1\nq1 0 d2 -1\n")
    out = tmp_path / "out.txt"
    ck.write_qrels(ck.read_qrels(source), out)
    assert ck.qrels_to_dict(out) == {"q1": {"d1": 1, "d2": -1}}


# --- categorical ids and the dict forms ----------------------------------------------------------


def test_categorical_id_columns_compare_equal_to_strings(tmp_path):
    run = ck.read_run(write_file(tmp_path, "run.txt", "401 Q0 007 1 2.0 r\n401 Q0 d2 2 1.0 r\n"))
    qrels = ck.read_qrels(write_file(tmp_path, "qrels.txt", "401 0 007 1\n"))
    assert isinstance(run["query_id"].dtype, pd.CategoricalDtype)
    assert isinstance(qrels["doc_id"].dtype, pd.CategoricalDtype)
    assert (run["query_id"] == "401").all()
    assert run["doc_id"].tolist() == ["007", "d2"]  # ids are strings: leading zeros kept
    assert (qrels["doc_id"] == "007").tolist() == [True]
    assert ck.run_to_dict(run) == {"401": {"007": 2.0, "d2": 1.0}}


@pytest.mark.parametrize("fast", [True, False])
def test_categorical_dataframe_run_evaluates_like_strings(fast):
    rows = [(q, d, s) for q, docs in RUN.items() for d, s in docs.items()]
    plain = pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])
    categorical = plain.astype({"query_id": "category", "doc_id": "category"})
    result = ck.evaluate(categorical, QRELS, MEASURES, fast=fast)
    _check_expected(result)
    pd.testing.assert_frame_equal(
        result.table(), ck.evaluate(plain, QRELS, MEASURES, fast=fast).table()
    )


@pytest.mark.parametrize("fast", [True, False])
def test_categorical_doc_ids_in_any_category_order_tie_by_doc_id(fast):
    run = pd.DataFrame(
        {
            "query_id": ["q", "q", "q"],
            "doc_id": pd.Categorical(["a", "b", "c"], categories=["c", "a", "b"]),
            "score": [1.0, 1.0, 1.0],
        }
    )
    # all tied: doc id descending gives c, b, a; c is the relevant one -> RR = 1
    assert ck.evaluate(run, {"q": {"c": 1}}, ["RR"], fast=fast).mean["RR"] == 1.0


def test_qrels_to_dict_from_dataframe_and_dict():
    frame = pd.DataFrame({"query_id": [1, 1, 2], "doc_id": ["a", "b", "a"], "relevance": [1, 0, 2]})
    expected = {"1": {"a": 1, "b": 0}, "2": {"a": 2}}
    assert ck.qrels_to_dict(frame) == expected
    assert ck.qrels_to_dict({1: {"a": 1, "b": 0}, 2: {"a": 2}}) == expected
    assert all(isinstance(g, int) for docs in expected.values() for g in docs.values())


def test_run_to_dict_from_dataframe():
    frame = pd.DataFrame({"query_id": ["q", "q"], "doc_id": [5, 6], "score": [1, 2]})
    result = ck.run_to_dict(frame)
    assert result == {"q": {"6": 2.0, "5": 1.0}}
    assert all(isinstance(s, float) for s in result["q"].values())


def test_as_qrels_frame_rejects_other_types():
    with pytest.raises(TypeError, match="qrels must be a path, a DataFrame"):
        ck.as_qrels_frame([("q", "d", 1)])


def test_as_run_frame_rejects_other_types():
    with pytest.raises(TypeError, match="a run must be a path, a DataFrame"):
        ck.as_run_frame([("q", "d", 1.0)])


def test_nested_dict_must_map_queries_to_dicts():
    with pytest.raises(TypeError, match="query 'q' maps to list"):
        ck.as_qrels_frame({"q": ["d1"]})


def test_doc_ids_that_look_like_missing_values_stay_strings(tmp_path):
    text = "q1 Q0 NA 1 3.0 r\nq1 Q0 null 2 2.0 r\nq1 Q0 nan 3 1.0 r\n"
    path = write_file(tmp_path, "run.txt", text)
    assert ck.read_run(path)["doc_id"].tolist() == ["NA", "null", "nan"]


def test_double_quotes_are_ordinary_characters_in_a_run_file(tmp_path):
    # TREC files are split on white space only: every line is one document
    text = 'q1 Q0 "d1 1 3.0 r\nq1 Q0 d2" 2 2.0 r\nq1 Q0 "d3" 3 1.0 r\n'
    path = write_file(tmp_path, "run.txt", text)
    assert ck.read_run(path)["doc_id"].tolist() == ['"d1', 'd2"', '"d3"']


def test_double_quotes_are_ordinary_characters_in_a_qrels_file(tmp_path):
    path = write_file(tmp_path, "qrels.txt", 'q1 0 "d1" 1\nq1 0 d2 0\n')
    assert ck.qrels_to_dict(path) == {"q1": {'"d1"': 1, "d2": 0}}
