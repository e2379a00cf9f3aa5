"""Integer work instead of string hashing and hash-table look-ups, for :mod:`.encode`.

* :func:`packed_codes`: the codes of a pyarrow string array, each id read as its bytes (padded
  with NULs to 8, 16, 24 or 32 bytes) and its length, mixed into one 64-bit integer; integers
  are hashed several times faster than strings. The mixing is checked exact afterwards (every
  row equals, word by word and in length, the first row of its code); when it is not, or an id
  is longer than 32 bytes, the caller hashes the strings instead.
* :func:`match_pairs`: for each (query, doc) pair of the run, the qrels row judging it, and
  whether a pair is repeated in the run or in the qrels, with one sort of packed integers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["packed_codes", "match_pairs"]

_MAX_WIDTH = 32
_MIX = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplication by it is a bijection mod 2**64
_LENGTH_MIX = np.uint64(0xC2B2AE3D27D4EB4F)


def packed_codes(array: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """``(codes, first)`` of a pyarrow string array without nulls: ``codes[i]`` numbers the
    distinct ids in order of first appearance, ``first[c]`` is the first row of code ``c``; or
    None when the ids do not pack (longer than 32 bytes, or non-ASCII beyond the width)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(array)
    if n == 0 or array.null_count:
        return None
    lengths = pc.binary_length(array)
    longest = pc.max(lengths).as_py()
    width = max(8, -(-longest // 8) * 8)
    if width > _MAX_WIDTH:
        return None
    padded = pc.utf8_rpad(array, width=width, padding="\x00")  # code points, not bytes
    if pa.types.is_large_string(padded.type):
        offsets = np.frombuffer(padded.buffers()[1], dtype=np.int64, count=n + 1)
    else:
        offsets = np.frombuffer(padded.buffers()[1], dtype=np.int32, count=n + 1)
    offsets = offsets[padded.offset :]
    start, end = int(offsets[0]), int(offsets[n])
    if end - start != n * width:  # a non-ASCII id took more than ``width`` bytes
        return None
    words = np.frombuffer(padded.buffers()[2], dtype=np.uint64, count=n * width // 8, offset=start)
    words = words.reshape(n, width // 8)
    size = lengths.to_numpy(zero_copy_only=False).astype(np.uint64)
    with np.errstate(over="ignore"):
        key = words[:, 0].copy()
        for column in range(1, width // 8):
            key *= _MIX
            key += words[:, column]
        key ^= size * _LENGTH_MIX
    codes = pc.dictionary_encode(pa.array(key.view(np.int64))).indices.to_numpy()
    codes = codes.astype(np.int64, copy=False)
    n_codes = int(codes.max()) + 1
    first = np.empty(n_codes, dtype=np.int64)
    first[codes[::-1]] = np.arange(n - 1, -1, -1)
    same = first[codes]
    if not (np.array_equal(words[same], words) and np.array_equal(size[same], size)):
        return None  # two ids mixed into one integer: hash the strings instead
    return codes, first


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
