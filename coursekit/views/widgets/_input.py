"""The input of :class:`~coursekit.views.widgets.compare.CompareSystems`: per-query tables,
checked with messages that say what to fix."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ...validation import preview


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
        try:
            values = table.to_numpy(dtype=float)
        except (TypeError, ValueError) as error:
            raise ValueError(f"measure {measure!r}: the scores must be numbers ({error})") from None
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
