"""What this machine does faster: sort 64-bit integers, or put them in a hash table.

numpy sorts 64-bit integers with x86-simd-sort where the processor has AVX-512 or AVX2; on
most processors that is several times faster than a hash table of the same integers (pandas'),
but on AMD's Zen 4 the AVX-512 instruction it relies on (a compress-store to memory) is
microcoded, and the sort is then slower than the hash table: for a million random integers,
52-69 ms (15 ms with AVX2 on the same processor) against 30-45 ms for pandas' hash table.
Where both give the same answer (finding equal keys), :func:`hashing_beats_sorting` says which
to use, measured once a process on a small sample: the answer only changes the speed.
"""

from __future__ import annotations

import time
from functools import cache

import numpy as np

__all__ = ["hashing_beats_sorting", "LARGE"]

LARGE = 1 << 18  #: below this many keys, sorting is cheap anyway: no measurement
_SAMPLE = 1 << 15


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
