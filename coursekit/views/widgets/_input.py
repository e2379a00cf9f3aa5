"""The input of :class:`~coursekit.views.widgets.compare.CompareSystems`: per-query tables,
checked with messages that say what to fix."""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...validation import describe, fits_a_float, preview


def _check_tables(per_query: Any) -> tuple[list[str], list[str], list[str], dict[str, np.ndarray]]:
    """Validate ``per_query`` (measure -> DataFrame query x system); return the measures, the
    queries, the systems and, per measure, a float array (queries x systems) in that order."""
    if not isinstance(per_query, Mapping):
        raise TypeError(
            "per_query must map a measure name to a DataFrame (rows: queries, columns: "
            f"systems), got {type(per_query).__name__}"
        )
    if not per_query:
        raise ValueError("per_query is empty: give at least one measure, e.g. {'AP': table}")
    measures = [str(m) for m in per_query]
    if len(set(measures)) != len(measures):
        raise ValueError(f"measure names repeat: {preview(measures)}")
    queries: list[str] = []
    systems: list[str] = []
    arrays: dict[str, np.ndarray] = {}
    for i, (key, frame) in enumerate(per_query.items()):
        measure = str(key)
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(
                f"the scores of measure {measure!r} must be a DataFrame (rows: queries, "
                f"columns: systems), got {type(frame).__name__}"
            )
        rows = [str(q) for q in frame.index]
        columns = [str(s) for s in frame.columns]
        for what, labels in (("query", rows), ("system", columns)):
            repeated = sorted({x for x in labels if labels.count(x) > 1})
            if repeated:
                raise ValueError(f"measure {measure!r}: {what} {repeated[0]!r} appears twice")
        if i == 0:
            queries, systems, first = rows, columns, measure
            if not systems:
                raise ValueError(f"measure {measure!r} has no system (no column)")
            if len(queries) < 2:
                raise ValueError(
                    f"measure {measure!r} has {len(queries)} query: comparing two systems "
                    "needs the scores of at least two queries"
                )
        else:
            if set(rows) != set(queries):
                raise ValueError(
                    f"the queries of measure {measure!r} differ from those of {first!r}: only "
                    f"in {measure!r}: {preview(sorted(set(rows) - set(queries))) or 'none'}; "
                    f"only in {first!r}: {preview(sorted(set(queries) - set(rows))) or 'none'}"
                )
            if set(columns) != set(systems):
                raise ValueError(
                    f"the systems of measure {measure!r} differ from those of {first!r}: only "
                    f"in {measure!r}: {preview(sorted(set(columns) - set(systems))) or 'none'}; "
                    f"only in {first!r}: {preview(sorted(set(systems) - set(columns))) or 'none'}"
                )
        table = frame.set_axis(rows, axis=0).set_axis(columns, axis=1).loc[queries, systems]
        values = _scores(table, measure)
        bad = ~np.isfinite(values)
        if bad.any():
            q, s = np.argwhere(bad)[0]
            raise ValueError(
                f"measure {measure!r}: system {systems[s]!r} has no finite score for query "
                f"{queries[q]!r} ({values[q, s]}); a system that does not answer a query should "
                "score 0 there (evaluate with missing_as_zero=True)"
            )
        arrays[measure] = values
    return measures, queries, systems, arrays


def _scores(table: pd.DataFrame, measure: str) -> np.ndarray:
    """The scores as floats (queries x systems), a missing one (None, NaN, NA) as nan for the
    check of finite scores. Refused: a score that is not a number (text such as "0.5",
    True/False), which pandas would read as a number, or too large for a float (an int of 400
    digits), on which it would fail."""
    columns = []
    for system, column in table.items():
        if pd.api.types.is_bool_dtype(column.dtype):
            raise TypeError(
                f"measure {measure!r}: the scores of system {system!r} are True/False, not numbers"
            )
        if pd.api.types.is_numeric_dtype(column.dtype):
            columns.append(column.to_numpy(dtype=float, na_value=np.nan))
            continue
        floats = []
        for query, value in column.items():
            where = f"measure {measure!r}: system {system!r}, query {query!r}"
            if pd.api.types.is_scalar(value) and not isinstance(value, (str, bytes)):
                if pd.isna(value):
                    floats.append(np.nan)
                    continue
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
                raise TypeError(
                    f"{where}: the score must be a number, got {type(value).__name__} "
                    f"{describe(value)}"
                )
            if not fits_a_float(value):
                raise ValueError(f"{where}: the score {describe(value)} is too large for a float")
            floats.append(float(value))
        columns.append(np.array(floats, dtype=float))
    return np.column_stack(columns) if columns else np.zeros((len(table), 0))
