"""Integer work instead of string hashing and hash-table look-ups, for :mod:`.encode`.

* :func:`packed_codes` (from :mod:`coursekit.trec.codes`): the codes of pyarrow string
  arrays, each id read from arrow's buffers as one 64-bit integer, hashed several times faster.
* :func:`match_pairs`: for each (query, doc) pair of the run, the qrels row judging it, and
  whether a pair is repeated in the run or in the qrels, with one sort of packed integers.
* :func:`numbers_array`, :func:`strings_array`: a list of Python values (a nested dict's) as
  one numpy or pyarrow array, in one pass, when they are all numbers, or all strings.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..trec.codes import packed_codes
from ..trec.machine import use_hash_tables

__all__ = ["packed_codes", "match_pairs", "numbers_array", "strings_array"]


def match_pairs(run_key: np.ndarray, qrels_key: np.ndarray) -> tuple[np.ndarray, bool, bool] | None:
    """For each run row, the qrels row with the same key (-1 if none), and whether some key is
    repeated in the run, and in the qrels. Keys are non-negative integers (query * n_docs +
    doc). One sort of ``key, side, row`` packed in an integer, or, where numpy's sort is slow
    (:mod:`coursekit.trec.machine`), hash tables; None when the keys do not fit (or, with hash
    tables, some key is repeated in the qrels: then the caller looks them up its own way)."""
    n_run, n_qrels = run_key.size, qrels_key.size
    if use_hash_tables(n_run):
        return _match_hashed(run_key, qrels_key)
    rows = max(n_run, n_qrels, 1)
    row_bits = int(rows - 1).bit_length() or 1
    top = int(max(run_key.max(initial=0), qrels_key.max(initial=0)))
    if top.bit_length() + 1 + row_bits > 63:
        return None
    shift = row_bits + 1
    packed = np.empty(n_run + n_qrels, dtype=np.int64)
    # qrels (side 0) sort before the run (side 1) on the same key
    np.left_shift(qrels_key, shift, out=packed[:n_qrels])
    packed[:n_qrels] |= np.arange(n_qrels, dtype=np.int64)
    np.left_shift(run_key, shift, out=packed[n_qrels:])
    packed[n_qrels:] |= np.arange(n_run, dtype=np.int64) | (1 << row_bits)
    packed.sort()
    # key and side together: equal neighbours repeat a pair within one side; a qrels row then
    # a run row one apart (key * 2, key * 2 + 1) is a judged retrieved document
    key_side = packed >> row_bits
    step = key_side[1:] - key_side[:-1]
    run_repeated = qrels_repeated = False
    repeated = np.flatnonzero(step == 0)
    if repeated.size:
        sides = key_side[repeated] & 1
        run_repeated, qrels_repeated = bool(np.any(sides == 1)), bool(np.any(sides == 0))
    judged = np.flatnonzero(step == 1)
    judged = judged[(key_side[judged] & 1) == 0]
    mask = (1 << row_bits) - 1
    found = np.full(n_run, -1, dtype=np.int64)
    found[packed[judged + 1] & mask] = packed[judged] & mask
    return found, run_repeated, qrels_repeated


def _match_hashed(
    run_key: np.ndarray, qrels_key: np.ndarray
) -> tuple[np.ndarray, bool, bool] | None:
    import pandas as pd

    qrels_index = pd.Index(qrels_key, copy=False)
    if not qrels_index.is_unique:
        return None
    run_repeated = not pd.Index(run_key, copy=False).is_unique
    return qrels_index.get_indexer(run_key).astype(np.int64, copy=False), run_repeated, False


def numbers_array(values: list) -> np.ndarray | None:
    """``values`` as floats when pyarrow reads them all as ints or floats (no bool, no None),
    else None; one pass, faster than checking each value's type.

    pyarrow reads a bool after a float as 1.0 or 0.0, so the values it read as 0.0 or 1.0
    are looked at again (of continuous scores, practically none is).

    >>> numbers_array([2.5, 1]).tolist(), numbers_array([2.5, True]), numbers_array([1, "2"])
    ([2.5, 1.0], None, None)
    """
    import pyarrow as pa

    try:
        array = pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError, TypeError, ValueError):
        return None
    kind = array.type
    if array.null_count or not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
        return None
    numbers = array.to_numpy(zero_copy_only=False).astype(float, copy=False)
    if pa.types.is_floating(kind):
        maybe = np.flatnonzero((numbers == 0) | (numbers == 1)).tolist()
        if any(isinstance(values[i], (bool, np.bool_)) for i in maybe):
            return None
    return numbers


def strings_array(values: list) -> Any:
    """``values`` as a pyarrow string array when they are all Python strings, else None."""
    import pyarrow as pa

    try:
        array = pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError, TypeError, ValueError):
        return None
    if array.null_count or not pa.types.is_string(array.type):
        return None  # e.g. bytes (binary), or None in a list of strings
    return array
