"""Hostile TREC files and arguments: the readers read what trec_eval reads and refuse, naming
the file and line (or the argument), what would change a number; the writers refuse, before
writing anything, what would not read back the same."""

from __future__ import annotations

import gzip
import re
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
import pytrec_eval
from files_support import at_line, write_file

import coursekit as ck
from coursekit.trec import read, write

RUN = "q1 Q0 d1 1 3.0 r\nq1 Q0 d2 2 2.0 r\nq1 Q0 d3 3 1.0 r\n"
QRELS = "q1 0 d1 1\nq1 0 d3 2\n"
QRELS_D = {"q1": {"d1": 1, "d3": 2}}


def _pytrec(run: dict, qrels: dict, measures: set[str]) -> dict:
    return pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)


# --- grades: hex refused, whole numbers with a decimal point read -----------------------------


@pytest.mark.parametrize("grade", ["0x10", "0X1", "0xffffffffffffffff", "0x7fffffff"])
def test_hex_grades_are_refused(tmp_path, grade):
    # trec_eval reads grades with atol: "0x10" is 0 there, 16 (and 0xff...ff -1) if read as hex
    path = write_file(tmp_path, "qrels.txt", f"q1 0 d1 1\nq1 0 d2 {grade}\n")
    with pytest.raises(ValueError, match=at_line(path, 2) + f"the grade '{grade}' is not a number"):
        ck.read_qrels(path)
    with pytest.raises(ValueError, match=at_line(path, 2)):
        ck.evaluate({"q1": {"d1": 1.0, "d2": 2.0}}, path, ["AP"])


def test_whole_grades_with_a_decimal_point_are_read_as_trec_eval_reads_them(tmp_path):
    # atol reads the digits before '.' or 'e': 1.0 -> 1, 2.00 -> 2, -1.0 -> -1, 1e0 -> 1, as
    # the same text in a DataFrame (pd.to_numeric) is read
    grades = {"d1": "1.0", "d2": "2.00", "d3": "0.0", "d4": "-1.0", "d5": "1.", "d6": "1e0"}
    expected = {"d1": 1, "d2": 2, "d3": 0, "d4": -1, "d5": 1, "d6": 1}
    text = "".join(f"q1 0 {d} {g}\n" for d, g in grades.items())
    qrels = ck.read_qrels(write_file(tmp_path, "qrels.txt", text))
    assert dict(zip(qrels.doc_id, qrels.relevance.tolist(), strict=True)) == expected
    assert qrels.relevance.dtype == np.int64
    run = {"q1": {"d1": 1.0, "d2": 6.0, "d3": 5.0, "d4": 4.0, "d5": 3.0, "d6": 2.0}}
    ours = ck.evaluate(run, qrels, ["AP", "nDCG"]).table().loc["q1"]
    theirs = _pytrec(run, {"q1": expected}, {"map", "ndcg"})["q1"]
    assert ours["AP"] == pytest.approx(theirs["map"])
    assert ours["nDCG"] == pytest.approx(theirs["ndcg"])
    for fraction in ["2.5", "25e-1"]:  # still refused: atol would read 2, not 2.5
        path = write_file(tmp_path, "qrels.txt", f"q1 0 d1 {fraction}\n")
        message = f"the grade '{fraction}' is not an integer \\(trec_eval reads grades as"
        with pytest.raises(ValueError, match=at_line(path, 1) + message):
            ck.read_qrels(path)


@pytest.mark.parametrize(
    ("grade", "message"),
    [
        ("1e3", "is not an integer in digits \\(trec_eval reads it as 1\\)"),
        ("1.5e1", "is not an integer in digits \\(trec_eval reads it as 1\\)"),
        ("10e-1", "is not an integer in digits \\(trec_eval reads it as 10\\)"),
        ("99999999999.0", "is out of range"),
    ],
)
def test_grades_trec_eval_reads_as_another_number_are_refused(tmp_path, grade, message):
    path = write_file(tmp_path, "qrels.txt", f"q1 0 d1 1\n\nq1 0 d2 {grade}\n")
    with pytest.raises(ValueError, match=at_line(path, 3) + f"the grade '{grade}' " + message):
        ck.read_qrels(path)


# --- NUL bytes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reader", "text", "line"),
    [
        ("run", b"q1 Q0 d1 1 2 r\nq1 Q0 d\x00x 2 1 r\n", 2),  # trec_eval reads the id 'd'
        ("run", b"q1 Q0 d1 1 2 r\n\t\nq1 Q0 d2 2 1 r\x00\n", 3),
        ("run", b"q1 Q0 d1 1 2 r\n\x00\nq1 Q0 d2 2 1 r\n", 2),  # trec_eval stops reading here
        ("qrels", b"q1 0 d1 1\nq1 0 d2\x00 1\n", 2),
    ],
)
def test_nul_bytes_are_refused_with_their_line(tmp_path, reader, text, line):
    path = write_file(tmp_path, "file.txt", text)
    read_file = ck.read_run if reader == "run" else ck.read_qrels
    with pytest.raises(ValueError, match=at_line(path, line) + "a NUL byte"):
        read_file(path)


def test_a_nul_byte_in_a_later_block_names_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(read, "_BLOCK", 64)  # many blocks
    lines = [f"q1 Q0 d{i} {i} {100 - i} r\n" for i in range(40)]
    lines[33] = "q1 Q0 d\x0033 33 67 r\n"
    path = write_file(tmp_path, "run.txt", "".join(lines))
    with pytest.raises(ValueError, match=at_line(path, 34) + "a NUL byte"):
        ck.read_run(path)


# --- ranks ------------------------------------------------------------------------------------


@pytest.mark.parametrize("rank", ["1e30", "99999999999999999999", "-1e19", "9223372036854775808"])
def test_ranks_beyond_64_bit_integers_are_refused(tmp_path, rank):
    # trec_eval ignores the rank field; coursekit keeps it as int64 and refuses what it cannot
    path = write_file(tmp_path, "run.txt", f"q1 Q0 d1 1 2 r\nq1 Q0 d2 {rank} 1 r\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning may leak either
        out_of_range = at_line(path, 2) + f"the rank '{rank}' is out of range"
        with pytest.raises(ValueError, match=out_of_range):
            ck.read_run(path)


# --- damaged gzip files -----------------------------------------------------------------------


def _damaged(kind: str, text: str) -> bytes:
    packed = gzip.compress(text.encode() * 50)
    if kind == "truncated":
        return packed[: len(packed) // 2]
    if kind == "crc":
        return packed[:-8] + bytes(b ^ 0xFF for b in packed[-8:-4]) + packed[-4:]
    if kind == "trailing garbage":
        return packed + b"garbage"
    if kind == "corrupt data":
        return packed[:12] + bytes(b ^ 0x5A for b in packed[12:-8]) + packed[-8:]
    return packed[:2]  # only the magic number


@pytest.mark.parametrize(
    "kind", ["truncated", "crc", "trailing garbage", "corrupt data", "magic only"]
)
def test_damaged_gzip_files_are_refused_with_their_name(tmp_path, kind):
    run = write_file(tmp_path, "run.txt.gz", _damaged(kind, RUN))
    qrels = write_file(tmp_path, "qrels.gz", _damaged(kind, QRELS))
    good_qrels = write_file(tmp_path, "good.txt", QRELS)
    damaged = "a damaged gzip file"
    with pytest.raises(ValueError, match=re.escape(f"{run}: {damaged}")):
        ck.read_run(run)
    with pytest.raises(ValueError, match=re.escape(f"{qrels}: {damaged}")):
        ck.read_qrels(qrels)
    with pytest.raises(ValueError, match=re.escape(f"{run}: {damaged}")):
        ck.evaluate(run, good_qrels, ["AP"])


# --- paths ------------------------------------------------------------------------------------


@pytest.mark.parametrize("function", [ck.read_run, ck.read_qrels])
def test_a_file_descriptor_is_not_taken_for_a_path(tmp_path, function):
    path = write_file(tmp_path, "run.txt", RUN)
    with open(path, "rb") as handle:
        fd = handle.fileno()
        with pytest.raises(TypeError, match="path must be a file name .* got int"):
            function(fd)
        assert handle.read() == RUN.encode()  # the caller's file is still open
    for bad in [str(path).encode(), None, 1.5]:
        with pytest.raises(TypeError, match="path must be a file name"):
            function(bad)
    with pytest.raises(ValueError, match="contains a NUL byte"):
        function(str(path) + "\x00x")


@pytest.mark.parametrize(
    "write", [lambda p: ck.write_run({"q": {"d": 1.0}}, p), lambda p: ck.write_qrels(QRELS_D, p)]
)
def test_writers_check_their_path_argument(tmp_path, write):
    for bad in [3, b"out.txt", None]:
        with pytest.raises(TypeError, match="path must be a file name"):
            write(bad)
    with pytest.raises(ValueError, match="contains a NUL byte"):
        write(str(tmp_path / "out.txt") + "\x00")


# --- comment lines in runs, as trec_eval 10 reads them ----------------------------------------


@pytest.mark.parametrize("block", [1 << 25, 48])
def test_comment_lines_in_runs_are_skipped(tmp_path, monkeypatch, block):
    # trec_eval 10's get_trec_results.c skips a line whose first non-blank character is '#'
    monkeypatch.setattr(read, "_BLOCK", block)  # one block, or many (plain and not)
    text = "# a comment\n# Q0 x 1 2 r\n" + RUN + "  # indented\n\t#\ttab\nq#2 Q0 d#1 1 5 r\n"
    run = ck.read_run(write_file(tmp_path, "run.txt", text))
    assert run[["query_id", "doc_id"]].to_numpy().tolist() == [
        ["q1", "d1"], ["q1", "d2"], ["q1", "d3"], ["q#2", "d#1"]
    ]  # fmt: skip
    assert run.score.tolist() == [3.0, 2.0, 1.0, 5.0]
    qrels = ck.read_qrels(write_file(tmp_path, "qrels.txt", "# c\nq1 0 d#1 1\nq1 0 #d 2\n"))
    assert qrels.doc_id.tolist() == ["d#1", "#d"]
    # a comment with six fields in a block read the fast way (pyarrow's CSV reader)
    run = ck.read_run(write_file(tmp_path, "run6.txt", RUN + "# Q0 d9 4 9.0 r\n"))
    assert run.doc_id.tolist() == ["d1", "d2", "d3"]


@pytest.mark.parametrize("space", ["\x0b", "\x0c"])
def test_vertical_tab_and_form_feed_separate_fields_as_in_trec_eval(tmp_path, space):
    # C's isspace: trec_eval reads "d1<VT>7 1 5 r" as doc d1, rank 7, score 1 (5 r: ignored)
    run = ck.read_run(write_file(tmp_path, "run.txt", f"q1 Q0 d1{space}7 1 5 r\nq1 Q0 d2 2 3 r\n"))
    assert run.doc_id.tolist() == ["d1", "d2"]
    assert run.score.tolist() == [1.0, 3.0]
    path = write_file(tmp_path, "qrels.txt", f"q1 0 d1{space}1 1\n")
    with pytest.raises(ValueError, match=at_line(path, 1) + "a qrels line has 4 fields .* has 5"):
        ck.read_qrels(path)


def test_only_the_first_byte_order_mark_is_dropped(tmp_path, monkeypatch):
    # a second one is part of the id, as trec_eval (which drops none) reads it, whichever way
    # a block is read (pyarrow's CSV reader, used for plain blocks, would drop it)
    text = "\ufeff\ufeffq1 Q0 d1 1 2 r\nq2 Q0 d1 1 1 r\n"
    for layout in [text, text.replace(" ", "\t")]:
        run = ck.read_run(write_file(tmp_path, "run.txt", layout))
        assert run.query_id.tolist() == ["\ufeffq1", "q2"]
    monkeypatch.setattr(read, "_BLOCK", 16)  # a block starting with U+FEFF, in an id
    run = ck.read_run(write_file(tmp_path, "run.txt", "q1 Q0 d1 1 2 r\n\ufeffq2 Q0 d1 1 1 r\n"))
    assert run.query_id.tolist() == ["q1", "\ufeffq2"]


# --- writers ----------------------------------------------------------------------------------


def test_the_characters_refused_in_ids_are_those_str_split_splits_on_and_nul():
    codes = [c for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    splits = {chr(c) for c in codes if len(f"a{chr(c)}b".split()) != 1} | {"\x00"}
    assert {" ", "\t", "\n", "\r", "\x0b", "\x0c", "\xa0", "\u3000", "\x1c"} <= splits
    low = [chr(c) for c in codes if c < 0x3100] + ["\U0001f600", "\U0010ffff"]
    for dtype in [object, "str", "string[pyarrow]"]:
        values = pd.Series([f"a{c}b" for c in low], dtype=dtype)
        refused = {low[i] for i in np.flatnonzero(write._bad_mask(values, first_field=False))}
        assert refused == splits, dtype


BAD_IDS = [
    "d 1",
    "d\t1",
    "d\n1",
    "d\r",
    "d\x0b",
    "d\xa0x",
    "d\u3000",
    "d\x1c",
    "d\x85",
    "",
    "d\x00",
]


@pytest.mark.parametrize("bad", BAD_IDS)
def test_ids_that_would_not_read_back_are_refused_before_writing(tmp_path, bad):
    path = tmp_path / "out.txt"
    path.write_text("kept\n")
    problem = "be empty" if bad == "" else "contain a NUL byte" if "\x00" in bad else "contain"
    doc = f"doc id {re.escape(repr(bad))} of query 'q1': a doc id cannot {problem}"
    with pytest.raises(ValueError, match="the run: " + doc):
        ck.write_run({"q1": {"d0": 2.0, bad: 1.0}}, path)
    with pytest.raises(ValueError, match="the qrels: " + doc):
        ck.write_qrels({"q1": {"d0": 1, bad: 1}}, path)
    query = f"query id {re.escape(repr(bad))}: a query id cannot {problem}"
    with pytest.raises(ValueError, match=query):
        ck.write_run(pd.DataFrame({"query_id": [bad], "doc_id": ["d"], "score": [1.0]}), path)
    with pytest.raises(ValueError, match=query):
        ck.write_qrels({bad: {"d": 1}}, path)
    assert path.read_text() == "kept\n"  # nothing written


def test_a_query_id_starting_with_hash_is_refused_other_odd_ids_are_written(tmp_path):
    # its line would be a comment to trec_eval 10 and to read_run / read_qrels
    path = tmp_path / "out.txt"
    with pytest.raises(ValueError, match="query id '#q': a query id cannot start with '#'"):
        ck.write_qrels({"#q": {"d": 1}, "q": {"d": 1}}, path)
    with pytest.raises(ValueError, match="query id '#q': a query id cannot start with '#'"):
        ck.write_run({"#q": {"d": 1.0}}, path)
    assert not path.exists()
    # '#' elsewhere, and characters that are not white space, are written and read back
    run = {"q#": {"#d": 1.0, "中": 2.0, "x\u200by": 0.5}, "q\x7f": {"d": 1.0}}
    qrels = {"q#": {"中": 1, "#d": 0}, "q\x7f": {"d": 2}}
    ck.write_run(run, path, run_name="r\u200b")
    assert ck.run_to_dict(path) == run
    assert set(ck.read_run(path)["run"]) == {"r\u200b"}
    ck.write_qrels(qrels, path)
    assert ck.qrels_to_dict(path) == qrels


@pytest.mark.parametrize("run", [{}, {"q1": {}}])
def test_an_empty_run_is_refused_before_writing(tmp_path, run):
    path = tmp_path / "out.txt"
    with pytest.raises(ValueError, match="the run is empty"):
        ck.write_run(run, path)
    assert not path.exists()


@pytest.mark.parametrize(
    ("run_name", "error", "message"),
    [
        (5, TypeError, "run_name must be a str, got int 5"),
        (float("nan"), TypeError, "run_name must be a str, got float nan"),
        (b"r", TypeError, "run_name must be a str, got bytes"),
        ("", ValueError, "run_name '': a run name cannot be empty"),
        ("r\x00", ValueError, "a run name cannot contain a NUL byte"),
    ],
)
def test_run_name_is_checked(tmp_path, run_name, error, message):
    path = tmp_path / "out.txt"
    with pytest.raises(error, match=re.escape(message)):
        ck.write_run({"q": {"d": 1.0}}, path, run_name=run_name)
    assert not path.exists()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "run row 1: the run name is missing"),
        (np.nan, "run row 1: the run name is missing"),
        ("a b", "run row 1: run name 'a b': a run name cannot contain white space"),
        ("", "run row 1: run name '': a run name cannot be empty"),
    ],
)
def test_a_bad_run_column_is_refused_by_row(tmp_path, value, message):
    frame = pd.DataFrame(
        {"query_id": ["q", "q", "q"], "doc_id": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]}
    )
    frame["run"] = pd.Series(["r", value, "r"], dtype=object)
    path = tmp_path / "out.txt"
    with pytest.raises(ValueError, match=re.escape(message)):
        ck.write_run(frame, path)
    assert not path.exists()
    ck.write_run(frame, path, run_name="mine")  # a run_name replaces the column
    assert path.read_text().split("\n")[0] == "q Q0 a 1 3.0 mine"


# --- line ends: CRLF read, a carriage return alone (an old Mac file) refused ------------------

CR_ONLY = "a carriage return without a line feed: the lines end with a carriage return only"


@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzip"])
def test_a_file_whose_lines_end_with_cr_only_is_refused(tmp_path, gzipped):
    # trec_eval reads it as one line: the run's first document only, the rest ignored
    def old_mac(name: str, text: str):
        data = text.replace("\n", "\r").encode()
        return write_file(tmp_path, name, gzip.compress(data) if gzipped else data)

    run, qrels = old_mac("run.txt", RUN), old_mac("qrels.txt", QRELS)
    fix = re.escape("convert the line ends, e.g. tr '\\r' '\\n' < run.txt > unix-run.txt")
    with pytest.raises(ValueError, match=at_line(run, 1) + CR_ONLY + ".*" + fix):
        ck.read_run(run)
    with pytest.raises(ValueError, match=at_line(qrels, 1) + CR_ONLY):
        ck.read_qrels(qrels)
    with pytest.raises(ValueError, match=at_line(run, 1) + CR_ONLY):
        ck.evaluate(run, QRELS_D, ["AP"])


def test_a_line_ended_by_cr_only_is_found_among_lf_lines(tmp_path, monkeypatch):
    text = RUN + "q2 Q0 d1 1 3.0 r\rq2 Q0 d2 2 2.0 r\n"  # lines 4 and 5 joined by a CR
    path = write_file(tmp_path, "run.txt", text)
    with pytest.raises(ValueError, match=at_line(path, 4) + CR_ONLY):
        ck.read_run(path)
    monkeypatch.setattr(read, "_BLOCK", 16)  # blocks of one line or less, and no line feed
    with pytest.raises(ValueError, match=at_line(path, 4) + CR_ONLY):
        ck.read_run(path)
    old_mac = write_file(tmp_path, "mac.txt", (RUN * 20).replace("\n", "\r"))
    with pytest.raises(ValueError, match=at_line(old_mac, 1) + CR_ONLY):
        ck.read_run(old_mac)


@pytest.mark.parametrize("block", [1 << 25, 16], ids=["one block", "small blocks"])
def test_crlf_and_harmless_carriage_returns_are_read(tmp_path, monkeypatch, block):
    monkeypatch.setattr(read, "_BLOCK", block)
    # CRLF; a CR before CRLF; spaces and a CR at a line's end; a last line ended by CR alone
    text = "q1 Q0 d1 1 3.0 r\r\nq1 Q0 d2 2 2.0 r\r\r\nq1 Q0 d3 3 1.0 r \r \nq2 Q0 d4 1 5.0 r\r"
    run = ck.read_run(write_file(tmp_path, "run.txt", text))
    assert run.query_id.tolist() == ["q1", "q1", "q1", "q2"]
    assert run.doc_id.tolist() == ["d1", "d2", "d3", "d4"]
    assert run.score.tolist() == [3.0, 2.0, 1.0, 5.0]
    qrels = ck.read_qrels(write_file(tmp_path, "qrels.txt", QRELS.replace("\n", "\r\n")))
    assert qrels.doc_id.tolist() == ["d1", "d3"] and qrels.relevance.tolist() == [1, 2]
