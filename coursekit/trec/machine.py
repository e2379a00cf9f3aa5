"""What this machine does faster: sort 64-bit integers, or put them in a hash table.

numpy sorts 64-bit integers with x86-simd-sort where the processor has AVX-512 or AVX2; on
most processors that is several times faster than a hash table of the same integers (pandas'),
but on AMD's Zen 4 the AVX-512 instruction it relies on (a compress-store to memory) is
microcoded, and the sort is then about as slow as the hash table, or slower, on arrays of up to
a million keys: for a million random integers, 52-69 ms (15 ms with AVX2 on the same
processor) against 30-49 ms for pandas' hash table. A hash table's cost a key then grows with
its size, once it no longer fits the processor's cache: on the same processor, 40 ns a key at
half a million, 90 at two million, 135 at ten million, where the sort's stays at 48-69 ns.
Where both give the same answer (finding equal keys), :func:`use_hash_tables` says which to
use: hash tables only for 262,144 to 1,048,576 keys, and only where they were measured (once a
process, on a small sample) at least twice as fast as the sort. The answer only changes the
speed.
"""

from __future__ import annotations

import time
from functools import cache

import numpy as np

__all__ = ["use_hash_tables", "hashing_beats_sorting"]

LARGE = 1 << 18  #: below this many keys, sorting is cheap anyway: no measurement
LIMIT = 1 << 20  #: above, a hash table no longer fits the cache, and the sort scales better
_SAMPLE = 1 << 15


def use_hash_tables(n_keys: int) -> bool:
    """Whether to find equal keys among ``n_keys`` 64-bit integers with a hash table rather
    than a sort, on this machine."""
    return LARGE <= n_keys <= LIMIT and hashing_beats_sorting()


@cache
def hashing_beats_sorting() -> bool:
    """Whether a hash table of distinct 64-bit integers (pandas' ``Index.is_unique``) is built
    at least twice as fast as numpy sorts them, on this machine (best of three runs each,
    32,768 keys). Twice: this sample fits the processor's cache, and a hash table slows down
    more than a sort once it does not (at a million keys, it costs about twice as much per key
    as here, relative to the sort)."""
    import pandas as pd

    keys = np.random.default_rng(0).integers(0, 2**62, _SAMPLE)
    hashing = _best(lambda: pd.Index(keys, copy=False).is_unique)
    return 2 * hashing < _best(lambda: np.sort(keys))


def _best(work) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)
