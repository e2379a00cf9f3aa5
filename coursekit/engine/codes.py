"""String ids as integer codes with little hashing: shared by the readers and ``evaluate``.

* :func:`packed_codes`: the codes of pyarrow string arrays, each id read as its bytes (padded
  with NUL bytes to 8, 16, 24 or 32 bytes by arrow, then read as words) and its length, put in
  one 64-bit integer; integers are hashed several times faster than strings. Ids of at most 8
  bytes fit exactly (bytes and length: the distinct ids are read back from the distinct
  integers); longer ones are mixed, and the mixing is checked exact afterwards (every row
  equals, word by word and in length, the first row of its code); when it is not, or an id is
  longer than 32 bytes, the caller hashes the strings instead.
* :func:`id_words`: each id's bytes as those words and its length, for a caller that compares
  ids without numbering them (the hashed pairs of ``evaluate``).
* :func:`string_codes`: codes and distinct ids of pyarrow string arrays (several arrays share
  one numbering), packed when they pack, each block of equal neighbours hashed once when ids
  come in blocks (a run's query ids), else hashed as strings.
* (:func:`coursekit.engine.byteorder.sorted_codes`: codes numbered in ``strcmp``'s order,
  from the same words, counted.)
* :func:`object_addresses`: where each object of an object array lies in memory (rows that
  share a Python string are converted once).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "first_rows",
    "id_words",
    "object_addresses",
    "packed_codes",
    "string_codes",
]

_MAX_WIDTH = 32
_MIX = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplication by it is a bijection mod 2**64
_LENGTH_MIX = np.uint64(0xC2B2AE3D27D4EB4F)
_UNMIX = np.uint64(pow(int(_MIX), -1, 1 << 64))  #: undoes the multiplication by _MIX
_CHUNK = 1 << 20
_TOP_BYTE = 7 if sys.byteorder == "little" else 0  #: where a word's top byte lies in memory


def packed_codes(arrays: Any) -> tuple[np.ndarray, Any] | None:
    """``(codes, ids)`` of a pyarrow string array without nulls (or of several, as if
    concatenated): ``codes[i]`` numbers the distinct ids in order of first appearance, ``ids``
    lists them (a pyarrow string array, ``ids[code]``); or None when the ids do not pack
    (longer than 32 bytes, or two ids mixed into one integer).

    >>> import pyarrow as pa
    >>> codes, ids = packed_codes(pa.array(["b", "a", "b", "é"]))
    >>> codes.tolist(), ids.to_pylist()
    ([0, 1, 0, 2], ['b', 'a', 'é'])
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    arrays = [arrays] if isinstance(arrays, pa.Array) else [a for a in arrays if len(a)]
    n = sum(len(a) for a in arrays)
    if n == 0 or any(a.null_count for a in arrays):
        return None
    if not all(pa.types.is_string(a.type) or pa.types.is_large_string(a.type) for a in arrays):
        return None
    sizes = [_sizes(a) for a in arrays]
    longest = max(int(s.max(initial=0)) for s in sizes)
    width = max(8, -(-longest // 8) * 8)
    if width > _MAX_WIDTH:
        return None
    words = [np.empty(n, dtype=np.uint64) for _ in range(width // 8)]
    at = 0
    for array in arrays:
        if not _words(array, [word[at : at + len(array)] for word in words]):
            return None
        at += len(array)
    size = np.concatenate(sizes) if len(sizes) > 1 else sizes[0]
    # ids of at most 8 bytes: the bytes, with the length in the (then empty) top byte, are the
    # id itself; exact unless an 8-byte id ends with a byte below 8 (then mixed and checked)
    top = words[0].view(np.uint8)[_TOP_BYTE::8]  # each word's top byte, read in place
    exact = len(words) == 1 and not np.any((top < 8) & (size == 8))
    key = words[0] if exact else words[0].copy()  # the words are needed again if not exact
    with np.errstate(over="ignore"):
        if exact:  # the length in the top byte, 0 for 8 (exact: at most 8), written in place
            top |= np.bitwise_and(size, 7, dtype=np.uint8, casting="unsafe")
        else:
            for word in words[1:]:
                key *= _MIX
                key += word
            key ^= size.astype(np.uint64) * _LENGTH_MIX
        key *= _MIX  # a bijection that spreads the bits: hashed faster
    encoded = pc.dictionary_encode(pa.array(key.view(np.int64)))
    codes = encoded.indices.to_numpy()  # (arrow's 32-bit codes: half the memory of 64-bit ones)
    if exact:  # each distinct key is its id: read back, no row needed
        return codes, _unpacked(encoded.dictionary.to_numpy())
    first = first_rows(codes)
    same = first[codes]
    if not (
        all(np.array_equal(word[same], word) for word in words) and np.array_equal(size[same], size)
    ):
        return None  # two ids mixed into one integer: hash the strings instead
    lengths = np.cumsum([0] + [len(a) for a in arrays])
    part = np.searchsorted(lengths, first, side="right") - 1  # first rows: increasing
    ids = [a.take(first[part == i] - lengths[i]) for i, a in enumerate(arrays) if np.any(part == i)]
    return codes, _concat(ids)


def _unpacked(keys: np.ndarray) -> Any:
    """The ids of exact keys (see :func:`packed_codes`), as a pyarrow string array: the mixing
    undone, the length read from the top byte (below 8: the id is shorter, its length), then
    each id's bytes taken from its word."""
    import pyarrow as pa

    with np.errstate(over="ignore"):
        words = keys.view(np.uint64) * _UNMIX
    length = (words >> np.uint64(56)).astype(np.int64)
    short = length < 8
    words[short] &= np.uint64((1 << 56) - 1)  # (the length, not a byte of the id)
    length[~short] = 8
    data = words.astype("<u8").view(np.uint8).reshape(-1, 8)[np.arange(8) < length[:, None]]
    offsets = np.zeros(keys.size + 1, dtype=np.int64)
    np.cumsum(length, out=offsets[1:])
    large = data.size >= 2**31  # (offsets beyond 32 bits)
    offsets = pa.py_buffer(offsets if large else offsets.astype(np.int32))
    kind = pa.large_string() if large else pa.string()
    return pa.Array.from_buffers(kind, keys.size, [None, offsets, pa.py_buffer(data)])


def id_words(
    arrays: Sequence[Any], joined: bool = False
) -> tuple[list[list[np.ndarray]], list[np.ndarray]] | None:
    """Each id of pyarrow string arrays (without nulls) as its UTF-8 bytes in 8-byte words,
    zero-padded to one width for all arrays (8, 16, 24 or 32 bytes), and its byte length:
    ``(words, sizes)``, ``words[a][c][i]`` the ``c``-th word of id ``i`` of array ``a``.
    Two ids are equal if and only if their words and lengths are. None for longer ids.
    ``joined``: the arrays' rows written end to end, as if one array (``a`` is then 0).

    >>> import pyarrow as pa
    >>> (words,), (size,) = id_words([pa.array(["ab", "abc"])])
    >>> [hex(int(w)) for w in words[0]], size.tolist()
    (['0x6261', '0x636261'], [2, 3])
    """
    import pyarrow as pa

    if any(a.null_count for a in arrays) or not all(
        pa.types.is_string(a.type) or pa.types.is_large_string(a.type) for a in arrays
    ):
        return None
    sizes = [_sizes(a) for a in arrays]
    longest = max((int(size.max(initial=0)) for size in sizes), default=0)
    width = max(8, -(-longest // 8) * 8)
    if width > _MAX_WIDTH:
        return None
    n = [len(a) for a in arrays]
    if joined:
        sizes = [np.concatenate(sizes) if len(sizes) > 1 else sizes[0]] if sizes else []
    lengths = [sum(n)] if joined else n
    words = [[np.empty(k, dtype=np.uint64) for _ in range(width // 8)] for k in lengths]
    for i, array in enumerate(arrays):
        at = sum(n[:i]) if joined else 0
        if not _words(array, [w[at : at + n[i]] for w in words[0 if joined else i]]):
            return None
    return words, sizes


def first_rows(codes: np.ndarray) -> np.ndarray:
    """The first row of each code, for codes numbered in order of first appearance (as
    pyarrow's ``dictionary_encode`` numbers them): where a code exceeds every code before it.

    >>> first_rows(np.array([0, 1, 0, 2, 1, 3])).tolist()
    [0, 1, 3, 5]
    """
    if codes.size == 0:
        return np.zeros(0, dtype=np.int64)
    highest = np.maximum.accumulate(codes)
    return np.flatnonzero(np.r_[True, highest[1:] > highest[:-1]])


def _offsets(array: Any) -> np.ndarray:
    """The offsets of the ids in the data buffer (from the array's own offset on)."""
    import pyarrow as pa

    n = len(array)
    kind = np.int64 if pa.types.is_large_string(array.type) else np.int32
    offsets = np.frombuffer(array.buffers()[1], dtype=kind, count=array.offset + n + 1)
    return offsets[array.offset :]


def _sizes(array: Any) -> np.ndarray:
    """The byte length of each id."""
    return np.diff(_offsets(array))


def _words(array: Any, out: list[np.ndarray]) -> bool:
    """The UTF-8 bytes of each id as ``len(out)`` 8-byte little-endian words, padded with
    zeros, written into ``out``: arrow pads every id with NUL bytes to the width
    (``ascii_rpad``, which counts bytes), and the padded ids, end to end, are the words.
    False when some padded id is not the width long (nothing is then promised of ``out``),
    which the callers take as "not packed". A million rows at a time, to bound the copy."""
    import pyarrow.compute as pc

    width = 8 * len(out)
    for start in range(0, len(array), _CHUNK):
        part = array.slice(start, _CHUNK)
        padded = pc.ascii_rpad(part, width=width, padding="\0")
        offsets, n_bytes = _offsets(padded), len(part) * width
        if int(offsets[-1] - offsets[0]) != n_bytes:  # each is at least the width: all are
            return False
        data = padded.buffers()[2]
        data = np.frombuffer(data, dtype=np.uint8, count=n_bytes, offset=int(offsets[0]))
        words = data.view("<u8").reshape(len(part), len(out))
        for column, word in enumerate(out):
            word[start : start + len(part)] = words[:, column]
    return True


def string_codes(arrays: Any, blocks: bool = False) -> tuple[list[np.ndarray], Any]:
    """Codes (-1 for a missing value) of one or several pyarrow string arrays, numbered
    together, and the distinct ids (a pyarrow array; ``ids[code]``).

    With ``blocks``, each run of equal neighbours is hashed once, when there are few such runs
    (a run or qrels lists a query's rows together: one hash a query, not one a row). (In
    byte order: :func:`coursekit.engine.byteorder.codes_in_byte_order`.)

    >>> import pyarrow as pa
    >>> codes, ids = string_codes([pa.array(["b", "a", "b"]), pa.array(["c", "a"])])
    >>> [c.tolist() for c in codes], ids.to_pylist()
    ([[0, 1, 0], [2, 1]], ['b', 'a', 'c'])
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    arrays = [arrays] if isinstance(arrays, (pa.Array, pa.ChunkedArray)) else list(arrays)
    arrays = [a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a for a in arrays]
    if blocks and len(arrays) == 1 and len(arrays[0]) > 1:
        array = arrays[0]
        change = pc.not_equal(array[1:], array[:-1]).fill_null(True)
        starts = np.flatnonzero(np.r_[True, change.to_numpy(zero_copy_only=False)])
        if starts.size < len(array) // 4:
            (codes,), ids = string_codes([array.take(starts)])
            return [np.repeat(codes, np.diff(np.r_[starts, len(array)]))], ids
    lengths = np.cumsum([0] + [len(a) for a in arrays])
    packed = packed_codes(arrays)
    if packed is not None:  # ids as integers: hashed several times faster
        codes, ids = packed
    else:
        encoded = pc.dictionary_encode(_concat(arrays))
        indices = encoded.indices.fill_null(-1) if encoded.indices.null_count else encoded.indices
        codes = indices.to_numpy()  # (arrow's 32-bit codes: half the memory of 64-bit ones)
        ids = encoded.dictionary
    return [codes[lengths[i] : lengths[i + 1]] for i in range(len(arrays))], ids


def _concat(arrays: Sequence[Any]) -> Any:
    import pyarrow as pa

    if len(arrays) == 1:
        return arrays[0]
    if len({a.type for a in arrays}) > 1:
        arrays = [a.cast(pa.large_string()) for a in arrays]
    return pa.concat_arrays(arrays)


def object_addresses(values: np.ndarray) -> np.ndarray:
    """The address of each object of an object array, as integers: two rows with one address
    hold the same object (read while ``values`` lives: the view keeps it alive)."""
    values = np.ascontiguousarray(values)
    return np.frombuffer(memoryview(values).cast("B"), dtype=np.intp)
