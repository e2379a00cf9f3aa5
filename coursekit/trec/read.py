"""Reading TREC qrels and run files; every problem is reported as file:line."""

from __future__ import annotations

import csv
import math

import numpy as np
import pandas as pd

from .columns import RUN_COLUMNS, PathLike, categorical_ids, first_duplicate, integral_grades


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
    result = categorical_ids(integral_grades(result))
    if result.empty:
        raise ValueError(f"{path}: the qrels file holds no judgment")
    i = first_duplicate(result)
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
    categorical_ids(result)
    i = first_duplicate(result)
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
