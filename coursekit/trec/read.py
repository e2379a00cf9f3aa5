"""Reading TREC qrels and run files (with pyarrow); every problem is reported as file:line.

What trec_eval reads is read: fields separated by any run of spaces or tabs, CRLF line ends, a
UTF-8 byte order mark, blank lines, ``#`` comment lines in qrels (trec_eval 10), text after the
sixth field of a run line (trec_eval ignores it), gzip-compressed files (``.gz``). What would
change the numbers is refused with the file and line: a grade that is not an integer or is out
of range, a number written in a form trec_eval reads differently (``1_0``, ``0x10``), NaN or
infinite numbers, bytes that are not UTF-8, an empty file, a document listed twice for a query.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd

from .codes import string_codes
from .columns import MAX_GRADE, PathLike, first_duplicate

_BLOCK = 1 << 25  # bytes read at a time: memory stays bounded for runs of any size
_NUMBER = r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"
_INTEGER = r"^[+-]?[0-9]+$"
_NOT_FINITE = r"^[+-]?(?i:nan|inf|infinity)$"
RUN_LAYOUT = "query_id Q0 doc_id rank score run_name"
QRELS_LAYOUT = "query_id iteration doc_id grade"


def _fail(path: PathLike, line: int, message: str) -> None:
    raise ValueError(f"{path}, line {line}: {message}")


def _blocks(path: PathLike) -> Iterator[bytes]:
    """The file's bytes in blocks of whole lines (the last may lack its line end)."""
    with open(path, "rb") as raw:
        gzipped = raw.read(2) == b"\x1f\x8b"
    opener: Any = gzip.open if gzipped else open
    rest, first = b"", True
    with opener(path, "rb") as handle:
        while True:
            chunk = handle.read(_BLOCK)
            data = rest + chunk
            if chunk:
                cut = data.rfind(b"\n") + 1
                data, rest = data[:cut], data[cut:]
            if first and data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
            first = False
            if data:
                yield data
            if not chunk:
                return


def _plain(data: bytes, comments: bool) -> bool:
    """Whether a block may be laid out the plain way: no tab, no CR, no comment (each found
    with one byte search). One space between fields, no blank line: checked by
    :func:`_split_plain` (pyarrow's CSV reader, much faster), which refuses any other block."""
    odd = (b"\t", b"\r", b"#") if comments else (b"\t", b"\r")
    return not any(mark in data for mark in odd)


def _split_plain(data: bytes, n_fields: int) -> list | None:
    """The fields of a plain block (each column's chunks), or None if some line has another
    number of fields, is blank, has an empty field (two spaces in a row, a space at either
    end), or some bytes are not UTF-8 (then the general splitter reads it and says where)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from pyarrow import csv

    names = [str(i) for i in range(n_fields)]
    try:
        table = csv.read_csv(
            pa.py_buffer(data),
            read_options=csv.ReadOptions(column_names=names),
            parse_options=csv.ParseOptions(
                delimiter=" ", quote_char=False, ignore_empty_lines=False
            ),
            convert_options=csv.ConvertOptions(
                column_types=dict.fromkeys(names, pa.string()), strings_can_be_null=False
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    columns = [table.column(i).chunks for i in range(n_fields)]
    if any(pc.min(pc.binary_length(c)).as_py() == 0 for column in columns for c in column):
        return None
    return columns


def _split(path: PathLike, first_line: int, data: bytes, spec: tuple) -> tuple[list, np.ndarray]:
    """The fields of a block's lines (any white space, comments, trailing text), checked."""
    import pyarrow as pa
    import pyarrow.compute as pc

    n_fields, kind, layout, comments = spec
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = first_line + data.count(b"\n", 0, error.start)
        _fail(path, bad, f"bytes that are not UTF-8 ({error.reason}); save the file as UTF-8")
    rows = pc.split_pattern(pa.array([text], pa.large_string()), "\n").values
    trimmed = pc.ascii_trim_whitespace(rows)
    keep = pc.binary_length(trimmed).to_numpy(zero_copy_only=False) > 0
    if comments:
        keep &= ~pc.starts_with(trimmed, "#").to_numpy(zero_copy_only=False)
    kept = np.flatnonzero(keep)
    if kept.size < len(trimmed):
        trimmed = trimmed.filter(pa.array(keep))
    fields = pc.ascii_split_whitespace(trimmed)
    counts = pc.list_value_length(fields).to_numpy(zero_copy_only=False)
    bad = (counts != n_fields) if kind == "qrels" else (counts < n_fields)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        _fail(
            path,
            first_line + int(kept[i]),
            f"a {kind} line has {n_fields} fields ({layout}), this one has "
            f"{counts[i]}: {str(trimmed[i])[:80]!r}",
        )
    columns = [[pc.list_element(fields, i).cast(pa.string())] for i in range(n_fields)]
    return columns, first_line + kept


def _read(path: PathLike, n_fields: int, kind: str, layout: str, comments: bool) -> dict:
    """The fields of every line: pyarrow string arrays, and each row's line number."""
    import pyarrow as pa  # imported on first use: ``import coursekit`` stays light

    columns: list[list] = [[] for _ in range(n_fields)]
    lines = []
    first_line = 1  # of the block
    for data in _blocks(path):
        fields = _split_plain(data, n_fields) if _plain(data, comments) else None
        if fields is not None:  # a row a line (no blank line): no need to count line ends
            numbers = first_line + np.arange(sum(map(len, fields[0])))
            first_line += numbers.size
        else:
            fields, numbers = _split(path, first_line, data, (n_fields, kind, layout, comments))
            first_line += data.count(b"\n")
        for column, chunks in zip(columns, fields, strict=True):
            column.extend(chunks)
        lines.append(numbers)
    if not lines or sum(map(len, lines)) == 0:
        raise ValueError(f"{path}: the {kind} file holds no " + (
            "judgment" if kind == "qrels" else "retrieved document"))  # fmt: skip
    result: dict = {i: pa.chunked_array(columns[i], pa.string()) for i in range(n_fields)}
    result["line"] = np.concatenate(lines)
    return result


def _numbers(path: PathLike, column: Any, lines: np.ndarray, what: str, integer: bool):
    """A column of numbers as float64, refusing any text trec_eval would read differently."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:  # pyarrow's parser takes the numbers trec_eval reads alike, and NaN and infinity
        return _in_range(path, column, lines, what, integer, _cast(column, integer))
    except pa.ArrowInvalid:
        pass  # find the line, say what is wrong
    ok = pc.match_substring_regex(column, _INTEGER if integer else _NUMBER)
    if not pc.all(ok).as_py():
        i = int(np.flatnonzero(~ok.to_numpy(zero_copy_only=False))[0])
        text = column[i].as_py()
        if pc.match_substring_regex(column[i : i + 1], _NOT_FINITE)[0].as_py():
            message = "is not a finite number"
        elif integer and pc.match_substring_regex(column[i : i + 1], _NUMBER)[0].as_py():
            message = "is not an integer (trec_eval reads grades as integers)"
        else:
            message = "is not a number"
        _fail(path, int(lines[i]), f"{what} {text!r} {message}")
    return _in_range(path, column, lines, what, integer, _cast(column, False))


def _cast(column: Any, integer: bool) -> np.ndarray:
    import pyarrow.compute as pc

    values = pc.cast(column, "int64" if integer else "float64").to_numpy()
    return values.astype(float)  # (a copy: arrow's buffers are read-only)


def _in_range(
    path: PathLike, column: Any, lines: np.ndarray, what: str, integer: bool, values: np.ndarray
) -> np.ndarray:
    limit = MAX_GRADE if integer else np.finfo(float).max
    if values.size == 0 or (values.min() >= -limit and values.max() <= limit):  # (not NaN)
        return values
    bad = ~(np.abs(values) <= limit)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        problem = "is out of range" if integer else "is not a finite number"
        _fail(path, int(lines[i]), f"{what} {column[i].as_py()!r} {problem}")
    return values


def _categorical(column: Any, blocks: bool = False) -> pd.Categorical:
    """A pyarrow string column as a categorical: each id hashed once (doc ids as packed
    integers; with ``blocks``, query ids and run names once a block of equal neighbours)."""
    (codes,), ids = string_codes(column, blocks)
    categories = pd.Index(ids.to_pandas(), dtype="str")
    # distinct by construction: pandas' uniqueness check (a hash of every id) is skipped
    fastpath = getattr(pd.CategoricalDtype, "_from_fastpath", None)
    dtype = fastpath(categories, False) if fastpath else pd.CategoricalDtype(categories)
    return pd.Categorical.from_codes(codes, dtype=dtype, validate=False)


def _check_duplicates(path: PathLike, frame: pd.DataFrame, lines: np.ndarray, verb: str) -> None:
    i = first_duplicate(frame)
    if i is not None:
        _fail(
            path,
            int(lines[i]),
            f"document {frame.doc_id.iloc[i]!r} is {verb} twice for query "
            f"{frame.query_id.iloc[i]!r}",
        )


def read_qrels(path: PathLike) -> pd.DataFrame:
    """Read a TREC qrels file into a DataFrame with columns query_id, doc_id, relevance.

    Grades are integers (negative grades mean judged, not relevant). Raises ``ValueError``
    naming the file and line of a malformed line, a grade that is not an integer or is out of
    range, or a document judged twice for the same query, and for a file with no judgment.
    """
    fields = _read(path, 4, "qrels", QRELS_LAYOUT, comments=True)
    lines = fields["line"]
    grades = _numbers(path, fields[3], lines, "the grade", integer=True)
    result = pd.DataFrame(
        {
            "query_id": _categorical(fields[0], blocks=True),
            "doc_id": _categorical(fields[2]),
            "relevance": grades.astype(np.int64),
        }
    )
    _check_duplicates(path, result, lines, "judged")
    return result


def read_run(path: PathLike) -> pd.DataFrame:
    """Read a TREC run file into a DataFrame with columns query_id, doc_id, rank, score, run.

    The rank column is kept as written but ignored by every measure: like trec_eval, coursekit
    orders each query's documents by score, descending, ties broken by doc id descending.
    Text after the sixth field is ignored, as trec_eval does. Raises ``ValueError`` naming the
    file and line of a malformed line, a non-numeric rank or score, a NaN or infinite score,
    or a document retrieved twice for the same query, and for a file with no line.
    """
    fields = _read(path, 6, "run", RUN_LAYOUT, comments=False)
    lines = fields["line"]
    ranks = _numbers(path, fields[3], lines, "the rank", integer=False)
    scores = _numbers(path, fields[4], lines, "the score", integer=False)
    result = pd.DataFrame(
        {
            "query_id": _categorical(fields[0], blocks=True),
            "doc_id": _categorical(fields[2]),
            "rank": ranks.astype(np.int64),
            "score": scores,
            "run": _categorical(fields[5], blocks=True),
        }
    )
    _check_duplicates(path, result, lines, "retrieved")
    return result
