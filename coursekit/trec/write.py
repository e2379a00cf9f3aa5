"""Writing runs and qrels as TREC files, and as the nested dicts of pytrec_eval.

A file is written only when it reads back to the same run or qrels: an id or run name that is
empty, holds white space (any character ``str.split`` splits on) or a NUL byte, a query id
starting with ``#`` (a comment line to trec_eval 10 and :func:`~coursekit.trec.read_run`) and
an empty run are refused before anything is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .columns import PathLike
from .frames import as_qrels_frame, as_run_frame, sort_run
from .read import file_name

# every character str.split() splits on (str.isspace), and NUL, which ends a C string
_SPLITS = "[\x00\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
_NAMES = {"query_id": "query id", "doc_id": "doc id"}


def _problem(text: str, first_field: bool) -> str | None:
    """What keeps ``text`` from being a field of a TREC line ("cannot ..."), or None (one
    value; :func:`_bad_mask` finds the same values in a column)."""
    if text == "":
        return "be empty"
    if "\x00" in text:
        return "contain a NUL byte"
    if any(c.isspace() for c in text):
        return "contain white space"
    if first_field and text.startswith("#"):
        return "start with '#' (trec_eval would read its line as a comment)"
    return None


def _first_bad(values: pd.Series, first_field: bool) -> int | None:
    """Row of the first text value that cannot be a field (see :func:`_problem`), or None;
    a categorical column is checked on its categories."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        categories = pd.Series(values.cat.categories, dtype=object)
        bad = _bad_mask(categories, first_field)
        if not bad.any():
            return None
        rows = np.flatnonzero(bad[values.cat.codes.to_numpy()])
    else:
        rows = np.flatnonzero(_bad_mask(values, first_field))
    return int(rows[0]) if rows.size else None


def _bad_mask(values: pd.Series, first_field: bool) -> np.ndarray:
    text = values.str
    bad = text.contains(_SPLITS, regex=True) | (text.len() == 0)
    if first_field:
        bad |= text.startswith("#")
    return bad.to_numpy(dtype=bool, na_value=True)


def _check_ids(frame: pd.DataFrame, what: str) -> None:
    """Refuse an id that cannot be written as a field, naming it (and its query)."""
    for column in ("query_id", "doc_id"):
        first_field = column == "query_id"
        i = _first_bad(frame[column], first_field)
        if i is not None:
            text = str(frame[column].iloc[i])
            where = "" if first_field else f" of query {frame['query_id'].iloc[i]!r}"
            raise ValueError(
                f"{what}: {_NAMES[column]} {text!r}{where}: a {_NAMES[column]} cannot "
                f"{_problem(text, first_field)}"
            )


def _check_run_name(run_name: Any) -> None:
    if not isinstance(run_name, str):
        raise TypeError(f"run_name must be a str, got {type(run_name).__name__} {run_name!r}")
    problem = _problem(run_name, first_field=False)
    if problem:
        raise ValueError(f"run_name {run_name!r}: a run name cannot {problem}")


def _check_run_column(run: pd.DataFrame) -> None:
    """Refuse, by its row, a missing run name or one that cannot be written."""
    names = run["run"]
    missing = names.isna().to_numpy()
    if missing.any():
        raise ValueError(f"run row {int(np.flatnonzero(missing)[0])}: the run name is missing")
    names = names.astype(str)
    i = _first_bad(names, first_field=False)
    if i is not None:
        text = names.iloc[i]
        problem = _problem(text, first_field=False)
        raise ValueError(f"run row {i}: run name {text!r}: a run name cannot {problem}")


def write_run(run: Any, path: PathLike, run_name: str | None = None) -> None:
    """Write a run (DataFrame or dict of dicts) as a TREC run file, in trec_eval's order.

    Ranks are renumbered from the scores, so the file reads back to the same evaluation.
    Raises ``ValueError``, before writing anything, for an empty run and for an id or run
    name that is empty or holds white space or a NUL byte, or a query id starting with
    ``#``; ``TypeError`` for a path that is not a str or os.PathLike, or a run_name that is
    not a str.
    """
    name = file_name(path)
    if run_name is not None:
        _check_run_name(run_name)
    elif isinstance(run, pd.DataFrame) and "run" in run.columns:
        _check_run_column(run)
    frame = as_run_frame(run)
    if frame.empty:
        raise ValueError("the run is empty: a run file needs at least one retrieved document")
    frame = sort_run(frame)
    _check_ids(frame, "the run")
    names = frame["run"].astype(str) if run_name is None else pd.Series(run_name, index=frame.index)
    _write_lines(name, [frame["query_id"], "Q0", frame["doc_id"], frame["rank"],
                        frame["score"].map(repr), names])  # fmt: skip


def _write_lines(path: str, fields: list) -> None:
    """Write one line per row: the fields (columns, or a constant string) joined by spaces."""
    index = next(f for f in fields if not isinstance(f, str)).index
    lines = None
    for field in fields:
        text = pd.Series(field, index=index) if isinstance(field, str) else field.astype(str)
        lines = text if lines is None else lines + " " + text
    text = "".join(line + "\n" for line in lines)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as error:  # a lone surrogate (an object column can hold one)
        start = text.rfind("\n", 0, error.start) + 1
        line = text[start : text.find("\n", error.start)]
        message = f"cannot write the line {line!r}: it holds text that is not Unicode"
        raise ValueError(message) from error
    Path(path).write_bytes(data)


def write_qrels(qrels: Any, path: PathLike) -> None:
    """Write qrels (DataFrame or dict of dicts) as a TREC qrels file.

    Raises ``ValueError``, before writing anything, for empty qrels and for an id that is
    empty or holds white space or a NUL byte, or a query id starting with ``#``; ``TypeError``
    for a path that is not a str or os.PathLike.
    """
    name = file_name(path)
    frame = as_qrels_frame(qrels)
    _check_ids(frame, "the qrels")
    _write_lines(name, [frame["query_id"], "0", frame["doc_id"], frame["relevance"]])


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
