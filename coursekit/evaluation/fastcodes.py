"""Python values read in one pass, for :mod:`.encode` (the integer work is
:mod:`coursekit.engine`'s).

* :func:`numbers_array`, :func:`strings_array`: a list of Python values (a nested dict's) as
  one numpy or pyarrow array, in one pass, when they are all numbers, or all strings.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

import numpy as np

__all__ = ["numbers_array", "strings_array"]


def numbers_array(values: list) -> np.ndarray | None:
    """``values`` as floats when pyarrow reads them all as ints or floats (no bool, no None),
    else None; one pass, faster than checking each value's type.

    pyarrow reads a bool after a float as 1.0 or 0.0, so the values it read as 0.0 or 1.0
    are looked at again, gathered in one call and their types read by pandas'
    ``infer_dtype`` (in C: a third of the time of an ``isinstance`` a value, and scores
    rounded to one decimal make a twentieth of a run 0.0 or 1.0). It also reads numpy's
    unsigned integers just below 2**64 among floats as negative whole numbers (2**64 - 1 as
    -1.0): the values it read as negative whole numbers are looked at again too.

    >>> numbers_array([2.5, 1]).tolist(), numbers_array([2.5, True]), numbers_array([1, "2"])
    ([2.5, 1.0], None, None)
    >>> numbers_array([1.0, 0.0, 1]).tolist(), numbers_array([1.0, np.False_, 2.5])
    ([1.0, 0.0, 1.0], None)
    >>> numbers_array([-1.0, np.uint64(2**64 - 1)]) is None  # (pyarrow would read -1.0)
    True
    """
    import pyarrow as pa
    from pandas.api.types import infer_dtype

    try:
        array = pa.array(values)
    except (pa.ArrowException, OverflowError, TypeError, ValueError):
        return None
    kind = array.type
    if array.null_count or not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
        return None
    numbers = array.to_numpy(zero_copy_only=False).astype(float, copy=False)
    if pa.types.is_floating(kind):
        rows = np.flatnonzero((numbers == 0) | (numbers == 1)).tolist()
        if rows and infer_dtype(_gathered(values, rows), skipna=False) not in _NUMBERS:
            return None  # a bool among them (pandas says "mixed" or "boolean")
        negative = numbers < 0
        negative &= numbers == np.trunc(numbers)
        rows = np.flatnonzero(negative).tolist()
        if rows and not _UNSIGNED.isdisjoint(set(map(type, _gathered(values, rows)))):
            return None  # numpy's unsigned integers read as negative numbers
    return numbers


_NUMBERS = ("floating", "integer", "mixed-integer-float")  # infer_dtype's kinds of numbers
_UNSIGNED = frozenset({np.uint64, np.ulonglong})


def _gathered(values: list, rows: list[int]) -> tuple:
    """``values[i]`` for each of ``rows``, in one call."""
    return itemgetter(*rows)(values) if len(rows) > 1 else (values[rows[0]],)


def strings_array(values: list) -> Any:
    """``values`` as a pyarrow string array when they are all Python strings (that UTF-8 can
    encode), else None."""
    import pyarrow as pa

    try:
        array = pa.array(values)
    except (pa.ArrowException, OverflowError, TypeError, ValueError):
        return None  # (UnicodeEncodeError, a lone surrogate, is a ValueError)
    if array.null_count or not pa.types.is_string(array.type):
        return None  # e.g. bytes (binary), or None in a list of strings
    return array
