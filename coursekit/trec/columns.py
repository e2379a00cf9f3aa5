"""What every part of :mod:`coursekit.trec` shares: column names, id encoding, duplicates."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

QRELS_COLUMNS = ["query_id", "doc_id", "relevance"]
RUN_COLUMNS = ["query_id", "doc_id", "rank", "score", "run"]

PathLike = str | os.PathLike


def factorize_ids(ids: np.ndarray, blocks: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Integer codes for an array of ids and the ids they stand for (first-seen order).

    With ``blocks``, each run of equal neighbours is hashed once: a run or qrels file lists a
    query's rows together, so its query ids cost one hash per query, not one per row.
    """
    ids = np.asarray(ids, dtype=object)
    if not blocks or ids.size == 0:
        codes, uniques = pd.factorize(ids)
        return codes, np.asarray(uniques, dtype=object)
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    block_codes, uniques = pd.factorize(ids[starts])
    return (
        np.repeat(block_codes, np.diff(np.r_[starts, ids.size])),
        np.asarray(uniques, dtype=object),
    )


def categorical_ids(frame: pd.DataFrame) -> pd.DataFrame:
    """Store the id columns as categoricals: each id is hashed once, here, and the frame is
    smaller; they still compare equal to plain strings."""
    for column in ("query_id", "doc_id"):
        values = frame[column]
        if not isinstance(values.dtype, pd.CategoricalDtype):
            # categories in first-seen order, not sorted: ties are broken on the strings,
            # never on category order
            codes, uniques = factorize_ids(values.to_numpy(), blocks=column == "query_id")
            frame[column] = pd.Categorical.from_codes(codes, categories=pd.Index(uniques))
    return frame


def first_duplicate(frame: pd.DataFrame) -> int | None:
    """Row of the first repeated (query_id, doc_id) pair, or None (on integer codes: fast)."""
    q_codes, _ = pd.factorize(frame["query_id"])
    d_codes, d_uniques = pd.factorize(frame["doc_id"])
    keys = q_codes.astype(np.int64) * max(len(d_uniques), 1) + d_codes
    order = np.argsort(keys, kind="stable")
    repeated = np.flatnonzero(keys[order][1:] == keys[order][:-1])
    return int(order[1:][repeated].min()) if repeated.size else None


def as_str(column: pd.Series) -> np.ndarray:
    """An id column as an array of Python strings, whatever its dtype (categorical too)."""
    return column.astype(str).to_numpy(dtype=object)


def integral_grades(frame: pd.DataFrame) -> pd.DataFrame:
    grades = frame["relevance"].to_numpy(dtype=float)
    if grades.size and np.all(grades == np.round(grades)):
        frame["relevance"] = grades.astype(np.int64)
    return frame
