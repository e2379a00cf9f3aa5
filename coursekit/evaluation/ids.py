"""Id columns as integer codes, for :mod:`.encode`: query ids hashed once a block of equal
neighbours (in any order: by pandas' hash table of strings), doc ids turned into pyarrow
strings that :func:`coursekit.engine.string_codes` numbers together for the run and the
qrels.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from ..engine import object_addresses, string_codes
from ..trec import ids_as_text, not_text


def query_codes(
    column: pd.Series, what: str, name: str, blocks: bool = False
) -> tuple[np.ndarray, pd.Index]:
    """Integer codes of an id column and the distinct ids (strings), hashing each row once.

    With ``blocks``, each run of equal neighbours is hashed once: a run or qrels lists a query's
    rows together, so its query ids cost one hash per query, not one per row.
    """
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        categories = column.cat.categories
        if not pd.api.types.is_string_dtype(categories):
            # ids such as 7 and "7" become one string: merge their codes
            merged, categories = pd.factorize(ids_as_text(categories, name))
            codes = np.where(codes >= 0, merged[codes], -1)
            categories = pd.Index(categories)
    elif (
        found := _object_blocks(column.to_numpy()) if blocks and column.dtype == object else None
    ) is not None:
        codes, categories = found
    elif (found := _object_few(column.to_numpy()) if column.dtype == object else None) is not None:
        codes, categories = found
    elif (array := arrow_strings(column)) is None:
        # ids that are not all strings (numbers, say): as strings
        codes, categories = pd.factorize(ids_as_text(column, name, what))
        categories = pd.Index(categories)
    else:
        codes, categories = _dictionary_encode(array, blocks)
    if codes.size and codes.min() < 0:
        i = int(np.flatnonzero(codes < 0)[0])
        raise ValueError(f"{what} row {i}: the {name} is missing")
    return codes.astype(np.int64, copy=False), categories


def _object_blocks(values: np.ndarray) -> tuple[np.ndarray, pd.Index] | None:
    """Codes of Python strings listed in blocks of equal neighbours (a run's query ids), each
    block converted and hashed once; None when there are many blocks or not only strings."""
    if values.size < 2:
        return None
    head = values[:_SAMPLE]  # rows in any order (as often once ties are shuffled): give up early
    if values.size > _SAMPLE and np.count_nonzero(head[1:] != head[:-1]) >= _SAMPLE // 4:
        return None
    # where the object changes (a cheap superset of where the string does): enough when
    # objects are shared, as pandas 2's read_csv and frames built from lists share them
    addresses = object_addresses(values)
    change = addresses[1:] != addresses[:-1]
    if np.count_nonzero(change) >= values.size // 4:  # one object a row: compare the strings
        change = values[1:] != values[:-1]
        if not isinstance(change, np.ndarray) or change.dtype != bool:
            return None
    starts = np.flatnonzero(np.r_[True, change])
    if starts.size >= values.size // 4:
        return None
    array = arrow_strings(values[starts])
    if array is None:
        return None
    codes, ids = _dictionary_encode(array)
    return np.repeat(codes, np.diff(np.r_[starts, values.size])), ids


def _shared_strings(column: pd.Series) -> tuple[Any, np.ndarray] | None:
    """``(strings, rows)`` of an object column whose rows share their string objects, as pandas
    2's read_csv and frames built from lists give them: each distinct object converted once,
    in address order (reading a million objects scattered in memory costs far more than
    grouping their addresses: :func:`_objects_in_address_order`); None when a sample of rows
    shows no shared object, the addresses cannot be grouped, or some id is not a string."""
    if column.dtype != object or len(column) < 4 * _SAMPLE:
        return None
    values = np.ascontiguousarray(column.to_numpy())
    addresses = object_addresses(values)
    sample = np.sort(addresses[:: len(values) // _SAMPLE][:_SAMPLE])  # spread over the rows
    if np.count_nonzero(sample[1:] == sample[:-1]) < _SAMPLE // 512:  # (one object a row: 0)
        return None
    grouped = _objects_in_address_order(addresses)
    if grouped is None:
        return None
    first, rows = grouped
    strings = arrow_strings(values[first])
    return None if strings is None else (strings, rows)


def _objects_in_address_order(addresses: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(first, rows)``: a row holding each distinct object, in address order, and the
    position of each row's object in that list; None when the addresses do not fit an
    integer with the row number.

    Each address becomes a small integer, its distance from the lowest counted in the
    alignment every address has (16 bytes, usually): a different integer for each object.
    When those integers span few values (at most four times as many as rows, or 4M: objects
    allocated near one another), each row's object is found by marking the values used, with
    no sort; else rows and integers, packed in one integer, are sorted.

    >>> addresses = np.array([4096, 64, 4096, 128])
    >>> first, rows = _objects_in_address_order(addresses)
    >>> addresses[first].tolist(), rows.tolist()
    ([64, 128, 4096], [2, 0, 2, 1])
    """
    keys = addresses - addresses.min()
    common = int(np.bitwise_or.reduce(keys))
    aligned = (common & -common).bit_length() - 1 if common else 0  # low bits all zero
    keys >>= aligned
    n = keys.size
    span = int(keys.max()) + 1
    if span <= 4 * n + (1 << 22):  # a mark for each possible value: 5 bytes each
        used = np.zeros(span, dtype=bool)
        used[keys] = True
        objects = np.flatnonzero(used)  # in address order
        position = np.empty(span, dtype=np.int32 if objects.size < 2**31 else np.int64)
        position[objects] = np.arange(objects.size)
        rows = position[keys].astype(np.int64)
        first = np.empty(objects.size, dtype=np.int64)
        first[rows] = np.arange(n)  # (the last row of each object: any will do)
        return first, rows
    row_bits = max(int(n - 1).bit_length(), 1)
    if span - 1 >= 1 << (63 - row_bits):
        return None
    keys <<= row_bits
    keys |= np.arange(n)
    keys.sort()
    row = keys & ((1 << row_bits) - 1)
    keys >>= row_bits
    new = np.r_[True, keys[1:] != keys[:-1]]
    rows = np.empty(n, dtype=np.int64)
    rows[row] = np.cumsum(new) - 1
    return row[new], rows


_SAMPLE = 8192  # rows looked at to guess whether a column has few distinct ids
_FEW = 2048  # distinct ids in the sample under which hashing Python strings directly is faster


def _object_few(values: np.ndarray) -> tuple[np.ndarray, pd.Index] | None:
    """Codes of Python strings with few distinct values (query ids in any order); None when
    there seem to be many distinct values, or some id is not a ``str`` (or is missing).

    Hashed by pandas' hash table of strings (the one :func:`pd.factorize` uses for a column
    of strings), a block of rows at a time, each block's few distinct values then numbered
    together: the buffers it fills (a pointer and a code a row) stay small and are reused,
    where for a million rows at once they are fresh memory, page by page; the table is sized
    for the few ids, not (pandas' default) for every row, so that it stays in the
    processor's cache; and pandas' first pass, which checks that every value is a string, is
    not made: the table gives the code -1 to a value that is not one."""
    if values.size <= _SAMPLE or pd.unique(values[:_SAMPLE]).size > _FEW:
        return None
    codes = np.empty(values.size, dtype=np.int64)
    starts = range(0, values.size, _BLOCK)
    blocks = []
    for start in starts:
        block, uniques = _factorize_strings(values[start : start + _BLOCK])
        if uniques.size > 4 * _FEW or block.min(initial=0) < 0:
            return None  # many ids; or ids to convert, or a missing one to name: elsewhere
        codes[start : start + _BLOCK] = block
        blocks.append(uniques)
    merged, uniques = pd.factorize(np.concatenate(blocks))
    if uniques.size > 4 * _FEW or not all(type(u) is str for u in uniques):
        return None
    at = 0
    for start, block in zip(starts, blocks, strict=True):
        renumbered = merged[at : at + block.size]
        codes[start : start + _BLOCK] = renumbered[codes[start : start + _BLOCK]]
        at += block.size
    return codes, text_index(uniques)


_BLOCK = 1 << 16  #: rows factorized at a time by :func:`_object_few`


def _factorize_strings(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize(values)`` for few distinct strings: codes (-1 for a value that is not a
    ``str``, with pandas' hash table of strings) and the distinct values."""
    if _StringHashTable is None:  # pragma: no cover - a pandas without it
        return pd.factorize(values, size_hint=4 * _FEW)
    uniques = _ObjectVector()
    codes = _StringHashTable(4 * _FEW).get_labels(values, uniques, 0, -1)
    return codes, uniques.to_array()


try:  # pandas' hash table of strings, behind pd.factorize; a private name, so not relied on
    from pandas._libs.hashtable import ObjectVector as _ObjectVector
    from pandas._libs.hashtable import StringHashTable as _StringHashTable
except ImportError:  # pragma: no cover - depends on the pandas installed
    _StringHashTable = _ObjectVector = None


def arrow_strings(values: Any) -> Any:
    """``values`` as a pyarrow string array (no copy when pyarrow stores them), or None."""
    import pyarrow as pa  # imported on first use: ``import coursekit`` stays light

    if isinstance(values, (pd.Series, pd.Index)):
        values = values.array if is_arrow(values.dtype) else values.to_numpy(dtype=object)
    try:
        array = (
            pa.array(values)
            if hasattr(values, "__arrow_array__")
            else pa.array(values, pa.string())
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    except UnicodeEncodeError as error:  # (a str that UTF-8 cannot hold)
        raise not_text(error) from None
    return array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array


def text_index(ids: Any) -> pd.Index:
    """Ids (strings) as an Index of pandas' string dtype; a ``ValueError`` naming the id that
    UTF-8 cannot encode (a lone surrogate), where pandas would raise ``UnicodeEncodeError``."""
    try:
        return pd.Index(ids, dtype="str")
    except UnicodeEncodeError as error:
        raise not_text(error) from None


def _dictionary_encode(array: Any, blocks: bool = False) -> tuple[np.ndarray, pd.Index]:
    """Codes (-1 for a missing value) and distinct values of a pyarrow string array."""
    (codes,), ids = string_codes(array, blocks)
    return codes, pd.Index(ids.to_pandas(), dtype="str")


def is_arrow(dtype: Any) -> bool:
    """Strings stored by pyarrow (pandas' "str" with pyarrow, "string[pyarrow]", ArrowDtype)."""
    if isinstance(dtype, pd.ArrowDtype):
        return pd.api.types.is_string_dtype(dtype)
    return isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"


def doc_strings(column: pd.Series, what: str) -> tuple[Any, np.ndarray | None]:
    """A doc id column as ``(strings, rows)``: a pyarrow string array without nulls, and the
    position of each row's id in it (None: one string a row). Numbers become strings."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        rows = column.cat.codes.to_numpy().astype(np.int64)
        categories = column.cat.categories
        if not pd.api.types.is_string_dtype(categories):
            categories = ids_as_text(categories, "doc id")  # 7 and "7": one string
        strings = arrow_strings(categories)
        if strings is None:
            strings = arrow_strings(ids_as_text(categories, "doc id"))
        missing = rows < 0
    elif (shared := _shared_strings(column)) is not None:  # each object converted once
        strings, rows = shared
        missing = None
        if strings.null_count:
            missing = strings.is_null().to_numpy(zero_copy_only=False)[rows]
    else:
        rows = None
        strings = arrow_strings(column)
        if strings is None:  # ids that are not all strings (numbers, say): as strings
            strings = arrow_strings(ids_as_text(column, "doc id", what))
        missing = strings.is_null().to_numpy(zero_copy_only=False) if strings.null_count else None
    if missing is not None and missing.any():
        raise ValueError(f"{what} row {int(np.flatnonzero(missing)[0])}: the doc id is missing")
    return strings, rows


class DocsLater:
    """The distinct doc ids as a ``pd.Index``, taken from the rows when first read (by an
    error message): the numbered path needs only their number (``n``) when it numbers them
    in byte order (:func:`coursekit.engine.sorted_codes`). Wins ``bench_evaluate.py --pool
    1000000``'s (c) heavy ties (2026-11-28): taking 650,000 ids from 1.25 million rows costs
    26 ms an evaluation, a tenth of the object string ids case (0.26 s before issue 38)."""

    def __init__(self, n: int, ids: Any):
        self.n, self.ids = n, ids

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, key: Any) -> Any:
        return self.index[key]

    @cached_property
    def index(self) -> pd.Index:
        return pd.Index(self.ids().to_pandas(), dtype="str")
