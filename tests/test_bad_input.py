"""Each bad input raises a TypeError or ValueError that says what is wrong (one test each)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from files_support import at_line, write_file

import coursekit as ck

RUN_OK = "q1 Q0 d1 1 2.5 bm25\n"
QRELS_OK = "q1 0 d1 1\n"


# --- malformed TREC lines ------------------------------------------------------------------------


def test_run_line_with_too_few_fields(tmp_path):
    path = write_file(tmp_path, "run.txt", RUN_OK + "q1 Q0 d2 2 1.5\n")
    with pytest.raises(ValueError, match=at_line(path, 2) + "a run line has 6 fields .* has 5"):
        ck.read_run(path)


def test_run_line_text_after_six_fields_is_ignored_as_trec_eval_does(tmp_path):
    # trec_eval's results.trunc: text after the run name is not read
    path = write_file(tmp_path, "run.txt", RUN_OK + "q1 Q0 d2 2 1.5 bm25 extra text\n")
    run = ck.read_run(path)
    assert run["doc_id"].tolist() == ["d1", "d2"] and run["run"].tolist() == ["bm25", "bm25"]


def test_run_line_number_counts_blank_lines(tmp_path):
    path = write_file(tmp_path, "run.txt", RUN_OK + "\n\n" + "q1 Q0 d2 2\n")
    with pytest.raises(ValueError, match=at_line(path, 4) + "a run line has 6 fields"):
        ck.read_run(path)


def test_qrels_line_with_wrong_field_count(tmp_path):
    path = write_file(tmp_path, "qrels.txt", QRELS_OK + "q1 0 d2\n")
    with pytest.raises(ValueError, match=at_line(path, 2) + "a qrels line has 4 fields .* has 3"):
        ck.read_qrels(path)


def test_qrels_line_number_counts_blank_lines(tmp_path):
    path = write_file(tmp_path, "qrels.txt", "\n" + QRELS_OK + "\n" + "q1 0 d2 1 extra\n")
    with pytest.raises(ValueError, match=at_line(path, 4) + "a qrels line has 4 fields .* has 5"):
        ck.read_qrels(path)


def test_path_given_as_string_is_named_too(tmp_path):
    path = write_file(tmp_path, "run.txt", "q1 Q0 d2\n")
    with pytest.raises(ValueError, match=at_line(str(path), 1)):
        ck.read_run(str(path))


# --- non-numeric and non-finite numbers in files -------------------------------------------------


@pytest.mark.parametrize(
    ("name", "lines", "line", "message"),
    [
        ("run.txt", "q1 Q0 d2 2 high bm25\n", 2, "the score 'high' is not a number"),
        ("run.txt", "q1 Q0 d2 two 1.5 bm25\n", 2, "the rank 'two' is not a number"),
        ("qrels.txt", "q1 0 d2 relevant\n", 2, "the grade 'relevant' is not a number"),
        ("qrels.txt", "q1 0 d2 nan\n", 2, "the grade 'nan' is not a finite number"),
        ("run.txt", "\nq1 Q0 d2 2 NaN bm25\n", 3, "the score 'NaN' is not a finite number"),
        ("run.txt", "q1 Q0 d2 2 -inf bm25\n", 2, "the score '-inf' is not a finite number"),
    ],
    ids=[
        "non-numeric score",
        "non-numeric rank",
        "non-numeric grade",
        "NaN grade",
        "NaN score after a blank line",
        "infinite score",
    ],  # fmt: skip
)
def test_bad_numbers_in_files_name_file_and_line(tmp_path, name, lines, line, message):
    reader, ok = (ck.read_run, RUN_OK) if name == "run.txt" else (ck.read_qrels, QRELS_OK)
    path = write_file(tmp_path, name, ok + lines)
    with pytest.raises(ValueError, match=at_line(path, line) + message):
        reader(path)


def test_run_nan_score_in_file_through_evaluate(tmp_path):
    run = write_file(tmp_path, "run.txt", RUN_OK + "q1 Q0 d2 2 nan bm25\n")
    qrels = write_file(tmp_path, "qrels.txt", QRELS_OK)
    with pytest.raises(ValueError, match=at_line(run, 2) + "the score 'nan'"):
        ck.evaluate(run, qrels, ["AP"])


# --- non-finite scores in a DataFrame or dict run ------------------------------------------------


def test_run_nan_score_in_dataframe():
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [1.0, np.nan]})
    with pytest.raises(ValueError, match="run row 1 .query 'q', document 'b'.: the score .*nan"):
        ck.as_run_frame(run)


def test_run_infinite_score_in_dataframe():
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [np.inf, 1.0]})
    with pytest.raises(ValueError, match="run row 0 .query 'q', document 'a'.*not a finite"):
        ck.evaluate(run, {"q": {"a": 1}}, ["AP"])


# --- booleans are not scores or grades (pyarrow and pandas would read True as 1.0) --------------

BOOL_COLUMNS = {
    "bool dtype": lambda: [True, False],
    "after a float": lambda: [1.0, True],
    "numpy bool": lambda: np.array([2.0, np.False_], dtype=object),
    "nullable boolean": lambda: pd.array([True, None], dtype="boolean"),
}


@pytest.mark.parametrize("column", BOOL_COLUMNS)
def test_bool_grades_in_a_dataframe(column):
    values = BOOL_COLUMNS[column]()
    row = 1 if column in ("after a float", "numpy bool") else 0
    qrels = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "relevance": values})
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "b"], "score": [2.0, 1.0]})
    shown = str(qrels["relevance"].iloc[row])
    doc = "ab"[row]
    with pytest.raises(
        TypeError, match=rf"qrels row {row} \(query 'q', document '{doc}'\): the grade {shown} is "
    ):
        ck.evaluate(run, qrels, ["AP"])
    with pytest.raises(
        TypeError, match=rf"qrels row {row} \(query 'q', document '{doc}'\): the grade {shown} is a"
    ):
        ck.as_qrels_frame(qrels)
    run["score"] = values
    with pytest.raises(TypeError, match=f"run row {row} .*: the score {shown} is a bool"):
        ck.evaluate(run, {"q": {"a": 1}}, ["AP"])
    with pytest.raises(TypeError, match=f"run row {row} .*: the score {shown} is a bool"):
        ck.as_run_frame(run)


@pytest.mark.parametrize("value", [True, np.False_])
def test_bool_after_a_float_in_a_dict(value):
    with pytest.raises(TypeError, match="score of document 'b' for query 'q' must be a number"):
        ck.evaluate({"q": {"a": 2.0, "b": value}}, {"q": {"a": 1}}, ["AP"])
    with pytest.raises(TypeError, match="relevance of document 'b' for query 'q' must be a"):
        ck.evaluate({"q": {"a": 2.0, "b": 1.0}}, {"q": {"a": 1.0, "b": value}}, ["AP"])


def test_run_nan_score_in_dict():
    with pytest.raises(ValueError, match="score of document 'd' for query 'q' is nan"):
        ck.as_run_frame({"q": {"d": float("nan")}})


def test_run_infinite_score_in_dict():
    with pytest.raises(ValueError, match="score of document 'd' for query 'q' is inf"):
        ck.evaluate({"q": {"d": float("inf")}}, {"q": {"d": 1}}, ["AP"])


def test_run_non_numeric_score_in_dict():
    with pytest.raises(TypeError, match="score of document 'd' for query 'q' must be a number"):
        ck.as_run_frame({"q": {"d": "0.5"}})


# --- a document twice in one query ---------------------------------------------------------------


def test_run_file_document_twice(tmp_path):
    text = RUN_OK + "q1 Q0 d2 2 1.5 bm25\n\nq1 Q0 d1 3 1.0 bm25\n"
    path = write_file(tmp_path, "run.txt", text)
    with pytest.raises(ValueError, match=at_line(path, 4) + "document 'd1' is retrieved twice"):
        ck.read_run(path)


def test_run_file_same_document_in_two_queries_is_fine(tmp_path):
    path = write_file(tmp_path, "run.txt", RUN_OK + "q2 Q0 d1 1 2.5 bm25\n")
    assert len(ck.read_run(path)) == 2


def test_qrels_file_document_twice(tmp_path):
    path = write_file(tmp_path, "qrels.txt", QRELS_OK + "q1 0 d2 0\nq1 0 d1 2\n")
    with pytest.raises(ValueError, match=at_line(path, 3) + "document 'd1' is judged twice"):
        ck.read_qrels(path)


def test_run_dict_document_twice_after_id_conversion():
    # 7 and "7" are both the document "7" once ids are strings
    with pytest.raises(ValueError, match="document '7' is retrieved twice for query 'q'"):
        ck.as_run_frame({"q": {7: 0.5, "7": 0.3}})


def test_run_dataframe_document_twice():
    run = pd.DataFrame({"query_id": ["q", "q", "q"], "doc_id": ["a", "b", "a"], "score": [3, 2, 1]})
    with pytest.raises(ValueError, match="run row 2: document 'a' is retrieved twice"):
        ck.as_run_frame(run)


@pytest.mark.parametrize("fast", [True, False])
def test_run_dataframe_document_twice_in_evaluate(fast):
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["a", "a"], "score": [1.0, 2.0]})
    with pytest.raises(ValueError, match="document 'a' is retrieved twice for query 'q'"):
        ck.evaluate(run, {"q": {"a": 1}}, ["AP", "P@5"], fast=fast)


def test_qrels_dict_document_twice_after_id_conversion():
    with pytest.raises(ValueError, match="document '3' is judged twice for query 'q'"):
        ck.as_qrels_frame({"q": {3: 1, "3": 0}})


def test_frames_read_ids_as_evaluate_does():
    """The frames layer (as_run_frame, write_run, run_to_dict...) reads ids that are not
    strings as evaluate does: bytes decoded, numbers as str(), so 7 and "7" are one id."""
    run = pd.DataFrame(
        {
            "query_id": pd.Series([b"q1", "q1", 3], dtype=object),
            "doc_id": pd.Series([b"d1", 7, 2.5], dtype=object),
            "score": [3.0, 2.0, 1.0],
        }
    )
    assert ck.as_run_frame(run)[["query_id", "doc_id"]].to_numpy().tolist() == [
        ["3", "2.5"],
        ["q1", "d1"],
        ["q1", "7"],
    ]
    assert ck.run_to_dict(run) == {"q1": {"d1": 3.0, "7": 2.0}, "3": {"2.5": 1.0}}
    qrels = run.rename(columns={"score": "relevance"}).assign(relevance=[1, 0, 2])
    assert ck.qrels_to_dict(qrels) == {"q1": {"d1": 1, "7": 0}, "3": {"2.5": 2}}
    twice = pd.DataFrame(
        {"query_id": ["q", "q"], "doc_id": pd.Series([7, "7"], dtype=object), "score": [2, 1]}
    )
    for call in (ck.as_run_frame, ck.run_to_dict):
        with pytest.raises(ValueError, match="run row 1: document '7' is retrieved twice"):
            call(twice)
    with pytest.raises(ValueError, match="qrels row 1: document '7' is judged twice"):
        ck.as_qrels_frame(twice.rename(columns={"score": "relevance"}))


MISSING_IDS = {
    "None among strings": lambda: pd.Series(["a", None, "c"], dtype=object),
    "NaN among strings": lambda: pd.Series(["a", np.nan, "c"], dtype=object),
    "pandas' str": lambda: pd.Series(["a", None, "c"], dtype="str"),
    "floats": lambda: pd.Series([1.0, np.nan, 3.0]),
    "categorical": lambda: pd.Series(["a", None, "c"], dtype="category"),
}


@pytest.mark.parametrize("column", MISSING_IDS)
@pytest.mark.parametrize("name", ["query_id", "doc_id"])
def test_frames_refuse_a_missing_id_by_its_row(tmp_path, column, name):
    ids = {"query_id": ["q", "q", "q"], "doc_id": ["a", "b", "c"], name: MISSING_IDS[column]()}
    what = name.replace("_", " ")
    run = pd.DataFrame({**ids, "score": [3.0, 2.0, 1.0]})
    qrels = pd.DataFrame({**ids, "relevance": [1, 0, 1]})
    for call in (ck.as_run_frame, ck.run_to_dict, lambda r: ck.write_run(r, tmp_path / "r")):
        with pytest.raises(ValueError, match=f"run row 1: the {what} is missing"):
            call(run)
    for call in (ck.as_qrels_frame, lambda q: ck.write_qrels(q, tmp_path / "q")):
        with pytest.raises(ValueError, match=f"qrels row 1: the {what} is missing"):
            call(qrels)
    with pytest.raises(ValueError, match=f"run row 1: the {what} is missing"):
        ck.evaluate(run, {"q": {"a": 1}}, ["AP"])  # (as evaluate says it)
    assert not (tmp_path / "r").exists() and not (tmp_path / "q").exists()


# --- k -------------------------------------------------------------------------------------------

K_FUNCTIONS = {
    "precision_at": lambda k: ck.precision_at([1, 0], k),
    "recall_at": lambda k: ck.recall_at([1, 0], k, 1),
    "dcg": lambda k: ck.dcg([1, 0], k),
    "ndcg": lambda k: ck.ndcg([1, 0], k),
}


@pytest.mark.parametrize("function", K_FUNCTIONS)
@pytest.mark.parametrize("k", [0, -1])
def test_k_not_positive(function, k):
    with pytest.raises(ValueError, match=rf"k must be a positive integer \(>= 1\), got {k}"):
        K_FUNCTIONS[function](k)


@pytest.mark.parametrize("function", K_FUNCTIONS)
@pytest.mark.parametrize(
    ("k", "shown"), [(2.0, "float 2.0"), ("2", "str '2'"), (True, "bool True")]
)
def test_k_not_an_integer(function, k, shown):
    with pytest.raises(TypeError, match=f"k must be a positive integer, got {shown}"):
        K_FUNCTIONS[function](k)


@pytest.mark.parametrize("function", ["precision_at", "recall_at"])
def test_k_none_where_a_cutoff_is_required(function):
    # (for dcg and ndcg, k=None means the whole list)
    with pytest.raises(TypeError, match="k must be a positive integer, got NoneType None"):
        K_FUNCTIONS[function](None)


@pytest.mark.parametrize("function", K_FUNCTIONS)
@pytest.mark.parametrize("k", [2**63, 10**400])
def test_k_beyond_64_bits_is_refused_by_name(function, k):
    # (Python ints have no limit; numpy's indices stop at 2**63 - 1, floats near 10**308)
    with pytest.raises(ValueError, match=r"k is too large: it must be a positive integer"):
        K_FUNCTIONS[function](k)


def test_numbers_beyond_a_float_are_refused_by_name():
    with pytest.raises(ValueError, match=r"rels\[1\] \(rank 2\) is 1000.*too large for a grade"):
        ck.average_precision([1, 10**400], 1)
    with pytest.raises(ValueError, match="beta is too large: it must be a positive number"):
        ck.f_measure(0.5, 0.25, beta=10**400)
    with pytest.raises(ValueError, match="precision is too large: it must be a number in"):
        ck.f_measure(10**400, 0.5)


# --- n_relevant ----------------------------------------------------------------------------------

N_RELEVANT_FUNCTIONS = {
    "recall_at": lambda rels, n: ck.recall_at(rels, 5, n),
    "average_precision": ck.average_precision,
    "r_precision": ck.r_precision,
    "interpolated_precision": ck.interpolated_precision,
    "pr_table": ck.pr_table,
    "pres": lambda rels, n: ck.pres(rels, n, 10),
    "mor": lambda rels, n: ck.mor(rels, n, 10),
    "mor_parts": lambda rels, n: ck.mor_parts(rels, n, 10),
    "rnorm": lambda rels, n: ck.rnorm(rels, n, 10),
}


@pytest.mark.parametrize("function", N_RELEVANT_FUNCTIONS)
def test_n_relevant_below_relevant_retrieved(function):
    # three relevant documents retrieved (grades 1, 2, 1), n_relevant = 2
    with pytest.raises(ValueError, match="n_relevant=2 is smaller than the 3 relevant documents"):
        N_RELEVANT_FUNCTIONS[function]([1, 0, 2, -1, 1], 2)


@pytest.mark.parametrize("function", N_RELEVANT_FUNCTIONS)
def test_n_relevant_negative(function):
    with pytest.raises(ValueError, match=r"n_relevant must be an integer \(>= 0\), got -1"):
        N_RELEVANT_FUNCTIONS[function]([0, 0], -1)


@pytest.mark.parametrize("function", N_RELEVANT_FUNCTIONS)
def test_n_relevant_not_an_integer(function):
    with pytest.raises(TypeError, match="n_relevant must be an integer, got float 2.0"):
        N_RELEVANT_FUNCTIONS[function]([1, 0], 2.0)


# --- n_max ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("function", [ck.pres, ck.mor, ck.mor_parts])
@pytest.mark.parametrize("n_max", [0, -5])
def test_n_max_not_positive(function, n_max):
    with pytest.raises(ValueError, match=f"n_max must be a positive integer .>= 1., got {n_max}"):
        function([1, 0], 1, n_max)


@pytest.mark.parametrize("function", [ck.pres, ck.mor])
def test_n_max_not_an_integer(function):
    with pytest.raises(TypeError, match="n_max must be a positive integer, got float 10.0"):
        function([1, 0], 1, 10.0)


def test_rnorm_n_docs_too_small_for_the_missing_relevant_documents():
    # 5 retrieved documents + 2 relevant ones not retrieved = 7 documents > n_docs = 6;
    # the missing ones get ranks 6 - 3 + 2 = 5 (already taken) and 6: Rnorm = -1/9
    with pytest.raises(ValueError, match="n_docs"):
        ck.rnorm([0, 0, 0, 0, 1], n_relevant=3, n_docs=6)


# --- empty qrels ---------------------------------------------------------------------------------


def test_qrels_file_with_only_blank_lines(tmp_path):
    path = write_file(tmp_path, "qrels.txt", "\n   \n\t\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}: the qrels file holds no judgment")):
        ck.read_qrels(path)


def test_qrels_empty_file_through_evaluate(tmp_path):
    path = write_file(tmp_path, "qrels.txt", "")
    with pytest.raises(ValueError, match="holds no judgment"):
        ck.evaluate({"q": {"d": 1.0}}, path, ["AP"])


def test_qrels_empty_dict():
    with pytest.raises(ValueError, match="the qrels are empty"):
        ck.evaluate({"q": {"d": 1.0}}, {}, ["AP"])


def test_qrels_dict_of_empty_queries():
    with pytest.raises(ValueError, match="the qrels are empty"):
        ck.as_qrels_frame({"q": {}})


def test_qrels_empty_dataframe():
    empty = pd.DataFrame({"query_id": [], "doc_id": [], "relevance": []})
    with pytest.raises(ValueError, match="the qrels are empty"):
        ck.evaluate({"q": {"d": 1.0}}, empty, ["AP"])


def test_qrels_dataframe_missing_column():
    frame = pd.DataFrame({"query_id": ["q"], "doc_id": ["d"]})
    with pytest.raises(ValueError, match="lacks the column.s. relevance"):
        ck.as_qrels_frame(frame)


# --- measure names -------------------------------------------------------------------------------


def test_unknown_measure_in_evaluate_lists_known_ones():
    with pytest.raises(ValueError, match=r"(?s)unknown measure 'MAPX'.*Known measures:.*P@k.*nDCG"):
        ck.evaluate({"q": {"d": 1.0}}, {"q": {"d": 1}}, ["AP", "MAPX"])


def test_unknown_measure_in_parse_measure_lists_known_ones():
    with pytest.raises(ValueError, match=r"(?s)unknown measure 'Prec@10'.*Known measures:.*RR"):
        ck.parse_measure("Prec@10")


def test_measure_wrong_case_suggests_the_right_one():
    with pytest.raises(ValueError, match="did you mean 'nDCG'"):
        ck.parse_measure("ndcg@10")


def test_measure_cutoff_not_an_integer():
    with pytest.raises(ValueError, match="the cut-off must be a positive integer"):
        ck.parse_measure("P@2.5")


def test_measure_needs_a_parameter():
    with pytest.raises(ValueError, match="P needs a parameter"):
        ck.parse_measure("P")


def test_measure_name_not_a_string():
    with pytest.raises(TypeError, match="a measure name is a string"):
        ck.parse_measure(10)


# --- rank correlation ----------------------------------------------------------------------------


@pytest.mark.parametrize("function", [ck.kendall_tau, ck.spearman_rho])
def test_rankings_of_different_lengths(function):
    with pytest.raises(ValueError, match="different lengths: 3 and 2 items"):
        function(["a", "b", "c"], ["a", "b"])


@pytest.mark.parametrize("function", [ck.kendall_tau, ck.spearman_rho])
def test_rankings_of_different_items(function):
    with pytest.raises(
        ValueError, match="same items; only in the first: 'c'; only in the second: 'x'"
    ):
        function(["a", "b", "c"], ["a", "x", "b"])


# --- beta ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("function", [ck.f_measure, ck.f_prime, ck.e_measure])
@pytest.mark.parametrize("beta", [0, -1.0, float("inf"), float("nan")])
def test_beta_not_positive_finite(function, beta):
    with pytest.raises(ValueError, match=r"beta must be a positive number \(> 0\)"):
        function(0.5, 0.5, beta)


@pytest.mark.parametrize("function", [ck.f_measure, ck.f_prime])
def test_beta_not_a_number(function):
    with pytest.raises(TypeError, match="beta must be a positive number, got str '2'"):
        function(0.5, 0.5, "2")


# --- rels ----------------------------------------------------------------------------------------

RELS_FUNCTIONS = {
    "precision_at": lambda rels: ck.precision_at(rels, 3),
    "recall_at": lambda rels: ck.recall_at(rels, 3, 5),
    "average_precision": lambda rels: ck.average_precision(rels, 5),
    "r_precision": lambda rels: ck.r_precision(rels, 5),
    "reciprocal_rank": ck.reciprocal_rank,
    "interpolated_precision": lambda rels: ck.interpolated_precision(rels, 5),
    "pres": lambda rels: ck.pres(rels, 5, 10),
    "mor": lambda rels: ck.mor(rels, 5, 10),
    "rnorm": lambda rels: ck.rnorm(rels, 5, 20),
}
GAINS_FUNCTIONS = {
    "dcg": ck.dcg,
    "ndcg": ck.ndcg,
    "cumulative_gain": ck.cumulative_gain,
    "discounted_gains": ck.discounted_gains,
}


@pytest.mark.parametrize("function", RELS_FUNCTIONS)
def test_non_numeric_grade_in_rels_names_the_rank(function):
    with pytest.raises(TypeError, match=r"rels\[2\] \(rank 3\) must be a number, got str 'R'"):
        RELS_FUNCTIONS[function]([1, 0, "R", 0])


@pytest.mark.parametrize("function", GAINS_FUNCTIONS)
def test_non_numeric_gain_names_the_rank(function):
    with pytest.raises(TypeError, match=r"gains\[1\] \(rank 2\) must be a number, got NoneType"):
        GAINS_FUNCTIONS[function]([2, None, 1])


def test_non_numeric_grade_in_ideal():
    with pytest.raises(TypeError, match=r"ideal\[0\] \(rank 1\) must be a number"):
        ck.ndcg([1, 0], ideal=["high", 1])


@pytest.mark.parametrize("function", RELS_FUNCTIONS)
def test_nan_grade_in_rels_names_the_rank(function):
    with pytest.raises(ValueError, match=r"rels\[1\] \(rank 2\) is .*nan.*finite"):
        RELS_FUNCTIONS[function]([1, float("nan"), 0])


@pytest.mark.parametrize("function", RELS_FUNCTIONS)
def test_two_dimensional_rels_array(function):
    with pytest.raises(ValueError, match=r"rels must be one-dimensional, got .* shape \(2, 2\)"):
        RELS_FUNCTIONS[function](np.array([[1, 0], [0, 1]]))


def test_two_dimensional_rels_list():
    with pytest.raises(TypeError, match=r"rels\[0\] \(rank 1\) must be a number, got list"):
        ck.average_precision([[1, 0], [0, 1]], 2)


def test_two_dimensional_gains_array():
    with pytest.raises(ValueError, match="gains must be one-dimensional"):
        ck.ndcg(np.ones((3, 2)))


@pytest.mark.parametrize("function", RELS_FUNCTIONS)
def test_string_passed_as_rels(function):
    with pytest.raises(TypeError, match="rels must be a sequence of relevance .* str '1001'"):
        RELS_FUNCTIONS[function]("1001")


@pytest.mark.parametrize("function", GAINS_FUNCTIONS)
def test_string_passed_as_gains(function):
    with pytest.raises(TypeError, match="gains must be a sequence of relevance grades"):
        GAINS_FUNCTIONS[function]("3210")


def test_dict_passed_as_rels():
    with pytest.raises(TypeError, match="rels must be a sequence of relevance grades .* dict"):
        ck.average_precision({"d1": 1}, 1)


def test_number_passed_as_rels():
    with pytest.raises(TypeError, match="rels must be a sequence .* got int 3"):
        ck.reciprocal_rank(3)


def test_string_array_as_rels():
    with pytest.raises(TypeError, match="rels must hold numbers"):
        ck.precision_at(np.array(["1", "0"]), 2)


# --- DCG variant ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: ck.dcg([1, 0], variant="exp"),
        lambda: ck.ndcg([1, 0], variant="Trec"),
        lambda: ck.discounted_gains([1, 0], variant="jarvellin"),
        lambda: ck.dcg_curve([1, 0], variant=""),
    ],
    ids=["dcg", "ndcg", "discounted_gains", "dcg_curve"],
)
def test_unknown_dcg_variant(call):
    with pytest.raises(ValueError, match="unknown DCG variant .*: choose one of jarvelin, trec"):
        call()


def test_unknown_ndcg_variant_in_evaluate():
    with pytest.raises(ValueError, match="unknown nDCG variant 'exp'"):
        ck.evaluate({"q": {"d": 1.0}}, {"q": {"d": 1}}, ["nDCG"], ndcg_variant="exp")


# --- an empty ranking is valid and scores 0 ------------------------------------------------------

EMPTY_RANKING = {
    "precision_at": lambda: ck.precision_at([], 10),
    "recall_at": lambda: ck.recall_at([], 10, 3),
    "average_precision": lambda: ck.average_precision([], 3),
    "r_precision": lambda: ck.r_precision([], 3),
    "reciprocal_rank": lambda: ck.reciprocal_rank([]),
    "dcg": lambda: ck.dcg([], 10),
    "ndcg": lambda: ck.ndcg([], 10, ideal=[2, 1]),
    "pres": lambda: ck.pres([], 3, 10),
    "mor": lambda: ck.mor([], 3, 10),
    "rnorm": lambda: ck.rnorm([], 3, 10),
    "interpolated_precision": lambda: float(ck.interpolated_precision([], 3).max()),
    "mean_reciprocal_rank": lambda: ck.mean_reciprocal_rank([[]]),
    "mean_average_precision": lambda: ck.mean_average_precision([([], 2)]),
    "numpy_empty": lambda: ck.average_precision(np.array([]), 2),
}


@pytest.mark.parametrize("measure", EMPTY_RANKING)
def test_empty_ranking_scores_zero(measure):
    assert EMPTY_RANKING[measure]() == 0.0


@pytest.mark.parametrize("fast", [True, False])
def test_empty_ranking_in_a_dict_run_scores_zero(fast):
    result = ck.evaluate(
        {"q1": {}, "q2": {"d1": 1.0}},
        {"q1": {"d1": 1}, "q2": {"d1": 1}},
        ["AP", "P@5", "nDCG", "RR"],
        fast=fast,
    )
    table = result.table()
    assert list(table.index) == ["q1", "q2"]
    assert table.loc["q1"].tolist() == [0.0, 0.0, 0.0, 0.0]
    assert table.loc["q2"].tolist() == pytest.approx([1.0, 1 / 5, 1.0, 1.0])
