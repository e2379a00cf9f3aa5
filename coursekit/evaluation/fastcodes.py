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
    """``values`` as floats when they are all ints or floats, Python's or numpy's (no bool, no
    None, no string), else None (then :mod:`.encode` looks at them one by one, to say which
    value is wrong and where).

    Two ways, each right on any list, the first value choosing the faster:

    * pandas' ``infer_dtype`` reads each value's type in C and tells a bool from a number,
      then ``np.fromiter`` converts each value with its own ``float()``; for grades (ints:
      Python's shared small ints) 9.7 ms a million against 12.1 for the second way;
    * scores (floats): pyarrow converts them in one pass, 20 ms a million against 29 for the
      first way. It reads a bool after a float as 1.0 or 0.0, so the values it read as 0.0 or
      1.0 are looked at again, gathered in one call and their types read by ``infer_dtype``
      (scores rounded to one decimal make a twentieth of a run 0.0 or 1.0); and numpy's
      unsigned integers just below 2**64 as negative whole numbers (2**64 - 1 as -1.0): the
      values it read as negative whole numbers are looked at again too.

    >>> numbers_array([2.5, 1]).tolist(), numbers_array([2.5, True]), numbers_array([1, "2"])
    ([2.5, 1.0], None, None)
    >>> numbers_array([1.0, 0.0, 1]).tolist(), numbers_array([1.0, np.False_, 2.5])
    ([1.0, 0.0, 1.0], None)
    >>> numbers_array([2, 1, np.int64(3)]).tolist(), numbers_array([2, np.True_])
    ([2.0, 1.0, 3.0], None)
    >>> numbers_array([-1.0, np.uint64(2**64 - 1)]) is None  # (pyarrow would read -1.0)
    True
    >>> numbers_array([1, np.uint64(2**64 - 1)]).tolist(), numbers_array([])
    ([1.0, 1.8446744073709552e+19], None)
    """
    from pandas.api.types import infer_dtype

    if values and isinstance(values[0], float):
        return _floats(values)
    if infer_dtype(values, skipna=False) not in _NUMBERS:
        return None
    try:
        return np.fromiter(values, dtype=np.float64, count=len(values))
    except (OverflowError, TypeError, ValueError):  # an int beyond any float (10**400)
        return None


def _floats(values: list) -> np.ndarray | None:
    """:func:`numbers_array`'s second way: pyarrow's conversion, its doubtful values read again."""
    import pyarrow as pa
    from pandas.api.types import infer_dtype

    try:
        array = pa.array(values)
    except (pa.ArrowException, OverflowError, TypeError, ValueError):
        return None
    if array.null_count or not pa.types.is_floating(array.type):
        return None  # (a float first: pyarrow reads them as floats, or refuses them)
    numbers = array.to_numpy(zero_copy_only=False).astype(float, copy=False)
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
