"""What every part of :mod:`coursekit.trec` shares: column names, id encoding, duplicates."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd

from ..engine import first_repeated_pair, object_addresses
from ..validation import fits_a_float

QRELS_COLUMNS = ["query_id", "doc_id", "relevance"]
RUN_COLUMNS = ["query_id", "doc_id", "rank", "score", "run"]

PathLike = str | os.PathLike

#: A number as the TREC readers take it (what C's atof and atol read alike, but hex and NaN)
NUMBER = r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"


def first_duplicate(frame: pd.DataFrame) -> int | None:
    """Row of the first repeated (query_id, doc_id) pair, or None (on integer codes: fast)."""
    codes = []
    for column in ("query_id", "doc_id"):
        values = frame[column]
        if isinstance(values.dtype, pd.CategoricalDtype):
            codes.append((values.cat.codes.to_numpy(), len(values.cat.categories)))
        else:
            found, uniques = pd.factorize(values)
            codes.append((found, len(uniques)))
    (q_codes, _), (d_codes, n_docs) = codes
    return first_repeated_pair(q_codes, d_codes, n_docs)


def as_str(column: pd.Series) -> np.ndarray:
    """An id column as an array of Python strings, whatever its dtype (categorical too)."""
    return ids_as_text(column, "id").to_numpy(dtype=object)


def id_text(value: object, name: str = "id") -> str:
    """An id as text, read as pandas' ``astype(str)`` reads one, so that a run gives the same
    numbers as a dict and as a DataFrame: a ``str`` as it is, ``bytes`` decoded as UTF-8,
    anything else as its ``str()`` (7 and "7" are then one id). Bytes that are not UTF-8
    are refused, naming the id (``name``: "doc id", say).

    A missing id (None, NaN, ``pd.NA``) is refused, as a missing value in a column is.

    >>> id_text(b"d1"), id_text(7), id_text("q1")
    ('d1', '7', 'q1')
    """
    if isinstance(value, str):
        return value
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        raise ValueError(f"a {name} is missing ({value!r}): every id must be text")
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(
                f"the {name} {value!r} is bytes that are not UTF-8: decode the ids to text first"
            ) from None
    return str(value)


def ids_as_text(ids: pd.Series | pd.Index, name: str, where: str = "") -> pd.Series | pd.Index:
    """``ids.astype(str)`` (which decodes bytes as UTF-8: see :func:`id_text`), with bytes that
    are not UTF-8 refused by their row (``where``: "run", say) rather than pandas'
    ``UnicodeDecodeError``."""
    try:
        return ids.astype(str)
    except UnicodeDecodeError:
        for i, value in enumerate(ids):  # (only to name the first undecodable id)
            try:
                id_text(value, name)
            except ValueError as error:
                place = f"{where} row {i}: " if where and isinstance(ids, pd.Series) else ""
                raise ValueError(place + str(error)) from None
        raise


def not_text(error: UnicodeEncodeError) -> ValueError:
    """The error for an id that UTF-8 cannot encode (a lone surrogate), naming it, where
    pandas and pyarrow would raise ``UnicodeEncodeError``."""
    return ValueError(
        f"the id {error.object!r} is not valid text: it holds a lone surrogate "
        f"({error.reason}), which no TREC file can hold; ids must be encodable as UTF-8"
    )


def check_text(ids: Iterable[str]) -> None:
    """Refuse a ``str`` that UTF-8 cannot encode (a lone surrogate) among ``ids``, naming it
    (read only when the text is not all ASCII, which Python knows without reading it)."""
    joined = "".join(ids)
    if not joined.isascii():
        try:
            joined.encode("utf-8")
        except UnicodeEncodeError:
            for one in ids:  # (only to name the id)
                try:
                    one.encode("utf-8")
                except UnicodeEncodeError as error:
                    raise not_text(error) from None


def check_columns(frame: pd.DataFrame, needed: list[str], what: str) -> None:
    """Refuse a DataFrame that lacks a needed column or has two of one name (``what``: "the
    run", say)."""
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{what} DataFrame lacks the column(s) {', '.join(missing)}; it has "
            f"{', '.join(map(str, frame.columns))}"
        )
    twice = [c for c in needed if isinstance(frame[c], pd.DataFrame)]
    if twice:
        raise ValueError(f"{what} DataFrame has two columns named {twice[0]!r}: keep one")


MAX_GRADE = 2**31 - 1  # trec_eval and pytrec_eval read grades as C ints


def check_grades(grades: np.ndarray, place: Callable[[int], str]) -> None:
    """Refuse, at its first row, a grade trec_eval would read as another number: one that is
    not an integer (trec_eval truncates 0.5 to 0 and 1.5 to 1; used as they are, they would
    change relevance and gains silently) or beyond a C int (it would wrap around). ``place(i)``
    names row ``i``."""
    large = ~(np.abs(grades) <= MAX_GRADE)
    bad = np.flatnonzero(large | (grades != np.round(grades)))
    if bad.size:
        i = int(bad[0])
        if large[i]:
            why = f"is out of range (grades are integers from {-MAX_GRADE} to {MAX_GRADE}, as in"
        else:
            why = "is not an integer (grades are integers, as in"
        raise ValueError(f"{place(i)}: the grade {float(grades[i])!r} {why} trec_eval)")


def integral_grades(frame: pd.DataFrame) -> pd.DataFrame:
    """Grades as integers, after :func:`check_grades`."""
    grades = frame["relevance"].to_numpy(dtype=float)
    check_grades(grades, lambda i: f"qrels row {i}")
    frame["relevance"] = grades.astype(np.int64)
    return frame


# Python's and numpy's booleans: two objects each
_BOOLS = (True, False, np.True_, np.False_)


def bool_rows(values: pd.Series | np.ndarray) -> np.ndarray:
    """The rows of a column that hold a bool: every row of a bool column, those of an object
    column that hold one (Python's or numpy's, found by address).

    >>> bool_rows(np.array([1.0, True, 0, np.False_, "x"], dtype=object)).tolist()
    [1, 3]
    """
    if pd.api.types.is_bool_dtype(values.dtype):
        return np.arange(len(values))
    if values.dtype != object:
        return np.zeros(0, dtype=np.int64)
    objects = values.to_numpy() if isinstance(values, pd.Series) else values
    return np.flatnonzero(np.isin(object_addresses(objects), [id(b) for b in _BOOLS]))


def column_numbers(column: pd.Series, place: Callable[[int], str], kind: str) -> np.ndarray:
    """A score or grade column as float64, or an error naming the first bad row (``place(i)``
    names row ``i``; ``kind``: "score" or "grade"): bools, complex numbers, dates and
    durations are refused (pandas would read True as 1, 2+1j as 2, a date as nanoseconds),
    and so are text that is not a number, numbers beyond a float, NaN and infinities."""
    refuse_bools(column, place, kind)
    if column.dtype.kind in "cmM":  # (numpy's complex, timedelta and datetime kinds)
        raise TypeError(f"{place(0)}: the {kind} {_shown(column.iloc[0])!r} is not a real number")
    try:
        numbers = pd.to_numeric(column, errors="coerce")
    except OverflowError:  # an int beyond any float (10**400)
        i = next(i for i, value in enumerate(column) if not fits_a_float(value))
        shown = _shown(column.iloc[i])
        raise ValueError(f"{place(i)}: the {kind} {shown!r} is too large") from None
    if numbers.dtype.kind == "c":  # complex numbers in an object column
        i = int(np.flatnonzero(np.asarray(numbers).imag != 0)[0]) if numbers.size else 0
        raise TypeError(f"{place(i)}: the {kind} {_shown(column.iloc[i])!r} is not a real number")
    values = numbers.to_numpy(dtype=float, na_value=np.nan)
    if not np.all(np.isfinite(values)):
        i = int(np.flatnonzero(~np.isfinite(values))[0])
        shown = _shown(column.iloc[i])
        text = isinstance(shown, str) and not re.fullmatch(
            r"\s*[+-]?(?i:nan|inf|infinity)\s*", shown
        )
        problem = "is not a number" if text else "is not a finite number"
        raise ValueError(f"{place(i)}: the {kind} {shown!r} {problem}")
    if kind == "grade":
        _refuse_other_atol(column, values, place)
    return values


def atol_digits(texts: Any) -> Any:
    """What C's ``atol`` (trec_eval's reader of grades) reads of each number written as text (a
    pyarrow string array; see :data:`NUMBER`): the digits before any '.' or exponent, "0" when
    there are none (".5")."""
    import pyarrow.compute as pc

    head = pc.replace_substring_regex(texts, r"[.eE].*", "")
    return pc.replace_substring_regex(head, r"^[+-]?$", "0")


def _refuse_other_atol(column: pd.Series, values: np.ndarray, place: Callable[[int], str]) -> None:
    """Refuse a whole grade written as text that trec_eval reads as another number, as the
    qrels reader does: ``"1e3"`` is 1000 to pandas, 1 to ``atol``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if column.dtype == object:
        objects = column.to_numpy()
        rows = np.flatnonzero([isinstance(value, str) for value in objects])
    elif pd.api.types.is_string_dtype(column.dtype):
        objects, rows = column.to_numpy(dtype=object), np.arange(len(column))
    else:
        return
    rows = rows[values[rows] == np.trunc(values[rows])]  # (others: check_grades says why)
    if rows.size == 0:
        return
    texts = pc.utf8_trim_whitespace(pa.array(objects[rows], type=pa.string()))
    written = pc.match_substring_regex(texts, NUMBER).to_numpy(zero_copy_only=False)
    digits = atol_digits(pc.if_else(written, texts, "0"))
    read = pc.cast(digits, "float64").to_numpy()
    bad = np.flatnonzero(written & (read != values[rows]))
    if bad.size:
        i = int(rows[bad[0]])
        raise ValueError(
            f"{place(i)}: the grade {objects[i]!r} is not an integer in digits (trec_eval "
            f"reads it as {digits[int(bad[0])].as_py()}, here it would be {values[i]:g})"
        )


def _shown(value: object) -> object:
    """A value as an error message shows it: numpy's scalars as Python's (nan, not
    np.float64(nan))."""
    return value.item() if isinstance(value, np.generic) else value


def refuse_bools(column: pd.Series, place: Callable[[int], str], kind: str) -> None:
    """Raise ``TypeError`` at the first row of ``column`` that holds a bool: True is not a
    grade or a score (nor is it in a dict). ``place(i)`` names row ``i``."""
    rows = bool_rows(column)
    if rows.size:
        i = int(rows[0])
        raise TypeError(f"{place(i)}: the {kind} {column.iloc[i]} is a bool, not a number")
