"""TREC Web track diversity qrels: subtopic judgments, read, written and as nested dicts.

A diversity qrels file (TREC Web track 2009-2014, ndeval's input) has one judgment per line,
``topic subtopic doc_id judgment``::

    51 1 clueweb09-en0000-07-00001 1

that is, the document's grade for one subtopic of the topic; a document judged for several
subtopics has a line for each. In memory they are a DataFrame with columns ``query_id,
subtopic_id, doc_id, relevance`` (ids as text, grades as integers), or the nested dict
``{query_id: {doc_id: {subtopic_id: grade}}}`` that :mod:`coursekit.measures.diversity`
takes query by query. ir_measures reads the same file as ordinary qrels whose second column
(``iteration``) is the subtopic: a DataFrame with an ``iteration`` column is accepted too.

As :func:`coursekit.read_qrels` does, the reader takes any run of spaces or tabs between
fields, CRLF line ends, a UTF-8 byte order mark, blank lines, ``#`` comment lines, a whole grade
written with a decimal point (``1.0``) and gzip-compressed files; it refuses, naming the file
and line, a line without four fields, a grade that is not an integer, a NUL byte, bytes that
are not UTF-8, a line ended by a carriage return alone and a (topic, subtopic, document)
judged twice.
"""

from __future__ import annotations

import gzip
import numbers
import os
import re
import zlib
from collections.abc import Iterator, Mapping
from typing import Any, NoReturn

import numpy as np
import pandas as pd

from .columns import MAX_GRADE, PathLike, check_columns, check_grades, column_numbers, id_text
from .read import file_name

__all__ = [
    "SUBTOPIC_COLUMNS",
    "as_subtopic_qrels_frame",
    "read_subtopic_qrels",
    "subtopic_qrels_to_dict",
    "write_subtopic_qrels",
]

SUBTOPIC_COLUMNS = ["query_id", "subtopic_id", "doc_id", "relevance"]
_LAYOUT = "topic subtopic doc_id grade"
_GRADE = re.compile(rb"^[+-]?[0-9]+(\.0*)?$")  # an integer, or a whole number with a point
_IDS = {"query_id": "query id", "subtopic_id": "subtopic id", "doc_id": "doc id"}


def _fail(path: str, line: int, message: str) -> NoReturn:
    raise ValueError(f"{path}, line {line}: {message}")


def _lines(path: str) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of each line of the file, gzip-compressed or not."""
    with open(path, "rb") as raw:
        gzipped = raw.read(2) == b"\x1f\x8b"
    try:
        with (gzip.open if gzipped else open)(path, "rb") as handle:
            data = handle.read()
    except (EOFError, gzip.BadGzipFile, zlib.error) as error:  # (only from gzip)
        raise ValueError(f"{path}: a damaged gzip file ({error})") from error
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    yield from enumerate(data.split(b"\n"), start=1)


def _fields(path: str, number: int, line: bytes) -> list[str] | None:
    """The four fields of a line as text, None for a blank or comment line."""
    if b"\x00" in line:
        _fail(path, number, "a NUL byte (ndeval and trec_eval would end the text there)")
    if b"\r" in line.rstrip(b"\r"):
        _fail(
            path,
            number,
            "a carriage return without a line feed: the lines end with a carriage return only "
            "(an old Mac file); convert the line ends, e.g. tr '\\r' '\\n'",
        )
    fields = line.split()  # (bytes.split: ASCII white space only, as C's isspace)
    if not fields or fields[0].startswith(b"#"):
        return None
    if len(fields) != 4:
        shown = line.strip().decode("utf-8", "replace")[:80]
        _fail(
            path,
            number,
            f"a subtopic qrels line has 4 fields ({_LAYOUT}), this one has {len(fields)}: "
            f"{shown!r}",
        )
    if not _GRADE.match(fields[3]):
        shown = fields[3].decode("utf-8", "replace")
        _fail(path, number, f"the grade {shown!r} is not an integer")
    try:
        return [field.decode("utf-8") for field in fields]
    except UnicodeDecodeError as error:
        _fail(path, number, f"bytes that are not UTF-8 ({error.reason}); save the file as UTF-8")


def read_subtopic_qrels(path: PathLike) -> pd.DataFrame:
    """Read a TREC Web track diversity qrels file, ``topic subtopic doc_id grade`` per line,
    into a DataFrame with columns query_id, subtopic_id, doc_id, relevance.

    Raises ``ValueError`` naming the file and line of a malformed line, a grade that is not an
    integer or is out of range, a NUL byte, bytes that are not UTF-8, a line ended by a carriage
    return alone, or a document judged twice for one subtopic of a topic, and for a file with
    no judgment or a damaged gzip file; ``TypeError`` for a path that is not a str or
    os.PathLike.
    """
    name = file_name(path)
    rows: list[list] = []
    first: dict[tuple[str, str, str], int] = {}  # (topic, subtopic, doc) -> its line
    for number, line in _lines(name):
        fields = _fields(name, number, line)
        if fields is None:
            continue
        grade = float(fields[3])
        if abs(grade) > MAX_GRADE:
            _fail(name, number, f"the grade {fields[3]!r} is out of range")
        key = (fields[0], fields[1], fields[2])
        earlier = first.setdefault(key, number)
        if earlier != number:
            _fail(
                name,
                number,
                f"document {key[2]!r} is judged twice for subtopic {key[1]!r} of topic "
                f"{key[0]!r} (lines {earlier} and {number})",
            )
        rows.append([*key, int(grade)])
    if not rows:
        raise ValueError(f"{name}: the subtopic qrels file holds no judgment")
    frame = pd.DataFrame(rows, columns=SUBTOPIC_COLUMNS)
    frame["relevance"] = frame["relevance"].astype(np.int64)
    return frame


def _from_nested(qrels: Mapping) -> pd.DataFrame:
    rows = []
    for query, docs in qrels.items():
        if not isinstance(docs, Mapping):
            raise TypeError(
                "subtopic qrels as a dict map each query id to {doc_id: {subtopic_id: grade}}; "
                f"query {query!r} maps to {type(docs).__name__}"
            )
        for doc, grades in docs.items():
            if not isinstance(grades, Mapping):
                raise TypeError(
                    f"subtopic qrels: document {doc!r} of query {query!r} must map each "
                    f"subtopic to its grade, {{subtopic_id: grade}}, got {type(grades).__name__}"
                )
            for subtopic, grade in grades.items():
                if isinstance(grade, (bool, np.bool_)) or not isinstance(grade, numbers.Real):
                    raise TypeError(
                        f"subtopic qrels: the grade of document {doc!r} for subtopic "
                        f"{subtopic!r} of query {query!r} must be a number, got {grade!r}"
                    )
                rows.append((query, subtopic, doc, grade))
    columns = list(zip(*rows, strict=True)) if rows else [()] * 4
    pairs = zip(SUBTOPIC_COLUMNS, columns, strict=True)
    return pd.DataFrame({name: pd.Series(values, dtype=object) for name, values in pairs})


def as_subtopic_qrels_frame(qrels: Any) -> pd.DataFrame:
    """Subtopic qrels as a DataFrame (query_id, subtopic_id, doc_id, relevance), from a path
    (:func:`read_subtopic_qrels`), a DataFrame (its subtopic column named ``subtopic_id`` or,
    as ir_measures names it, ``iteration``) or a dict ``{query_id: {doc_id: {subtopic_id:
    grade}}}``. Ids are read as text (7 and "7" are one id), grades as integers.

    >>> frame = as_subtopic_qrels_frame({"q1": {"d1": {1: 1, 2: 0}}})
    >>> frame.to_numpy().tolist()
    [['q1', '1', 'd1', 1], ['q1', '2', 'd1', 0]]
    """
    if isinstance(qrels, (str, os.PathLike)):
        return read_subtopic_qrels(qrels)
    if isinstance(qrels, Mapping):
        frame = _from_nested(qrels)
    elif isinstance(qrels, pd.DataFrame):
        if "subtopic_id" not in qrels.columns and "iteration" in qrels.columns:
            qrels = qrels.rename(columns={"iteration": "subtopic_id"})
        check_columns(qrels, SUBTOPIC_COLUMNS, "the subtopic qrels")
        frame = qrels[SUBTOPIC_COLUMNS].reset_index(drop=True)
    else:
        raise TypeError(
            "subtopic qrels must be a path, a DataFrame (query_id, subtopic_id, doc_id, "
            "relevance) or a dict {query_id: {doc_id: {subtopic_id: grade}}}, "
            f"got {type(qrels).__name__}"
        )
    if frame.empty:
        raise ValueError("the subtopic qrels are empty: there is no judgment to evaluate against")
    ids = {c: [id_text(v, _IDS[c]) for v in frame[c]] for c in ("query_id", "subtopic_id")}
    ids["doc_id"] = [id_text(v, "doc id") for v in frame["doc_id"]]
    grades = column_numbers(frame["relevance"].reset_index(drop=True), _place, "grade")
    check_grades(grades, _place)
    result = pd.DataFrame({**ids, "relevance": grades.astype(np.int64)})
    repeated = result.duplicated(["query_id", "subtopic_id", "doc_id"]).to_numpy()
    if repeated.any():
        i = int(np.flatnonzero(repeated)[0])
        q, s, d = (result[c].iloc[i] for c in SUBTOPIC_COLUMNS[:3])
        raise ValueError(
            f"subtopic qrels row {i}: document {d!r} is judged twice for subtopic {s!r} of "
            f"query {q!r}"
        )
    return result


def _place(i: int) -> str:
    return f"subtopic qrels row {i}"


def subtopic_qrels_to_dict(qrels: Any) -> dict[str, dict[str, dict[str, int]]]:
    """Subtopic qrels (a path, a DataFrame or a dict) as ``{query_id: {doc_id: {subtopic_id:
    grade}}}``: each query's value is what the measures of :mod:`coursekit.measures.diversity`
    take.

    >>> frame = pd.DataFrame({"query_id": ["1", "1", "1"], "subtopic_id": ["1", "2", "1"],
    ...                       "doc_id": ["a", "a", "b"], "relevance": [1, 1, 0]})
    >>> subtopic_qrels_to_dict(frame)
    {'1': {'a': {'1': 1, '2': 1}, 'b': {'1': 0}}}
    """
    frame = as_subtopic_qrels_frame(qrels)
    nested: dict[str, dict[str, dict[str, int]]] = {}
    for query, subtopic, doc, grade in frame.itertuples(index=False, name=None):
        nested.setdefault(query, {}).setdefault(doc, {})[subtopic] = int(grade)
    return nested


def _field_problem(text: str, first: bool) -> str | None:
    """Why ``text`` cannot be a field of a line (None if it can)."""
    if text == "" or "\x00" in text or any(c.isspace() for c in text):
        return "be empty or hold white space or a NUL byte"
    if first and text.startswith("#"):
        return "start with '#' (a comment line to the readers)"
    return None


def write_subtopic_qrels(qrels: Any, path: PathLike) -> None:
    """Write subtopic qrels (a DataFrame, a dict or a path) as a TREC Web track diversity qrels
    file, ``topic subtopic doc_id grade`` per line, which :func:`read_subtopic_qrels` and ndeval
    read back. An id that is empty, holds white space or a NUL byte, or a query id starting with
    ``#``, is refused before anything is written."""
    name = file_name(path)
    frame = as_subtopic_qrels_frame(qrels)
    for column in SUBTOPIC_COLUMNS[:3]:
        for value in dict.fromkeys(frame[column]):
            problem = _field_problem(value, column == "query_id")
            if problem:
                raise ValueError(f"subtopic qrels: the {_IDS[column]} {value!r} cannot {problem}")
    with open(name, "w", encoding="utf-8", newline="\n") as handle:
        for query, subtopic, doc, grade in frame.itertuples(index=False, name=None):
            handle.write(f"{query} {subtopic} {doc} {grade}\n")
