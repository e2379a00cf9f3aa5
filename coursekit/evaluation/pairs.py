"""The judgments' look-up without numbering the doc ids, for :func:`coursekit.evaluate`.

Numbering a million doc ids (a hash table of their strings, or of integers packed from them)
costs a third of an evaluation when they are few (a hundred thousand distinct ids), and far
more when they are many (each query retrieving its own passages of a large collection): then
the numbered path is 1.3 to 2 times slower than this one, which does not number them. When no
two scores of a query tie (so that no tie is broken by doc id) and no measure needs doc codes,
numbering is not needed: the rows are ranked on their query codes and scores alone
(:func:`ranked_run`), and each row's (query, doc id) pair is hashed to a 64-bit integer. With
few doc ids (:func:`few_doc_ids`) the run is numbered all the same: its pairs of codes are
then looked up by direct addressing, :mod:`coursekit.engine.addressing`, up to an eighth faster
than hashing every row; and so is a run of more than a million rows, whatever its doc ids.
Equal pairs have equal hashes; the hashes of run and qrels are then matched either by one sort
of ``hash, side, row`` packed in one integer (a judged retrieved document comes right after
its judgment), or, for a mid-sized run (:func:`coursekit.engine.use_hash_tables`), with two
hash tables (pandas'), which also say whether a hash is repeated within a side.

The hash can be shared by different pairs. Nothing is taken on trust: every match is checked on
the ids themselves (query, the id's bytes and length); two rows of one side that share a hash
are checked too (the same pair twice is an error, which :mod:`.encode`'s path then reports with
its row), or, with hash tables, handed to that path; so is the rare hash shared by three rows
or more. Each check gives the same answer as the numbered path, which the tests compare it with.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..engine import id_words, in_trec_order, ties_to_break, untied_order, use_hash_tables
from ..registry import Rankings
from .encode import Half, Task

__all__ = ["hashed_rankings", "ranked_run", "RankedRun", "at_precision"]

_MIX = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplication by it is a bijection mod 2**64
_TAG_MIX = np.uint64(0xC2B2AE3D27D4EB4F)
_MAX_HASH_BITS = 64  # fewer in tests, to make pairs share hashes


def at_precision(scores: np.ndarray, score_precision: str) -> np.ndarray:
    """The scores as compared: as given ("float64"), or rounded to 32-bit floats ("float32")."""
    if score_precision == "float32":
        return scores.astype(np.float32).astype(np.float64)
    return scores


def hashed_rankings(run: Half, qrels: Half, task: Task) -> Rankings | None:
    """Every evaluated query's ranking with the grade of each retrieved document (a matcher:
    :mod:`.matchers`); None when this path does not apply (a measure needs doc codes, two
    scores of a query tie, an id is longer than 32 bytes, or two rows of one side share a
    hash), or when the numbered path is faster: when the run's doc ids are few
    (:func:`few_doc_ids`), numbering them is cheap; when it has more than
    :data:`HASHED_ROWS` rows, hashing and matching every row costs more than numbering (10
    million rows, a million doc ids: 3.3 s against 1.1 s).

    Wins (``bench_evaluate.py --pool 1000000``, 2026-11-27, against the numbered matcher):
    (a) categorical ids 0.39x pytrec_eval against 0.70x, (a) pandas' ``str`` ids 0.43x
    against 0.71x; its look-up by hash tables rather than one sort (a million run rows:
    :func:`coursekit.engine.use_hash_tables`), 0.39x against 0.49x there."""
    if task.with_docs or run.value.size > HASHED_ROWS or few_doc_ids(run):
        return None
    ranked = ranked_run(run, qrels, task)
    if ranked is None:
        return None
    ids = _Ids.of(run, qrels, ranked.run_query, ranked.qrels_query, len(ranked.queries))
    if ids is None:
        return None
    matched = _look_up(ids)
    if matched is None:
        return None
    run_row, qrels_row = matched
    grade = np.zeros(run.value.size)  # 0 when unjudged
    grade[run_row] = qrels.value[qrels_row]
    return ranked.rankings(grade, qrels)


FEW_DOC_IDS = 1 << 17  #: at most this many distinct doc ids in a run: the numbered path
HASHED_ROWS = 1 << 20  #: more rows in a run: the numbered path (measured at 1M and 10M)
_SAMPLE = 1 << 13


def few_doc_ids(run: Half, most: int | None = None) -> bool:
    """Whether the run has at most ``most`` (:data:`FEW_DOC_IDS`) distinct doc ids, as
    counted (the categories of a categorical) or estimated from a sample of its rows.

    Numbering doc ids costs little when they are few (their hash table fits the processor's
    cache) and then makes the look-up a direct addressing, faster than hashing pairs; with
    many (as when each query retrieves its own passages of a large collection) it costs far
    more. Measured for a million rows in order (``benchmarks/README.md``): the numbered path
    is 12% faster with 100,000 distinct doc ids, 8% slower with 150,000, and 1.3 to 2 times
    slower from 300,000 on (unsorted: even, even, 1.3 to 1.5 times slower). The estimate:
    ``s`` rows taken across the run show about ``d * (1 - exp(-s / d))`` distinct ids when
    ``d`` ids are equally likely, a number that grows with ``d``; so at most
    :data:`FEW_DOC_IDS` ids, when they show at most as many as that many ids would.

    >>> import pyarrow as pa
    >>> def run_of(doc_ids):
    ...     return Half(np.zeros(0), None, pa.array(doc_ids), None, np.zeros(0), "run")
    >>> few_doc_ids(run_of([f"d{i % 5000}" for i in range(200_000)]))
    True
    >>> few_doc_ids(run_of([f"d{i}" for i in range(200_000)]))
    False
    """
    import pyarrow.compute as pc

    most = FEW_DOC_IDS if most is None else most
    if run.rows is not None:  # a categorical: its categories (the ids of shared objects)
        return len(run.strings) <= most
    n_rows = len(run.strings)
    if n_rows <= most:  # (at most one id a row)
        return True
    if n_rows <= 4 * _SAMPLE:  # few rows (but more than the ids counted as few): counted
        return pc.count_distinct(run.strings).as_py() <= most
    taken = np.linspace(0, n_rows - 1, _SAMPLE).astype(np.int64)  # across the rows
    shown = pc.count_distinct(run.strings.take(taken)).as_py()
    return most > 0 and shown <= most * -math.expm1(-_SAMPLE / most)


@dataclass(frozen=True)
class RankedRun:
    """The run's rows of the evaluated queries, ranked on query codes and scores alone."""

    queries: list[str]  #: the evaluated queries (sorted); codes index them
    run_query: np.ndarray  #: each run row's code, -1 when its query is not evaluated
    keep: np.ndarray | None  #: the run rows evaluated (None: all)
    query: np.ndarray  #: the code of each kept row, as given
    scores: np.ndarray  #: the score of each kept row, as compared
    order: np.ndarray | None  #: the kept rows in rank order (None: as given)
    qrels_query: np.ndarray  #: each qrels row's code, -1 when its query is not evaluated

    def rankings(self, grade: np.ndarray, qrels: Half) -> Rankings:
        """The rankings, given the grade of each run row (as given; 0 when unjudged)."""
        query = self.query
        if self.keep is not None:
            grade = grade[self.keep]
        if self.order is not None:  # queries in code order: each code's rows together
            counts = np.bincount(query, minlength=len(self.queries))
            query, grade = np.repeat(np.arange(len(self.queries)), counts), grade[self.order]
        qrels_keep = self.qrels_query >= 0
        judged = bool(qrels_keep.all())
        return Rankings(
            query=query,
            grade=grade,
            n_queries=len(self.queries),
            judged_query=self.qrels_query if judged else self.qrels_query[qrels_keep],
            judged_grade=qrels.value if judged else qrels.value[qrels_keep],
        )


def ranked_run(run: Half, qrels: Half, task: Task) -> RankedRun | None:
    """The evaluated rows of the run ranked (unless already in trec_eval's order); None when
    two scores of a query tie (their order needs the doc ids). Computed once for a run, qrels
    and task (:mod:`.nested`'s path and this one both ask)."""
    known = run.__dict__.get("_ranked")  # (qrels, task, ranked)
    if known is not None and known[0] is qrels and known[1] == task:
        return known[2]
    ranked = _ranked_run(run, qrels, task.queries, task.score_precision)
    run.__dict__["_ranked"] = (qrels, task, ranked)
    return ranked


def _ranked_run(
    run: Half, qrels: Half, queries: list[str], score_precision: str
) -> RankedRun | None:
    if ties_to_break(run.query, run.value):  # (seen on the rows as given: no code gathered)
        return None
    index = pd.Index(queries)
    run_positions = index.get_indexer(run.queries)
    run_query = run_positions[run.query] if run.query.size else run.query
    keep = None if run_positions.min(initial=0) >= 0 else run_query >= 0
    if keep is not None and keep.all():
        keep = None
    query = run_query if keep is None else run_query[keep]
    scores = at_precision(run.value if keep is None else run.value[keep], score_precision)
    order = None  # the rows as they are: already in trec_eval's order
    if not in_trec_order(query, scores):
        order = untied_order(query, scores)  # queries in code order (sorted ids)
        if order is None:
            return None  # ties to break by doc id: the numbered path
    qrels_query = index.get_indexer(qrels.queries)[qrels.query]
    return RankedRun(queries, run_query, keep, query, scores, order, qrels_query)


class _Ids:
    """The identity of every row of the qrels (side 0) and the run (side 1): its doc id's words
    and a tag, ``query * 64 + length`` (the same query, the same code, on both sides)."""

    def __init__(self, tags: list[np.ndarray], words: list[list[np.ndarray]]):
        self.tags, self.words = tags, words

    @classmethod
    def of(cls, run: Half, qrels: Half, run_query, qrels_query, n_evaluated) -> _Ids | None:
        read = id_words([qrels.strings, run.strings])
        if read is None:
            return None
        words, sizes = read
        for i, half in enumerate((qrels, run)):
            if half.rows is not None:  # categorical ids: one row of words per category
                words[i] = [w[half.rows] for w in words[i]]
                sizes[i] = sizes[i][half.rows]
        # a query not evaluated has a code past the evaluated ones, of its side's own (it is
        # not a query of the other side), so that its rows are checked for repeats too
        queries = [
            _or_own(qrels_query, n_evaluated + len(run.queries) + qrels.query),
            _or_own(run_query, n_evaluated + run.query),
        ]
        tags = []
        for query, size in zip(queries, sizes, strict=True):
            tag = query.astype(np.uint64) << np.uint64(6)  # ids are at most 32 bytes long
            tag |= size.astype(np.uint64)
            tags.append(tag)
        return cls(tags, words)

    def hashes(self, side: int) -> np.ndarray:
        """A 64-bit hash of each row's (query, doc id) of one side (0 qrels, 1 run)."""
        words = self.words[side]
        with np.errstate(over="ignore"):
            key = words[0] * _MIX
            for word in words[1:]:
                key += word
                key *= _MIX
            tag = self.tags[side] * _TAG_MIX
            key ^= tag
            key *= _MIX  # the top bits, kept, depend on every bit
        return key

    def same(self, side_a: int, rows_a: np.ndarray, side_b: int, rows_b: np.ndarray) -> np.ndarray:
        """Whether each row of ``rows_a`` (of side a) has the same pair as the row of ``rows_b``."""
        same = self.tags[side_a][rows_a] == self.tags[side_b][rows_b]
        for word_a, word_b in zip(self.words[side_a], self.words[side_b], strict=True):
            same &= word_a[rows_a] == word_b[rows_b]
        return same


def _or_own(evaluated: np.ndarray, own: np.ndarray) -> np.ndarray:
    """``evaluated`` where it is a code (>= 0), else ``own``."""
    return evaluated if evaluated.min(initial=0) >= 0 else np.where(evaluated >= 0, evaluated, own)


def _look_up(ids: _Ids) -> tuple[np.ndarray, np.ndarray] | None:
    """The judged run rows and, for each, the qrels row of the same pair; None when some pair is
    repeated within a side (or, rarely, the hashes cannot tell pairs apart). By hash tables
    for mid-sized sides (:func:`coursekit.engine.use_hash_tables`), else by one sort."""
    if use_hash_tables(ids.tags[1].size):
        return _look_up_hashed(ids)
    return _look_up_sorted(ids)


def _look_up_hashed(ids: _Ids) -> tuple[np.ndarray, np.ndarray] | None:
    """The judged run rows and, for each, the qrels row of the same pair; None when two rows of
    one side share a hash (the same pair repeated, which the numbered path reports with its
    row, or, about once in 2**64 / n**2 evaluations, two pairs with one hash)."""
    keys = []
    for side in (0, 1):
        key = ids.hashes(side)
        if _MAX_HASH_BITS < 64:  # tests: short hashes, so that different pairs share them
            key >>= np.uint64(64 - _MAX_HASH_BITS)
        keys.append(key)
    run_index = pd.Index(keys[1], copy=False)
    if not (run_index.is_unique and pd.Index(keys[0], copy=False).is_unique):
        return None
    run_row = run_index.get_indexer(keys[0])  # each qrels row's run row with its hash, or -1
    qrels_row = np.flatnonzero(run_row >= 0)
    run_row = run_row[qrels_row]
    match = ids.same(0, qrels_row, 1, run_row)  # a shared hash is not a shared pair
    return run_row[match], qrels_row[match]


def _look_up_sorted(ids: _Ids) -> tuple[np.ndarray, np.ndarray] | None:
    """The judged run rows and, for each, the qrels row of the same pair; None when some pair
    is repeated within a side or three rows share a hash."""
    n_qrels, n_run = ids.tags[0].size, ids.tags[1].size
    row_bits = max(int(max(n_run, n_qrels) - 1).bit_length(), 1)
    hash_bits = min(62 - row_bits, _MAX_HASH_BITS)
    if hash_bits < 8:
        return None
    shift = row_bits + 1
    packed = np.empty(n_qrels + n_run, dtype=np.int64)
    rows = np.arange(max(n_qrels, n_run), dtype=np.int64)
    for side, part in ((0, packed[:n_qrels]), (1, packed[n_qrels:])):
        key = ids.hashes(side)  # its own array: worked on in place
        key >>= np.uint64(64 - hash_bits)
        key <<= np.uint64(shift)
        np.bitwise_or(key.view(np.int64), rows[: part.size], out=part)
        if side:
            part |= 1 << row_bits
    packed.sort()  # by hash, the qrels (side 0) before the run, then by row
    key_side = packed >> row_bits  # hash * 2 + side
    step = np.subtract(key_side[1:], key_side[:-1])
    mask = (1 << row_bits) - 1
    near = np.flatnonzero(step <= 1)  # one hash, or one hash * 2 and the next side
    twins = near[step[near] == 0]  # two rows of one side with one hash
    if twins.size:
        side = key_side[twins] & 1
        for s in (0, 1):
            at = twins[side == s]
            if np.any(ids.same(s, packed[at] & mask, s, packed[at + 1] & mask)):
                return None  # a pair repeated: the numbered path says where
        hashed = key_side >> 1
        before, after = twins - 1, twins + 2
        if np.any(hashed[before[before >= 0]] == hashed[twins[before >= 0]]) or np.any(
            hashed[after[after < hashed.size]] == hashed[twins[after < hashed.size]]
        ):
            return None  # three rows or more share a hash: the numbered path
    candidates = near[step[near] == 1]  # a qrels row, then a run row, one hash
    candidates = candidates[(key_side[candidates] & 1) == 0]
    qrels_row, run_row = packed[candidates] & mask, packed[candidates + 1] & mask
    match = ids.same(0, qrels_row, 1, run_row)
    return run_row[match], qrels_row[match]
