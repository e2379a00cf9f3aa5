"""Runs and qrels, whatever their form, as integer codes: each id hashed once.

A run or qrels given as a DataFrame (ids as strings, categoricals or pyarrow strings), a nested
dict or a file is first read and checked by :func:`halves` into a :class:`Half`: query codes,
doc ids as pyarrow strings, one score or grade per row (what :mod:`.pairs` needs). For the
numbered path, :func:`sides` numbers the doc ids of the run and the qrels together, in one pass
(:mod:`.ids`, :func:`coursekit.engine.string_codes`), into a :class:`Side`; :func:`encode`
then restricts both sides to the evaluated queries (sorted), with one doc code per distinct
doc id of run and qrels together.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from typing import Any

import numpy as np
import pandas as pd

from ..engine import codes_in_byte_order, first_repeated_pair, string_codes
from ..trec import (
    check_columns,
    check_grades,
    column_numbers,
    id_text,
    not_text,
    read_qrels,
    read_run,
)
from ..validation import fits_a_float
from .fastcodes import numbers_array, strings_array
from .ids import DocsLater, arrow_strings, doc_strings, is_arrow, query_codes, text_index

_NUMBER_TYPES = (int, float, np.integer, np.floating)


@dataclass(frozen=True)
class Side:
    """A run or qrels as codes: row i is (queries[query[i]], docs[doc[i]], value[i])."""

    query: np.ndarray
    queries: pd.Index  #: the distinct query ids present (a query with no row too, for dicts)
    doc: np.ndarray
    docs: pd.Index
    value: np.ndarray  #: score or grade, float64
    what: str  #: "run" or "qrels"
    distinct: bool = False  #: pairs known distinct (dict keys): no duplicate check needed


@dataclass(frozen=True)
class Encoded:
    """Run and qrels on shared codes, restricted to the evaluated queries (``queries``)."""

    queries: list[str]
    run_query: np.ndarray
    run_doc: np.ndarray
    scores: np.ndarray
    qrels_query: np.ndarray
    qrels_doc: np.ndarray
    grades: np.ndarray
    docs: pd.Index  #: every doc id of run and qrels; doc codes index it
    run_complete: bool = True  #: every row of the run is kept (all its queries are evaluated)
    run_distinct: bool = False  #: the run's pairs cannot repeat (a nested dict's keys)


@dataclass(frozen=True)
class Task:
    """What :func:`coursekit.evaluate` asks of every matcher (:mod:`.matchers`)."""

    queries: list[str]  #: the evaluated queries, sorted (:func:`evaluated_queries`)
    missing_as_zero: bool
    score_precision: str  #: "float64" or "float32"
    with_docs: bool  #: some measure needs each row's doc code (Bpref, infAP)


@dataclass(frozen=True)
class Half:
    """A side whose doc ids have no codes yet: ``strings[rows[i]]`` (or ``strings[i]``).

    Given as a nested dict (``nested``), its doc ids are read into ``strings`` only when first
    needed: :mod:`.nested` looks the judgments up in the dicts themselves, once it knows
    (:attr:`distinct`) that they are all ``str``."""

    query: np.ndarray
    queries: pd.Index
    given: Any  #: pyarrow string array without nulls; None for a nested dict
    rows: np.ndarray | None
    value: np.ndarray
    what: str
    keys: bool = False  #: a nested dict whose query ids are distinct as strings
    nested: Mapping | None = None  #: the dict given

    @cached_property
    def strings(self) -> Any:
        """The doc ids, a pyarrow string array without nulls (other ids as text: ``id_text``)."""
        if self.given is not None or self.nested is None:
            return self.given
        strings, all_str = _nested_strings(self.nested)
        self.__dict__["all_str"] = all_str  # (known now: no need to look at them again)
        return strings

    @cached_property
    def all_str(self) -> bool:
        """Whether every doc id of a nested dict is a ``str`` (7 and "7" are then not one id
        twice); read with the strings when they are read first."""
        return self.nested is not None and _all_str(self.nested.values())

    @property
    def distinct(self) -> bool:
        """Whether no (query, doc id) pair can repeat: a nested dict's keys, all ``str``."""
        return self.keys and self.all_str

    def doc_id(self, i: int) -> str:
        return self.strings[i if self.rows is None else int(self.rows[i])].as_py()


def halves(run: Any, qrels: Any) -> tuple[Half, Half]:
    """The run and the qrels read and checked (scores, grades), their doc ids still strings:
    the qrels first, so that their errors come first."""
    judged = _qrels_half(qrels)
    return _run_half(run), judged


def sides(run: Half, qrels: Half, in_byte_order: bool = False) -> tuple[Side, Side]:
    """The run and the qrels as codes, the doc codes shared (one ``docs`` for both, each id
    hashed once; ``in_byte_order``: sorted, ``docs`` in byte order); checks the qrels'
    duplicates (the run's are checked with the judgments' look-up: see
    :func:`check_run_pairs`)."""
    run_side, qrels_side = _with_docs([run, qrels], in_byte_order)
    _check_no_duplicates(qrels_side, "judged")
    return run_side, qrels_side


def check_run_pairs(run: Side, repeated: bool | None, complete: bool) -> None:
    """Raise if a document appears twice for one query of ``run``: ``repeated`` says whether
    some pair is repeated among the evaluated rows (None: not known); ``complete``, whether
    those are all the run's rows. Checks again, on all rows, only when needed."""
    if repeated is False and complete:
        return
    _check_no_duplicates(run, "retrieved")


def _run_half(run: Any) -> Half:
    if isinstance(run, (str, os.PathLike)):
        run = read_run(run)
    if isinstance(run, Mapping):
        return _from_nested(run, "score", "the run", "run")
    if isinstance(run, pd.DataFrame):
        return _from_frame(run, "score", "the run", "run")
    raise TypeError(
        "a run must be a path, a DataFrame (query_id, doc_id, score) or a dict "
        f"{{query_id: {{doc_id: score}}}}, got {type(run).__name__}"
    )


def _qrels_half(qrels: Any) -> Half:
    if isinstance(qrels, (str, os.PathLike)):
        qrels = read_qrels(qrels)
    if isinstance(qrels, Mapping):
        half = _from_nested(qrels, "relevance", "qrels", "qrels")
    elif isinstance(qrels, pd.DataFrame):
        half = _from_frame(qrels, "relevance", "the qrels", "qrels")
    else:
        raise TypeError(
            "qrels must be a path, a DataFrame (query_id, doc_id, relevance) or a dict "
            f"{{query_id: {{doc_id: grade}}}}, got {type(qrels).__name__}"
        )
    if half.value.size == 0:
        raise ValueError("the qrels are empty: there is no relevance judgment to evaluate against")
    nested = isinstance(qrels, Mapping)  # (a dict has no rows)

    def place(i: int) -> str:
        query, doc = half.queries[half.query[i]], half.doc_id(i)
        if nested:
            return f"qrels: document {doc!r} for query {query!r}"
        return f"qrels row {i} (query {query!r}, document {doc!r})"

    check_grades(half.value, place)
    return half


def _with_docs(halves: list[Half], in_byte_order: bool) -> list[Side]:
    """Sides with doc codes numbered together: one ``docs`` Index shared by all (in byte
    order: taken when first read, :class:`DocsLater`)."""
    strings = [h.strings for h in halves]
    if in_byte_order:
        codes, (n_ids, ids) = codes_in_byte_order(strings, later=True)
        docs = DocsLater(n_ids, ids)
    else:
        codes, ids = string_codes(strings)
        docs = pd.Index(ids.to_pandas(), dtype="str")
    sides = []
    for h, c in zip(halves, codes, strict=True):
        doc = c if h.rows is None else c[h.rows]
        sides.append(Side(h.query, h.queries, doc, docs, h.value, h.what, h.distinct))
    return sides


def evaluated_queries(run: pd.Index, qrels: pd.Index, missing_as_zero: bool) -> list[str]:
    """The queries to evaluate (sorted): those of both the run and the qrels, or every qrels
    query with ``missing_as_zero``; an error when there is none."""
    qrels_ids = qrels.tolist()  # (iterating an Index of strings is slower)
    queries = sorted(qrels_ids) if missing_as_zero else sorted(set(qrels_ids) & set(run.tolist()))
    if not queries:
        raise ValueError(
            "no query is both in the run and in the qrels: check that their query ids match "
            f"(run: {_preview(run)}; qrels: {_preview(qrels)})"
        )
    return queries


def encode(run: Side, qrels: Side, missing_as_zero: bool) -> Encoded:
    """Both sides on shared codes; the evaluated queries are those of both (sorted), or every
    qrels query with ``missing_as_zero``."""
    queries = evaluated_queries(run.queries, qrels.queries, missing_as_zero)
    index = pd.Index(queries)
    # (codes in 32 bits: a million rows' codes take half the memory)
    run_codes, qrels_codes = (
        _narrow(index.get_indexer(h.queries), len(index)) for h in (run, qrels)
    )
    run_query = run_codes[run.query] if run.query.size else run.query
    qrels_query = qrels_codes[qrels.query]
    run_keep, qrels_keep = run_query >= 0, qrels_query >= 0
    # one code per doc id of run and qrels together (already so when numbered together)
    shared = run.docs is qrels.docs
    in_run = np.arange(len(run.docs)) if shared else _positions(qrels.docs, run.docs)
    new = in_run < 0
    in_run[new] = len(run.docs) + np.arange(int(np.count_nonzero(new)))
    docs = run.docs.append(qrels.docs[new]) if new.any() else run.docs
    return Encoded(
        queries=queries,
        run_query=_kept(run_query, run_keep),
        run_doc=_kept(run.doc, run_keep),
        scores=_kept(run.value, run_keep),
        qrels_query=_kept(qrels_query, qrels_keep),
        qrels_doc=_kept(qrels.doc if shared else in_run[qrels.doc], qrels_keep),
        grades=_kept(qrels.value, qrels_keep),
        docs=docs,
        run_complete=bool(run_keep.all()),
        run_distinct=run.distinct,
    )


def _positions(needles: pd.Index, haystack: pd.Index) -> np.ndarray:
    """Where each of ``needles`` is in ``haystack`` (distinct ids), -1 where absent."""
    if is_arrow(needles.dtype) and is_arrow(haystack.dtype):
        import pyarrow as pa
        import pyarrow.compute as pc

        found = pc.index_in(pa.array(needles.array), value_set=pa.array(haystack.array))
        return found.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
    return haystack.get_indexer(needles)


def _narrow(codes: np.ndarray, n: int) -> np.ndarray:
    """Codes below ``n`` (or -1) as 32-bit integers when they fit; whoever computes with
    them widens them first."""
    return codes.astype(np.int32) if n < 2**31 else codes


def _kept(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    return values if keep.all() else values[keep]


def _preview(ids: pd.Index) -> str:
    return ", ".join(map(repr, list(ids[:3]))) + (" ..." if len(ids) > 3 else "")


def _present(codes: np.ndarray, ids: pd.Index) -> pd.Index:
    """The ids that some row uses (a categorical may have unused categories)."""
    used = np.bincount(codes, minlength=len(ids)) > 0
    return ids if used.all() else ids[used]


def _from_frame(frame: pd.DataFrame, value_name: str, what: str, short: str) -> Half:
    check_columns(frame, ["query_id", "doc_id", value_name], what)
    query, queries = query_codes(frame["query_id"], short, "query id", blocks=True)
    strings, rows = doc_strings(frame["doc_id"], short)
    half = Half(query, queries, strings, rows, np.zeros(0), short)
    kind = "score" if short == "run" else "grade"

    def place(i: int) -> str:
        return f"{short} row {i} (query {queries[query[i]]!r}, document {half.doc_id(i)!r})"

    values = column_numbers(frame[value_name], place, kind)
    if isinstance(frame["query_id"].dtype, pd.CategoricalDtype):
        # queries as the rows use them; codes renumbered only if some category is unused
        present = _present(query, queries)
        if len(present) < len(queries):
            query, queries = present.get_indexer(queries)[query], present
    return Half(query, queries, strings, rows, values, short)


def _from_nested(nested: Mapping, value_name: str, what: str, short: str) -> Half:
    rankings = list(nested.values())
    for qid, docs_of_query in zip(nested, rankings, strict=True):
        if not isinstance(docs_of_query, Mapping):
            raise TypeError(
                f"{what} as a dict must map each query id to a dict {{doc_id: {value_name}}}; "
                f"query {qid!r} maps to {type(docs_of_query).__name__}"
            )
    values = list(chain.from_iterable(r.values() for r in rankings))
    array = numbers_array(values)
    if array is None:  # not only ints and floats (or empty): checked one by one
        _check_numbers(nested, values, value_name, what)
        try:
            array = np.array(values, dtype=float) if values else np.zeros(0)
        except OverflowError:  # an int beyond any float (10**400)
            _raise_for_value(nested, value_name, what, lambda v: not fits_a_float(v), "")
    if not np.all(np.isfinite(array)):
        _raise_for_value(nested, value_name, what, lambda v: not math.isfinite(v), "")
    lengths = np.fromiter(map(len, rankings), dtype=np.int64, count=len(rankings))
    query_ids = text_index([id_text(q, f"{short} query id") for q in nested])
    query = np.repeat(np.arange(len(query_ids)), lengths)
    keys = query_ids.is_unique  # dict keys, unchanged (doc ids read when first needed)
    if not query_ids.is_unique:  # ids such as 7 and "7" become one string
        merged, query_ids = pd.factorize(query_ids)
        query, query_ids = merged[query], pd.Index(query_ids)
    if short == "qrels":  # a qrels query without judgments is not a qrels query
        present = _present(query, query_ids)
        if len(present) < len(query_ids):
            query, query_ids = present.get_indexer(query_ids)[query], present
    return Half(query, query_ids, None, None, array, short, keys, nested)


def _all_str(rankings: Iterable[Mapping]) -> bool:
    """Whether every key of every dict is a ``str`` (``str.join`` checks it in one pass); a
    ``str`` that UTF-8 cannot encode (a lone surrogate) is refused, as in every other form
    (checked only for text that is not all ASCII, which Python knows without reading it)."""
    try:
        for docs_of_query in rankings:
            joined = "".join(docs_of_query)
            if not joined.isascii():
                joined.encode("utf-8")
    except TypeError:
        return False
    except UnicodeEncodeError as error:
        raise not_text(error) from None
    return True


def _nested_strings(nested: Mapping) -> tuple[Any, bool]:
    """The doc ids of a nested dict as one pyarrow array, and whether they were all ``str``
    (else each id is read as text, :func:`coursekit.trec.id_text`: 7 and "7" become one
    id)."""
    doc_ids = list(chain.from_iterable(nested.values()))
    strings = strings_array(doc_ids)  # (a string array only when every id is a str)
    if strings is not None:
        return strings, True
    return arrow_strings([id_text(d, "doc id") for d in doc_ids]), False


def _check_numbers(nested: Mapping, values: list, value_name: str, what: str) -> None:
    types = set(map(type, values))
    if not all(issubclass(t, _NUMBER_TYPES) and not issubclass(t, (bool, np.bool_)) for t in types):
        _raise_for_value(nested, value_name, what, lambda v: not _is_number(v), "must be a number")


def _is_number(value: Any) -> bool:
    return isinstance(value, _NUMBER_TYPES) and not isinstance(value, (bool, np.bool_))


def _raise_for_value(nested: Mapping, value_name: str, what: str, bad, message: str) -> None:
    """Find the first bad value of a nested dict and say where it is."""
    for qid, docs_of_query in nested.items():
        for doc, value in docs_of_query.items():
            if bad(value):
                if message:
                    raise TypeError(
                        f"{what}: the {value_name} of document {doc!r} for query {qid!r} "
                        f"{message}, got {value!r}"
                    )
                finite = "not a finite number" if fits_a_float(value) else "too large"
                raise ValueError(
                    f"{what}: the {value_name} of document {doc!r} for query {qid!r} is "
                    f"{value!r}, {finite}"
                )


def _check_no_duplicates(side: Side, verb: str) -> None:
    """Raise if a document appears twice for one query (on integer keys: one sort)."""
    if side.doc.size < 2 or side.distinct:
        return
    i = first_repeated_pair(side.query, side.doc, len(side.docs))
    if i is None:
        return
    raise ValueError(
        f"{side.what} row {i}: document {side.docs[side.doc[i]]!r} is {verb} twice for query "
        f"{side.queries[side.query[i]]!r}"
    )
