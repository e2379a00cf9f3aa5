"""Integer work instead of string hashing and hash-table look-ups, for :mod:`.encode`.

* :func:`packed_codes`: the codes of a pyarrow string array, each id read as its bytes (padded
  with zeros to 8, 16, 24 or 32 bytes, straight from arrow's buffers) and its length, put in
  one 64-bit integer; integers are hashed several times faster than strings. Ids of at most 8
  bytes fit exactly (bytes and length); longer ones are mixed, and the mixing is checked exact
  afterwards (every row equals, word by word and in length, the first row of its code); when
  it is not, or an id is longer than 32 bytes, the caller hashes the strings instead.
* :func:`match_pairs`: for each (query, doc) pair of the run, the qrels row judging it, and
  whether a pair is repeated in the run or in the qrels, with one sort of packed integers.
* :func:`numbers_array`, :func:`strings_array`: a list of Python values (a nested dict's) as
  one numpy or pyarrow array, in one pass, when they are all numbers, or all strings.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["packed_codes", "match_pairs", "numbers_array", "strings_array"]

_MAX_WIDTH = 32
_MIX = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplication by it is a bijection mod 2**64
_LENGTH_MIX = np.uint64(0xC2B2AE3D27D4EB4F)


def packed_codes(array: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """``(codes, first)`` of a pyarrow string array without nulls: ``codes[i]`` numbers the
    distinct ids in order of first appearance, ``first[c]`` is the first row of code ``c``; or
    None when the ids do not pack (longer than 32 bytes, or two ids mixed into one integer)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(array)
    if n == 0 or array.null_count:
        return None
    if not (pa.types.is_string(array.type) or pa.types.is_large_string(array.type)):
        return None
    words, size = _words(array)
    if words is None:
        return None
    key = words[0].copy()
    # ids of at most 8 bytes: the bytes, with the length in the (then empty) top byte, are the
    # id itself; exact unless an 8-byte id ends with a byte below 8 (then mixed and checked)
    exact = len(words) == 1 and not np.any((size == 8) & (key >> np.uint64(56) < 8))
    with np.errstate(over="ignore"):
        if exact:
            key |= np.where(size < 8, size, 0).astype(np.uint64) << np.uint64(56)
        else:
            for word in words[1:]:
                key *= _MIX
                key += word
            key ^= size.astype(np.uint64) * _LENGTH_MIX
        key *= _MIX  # a bijection that spreads the bits: hashed faster
    codes = pc.dictionary_encode(pa.array(key.view(np.int64))).indices.to_numpy()
    codes = codes.astype(np.int64, copy=False)
    n_codes = int(codes.max()) + 1
    first = np.empty(n_codes, dtype=np.int64)
    first[codes[::-1]] = np.arange(n - 1, -1, -1)
    same = first[codes]
    if not exact and not (
        all(np.array_equal(word[same], word) for word in words) and np.array_equal(size[same], size)
    ):
        return None  # two ids mixed into one integer: hash the strings instead
    return codes, first


_BYTES_MASK = np.array([(1 << (8 * c)) - 1 for c in range(8)] + [2**64 - 1], dtype=np.uint64)


def _words(array: Any) -> tuple[list[np.ndarray] | None, np.ndarray]:
    """The UTF-8 bytes of each id of a pyarrow (large) string array as 8-byte little-endian words,
    padded with zeros to the longest id (at most ``_MAX_WIDTH`` bytes, else None), and the byte
    length of each id; read from arrow's buffers, each word one unaligned load."""
    import pyarrow as pa

    n = len(array)
    kind = np.int64 if pa.types.is_large_string(array.type) else np.int32
    offsets = np.frombuffer(array.buffers()[1], dtype=kind, count=array.offset + n + 1)
    offsets = offsets[array.offset :]
    start, end = int(offsets[0]), int(offsets[n])
    size = np.diff(offsets)
    width = max(8, -(-int(size.max()) // 8) * 8)
    if width > _MAX_WIDTH:
        return None, size
    data = np.zeros(end - start + width + 8, dtype=np.uint8)
    if end > start:
        data[: end - start] = np.frombuffer(
            array.buffers()[2], dtype=np.uint8, count=end - start, offset=start
        )
    unaligned = np.ndarray((data.size - 7,), dtype="<u8", buffer=data, strides=(1,))
    row_start = (offsets[:n] - start).astype(np.intp)
    words = []
    for column in range(width // 8):
        word = unaligned[row_start + 8 * column]
        word &= _BYTES_MASK[np.clip(size - 8 * column, 0, 8)]  # bytes of the next id: zeros
        words.append(word)
    return words, size


def match_pairs(run_key: np.ndarray, qrels_key: np.ndarray) -> tuple[np.ndarray, bool, bool] | None:
    """For each run row, the qrels row with the same key (-1 if none), and whether some key is
    repeated in the run, and in the qrels. Keys are non-negative integers (query * n_docs +
    doc). One sort of ``key, side, row`` packed in an integer; None when they do not fit."""
    n_run, n_qrels = run_key.size, qrels_key.size
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
    key = packed >> shift
    side = (packed >> row_bits) & 1
    row = packed & ((1 << row_bits) - 1)
    same = key[1:] == key[:-1]
    same_side = same & (side[1:] == side[:-1])
    run_repeated = bool(np.any(same_side & (side[1:] == 1)))
    qrels_repeated = bool(np.any(same_side & (side[1:] == 0)))
    found = np.full(n_run, -1, dtype=np.int64)
    judged = np.flatnonzero(same & (side[1:] == 1) & (side[:-1] == 0))
    found[row[judged + 1]] = row[judged]
    return found, run_repeated, qrels_repeated


def numbers_array(values: list) -> np.ndarray | None:
    """``values`` as floats when pyarrow reads them all as ints or floats (no bool, no None),
    else None; one pass, faster than checking each value's type."""
    import pyarrow as pa

    try:
        array = pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError, TypeError, ValueError):
        return None
    kind = array.type
    if array.null_count or not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
        return None
    return array.to_numpy(zero_copy_only=False).astype(float, copy=False)


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
