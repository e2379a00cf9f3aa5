"""Integer work instead of string hashing and hash-table look-ups, for :mod:`.encode`.

* :func:`packed_codes` (from :mod:`coursekit.trec.codes`): the codes of pyarrow string
  arrays, each id read from arrow's buffers as one 64-bit integer, hashed several times faster.
* :func:`match_pairs`: for each (query, doc) pair of the run, the qrels row judging it, and
  whether a pair is repeated in the run or in the qrels, with one sort of packed integers.
* :func:`numbers_array`, :func:`strings_array`: a list of Python values (a nested dict's) as
  one numpy or pyarrow array, in one pass, when they are all numbers, or all strings.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

import numpy as np

from ..trec.addressing import addressable, match_by_address
from ..trec.codes import packed_codes
from ..trec.counting import order_by
from ..trec.machine import use_hash_tables

__all__ = ["packed_codes", "match_pairs", "numbers_array", "strings_array"]


def match_pairs(
    run: tuple[np.ndarray, np.ndarray],
    qrels: tuple[np.ndarray, np.ndarray],
    n_docs: int,
    qrels_distinct: bool = False,
    run_distinct: bool = False,
) -> tuple[np.ndarray, bool, bool] | None:
    """For each run row, the qrels row with the same (query, doc) codes (-1 if none), and
    whether some pair is repeated in the run, and in the qrels. ``run`` and ``qrels`` are
    ``(query codes, doc codes)``, every doc code below ``n_docs``.

    By direct addressing, a few queries at a time (:mod:`coursekit.trec.addressing`), or, when
    the codes do not fit its table, with the rows of both sides ordered on ``query, doc, side``
    (the qrels first), by counting (:mod:`coursekit.trec.counting`) or with one sort of the
    three and the row packed in an integer; where numpy's sort is slow
    (:mod:`coursekit.trec.machine`) and counting does not apply, with hash tables. None when
    the codes do not fit (or, with hash tables, some pair is repeated in the qrels: then the
    caller looks them up its own way). ``qrels_distinct``: the caller has checked that no pair
    of the qrels repeats (then the qrels' repeats may not be looked for again);
    ``run_distinct``: no pair of the run can repeat (then the run's may not be)."""
    (run_query, run_doc), (qrels_query, qrels_doc) = run, qrels
    n_run, n_qrels = run_query.size, qrels_query.size
    n_docs = max(n_docs, 1)
    n_queries = int(max(run_query.max(initial=0), qrels_query.max(initial=0))) + 1
    low = min(run_query.min(initial=0), run_doc.min(initial=0), qrels_query.min(initial=0))
    if min(low, qrels_doc.min(initial=0)) >= 0 and addressable(n_run + n_qrels, n_queries, n_docs):
        return match_by_address(run, qrels, n_queries, n_docs, qrels_distinct, run_distinct)
    key_bits = (n_queries * 2 * n_docs - 1).bit_length()  # of query, doc, side together
    if key_bits > 62:
        return None
    query = np.concatenate([qrels_query, run_query])
    doc_side = np.concatenate([qrels_doc, run_doc]).astype(np.int64)
    doc_side <<= 1
    doc_side[n_qrels:] |= 1  # qrels (side 0) before the run (side 1) on the same pair
    rows = order_by([(query, n_queries), (doc_side, 2 * n_docs)])
    if rows is not None:  # gathered from 32-bit copies where they fit (half the memory read)
        doc_side = doc_side.astype(np.int32 if 2 * n_docs <= 2**31 else np.int64)[rows]
        query = query.astype(np.int32 if n_queries <= 2**31 else np.int64)[rows]
    elif use_hash_tables(n_run):
        return _match_hashed(
            run_query.astype(np.int64) * n_docs + run_doc,
            qrels_query.astype(np.int64) * n_docs + qrels_doc,
        )
    else:
        row_bits = int(max(n_run + n_qrels, 1) - 1).bit_length() or 1
        if key_bits + row_bits > 63:
            return None
        packed = query.astype(np.int64) * (2 * n_docs)
        packed += doc_side
        packed <<= row_bits
        packed |= np.arange(n_run + n_qrels, dtype=np.int64)
        packed.sort()
        rows = packed & ((1 << row_bits) - 1)
        query, doc_side = np.divmod(packed >> row_bits, 2 * n_docs)
    # in this order, equal neighbours repeat a pair within one side; a qrels row then a run row
    # with the same query and doc (doc * 2, doc * 2 + 1) is a judged retrieved document
    same_query = query[1:] == query[:-1]
    step = doc_side[1:] - doc_side[:-1]
    run_repeated = qrels_repeated = False
    repeated = np.flatnonzero(same_query & (step == 0))
    if repeated.size:
        sides = doc_side[repeated] & 1
        run_repeated, qrels_repeated = bool(np.any(sides == 1)), bool(np.any(sides == 0))
    judged = np.flatnonzero(same_query & (step == 1))
    judged = judged[(doc_side[judged] & 1) == 0]
    found = np.full(n_run, -1, dtype=np.int64)
    found[rows[judged + 1] - n_qrels] = rows[judged]
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
