"""Reading and writing TREC run and qrels files, and the dict-of-dicts form.

A **qrels** file has one judgment per line, ``query_id iteration doc_id grade``::

    401 0 FBIS3-10082 1

A **run** file has one retrieved document per line,
``query_id Q0 doc_id rank score run_name``::

    401 Q0 FBIS3-10082 1 12.73 bm25

In memory both are pandas DataFrames (columns ``query_id, doc_id, relevance`` and
``query_id, doc_id, rank, score, run``); the nested dicts used by pytrec_eval and ir_measures
(``{query_id: {doc_id: grade_or_score}}``) are accepted wherever a DataFrame is.

Every problem in a file is reported with the file name and line number.
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "QRELS_COLUMNS",
    "RUN_COLUMNS",
    "read_qrels",
    "read_run",
    "write_run",
    "write_qrels",
    "as_qrels_frame",
    "as_run_frame",
    "qrels_to_dict",
    "run_to_dict",
    "sort_run",
]

QRELS_COLUMNS = ["query_id", "doc_id", "relevance"]
RUN_COLUMNS = ["query_id", "doc_id", "rank", "score", "run"]

PathLike = str | os.PathLike


def _fail(path: PathLike, line: int, message: str) -> None:
    raise ValueError(f"{path}, line {line}: {message}")


def _parse_number(text: str, what: str, path: PathLike, line: int) -> float:
    try:
        value = float(text)
    except ValueError:
        _fail(path, line, f"{what} {text!r} is not a number")
    if not math.isfinite(value):
        _fail(path, line, f"{what} {text!r} is not a finite number")
    return value


def _read_lines(
    path: PathLike, n_fields: int, kind: str, layout: str
) -> list[tuple[int, list[str]]]:
    """The non-blank lines of a file split on white space, each checked for its field count."""
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != n_fields:
                _fail(
                    path,
                    number,
                    f"a {kind} line has {n_fields} fields ({layout}), this one has "
                    f"{len(fields)}: {line.strip()[:80]!r}",
                )
            rows.append((number, fields))
    return rows


def _read_table(path: PathLike, n_fields: int, numeric: tuple[int, ...]) -> pd.DataFrame | None:
    """Fast path: let pandas split the file, with the ``numeric`` columns parsed as floats.

    Returns None when anything looks off (then the slow, line-by-line reader finds the exact
    line and says what is wrong). Fields are split on white space only: quotes are ordinary
    characters, as in trec_eval.
    """
    dtypes = {i: (float if i in numeric else object) for i in range(n_fields)}
    try:
        frame = pd.read_csv(
            path,
            sep=r"\s+",
            header=None,
            dtype=dtypes,
            engine="c",
            quoting=csv.QUOTE_NONE,
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=True,
        )
    except Exception:
        return None
    if frame.shape[1] != n_fields:
        return None
    for i in numeric:
        column = frame[i].to_numpy()
        if column.dtype.kind != "f" or not np.all(np.isfinite(column)):
            return None
    # a short line leaves its trailing fields empty (white space cannot make an empty field
    # in the middle), so the last column is enough to spot one
    last = n_fields - 1
    if last not in numeric and (frame[last].to_numpy() == "").any():
        return None
    return frame


def read_qrels(path: PathLike) -> pd.DataFrame:
    """Read a TREC qrels file into a DataFrame with columns query_id, doc_id, relevance.

    Grades are numbers (usually integers; negative grades mean judged, not relevant).
    Raises ``ValueError`` naming the file and line of a malformed line, a non-numeric grade,
    or a document judged twice for the same query, and for a file with no judgment.
    """
    frame = _read_table(path, 4, numeric=(3,))
    if frame is None:
        rows = _read_lines(path, 4, "qrels", "query_id iteration doc_id grade")
        data = {"query_id": [], "doc_id": [], "relevance": []}
        for number, (qid, _, doc, grade) in rows:
            data["query_id"].append(qid)
            data["doc_id"].append(doc)
            data["relevance"].append(_parse_number(grade, "the grade", path, number))
        result = pd.DataFrame(data)
        lines = np.array([number for number, _ in rows])
    else:
        result = pd.DataFrame(
            {"query_id": frame[0], "doc_id": frame[2], "relevance": frame[3].to_numpy()}
        )
        lines = None
    result = _categorical_ids(_integral_grades(result))
    if result.empty:
        raise ValueError(f"{path}: the qrels file holds no judgment")
    i = _first_duplicate(result)
    if i is not None:
        if lines is None:  # recover line numbers from the slow reader
            lines = np.array(
                [n for n, _ in _read_lines(path, 4, "qrels", "query_id iteration doc_id grade")]
            )
        _fail(
            path,
            int(lines[i]),
            f"document {result.doc_id.iloc[i]!r} is judged twice for query "
            f"{result.query_id.iloc[i]!r}",
        )
    return result


def _integral_grades(frame: pd.DataFrame) -> pd.DataFrame:
    grades = frame["relevance"].to_numpy(dtype=float)
    if grades.size and np.all(grades == np.round(grades)):
        frame["relevance"] = grades.astype(np.int64)
    return frame


def read_run(path: PathLike) -> pd.DataFrame:
    """Read a TREC run file into a DataFrame with columns query_id, doc_id, rank, score, run.

    The rank column is kept as written but ignored by every measure: like trec_eval, coursekit
    orders each query's documents by score, descending, ties broken by doc id descending.
    Raises ``ValueError`` naming the file and line of a malformed line, a non-numeric rank or
    score, a NaN or infinite score, or a document retrieved twice for the same query.
    """
    layout = "query_id Q0 doc_id rank score run_name"
    frame = _read_table(path, 6, numeric=(3, 4))
    if frame is None:
        rows = _read_lines(path, 6, "run", layout)
        data: dict[str, list] = {c: [] for c in RUN_COLUMNS}
        for number, (qid, _, doc, rank, score, tag) in rows:
            data["query_id"].append(qid)
            data["doc_id"].append(doc)
            data["rank"].append(_parse_number(rank, "the rank", path, number))
            data["score"].append(_parse_number(score, "the score", path, number))
            data["run"].append(tag)
        result = pd.DataFrame(data)
        result["score"] = result["score"].astype(float)
        lines = np.array([number for number, _ in rows])
    else:
        result = pd.DataFrame(
            {
                "query_id": frame[0],
                "doc_id": frame[2],
                "rank": frame[3].to_numpy(),
                "score": frame[4].to_numpy(),
                "run": frame[5],
            }
        )
        lines = None
    result["rank"] = result["rank"].to_numpy(dtype=float).astype(np.int64)
    _categorical_ids(result)
    i = _first_duplicate(result)
    if i is not None:
        if lines is None:
            lines = np.array([n for n, _ in _read_lines(path, 6, "run", layout)])
        _fail(
            path,
            int(lines[i]),
            f"document {result.doc_id.iloc[i]!r} is retrieved twice for query "
            f"{result.query_id.iloc[i]!r}",
        )
    return result


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
            queries.append(str(qid))
            docs.append(str(doc))
            values.append(value)
    return pd.DataFrame({"query_id": queries, "doc_id": docs, value_name: values})


def _ids_as_strings(frame: pd.DataFrame) -> None:
    """Make the id columns strings, keeping categorical columns of strings as they are."""
    for column in ("query_id", "doc_id"):
        dtype = frame[column].dtype
        if isinstance(dtype, pd.CategoricalDtype):
            if not pd.api.types.is_string_dtype(dtype.categories):
                frame[column] = frame[column].astype(str).astype("category")
        elif not pd.api.types.is_string_dtype(dtype):
            frame[column] = frame[column].astype(str)


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


def _categorical_ids(frame: pd.DataFrame) -> pd.DataFrame:
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
        _ids_as_strings(frame)
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
    _check_no_duplicates(frame, "qrels", "judged")
    return _integral_grades(frame.reset_index(drop=True))


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
        _ids_as_strings(frame)
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
        _check_no_duplicates(frame, "run", "retrieved")
    if "run" not in frame.columns:
        frame["run"] = "coursekit"
    if "rank" not in frame.columns:
        frame = sort_run(frame)
    return frame[RUN_COLUMNS].reset_index(drop=True)


def _first_duplicate(frame: pd.DataFrame) -> int | None:
    """Row of the first repeated (query_id, doc_id) pair, or None (on integer codes: fast)."""
    q_codes, _ = pd.factorize(frame["query_id"])
    d_codes, d_uniques = pd.factorize(frame["doc_id"])
    keys = q_codes.astype(np.int64) * max(len(d_uniques), 1) + d_codes
    order = np.argsort(keys, kind="stable")
    repeated = np.flatnonzero(keys[order][1:] == keys[order][:-1])
    return int(order[1:][repeated].min()) if repeated.size else None


def _check_no_duplicates(frame: pd.DataFrame, what: str, verb: str) -> None:
    """Raise if a document appears twice for one query."""
    i = _first_duplicate(frame)
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
    # Sort on the ids as strings: a categorical column would sort by its category order.
    keys = pd.DataFrame(
        {
            "query_id": _as_str(run["query_id"]),
            "score": run["score"].to_numpy(),
            "doc_id": _as_str(run["doc_id"]),
        },
        index=run.index,
    )
    order = keys.sort_values(
        ["query_id", "score", "doc_id"], ascending=[True, False, False], kind="mergesort"
    ).index
    ordered = run.loc[order].reset_index(drop=True)
    ordered["rank"] = ordered.groupby("query_id", sort=False).cumcount().to_numpy() + 1
    return ordered


def _as_str(column: pd.Series) -> np.ndarray:
    """An id column as an array of Python strings, whatever its dtype (categorical too)."""
    return column.astype(str).to_numpy(dtype=object)


def write_run(run: Any, path: PathLike, run_name: str | None = None) -> None:
    """Write a run (DataFrame or dict of dicts) as a TREC run file, in trec_eval's order.

    Ranks are renumbered from the scores, so the file reads back to the same evaluation.
    """
    frame = sort_run(as_run_frame(run))
    names = frame["run"].astype(str) if run_name is None else pd.Series(run_name, index=frame.index)
    if names.str.contains(r"\s").any():
        raise ValueError("a run name cannot contain white space")
    _write_lines(path, [frame["query_id"], "Q0", frame["doc_id"], frame["rank"],
                        frame["score"].map(repr), names])  # fmt: skip


def _write_lines(path: PathLike, fields: list) -> None:
    """Write one line per row: the fields (columns, or a constant string) joined by spaces."""
    index = next(f for f in fields if not isinstance(f, str)).index
    lines = None
    for field in fields:
        text = pd.Series(field, index=index) if isinstance(field, str) else field.astype(str)
        lines = text if lines is None else lines + " " + text
    Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def write_qrels(qrels: Any, path: PathLike) -> None:
    """Write qrels (DataFrame or dict of dicts) as a TREC qrels file."""
    frame = as_qrels_frame(qrels)
    _write_lines(path, [frame["query_id"], "0", frame["doc_id"], frame["relevance"]])


def qrels_to_dict(qrels: Any) -> dict[str, dict[str, int | float]]:
    """Qrels as ``{query_id: {doc_id: grade}}`` (the pytrec_eval / ir_measures form)."""
    frame = as_qrels_frame(qrels)
    result: dict[str, dict[str, Any]] = {}
    for qid, doc, grade in zip(frame.query_id, frame.doc_id, frame.relevance.tolist(), strict=True):
        result.setdefault(qid, {})[doc] = grade
    return result


def run_to_dict(run: Any) -> dict[str, dict[str, float]]:
    """A run as ``{query_id: {doc_id: score}}`` (the pytrec_eval / ir_measures form)."""
    frame = as_run_frame(run)
    result: dict[str, dict[str, float]] = {}
    for qid, doc, score in zip(frame.query_id, frame.doc_id, frame.score.tolist(), strict=True):
        result.setdefault(qid, {})[doc] = score
    return result
