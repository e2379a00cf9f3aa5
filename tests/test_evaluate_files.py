"""Files: what trec_eval reads is read; what would change the numbers is refused with file:line.
And every input form (DataFrames with any id dtype, dicts, files) evaluates alike."""

from __future__ import annotations

import gzip
import re

import numpy as np
import pandas as pd
import pytest
from files_support import at_line, write_file

import coursekit as ck

RUN = "q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\nq1 Q0 d3 3 0.5 bm25\n"
QRELS = "q1 0 d1 1\nq1 0 d3 2\n"


def _ap(run, qrels) -> float:
    return float(ck.evaluate(run, qrels, ["AP"]).mean["AP"])


# --- read what trec_eval reads ------------------------------------------------------------------


def test_layout_variants_read_as_the_plain_file(tmp_path):
    plain = _ap(write_file(tmp_path, "run.txt", RUN), write_file(tmp_path, "qrels.txt", QRELS))
    odd_run = (
        "\ufeffq1\tQ0  d1 1 2.5 bm25 trailing text\r\n\r\n"
        "q1 Q0\t\td2 2 1.5 bm25\r\n   q1 Q0 d3 3 0.5 bm25   \r\n"
    )
    odd_qrels = "# judged by hand\nq1 0 d1 1\r\n  # another comment\n\nq1\t0 d3 2\n"
    odd = _ap(
        write_file(tmp_path, "odd_run.txt", odd_run), write_file(tmp_path, "odd.txt", odd_qrels)
    )
    assert odd == plain == pytest.approx((1 + 2 / 3) / 2)


def test_gzip_files(tmp_path):
    run = write_file(tmp_path, "run.txt.gz", gzip.compress(RUN.encode()))
    qrels = write_file(tmp_path, "qrels.gz", gzip.compress(QRELS.encode()))
    assert ck.read_run(run)["doc_id"].tolist() == ["d1", "d2", "d3"]
    assert _ap(run, qrels) == pytest.approx((1 + 2 / 3) / 2)


@pytest.mark.parametrize("layout", ["plain", "mixed"])
def test_a_long_file_is_read_in_blocks_with_right_line_numbers(tmp_path, monkeypatch, layout):
    from coursekit.trec import read

    monkeypatch.setattr(read, "_BLOCK", 64)  # many blocks, lines cut across block ends
    lines = [f"q{i % 7} Q0 d{i} {i} {1000 - i} r\n" for i in range(200)]
    if layout == "mixed":  # some blocks split the plain way, some (tabs, blank lines) not
        for i in range(0, 150, 40):
            lines[i] = lines[i].replace(" ", "\t") + "\n"  # and a blank line: 2 lines
    lines[150] = "q1 Q0 d150 150 1_0 r\n"
    path = write_file(tmp_path, "run.txt", "".join(lines[:150]))
    assert len(ck.read_run(path)) == 150
    path = write_file(tmp_path, "bad.txt", "".join(lines))
    line = 151 + (layout == "mixed") * 4  # (the blank lines)
    with pytest.raises(ValueError, match=at_line(path, line) + "the score '1_0' is not a number"):
        ck.read_run(path)


# --- refuse what changes the numbers ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("q1 0 d2 1e20\n", "the grade '1e20' is not an integer"),
        ("q1 0 d2 99999999999\n", "the grade '99999999999' is out of range"),
        ("q1 0 d2 0.5\n", "the grade '0.5' is not an integer"),
        ("q1 0 d2 1_0\n", "the grade '1_0' is not a number"),
    ],
    ids=["1e20", "beyond int32", "fraction", "underscore"],
)
def test_bad_grades_are_refused(tmp_path, text, message):
    path = write_file(tmp_path, "qrels.txt", "q1 0 d1 1\n" + text)
    with pytest.raises(ValueError, match=at_line(path, 2) + message):
        ck.read_qrels(path)


@pytest.mark.parametrize("score", ["1_0", "0x10", "1.5.2", "--1"])
def test_numbers_trec_eval_reads_differently_are_refused(tmp_path, score):
    path = write_file(tmp_path, "run.txt", f"q1 Q0 d1 1 {score} r\n")
    with pytest.raises(ValueError, match=at_line(path, 1) + f"the score '{score}' is not a number"):
        ck.read_run(path)


def test_score_overflowing_float64_is_refused(tmp_path):
    path = write_file(tmp_path, "run.txt", "q1 Q0 d1 1 1e999 r\n")
    with pytest.raises(ValueError, match=at_line(path, 1) + "the score '1e999' is not a finite"):
        ck.read_run(path)


def test_latin1_file_names_file_and_line(tmp_path):
    path = write_file(tmp_path, "run.txt", RUN.encode() + "q1 Q0 café 4 0.1 r\n".encode("latin-1"))
    with pytest.raises(ValueError, match=at_line(path, 4) + "bytes that are not UTF-8"):
        ck.read_run(path)


@pytest.mark.parametrize("text", ["", "\n\n  \n"], ids=["empty", "blank lines"])
def test_empty_run_file_is_refused(tmp_path, text):
    path = write_file(tmp_path, "run.txt", text)
    with pytest.raises(ValueError, match=re.escape(f"{path}: the run file holds no")):
        ck.evaluate(path, {"q1": {"d1": 1}}, ["AP"])


def test_duplicate_pair_names_its_line(tmp_path):
    path = write_file(tmp_path, "run.txt", RUN + "\n" + "q1 Q0 d2 4 0.1 bm25\n")
    with pytest.raises(ValueError, match=at_line(path, 5) + "document 'd2' is retrieved twice"):
        ck.read_run(path)


def test_out_of_range_grade_in_a_dataframe_is_refused():
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "relevance": [1e20]})
    with pytest.raises(ValueError, match="qrels row 0 .*the grade 1e.20 is out of range"):
        ck.evaluate({"q": {"d": 1.0}}, qrels, ["AP"])


@pytest.mark.parametrize("grade", [0.5, 1.5, -0.25])
def test_a_fractional_grade_in_memory_is_refused(grade):
    """As in a file: trec_eval would read 0.5 as 0 and 1.5 as 1; used as they are, they
    would change relevance and gains silently."""
    frame = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["d", "e"], "relevance": [1, grade]})
    where = r"qrels row 1 \(query 'q', document 'e'\): "
    message = f"the grade {grade!r} is not an integer"
    run = {"q": {"d": 2.0, "e": 1.0}}
    with pytest.raises(ValueError, match=where + message):
        ck.evaluate(run, frame, ["AP"])
    with pytest.raises(ValueError, match="qrels: document 'e' for query 'q': " + message):
        ck.evaluate(run, {"q": {"d": 1, "e": grade}}, ["AP"])
    with pytest.raises(ValueError, match="qrels row 1: " + message):
        ck.as_qrels_frame(frame)


def test_integral_float_grades_are_read_as_integers():
    # a float column, as pandas gives after a merge: d (grade 2) at rank 2, e (grade 0) at 1
    frame = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["d", "e"], "relevance": [2.0, 0.0]})
    assert ck.as_qrels_frame(frame)["relevance"].tolist() == [2, 0]
    result = ck.evaluate({"q": {"d": 1.0, "e": 2.0}}, frame, ["AP", "nDCG@10"]).mean
    assert result["AP"] == 0.5
    # the one document with a gain, at rank 2: DCG g / log2(3), ideal DCG g / log2(2) = g
    assert result["nDCG@10"] == pytest.approx(1 / np.log2(3))


# --- arguments ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"missing_as_zero": "no"}, TypeError, "missing_as_zero must be True or False"),
        ({"fast": 1}, TypeError, "fast must be True or False"),
        ({"ndcg_variant": "exp"}, ValueError, "unknown nDCG variant 'exp'"),
        ({"score_precision": 32}, ValueError, "unknown score_precision 32"),
        ({"measures": 5}, TypeError, "measures must be a measure name"),
        ({"measures": []}, ValueError, "no measure to compute"),
    ],
)
def test_evaluate_arguments_are_checked(options, error, message):
    measures = options.pop("measures", ["AP"])
    with pytest.raises(error, match=message):
        ck.evaluate({"q": {"d": 1.0}}, {"q": {"d": 1}}, measures, **options)


def test_mean_average_precision_of_no_query_is_an_error():
    with pytest.raises(ValueError, match="mean_average_precision of no query"):
        ck.mean_average_precision([])
    with pytest.raises(TypeError, match="takes a list of .rels, n_relevant. pairs"):
        ck.mean_average_precision("0 1 1")


# --- every input form alike ---------------------------------------------------------------------


def test_every_id_dtype_gives_the_same_table(tmp_path):
    rng = np.random.default_rng(3)
    rows = [(f"q{q}", f"d{d}") for q in range(12) for d in rng.permutation(60)[:30]]
    run = pd.DataFrame(rows, columns=["query_id", "doc_id"])
    run["score"] = rng.integers(0, 5, len(run)).astype(float)  # many ties
    run = run.sample(frac=1, random_state=1).reset_index(drop=True)  # unsorted
    qrels = run.sample(n=120, random_state=2)[["query_id", "doc_id"]].reset_index(drop=True)
    qrels["relevance"] = rng.integers(-1, 4, len(qrels))
    measures = ["AP", "nDCG@10", "P@5", "RR", "Rprec", "R@10", "NumRelRet"]
    reference = ck.evaluate(run, qrels, measures, fast=False).table()
    dtypes = [object, "str", "string[pyarrow]", pd.ArrowDtype(__import__("pyarrow").string())]
    forms = [(run.astype({"query_id": t, "doc_id": t}), qrels) for t in dtypes]
    forms.append((run.astype({"query_id": "category", "doc_id": "category"}), qrels))
    forms.append((ck.run_to_dict(run), ck.qrels_to_dict(qrels)))
    ck.write_run(run, tmp_path / "run.txt")
    ck.write_qrels(qrels, tmp_path / "qrels.txt")
    forms.append((tmp_path / "run.txt", tmp_path / "qrels.txt"))
    for r, q in forms:
        table = ck.evaluate(r, q, measures).table()
        assert list(table.index) == list(reference.index)
        np.testing.assert_allclose(table.to_numpy(), reference.to_numpy(), rtol=0, atol=1e-12)
