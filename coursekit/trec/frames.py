"""Runs and qrels as DataFrames: from nested dicts, checked, with ids as categoricals, sorted."""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..engine import string_ranks, trec_order
from ..validation import fits_a_float
from .columns import (
    QRELS_COLUMNS,
    RUN_COLUMNS,
    as_str,
    check_columns,
    check_text,
    column_numbers,
    first_duplicate,
    id_text,
    ids_as_text,
    integral_grades,
    not_text,
)
from .read import read_qrels, read_run


def _nested_to_frame(nested: Mapping, value_name: str, what: str) -> pd.DataFrame:
    queries, docs, values = [], [], []
    for qid, docs_of_query in nested.items():
        if not isinstance(docs_of_query, Mapping):
            raise TypeError(
                f"{what} as a dict must map each query id to a dict {{doc_id: {value_name}}}; "
                f"query {qid!r} maps to {type(docs_of_query).__name__}"
            )
        query = id_text(qid, "query id")
        for doc, value in docs_of_query.items():
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
                raise TypeError(
                    f"{what}: the {value_name} of document {doc!r} for query {qid!r} must be "
                    f"a number, got {value!r}"
                )
            if not (fits_a_float(value) and math.isfinite(value)):
                why = "not a finite number" if fits_a_float(value) else "too large"
                raise ValueError(
                    f"{what}: the {value_name} of document {doc!r} for query {qid!r} is "
                    f"{value!r}, {why}"
                )
            queries.append(query)
            docs.append(id_text(doc, f"doc id (for query {qid!r})"))
            values.append(float(value))
    try:
        return pd.DataFrame({"query_id": queries, "doc_id": docs, value_name: values})
    except UnicodeEncodeError as error:  # (a lone surrogate: pandas' str is pyarrow's)
        raise not_text(error) from None


_NAMES = {"query_id": "query id", "doc_id": "doc id"}


def _ids_as_text(frame: pd.DataFrame, what: str) -> None:
    """Make the id columns text, as :func:`coursekit.evaluate` reads them (:func:`id_text`: 7
    and "7" one id, bytes decoded), keeping columns of strings and categoricals of strings as
    they are; a missing id is refused by its row (``what``: "run" or "qrels")."""
    for column in ("query_id", "doc_id"):
        values = frame[column]
        missing = values.isna().to_numpy()
        if missing.any():
            raise ValueError(
                f"{what} row {int(np.flatnonzero(missing)[0])}: the {_NAMES[column]} is missing"
            )
        if isinstance(values.dtype, pd.CategoricalDtype):
            if not pd.api.types.is_string_dtype(values.dtype.categories):
                text = ids_as_text(values.cat.categories, _NAMES[column])
                frame[column] = pd.Categorical(text[values.cat.codes.to_numpy()])
            elif values.dtype.categories.dtype == object:
                check_text(values.dtype.categories)
        elif not pd.api.types.is_string_dtype(values):  # (an object column: every value a str)
            frame[column] = ids_as_text(values, _NAMES[column], what)
        elif values.dtype == object:  # (pyarrow's strings are UTF-8 already)
            check_text(values)


def as_qrels_frame(qrels: Any) -> pd.DataFrame:
    """Qrels as a DataFrame (query_id, doc_id, relevance), from a DataFrame, a dict of dicts
    or a path. Raises ``ValueError`` for empty qrels or a document judged twice."""
    if isinstance(qrels, (str, os.PathLike)):
        return read_qrels(qrels)
    if isinstance(qrels, Mapping):
        frame = _nested_to_frame(qrels, "relevance", "qrels")
    elif isinstance(qrels, pd.DataFrame):
        check_columns(qrels, QRELS_COLUMNS, "the qrels")
        frame = qrels[QRELS_COLUMNS].copy()
        _ids_as_text(frame, "qrels")
        frame["relevance"] = column_numbers(frame["relevance"], _place(frame, "qrels"), "grade")
    else:
        raise TypeError(
            "qrels must be a path, a DataFrame (query_id, doc_id, relevance) or a dict "
            f"{{query_id: {{doc_id: grade}}}}, got {type(qrels).__name__}"
        )
    if frame.empty:
        raise ValueError("the qrels are empty: there is no relevance judgment to evaluate against")
    check_no_duplicates(frame, "qrels", "judged")
    return integral_grades(frame.reset_index(drop=True))


def as_run_frame(run: Any, check_duplicates: bool = True) -> pd.DataFrame:
    """A run as a DataFrame (query_id, doc_id, rank, score, run), from a DataFrame, a dict of
    dicts ``{query_id: {doc_id: score}}`` or a path. Raises ``ValueError`` for NaN or
    infinite scores and for a document retrieved twice in one query."""
    if isinstance(run, (str, os.PathLike)):
        return read_run(run)
    if isinstance(run, Mapping):
        frame = _nested_to_frame(run, "score", "the run")
        frame["score"] = frame["score"].astype(float)
    elif isinstance(run, pd.DataFrame):
        check_columns(run, ["query_id", "doc_id", "score"], "the run")
        kept = [c for c in RUN_COLUMNS if c in run.columns]
        frame = run[kept]  # copy-on-write: columns are copied only if changed
        _ids_as_text(frame, "run")
        frame["score"] = column_numbers(frame["score"], _place(frame, "run"), "score")
    else:
        raise TypeError(
            "a run must be a path, a DataFrame (query_id, doc_id, score) or a dict "
            f"{{query_id: {{doc_id: score}}}}, got {type(run).__name__}"
        )
    if check_duplicates:
        check_no_duplicates(frame, "run", "retrieved")
    if "run" not in frame.columns:
        frame["run"] = "coursekit"
    if "rank" not in frame.columns:
        frame = _sorted(frame)
    return frame[RUN_COLUMNS].reset_index(drop=True)


def _place(frame: pd.DataFrame, what: str) -> Callable[[int], str]:
    """Names row ``i`` of a run or qrels frame, with its query and document."""

    def place(i: int) -> str:
        query, doc = frame["query_id"].iloc[i], frame["doc_id"].iloc[i]
        return f"{what} row {i} (query {query!r}, document {doc!r})"

    return place


def check_no_duplicates(frame: pd.DataFrame, what: str, verb: str) -> None:
    """Raise if a document appears twice for one query."""
    i = first_duplicate(frame)
    if i is not None:
        raise ValueError(
            f"{what} row {i}: document {frame.doc_id.iloc[i]!r} is {verb} twice for query "
            f"{frame.query_id.iloc[i]!r}"
        )


def sort_run(run: pd.DataFrame) -> pd.DataFrame:
    """Order a run as trec_eval does and renumber its ranks from 1 within each query.

    Queries by id; within a query, score descending, ties by doc id descending. The run is
    checked as :func:`as_run_frame` checks it (ids read as text, scores numbers, no document
    twice in a query); its other columns are kept.

    >>> run = pd.DataFrame({"query_id": ["q", "q", "q"], "doc_id": ["a", "b", "c"],
    ...                     "score": [1.0, 2.0, 1.0]})
    >>> sort_run(run)[["doc_id", "rank"]].to_numpy().tolist()
    [['b', 1], ['c', 2], ['a', 3]]
    """
    if not isinstance(run, pd.DataFrame):
        raise TypeError(
            f"sort_run takes a run as a DataFrame (query_id, doc_id, score), got "
            f"{type(run).__name__}; for a dict or a path, use as_run_frame"
        )
    check_columns(run, ["query_id", "doc_id", "score"], "the run")
    checked = run.copy(deep=False)
    _ids_as_text(checked, "run")
    checked["score"] = column_numbers(checked["score"], _place(checked, "run"), "score")
    check_no_duplicates(checked, "run", "retrieved")
    return _sorted(checked)


def _sorted(run: pd.DataFrame) -> pd.DataFrame:
    """:func:`sort_run` for a run already checked."""
    # On integer codes: each id hashed once, the distinct ids sorted once as strings.
    q_codes, q_ids = pd.factorize(as_str(run["query_id"]))
    d_codes, d_ids = pd.factorize(as_str(run["doc_id"]))
    query = string_ranks(np.asarray(q_ids, dtype=object))[q_codes]
    order = trec_order(
        query,
        run["score"].to_numpy(dtype=float),
        lambda: string_ranks(np.asarray(d_ids, dtype=object)),
        d_codes,
    )
    order = order[np.argsort(query[order], kind="stable")]  # queries by id
    ordered = run.iloc[order].reset_index(drop=True)
    # ranks from 1 within each query (its rows now together)
    query = query[order]
    rows = np.arange(query.size)
    first = np.r_[True, query[1:] != query[:-1]] if query.size else np.zeros(0, dtype=bool)
    ordered["rank"] = rows - np.maximum.accumulate(np.where(first, rows, 0)) + 1
    return ordered
