"""Writing runs and qrels as TREC files, and as the nested dicts of pytrec_eval."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from .columns import PathLike
from .frames import as_qrels_frame, as_run_frame, sort_run


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
