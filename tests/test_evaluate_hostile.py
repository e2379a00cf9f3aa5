"""Hostile values in runs and qrels given as DataFrames or dicts: evaluate and the frames layer
(as_run_frame, run_to_dict, sort_run...) read them alike, and refuse by name and place what
would change numbers. Expected values are derived by hand in each test."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import coursekit as ck

QRELS = {"q1": {"d1": 1}}


def _frame(ids, values, value_name="score"):
    queries, docs = zip(*ids, strict=True)
    return pd.DataFrame(
        {
            "query_id": pd.Series(queries, dtype=object),
            "doc_id": pd.Series(docs, dtype=object),
            value_name: values,
        }
    )


def test_numpy_unsigned_integers_near_2_64_among_floats_keep_their_value():
    # pyarrow reads np.uint64(2**64 - 1) among floats as -1.0; d1 has the highest score, and
    # is the only relevant document: AP = 1 (it was 1/2, d1 ranked second at -1)
    run = {"q1": {"d1": np.uint64(2**64 - 1), "d2": 2.0}}
    assert ck.evaluate(run, QRELS, ["AP"]).mean["AP"] == 1.0
    assert ck.as_run_frame(run)["doc_id"].tolist() == ["d1", "d2"]
    # as a grade it is beyond a C int: refused, not read as -1 (nor as 1.8e19 by the measures)
    qrels = {"q1": {"d1": np.uint64(2**64 - 1), "d2": 2.0}}
    with pytest.raises(ValueError, match="the grade 1.8446744073709552e.19 is out of range"):
        ck.evaluate({"q1": {"d1": 3.0, "d2": 2.0}}, qrels, ["AP"])


@pytest.mark.parametrize("flag", [True, np.True_, np.bool_(False)])
def test_a_bool_among_whole_grades_or_scores_is_refused(flag):
    # a numpy bool among int grades used to be read as the grade 1 (pyarrow's conversion),
    # silently: AP would then be 1/2 (d2, "relevant", ranked first), not 1
    with pytest.raises(TypeError, match=r"relevance of document 'd2' for query 'q1' must be"):
        ck.evaluate({"q1": {"d1": 1.0, "d2": 2.0}}, {"q1": {"d1": 1, "d2": flag}}, ["AP"])
    with pytest.raises(TypeError, match=r"score of document 'd2' for query 'q1' must be"):
        ck.evaluate({"q1": {"d1": 1, "d2": flag}}, QRELS, ["AP"])
    with pytest.raises(TypeError, match=r"score of document 'd2' for query 'q1' must be"):
        ck.evaluate({"q1": {"d1": 0.5, "d2": flag}}, QRELS, ["AP"])


@pytest.mark.parametrize("missing", [None, float("nan"), pd.NA])
def test_a_missing_id_as_a_dict_key_is_refused_everywhere(missing):
    calls = {
        "evaluate run": lambda r: ck.evaluate(r, QRELS, ["AP"]),
        "evaluate qrels": lambda q: ck.evaluate({"q1": {"d1": 1.0}}, q, ["AP"]),
        "as_run_frame": ck.as_run_frame,
        "run_to_dict": ck.run_to_dict,
        "as_qrels_frame": ck.as_qrels_frame,
    }
    for name, call in calls.items():
        for given in ({missing: {"d1": 1}, "q1": {"d1": 1}}, {"q1": {"d1": 1, missing: 0}}):
            with pytest.raises(ValueError, match=r"(query|doc) id.* is missing"):
                call(given)
            assert name  # (for the traceback)


COMPLEX_AND_TIME = {
    "complex column": lambda: [2 + 1j, 1 + 0j],
    "complex objects": lambda: pd.Series([2.0, 1 + 1j], dtype=object),
    "dates": lambda: pd.to_datetime(["2020-01-02", "2020-01-01"]),
    "durations": lambda: pd.to_timedelta([2, 1], unit="s"),
}


@pytest.mark.parametrize("values", COMPLEX_AND_TIME)
def test_complex_numbers_dates_and_durations_are_not_scores_or_grades(values):
    # (pandas would read 2+1j as 2 with a warning, and a date as its nanoseconds)
    run = _frame([("q1", "d1"), ("q1", "d2")], COMPLEX_AND_TIME[values]())
    qrels = _frame([("q1", "d1"), ("q1", "d2")], COMPLEX_AND_TIME[values](), "relevance")
    row = 1 if values == "complex objects" else 0
    for call in (lambda: ck.evaluate(run, QRELS, ["AP"]), lambda: ck.as_run_frame(run)):
        with pytest.raises(TypeError, match=f"run row {row} .*: the score .* is not a real number"):
            call()
    for call in (
        lambda: ck.evaluate({"q1": {"d1": 1.0}}, qrels, ["AP"]),
        lambda: ck.as_qrels_frame(qrels),
    ):
        with pytest.raises(TypeError, match=f"qrels row {row} .*: the grade .* not a real number"):
            call()


def test_a_complex_number_in_a_dict_is_not_a_score():
    for call in (ck.as_run_frame, ck.run_to_dict, lambda r: ck.evaluate(r, QRELS, ["AP"])):
        with pytest.raises(TypeError, match="score of document 'd1' for query 'q1' must be a"):
            call({"q1": {"d1": np.complex128(1.0)}})


def test_numbers_beyond_a_float_are_refused_by_place():
    huge = 10**400
    for call in (ck.as_run_frame, lambda r: ck.evaluate(r, QRELS, ["AP"])):
        with pytest.raises(ValueError, match="score of document 'd2' for query 'q1' is 1000"):
            call({"q1": {"d1": 1.0, "d2": huge}})
        with pytest.raises(ValueError, match=r"run row 1 \(query 'q1', document 'd2'\): the score"):
            call(_frame([("q1", "d1"), ("q1", "d2")], pd.Series([1.0, huge], dtype=object)))


def test_two_columns_of_one_name_are_refused():
    run = pd.DataFrame([["q1", "d1", 1.0, 2.0]], columns=["query_id", "doc_id", "score", "score"])
    for call in (ck.as_run_frame, ck.sort_run, lambda r: ck.evaluate(r, QRELS, ["AP"])):
        with pytest.raises(ValueError, match="the run DataFrame has two columns named 'score'"):
            call(run)


def test_an_id_that_utf8_cannot_encode_is_refused_in_every_form():
    lone = "d\udc80"
    as_dict = {"q1": {"d1": 2.0, lone: 1.0}}
    as_frame = _frame([("q1", "d1"), ("q1", lone)], [2.0, 1.0])
    calls = [
        ck.as_run_frame,
        ck.run_to_dict,
        ck.sort_run,
        lambda r: ck.evaluate(r, QRELS, ["AP"]),
        lambda r: ck.evaluate(r, QRELS, ["Bpref"]),
    ]
    for given in (as_dict, as_frame):
        for call in calls:
            if call is ck.sort_run and given is as_dict:
                continue
            with pytest.raises(ValueError, match="holds a lone surrogate"):
                call(given)


def test_sort_run_checks_the_run_it_orders():
    # 1 and "1" are one query (as evaluate reads them): ranks 1, 2, 3 by score
    run = pd.DataFrame(
        {
            "query_id": pd.Series([1, "1", 1], dtype=object),
            "doc_id": ["a", "b", "c"],
            "score": [1.0, 3.0, 2.0],
            "note": ["x", "y", "z"],
        }
    )
    ordered = ck.sort_run(run)
    assert ordered[["query_id", "doc_id", "rank", "note"]].to_numpy().tolist() == [
        ["1", "b", 1, "y"],
        ["1", "c", 2, "z"],
        ["1", "a", 3, "x"],
    ]
    with pytest.raises(ValueError, match=r"run row 1 \(query 'q', document 'b'\): the score nan"):
        ck.sort_run(_frame([("q", "a"), ("q", "b")], [1.0, np.nan]))
    with pytest.raises(ValueError, match="run row 1: document 'a' is retrieved twice"):
        ck.sort_run(_frame([("q", "a"), ("q", "a")], [1.0, 2.0]))
    with pytest.raises(ValueError, match="lacks the column.s. score"):
        ck.sort_run(run.drop(columns="score"))
    with pytest.raises(TypeError, match="sort_run takes a run as a DataFrame"):
        ck.sort_run({"q": {"a": 1.0}})


def test_one_measure_has_one_name():
    run = {"q1": {"d1": 2.0, "d2": 1.0}}
    with pytest.raises(ValueError, match="measure.s. asked twice: P@10"):
        ck.evaluate(run, QRELS, ["P@10", "P@010"])
    with pytest.raises(ValueError, match=r"measure.s. asked twice: IPrec@0.3"):
        ck.evaluate(run, QRELS, ["IPrec@0.3", "IPrec@0.30"])
    # the name shown is the canonical one: d1 relevant at rank 1 of 2, so P@2 = 1/2
    assert ck.evaluate(run, QRELS, ["P@02"]).mean.to_dict() == {"P@2": 0.5}


@pytest.mark.parametrize("name", ["nDCG@99999999999999999999", "PRES@2147483648"])
def test_a_cut_off_beyond_any_run_is_refused_by_name(name):
    with pytest.raises(ValueError, match="the cut-off must be at most 2147483647"):
        ck.evaluate({"q1": {"d1": 1.0}}, QRELS, [name])


@pytest.mark.parametrize("dtype", [object, "str"])
@pytest.mark.parametrize(
    ("text", "atol", "pandas"), [("1e3", "1", "1000"), (".5e1", "0", "5"), ("10e-1", "10", "1")]
)
def test_a_grade_written_as_text_is_read_as_trec_eval_reads_it_or_refused(
    dtype, text, atol, pandas
):
    # trec_eval reads grades with C's atol, the digits before '.' or an exponent: "1e3" is 1
    # there, 1000 to pandas; with d2 graded 2, nDCG would differ (1 vs 1000 as d1's gain).
    # The qrels reader refuses such text; a DataFrame's text column is refused alike.
    run = _frame([("q1", "d1"), ("q1", "d2")], [2.0, 1.0])
    qrels = _frame([("q1", "d1"), ("q1", "d2")], pd.Series([text, "2"], dtype=dtype), "relevance")
    message = (
        f"qrels row 0 .*the grade '{text}' is not an integer in digits "
        f"\\(trec_eval reads it as {atol}, here it would be {pandas}\\)"
    )
    with pytest.raises(ValueError, match=message):
        ck.evaluate(run, qrels, ["nDCG"])
    with pytest.raises(ValueError, match=message):
        ck.as_qrels_frame(qrels)


@pytest.mark.parametrize("dtype", [object, "str"])
def test_whole_grades_written_as_text_that_atol_reads_alike_are_accepted(dtype):
    # " 2.00 ", "1e0" and "+1" are 2, 1, 1 to both atol and pandas. Ranking d1 (grade 2),
    # d2 (1), d3 (1) is ideal: nDCG = 1. Graded as d1 1, d2 2 instead it would not be.
    run = _frame([("q1", "d1"), ("q1", "d2"), ("q1", "d3")], [3.0, 2.0, 1.0])
    grades = pd.Series([" 2.00 ", "1e0", "+1"], dtype=dtype)
    qrels = _frame([("q1", "d1"), ("q1", "d2"), ("q1", "d3")], grades, "relevance")
    assert ck.evaluate(run, qrels, ["nDCG"]).mean["nDCG"] == pytest.approx(1.0, abs=1e-15)
    assert ck.as_qrels_frame(qrels)["relevance"].tolist() == [2, 1, 1]


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("1_0", "is not a number"),
        ("0x10", "is not a number"),
        ("abc", "is not a number"),
        ("nan", "is not a finite number"),
        (" -inf", "is not a finite number"),
    ],
)
def test_text_that_is_not_a_number_is_told_apart_from_nan(value, problem):
    run = _frame([("q1", "d1"), ("q1", "d2")], pd.Series([value, "1.5"], dtype=object))
    with pytest.raises(ValueError, match=f"run row 0 .*the score '{value}' {problem}$"):
        ck.evaluate(run, QRELS, ["AP"])
