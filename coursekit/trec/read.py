"""Reading TREC qrels and run files (with pyarrow); every problem is reported as file:line.

What trec_eval reads is read: fields separated by any run of spaces or tabs, CRLF line ends, a
UTF-8 byte order mark, blank lines, ``#`` comment lines (trec_eval 10, in runs and qrels), text
after the sixth field of a run line (trec_eval ignores it), a whole grade written with a decimal
point (``1.0``), gzip-compressed files (``.gz``). What would change the numbers is refused with
the file and line: a grade that is not an integer or is out of range, a number written in a form
trec_eval reads differently (``1_0``, ``0x10``, a grade ``1e3``), NaN or infinite numbers, a rank
beyond 64-bit integers, a NUL byte, bytes that are not UTF-8, an empty file, a document listed
twice for a query, lines ended by a carriage return alone (an old Mac file: trec_eval reads the
whole file as one line, and evaluates a run's first document only). A damaged gzip file is
refused with its name.
"""

from __future__ import annotations

import gzip
import os
import re
import zlib
from collections.abc import Iterator
from typing import Any, NoReturn

import numpy as np
import pandas as pd

from ..engine import string_codes
from .columns import MAX_GRADE, NUMBER, PathLike, atol_digits, first_duplicate

_BLOCK = 1 << 25  # bytes read at a time: memory stays bounded for runs of any size
_PIECE = 1 << 16  # bytes searched at a time for the marks below
_SPACES = (b"\t", b"\r", b"\x0b", b"\x0c")  # white space to trec_eval, besides " " and "\n"
_MARKS = (b"\x00", *_SPACES, b"#")  # looked for in each block
_NOT_FINITE = r"^[+-]?(?i:nan|inf|infinity)$"
_BOM = b"\xef\xbb\xbf"
# a carriage return that ends a line without a line feed: text follows it on the same line
# (spaces aside); a CR before CRLF, or at the end of the file, changes nothing and is read
_CR_ONLY = re.compile(rb"\r[ \t\x0b\x0c\r]*[^ \t\x0b\x0c\r\n]")
_MAX_RANK = float(np.nextafter(2.0**63, 0))  # ranks are kept as 64-bit integers
RUN_LAYOUT = "query_id Q0 doc_id rank score run_name"
QRELS_LAYOUT = "query_id iteration doc_id grade"


def _fail(path: PathLike, line: int, message: str) -> NoReturn:
    raise ValueError(f"{path}, line {line}: {message}")


def file_name(path: Any) -> str:
    """``path`` as a file name (str), checked before any file is opened: an int would be read
    as an open file descriptor (and closed), bytes are not a path coursekit takes elsewhere."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file name (str or os.PathLike), got {type(path).__name__}")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise TypeError(f"path must be a file name (str), got {type(name).__name__} {name!r}")
    if "\x00" in name:
        raise ValueError(f"path {name!r} contains a NUL byte")
    return name


def _blocks(path: str) -> Iterator[bytes]:
    """The file's bytes in blocks of whole lines (the last may lack its line end)."""
    with open(path, "rb") as raw:
        gzipped = raw.read(2) == b"\x1f\x8b"
    opener: Any = gzip.open if gzipped else open
    rest, first = b"", True
    with opener(path, "rb") as handle:
        while True:
            try:
                chunk = handle.read(_BLOCK)
            except (EOFError, gzip.BadGzipFile, zlib.error) as error:  # (only from gzip)
                raise ValueError(f"{path}: a damaged gzip file ({error})") from error
            data = rest + chunk
            if chunk:
                cut = data.rfind(b"\n") + 1
                if cut == 0 and _CR_ONLY.search(data):
                    cut = len(data)  # no line feed: refused by _read, without reading it all
                data, rest = data[:cut], data[cut:]
            if first and data.startswith(_BOM):
                data = data[3:]
            first = False
            if data:
                yield data
            if not chunk:
                return


def _found(data: bytes, marks: tuple[bytes, ...]) -> set[bytes]:
    """Which of the bytes ``marks`` occur in ``data``: all are looked for in one piece of
    ``_PIECE`` bytes (in the processor's cache) before the next, twice as fast as one search
    of the whole block for each."""
    found: set[bytes] = set()
    left = list(marks)
    for start in range(0, len(data), _PIECE):
        hits = [mark for mark in left if data.find(mark, start, start + _PIECE) >= 0]
        if hits:
            found.update(hits)
            left = [mark for mark in left if mark not in found]
            if not left:
                break
    return found


def _split_plain(data: bytes, n_fields: int, hashes: bool) -> list | None:
    """The fields of a plain block (no tab, CR, vertical tab or form feed: white space to
    trec_eval), each column's chunks, or None if some line has another number of fields, is
    blank, has an empty field (two spaces in a row, a space at either end), starts with ``#``
    (a comment; looked for if the block ``hashes``) or some bytes are not UTF-8 (then the
    general splitter reads it and says where); or if the block starts with a byte order mark
    (pyarrow would drop it; only the file's first one is dropped)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from pyarrow import csv

    if data.startswith(_BOM):
        return None
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
    if hashes and any(pc.any(pc.starts_with(c, "#")).as_py() for c in columns[0]):
        return None  # a comment line
    return columns


def _split(path: PathLike, first_line: int, data: bytes, spec: tuple) -> tuple[list, np.ndarray]:
    """The fields of a block's lines (any white space, comments, trailing text), checked."""
    import pyarrow as pa
    import pyarrow.compute as pc

    n_fields, kind, layout = spec
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = first_line + data.count(b"\n", 0, error.start)
        _fail(path, bad, f"bytes that are not UTF-8 ({error.reason}); save the file as UTF-8")
    rows = pc.split_pattern(pa.array([text], pa.large_string()), "\n").values
    trimmed = pc.ascii_trim_whitespace(rows)
    keep = pc.binary_length(trimmed).to_numpy(zero_copy_only=False) > 0
    keep &= ~pc.starts_with(trimmed, "#").to_numpy(zero_copy_only=False)  # (as trec_eval 10)
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


def _carriage_returns(path: str, first_line: int, data: bytes) -> None:
    """Refuse a block with a line ended by a carriage return alone (looked for only in a
    block with more CRs than CRLFs: a CRLF file pays two counts of its bytes)."""
    found = _CR_ONLY.search(data)
    if found is not None:
        name = os.path.basename(path)
        _fail(
            path,
            first_line + data.count(b"\n", 0, found.start()),
            "a carriage return without a line feed: the lines end with a carriage return only "
            "(an old Mac file), which trec_eval would read as one line; convert the line ends, "
            f"e.g. tr '\\r' '\\n' < {name} > unix-{name}",
        )


def _read(path: str, n_fields: int, kind: str, layout: str) -> dict:
    """The fields of every line: pyarrow string arrays, and each row's line number."""
    import pyarrow as pa  # imported on first use: ``import coursekit`` stays light

    columns: list[list] = [[] for _ in range(n_fields)]
    lines = []
    first_line = 1  # of the block
    for data in _blocks(path):
        found = _found(data, _MARKS)
        if b"\x00" in found:
            line = first_line + data.count(b"\n", 0, data.find(b"\x00"))
            _fail(path, line, "a NUL byte (trec_eval would end the text there)")
        if b"\r" in found and data.count(b"\r") != data.count(b"\r\n"):
            _carriage_returns(path, first_line, data)
        plain = not found.intersection(_SPACES)
        fields = _split_plain(data, n_fields, b"#" in found) if plain else None
        if fields is not None:  # a row a line (no blank line): no need to count line ends
            numbers = first_line + np.arange(sum(map(len, fields[0])))
            first_line += numbers.size
        else:
            fields, numbers = _split(path, first_line, data, (n_fields, kind, layout))
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


def _numbers(
    path: str, column: Any, lines: np.ndarray, what: str, integer: bool, limit: float
) -> np.ndarray:
    """A column of numbers as float64, refusing any text trec_eval would read differently and
    any value beyond ``limit`` (in absolute value)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:  # pyarrow's parser takes the numbers trec_eval reads alike, and NaN and infinity;
        values = _cast(column, integer)  # and, as integers, hex (0x10), which atol reads as 0
        if not (integer and _hex(column)):
            return _in_range(path, column, lines, what, integer, values, limit)
    except pa.ArrowInvalid:
        pass  # find the line, say what is wrong
    if integer:
        values = _whole_numbers(path, column, lines, what)
    else:
        ok = pc.match_substring_regex(column, NUMBER).to_numpy(zero_copy_only=False)
        if not ok.all():
            _refuse(path, column, lines, what, int(np.flatnonzero(~ok)[0]))
        values = _cast(column, False)
    return _in_range(path, column, lines, what, integer, values, limit)


def _hex(column: Any) -> bool:
    import pyarrow.compute as pc

    return any(pc.any(pc.starts_with(column, prefix)).as_py() for prefix in ("0x", "0X"))


def _whole_numbers(path: str, column: Any, lines: np.ndarray, what: str) -> np.ndarray:
    """Grades that are not plain integers: read when they are whole numbers that trec_eval's
    atol (the digits before any '.' or exponent) reads alike, such as 1.0, 2.00 or 1e0."""
    import pyarrow.compute as pc

    ok = pc.match_substring_regex(column, NUMBER)
    values = _cast(pc.if_else(ok, column, "0"), False)
    head = atol_digits(pc.if_else(ok, column, "0"))  # (atol reads ".5" as 0)
    atol = _cast(head, False)
    ok = ok.to_numpy(zero_copy_only=False)
    whole = values == np.trunc(values)
    bad = ~ok | ~whole | (values != atol)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        if not ok[i]:
            _refuse(path, column, lines, what, i)
        text = column[i].as_py()
        if not whole[i]:
            message = "is not an integer (trec_eval reads grades as integers)"
        else:
            message = f"is not an integer in digits (trec_eval reads it as {head[i].as_py()})"
        _fail(path, int(lines[i]), f"{what} {text!r} {message}")
    return values


def _refuse(path: str, column: Any, lines: np.ndarray, what: str, i: int) -> NoReturn:
    """Refuse row ``i``, whose text is not a number in the form trec_eval reads."""
    import pyarrow.compute as pc

    text = column[i].as_py()
    if pc.match_substring_regex(column[i : i + 1], _NOT_FINITE)[0].as_py():
        message = "is not a finite number"
    else:
        message = "is not a number"
    _fail(path, int(lines[i]), f"{what} {text!r} {message}")


def _cast(column: Any, integer: bool) -> np.ndarray:
    import pyarrow.compute as pc

    values = pc.cast(column, "int64" if integer else "float64").to_numpy()
    return values.astype(float)  # (a copy: arrow's buffers are read-only)


def _in_range(
    path: str,
    column: Any,
    lines: np.ndarray,
    what: str,
    integer: bool,
    values: np.ndarray,
    limit: float,
) -> np.ndarray:
    if values.size == 0 or (values.min() >= -limit and values.max() <= limit):  # (not NaN)
        return values
    i = int(np.flatnonzero(~(np.abs(values) <= limit))[0])
    problem = "is out of range" if integer or np.isfinite(values[i]) else "is not a finite number"
    _fail(path, int(lines[i]), f"{what} {column[i].as_py()!r} {problem}")


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

    Grades are integers (negative grades mean judged, not relevant); a whole number written
    with a decimal point (``1.0``) is read as the integer. Raises ``ValueError`` naming the
    file and line of a malformed line, a grade that is not an integer (or that trec_eval reads
    as another one: ``0x10``, ``1e3``) or is out of range, a NUL byte, a line ended by a
    carriage return alone (an old Mac file), or a document judged twice for the same query,
    and for a file with no judgment or a damaged gzip file; and ``TypeError`` for a path that
    is not a str or os.PathLike.
    """
    name = file_name(path)
    fields = _read(name, 4, "qrels", QRELS_LAYOUT)
    lines = fields["line"]
    grades = _numbers(name, fields[3], lines, "the grade", True, MAX_GRADE)
    result = pd.DataFrame(
        {
            "query_id": _categorical(fields[0], blocks=True),
            "doc_id": _categorical(fields[2]),
            "relevance": grades.astype(np.int64),
        }
    )
    _check_duplicates(name, result, lines, "judged")
    return result


def read_run(path: PathLike) -> pd.DataFrame:
    """Read a TREC run file into a DataFrame with columns query_id, doc_id, rank, score, run.

    The rank column is kept as written but ignored by every measure: like trec_eval, coursekit
    orders each query's documents by score, descending, ties broken by doc id descending.
    Text after the sixth field and ``#`` comment lines are ignored, as trec_eval 10 does.
    Raises ``ValueError`` naming the file and line of a malformed line, a non-numeric rank or
    score, a NaN or infinite score, a rank beyond 64-bit integers, a NUL byte, a line ended by
    a carriage return alone (an old Mac file), or a document retrieved twice for the same
    query, and for a file with no line or a damaged gzip file; and ``TypeError`` for a path
    that is not a str or os.PathLike.
    """
    name = file_name(path)
    fields = _read(name, 6, "run", RUN_LAYOUT)
    lines = fields["line"]
    ranks = _numbers(name, fields[3], lines, "the rank", False, _MAX_RANK)
    scores = _numbers(name, fields[4], lines, "the score", False, np.finfo(float).max)
    result = pd.DataFrame(
        {
            "query_id": _categorical(fields[0], blocks=True),
            "doc_id": _categorical(fields[2]),
            "rank": ranks.astype(np.int64),
            "score": scores,
            "run": _categorical(fields[5], blocks=True),
        }
    )
    _check_duplicates(name, result, lines, "retrieved")
    return result
