"""Tables for reading a measure step by step (DataFrames): the course's progressive tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from ..measures.correlation import aligned
from ..validation import as_binary, check_n_relevant

__all__ = ["concordant_pairs", "pr_table"]


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
