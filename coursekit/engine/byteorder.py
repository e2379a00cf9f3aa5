"""String ids numbered in byte order (``strcmp``'s, as trec_eval breaks ties by doc id), from
the words :func:`coursekit.engine.codes.id_words` reads: the bytes that vary among the ids,
two at a time, ranked among the values they take and combined into one key a row, counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .codes import _concat, _offsets, id_words, string_codes
from .counting import stable_order

__all__ = ["codes_in_byte_order", "sorted_codes"]


def codes_in_byte_order(arrays: Sequence[Any], later: bool = False) -> tuple[list[np.ndarray], Any]:
    """:func:`sorted_codes` of pyarrow string arrays, or, where it does not apply (ids over 32
    bytes, nulls: rare), their codes hashed (:func:`coursekit.engine.string_codes`, -1 for a
    missing value) and renumbered in the distinct ids' sorted order.

    >>> import pyarrow as pa
    >>> codes, ids = codes_in_byte_order([pa.array(["b" * 40, "a", None])])
    >>> [c.tolist() for c in codes], [len(i) for i in ids.to_pylist()]
    ([[1, 0, -1]], [1, 40])
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    arrays = [a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a for a in arrays]
    found = sorted_codes(arrays, later)
    if found is not None:
        return found
    codes, ids = string_codes(arrays)
    order = pc.sort_indices(ids).to_numpy()
    rank = np.empty(len(ids) + 1, dtype=np.int64)
    rank[order], rank[-1] = np.arange(len(ids)), -1  # (-1, a missing value, stays -1)
    ids = ids.take(order)
    return [rank[c] for c in codes], ((len(ids), lambda: ids) if later else ids)


def sorted_codes(arrays: Sequence[Any], later: bool = False) -> tuple[list[np.ndarray], Any] | None:
    """Codes of pyarrow string arrays without nulls, numbered together in byte order (code 0
    the smallest id, as ``strcmp`` orders them), and the distinct ids in that order (a
    pyarrow array; with ``later``, ``(n, ids)``: their number and a function that takes them,
    a third of the numbering's time, which a caller that only counts them then saves); None
    for ids over 32 bytes. Counted (:func:`_ranked`), where :func:`string_codes` hashes them
    and trec_eval's tie-break then sorts the ids hashed: a million distinct ids (a large
    collection) are hashed slowly, their table much larger than the processor's cache.

    Wins (``bench_evaluate.py --pool 1000000``, 2026-11-28, against hashing then sorting the
    ids, in turn in one process, load 3.4-5.8): (c) heavy ties, categorical 0.52x pytrec_eval
    against 0.70x, object string ids 0.55x against 0.93x. Issue 38 (2026-11-28, load 0.7-1.4),
    its two bytes at a time and ``later``: the numbering 35-39 ms against 98-108 ms; with the
    look-up's blocks of 3 queries (:mod:`.addressing`), (c) heavy ties, object string ids
    0.46x against 0.65-0.69x, nested dicts 0.49-0.51x against 0.66-0.73x, categorical 0.27x
    against 0.39-0.40x.

    >>> import pyarrow as pa
    >>> codes, ids = sorted_codes([pa.array(["b", "a", "b"]), pa.array(["a\\x00", "a"])])
    >>> [c.tolist() for c in codes], ids.to_pylist()
    ([[2, 0, 2], [1, 0]], ['a', 'a\\x00', 'b'])
    """
    arrays = list(arrays)
    ranked = _ranked(arrays)
    if ranked is None:
        return None
    codes, n_ids = ranked

    def ids() -> Any:  # a row of each code (the last: any will do), its id taken
        first = np.empty(n_ids, dtype=np.int64)
        first[codes] = np.arange(codes.size)
        return _concat(arrays).take(first)

    lengths = np.cumsum([0] + [len(a) for a in arrays])
    parts = [codes[lengths[i] : lengths[i + 1]] for i in range(len(arrays))]
    return parts, ((n_ids, ids) if later else ids())


def _ranked(arrays: list[Any]) -> tuple[np.ndarray, int] | None:
    """``(codes, n)``: each row's id numbered in byte order (its rank among the ``n`` distinct
    ids), for the rows of the arrays as if concatenated; None for ids over 32 bytes or with
    nulls. The ids' bytes that vary, read in place from the words (no shift) and taken two at
    a time (:func:`_pairs`), make an integer key in byte order: with at most
    :data:`_COUNTED` possible keys (a million ids of ``bench_evaluate.py --pool 1000000``,
    "doc123456": 121**3), each key's rank is counted, no sort; else the rows are sorted by
    counting, 16 bits at a time, and ranked; the length too, when some id holds a NUL byte.

    Wins (2026-11-28, 1.25 million rows of ``--pool 1000000``'s (c) heavy ties, 650,000
    distinct ids, in turn in one process, load 0.7-2.5): 36-40 ms against 72-75 ms one byte
    at a time, each read by a shift of the byte-swapped words and counted by ``bincount``
    (the cases: :func:`sorted_codes`)."""
    n = sum(len(a) for a in arrays)
    read = id_words(arrays, joined=True) if n else None
    if read is None:
        return None
    (words,), (size,) = read
    places = []  # each byte that varies, in the ids' order: a strided view of the words
    for word in words:  # (little-endian: the k-th byte in memory of word c is byte 8c + k)
        varying, as_bytes = int(np.bitwise_or.reduce(word ^ word[0])), word.view(np.uint8)
        places += [as_bytes[k::8] for k in range(8) if (varying >> (8 * k)) & 0xFF]
    if any(_has_nul(a) for a in arrays):  # ("a" and "a\0": the same words)
        places.append(size.astype(np.uint8))
    pairs = _pairs(places)
    digits = _digits(pairs, max(_COUNTED, 2 * n))
    kind = np.int32 if n < 2**31 else np.int64
    if len(digits) < 2:  # one key a row, counted
        key, n_keys = digits[0] if digits else (np.zeros(n, dtype=np.intp), 1)
        used = np.zeros(n_keys, dtype=bool)
        used[key] = True  # (a byte a key, not bincount's 8: 6 ms against 11 for 1.77M keys)
        rank = np.cumsum(used, dtype=kind)
        rank -= 1
        return np.take(rank, key), int(rank[-1]) + 1
    digits = _digits(pairs, 1 << 16)
    *more, (least, n_keys) = digits
    order = stable_order(least, n_keys)
    for digit, n_keys in reversed(more):
        order = order[stable_order(digit[order], n_keys)]
    new = np.zeros(n, dtype=bool)
    new[0] = True
    for digit, _ in digits:
        ordered = digit[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    codes = np.empty(n, dtype=kind)
    codes[order] = rank = np.cumsum(new) - 1
    return codes, int(rank[-1]) + 1


_COUNTED = 1 << 22  #: at most this many possible keys (or twice the rows): counted, not sorted


def _pairs(places: list[np.ndarray]) -> list[tuple[np.ndarray, int]]:
    """Bytes (most significant first) taken two at a time as 16-bit values (the last alone,
    when odd), each as its rank among the values it takes: ``(rank, n)``, every rank in
    ``range(n)``. Ids of a collection share most bytes ("doc" in every "doc123456", skipped
    by the caller) and take few values in the others (ten digits and the padding: 121 pairs,
    not 65,536).

    >>> [(r.tolist(), n) for r, n in _pairs([np.array([1, 3, 1], np.uint8)] * 3)]
    [([0, 1, 0], 2), ([0, 1, 0], 2)]
    """
    pairs = []
    for i in range(0, len(places), 2):
        value, n_values = places[i], 256
        if i + 1 < len(places):
            value, n_values = value.astype(np.uint16), 1 << 16
            value <<= 8
            value |= places[i + 1]
        rank = np.cumsum(np.bincount(value, minlength=n_values) > 0, dtype=np.int32)
        rank -= 1
        pairs.append((np.take(rank, value), int(rank[-1]) + 1))
    return pairs


def _digits(places: list[tuple[np.ndarray, int]], most: int) -> list[tuple[np.ndarray, int]]:
    """Neighbouring places combined, most significant first, into digits ``(digit, n)`` of at
    most ``most`` values each (``n``, every digit in ``range(n)``): equal where, and only
    where, the places are, and in the same order.

    >>> [(d.tolist(), n) for d, n in _digits([(np.array([0, 2]), 3), (np.array([1, 0]), 2)], 6)]
    [([1, 4], 6)]
    """
    digits: list[tuple[np.ndarray, int]] = []
    for rank, k in places:
        if digits and digits[-1][1] * k <= most:
            digit, n = digits[-1]
            digit *= k
            digit += rank
            digits[-1] = (digit, n * k)
        else:
            digits.append((rank.astype(np.intp), k))
    return digits


def _has_nul(array: Any) -> bool:
    """Whether some id holds a NUL byte (one pass over the bytes, not over the ids)."""
    offsets = _offsets(array)
    data, start = array.buffers()[2], int(offsets[0])
    if data is None or int(offsets[-1]) == start:
        return False
    return not np.frombuffer(data, np.uint8, int(offsets[-1]) - start, start).all()
