"""Runs and qrels as DataFrames: from nested dicts, checked, with ids as categoricals, sorted."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from .columns import (
    QRELS_COLUMNS,
    RUN_COLUMNS,
    as_str,
    first_duplicate,
    id_text,
    ids_as_text,
    integral_grades,
    refuse_bools,
)
from .order import string_ranks, trec_order
from .read import read_qrels, read_run


def _nested_to_frame(nested: Mapping, value_name: str, what: str) -> pd.DataFrame:
    queries, docs, values = [], [], []
    for qid, docs_of_query in nested.items():
        if not isinstance(docs_of_query, Mapping):
            raise TypeError(
                f"{what} as a dict must map each query id to a dict {{doc_id: {value_name}}}; "
                f"query {qid!r} maps to {type(docs_of_query).__name__}"
            )
        for doc, value in docs_of_query.items():
            if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
                raise TypeError(
                    f"{what}: the {value_name} of document {doc!r} for query {qid!r} must be "
                    f"a number, got {value!r}"
                )
            if not math.isfinite(value):
                raise ValueError(
                    f"{what}: the {value_name} of document {doc!r} for query {qid!r} is "
                    f"{value!r}, not a finite number"
                )
            queries.append(id_text(qid, "query id"))
            docs.append(id_text(doc, "doc id"))
            values.append(value)
    return pd.DataFrame({"query_id": queries, "doc_id": docs, value_name: values})


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
        elif not pd.api.types.is_string_dtype(values):  # (an object column: every value a str)
            frame[column] = ids_as_text(values, _NAMES[column], what)


def _check_columns(frame: pd.DataFrame, needed: list[str], what: str) -> None:
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{what} DataFrame lacks the column(s) {', '.join(missing)}; it has "
            f"{', '.join(map(str, frame.columns))}"
        )


def as_qrels_frame(qrels: Any) -> pd.DataFrame:
    """Qrels as a DataFrame (query_id, doc_id, relevance), from a DataFrame, a dict of dicts
    or a path. Raises ``ValueError`` for empty qrels or a document judged twice."""
    if isinstance(qrels, (str, os.PathLike)):
        return read_qrels(qrels)
    if isinstance(qrels, Mapping):
        frame = _nested_to_frame(qrels, "relevance", "qrels")
    elif isinstance(qrels, pd.DataFrame):
        _check_columns(qrels, QRELS_COLUMNS, "the qrels")
        frame = qrels[QRELS_COLUMNS].copy()
        _ids_as_text(frame, "qrels")
        refuse_bools(frame["relevance"], lambda i: f"qrels row {i}", "grade")
        grades = pd.to_numeric(frame["relevance"], errors="coerce").to_numpy(dtype=float)
        if not np.all(np.isfinite(grades)):
            i = int(np.flatnonzero(~np.isfinite(grades))[0])
            raise ValueError(
                f"qrels row {i}: the grade {qrels['relevance'].iloc[i]!r} is not a finite number"
            )
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
        _check_columns(run, ["query_id", "doc_id", "score"], "the run")
        kept = [c for c in RUN_COLUMNS if c in run.columns]
        frame = run[kept]  # copy-on-write: columns are copied only if changed
        _ids_as_text(frame, "run")
        refuse_bools(frame["score"], lambda i: f"run row {i}", "score")
        scores = pd.to_numeric(frame["score"], errors="coerce").to_numpy(dtype=float)
        if not np.all(np.isfinite(scores)):
            i = int(np.flatnonzero(~np.isfinite(scores))[0])
            raise ValueError(
                f"run row {i} (query {frame.query_id.iloc[i]!r}, document "
                f"{frame.doc_id.iloc[i]!r}): the score {run['score'].iloc[i]!r} is not a "
                "finite number"
            )
        frame["score"] = scores
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
        frame = sort_run(frame)
    return frame[RUN_COLUMNS].reset_index(drop=True)


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

    Queries by id; within a query, score descending, ties by doc id descending.

    >>> run = pd.DataFrame({"query_id": ["q", "q", "q"], "doc_id": ["a", "b", "c"],
    ...                     "score": [1.0, 2.0, 1.0]})
    >>> sort_run(run)[["doc_id", "rank"]].to_numpy().tolist()
    [['b', 1], ['c', 2], ['a', 3]]
    """
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
    ordered["rank"] = (
        ordered.groupby("query_id", sort=False, observed=True).cumcount().to_numpy() + 1
    )
    return ordered
