"""Tables for reading a measure step by step (DataFrames): the course's progressive tables."""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from ..measures.correlation import aligned
from ..validation import as_binary, check_n_relevant, check_scalar, describe, refuse_unordered

__all__ = ["Sideways", "concordant_pairs", "pr_table", "sideways"]


def pr_table(rels: Sequence[float], n_relevant: int) -> pd.DataFrame:
    """Precision and recall computed rank by rank, as in the course's progressive tables.

    One row per rank k with columns k, relevant, TP, FP, FN, precision (TP / k) and
    recall (TP / n_relevant).

    >>> pr_table([1, 0, 1], n_relevant=3)
       k  relevant  TP  FP  FN  precision    recall
    0  1      True   1   0   2   1.000000  0.333333
    1  2     False   1   1   2   0.500000  0.333333
    2  3      True   2   1   1   0.666667  0.666667
    """
    refuse_unordered(rels, "rels")
    relevant = as_binary(rels)
    n_relevant = check_n_relevant(n_relevant, relevant)
    k = np.arange(1, relevant.size + 1)
    tp = np.cumsum(relevant, dtype=int)
    fp = k - tp
    recall = tp / n_relevant if n_relevant else np.zeros(relevant.size)
    return pd.DataFrame(
        {
            "k": k,
            "relevant": relevant,
            "TP": tp,
            "FP": fp,
            "FN": n_relevant - tp,
            "precision": tp / k,
            "recall": recall,
        }
    )


class Sideways:
    """A table turned sideways (one column per row of the original) for a notebook: numbers
    with a fixed number of decimals, counts as integers, booleans as ✓ and ·, and, in HTML, a
    horizontal scroll bar inside the output area instead of a table wider than the page."""

    def __init__(self, frame: pd.DataFrame, digits: int = 2) -> None:
        # checked now: a bad value would otherwise fail later, when the notebook shows it
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
        what = "a number of decimals"
        check_scalar(digits, "digits", numbers.Integral, what=what, min_val=0, max_val=20)
        if frame.columns.size == 0:
            raise ValueError("frame has no columns: there is nothing to show")
        twice = _repeated([str(c) for c in frame.columns])
        if twice is not None:
            raise ValueError(f"frame has two columns named {twice!r}: each row shown needs a name")
        self.frame, self.digits = frame, int(digits)

    def _cells(self) -> dict[str, list[str]]:
        def text(value: Any) -> str:
            if isinstance(value, (bool, np.bool_)):
                return "✓" if value else "·"
            if isinstance(value, (int, np.integer)):
                return str(value)
            if isinstance(value, (float, np.floating)):
                return f"{value:.{self.digits}f}"
            return str(value)

        return {str(c): [text(v) for v in self.frame[c].tolist()] for c in self.frame.columns}

    def __repr__(self) -> str:
        cells = self._cells()
        width = max(len(name) for name in cells)
        return "\n".join(
            f"{n:<{width}}  " + " ".join(f"{v:>5}" for v in vs) for n, vs in cells.items()
        )

    def _repr_html_(self) -> str:
        import html

        rows = "".join(
            f"<tr><th style='text-align:left'>{html.escape(name)}</th>"
            + "".join(f"<td style='text-align:right'>{html.escape(v)}</td>" for v in values)
            + "</tr>"
            for name, values in self._cells().items()
        )
        return (
            "<div style='max-width:100%;overflow-x:auto'>"
            f"<table style='font-variant-numeric:tabular-nums'>{rows}</table></div>"
        )


def sideways(frame: pd.DataFrame, digits: int = 2) -> Sideways:
    """``frame`` turned sideways for reading (see :class:`Sideways`).

    >>> sideways(pr_table([1, 0, 1], n_relevant=3)[["k", "relevant", "precision"]])
    k          1     2     3
    relevant   ✓     ·     ✓
    precision 1.00  0.50  0.67
    """
    return Sideways(frame, digits)


def concordant_pairs(
    a: Sequence[Any] | Mapping[Any, float], b: Sequence[Any] | Mapping[Any, float]
) -> pd.DataFrame:
    """List every pair of items with its positions and verdict, for teaching.

    Columns: item_1, item_2, positions in the first ranking, in the second, and ``verdict``:
    "concordant" (same order), "discordant" (opposite orders) or "tied".

    >>> concordant_pairs(["x", "y", "z"], ["y", "x", "z"])
      item_1 item_2  a_1  a_2  b_1  b_2     verdict
    0      x      y  1.0  2.0  2.0  1.0  discordant
    1      x      z  1.0  3.0  2.0  3.0  concordant
    2      y      z  2.0  3.0  1.0  3.0  concordant
    """
    items, x, y = aligned(a, b)
    rows = []
    for i, j in combinations(range(len(items)), 2):
        s = np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])
        verdict = "concordant" if s > 0 else "discordant" if s < 0 else "tied"
        rows.append((items[i], items[j], x[i], x[j], y[i], y[j], verdict))
    return pd.DataFrame(rows, columns=["item_1", "item_2", "a_1", "a_2", "b_1", "b_2", "verdict"])


# --------------------------------------------------------------------------------------------
# Reading the numbers a figure draws (coursekit.views.plots), checked: a wrong one is an error
# naming the argument and the position or label at fault, never a figure drawn wrong


def as_numbers(
    values: Any, name: str, unit: str = "", labels: list[str] | None = None
) -> np.ndarray:
    """``values`` as a 1-D float array of finite numbers (each ``unit``, in [0, 1], if given;
    generators read once), or an error naming ``name`` and the position (or the label, from
    ``labels``) at fault."""
    if values is None or isinstance(values, (str, bytes, Mapping, AbstractSet)):
        kind = type(values).__name__
        raise TypeError(f"{name} must be a sequence of numbers, got {kind} {describe(values)}")
    if not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a sequence of numbers, got {type(values).__name__}")
    what, low, high = (unit, 0, 1) if unit else ("a number", None, None)
    array = None
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        if values.ndim != 1:
            raise ValueError(
                f"{name} must be one-dimensional, got an array of shape {values.shape}"
            )
        array = values.astype(float, copy=False)
        bad = ~np.isfinite(array) if not unit else ~((array >= 0) & (array <= 1))
        pairs = [(int(i), array[i].item()) for i in np.flatnonzero(bad)[:1]]
    else:
        items = list(values)
        pairs = list(enumerate(items))
    for i, item in pairs:  # check_scalar says what is wrong with the first bad value
        at = f"{name}[{i if labels is None else repr(labels[i])}]"
        check_scalar(item, at, numbers.Real, what=what, min_val=low, max_val=high)
    return array if array is not None else np.asarray(items, dtype=float)


def as_labelled(values: Any, name: str) -> tuple[list[str], list[Any]]:
    """The labels (as text) and the values of a dict or a pandas Series (label -> value)."""
    if not isinstance(values, (Mapping, pd.Series)):
        raise TypeError(
            f"{name} must be a dict (or a pandas Series) of label -> value, "
            f"got {type(values).__name__} {describe(values, 40)}"
        )
    if len(values) == 0:
        raise ValueError(f"{name} is empty: there is nothing to draw")
    labels = [str(label) for label in values.keys()]
    twice = _repeated(labels)
    if twice is not None:
        raise ValueError(f"{name} has the label {twice!r} twice: each label names one value")
    return labels, list(values.values() if isinstance(values, Mapping) else values.to_numpy())


def labelled_numbers(values: Any, name: str, unit: str = "") -> tuple[list[str], np.ndarray]:
    """The labels and the values (a float array) of a dict or Series of label -> number."""
    labels, raw = as_labelled(values, name)
    return labels, as_numbers(raw, name, unit, labels)


def _repeated(names: list[str]) -> str | None:
    """The first name that comes a second time in ``names``, or None."""
    seen: set[str] = set()
    return next((name for name in names if name in seen or seen.add(name)), None)
