"""coursekit: the measures, data and tools of a course on evaluating information retrieval.

Every number the course shows, checks or grades comes from here. The package is layered:
pure measures (:mod:`~coursekit.setbased`, :mod:`~coursekit.ranked`, :mod:`~coursekit.graded`,
:mod:`~coursekit.recall`, :mod:`~coursekit.correlation`, :mod:`~coursekit.comparison`) below
collections (:mod:`~coursekit.trec`, :mod:`~coursekit.evaluation`) below plots and widgets,
which are imported only when first used so that ``import coursekit`` stays light.

>>> import coursekit as ck
>>> ck.average_precision([1, 0, 1], n_relevant=2)
0.8333333333333333
"""

from __future__ import annotations

import importlib
from typing import Any

from .comparison import (
    TestResult,
    bootstrap_ci,
    gain_percent,
    paired_t_test,
    randomization_test,
    wilcoxon_test,
)
from .correlation import concordant_pairs, kendall_tau, positions, spearman_rho
from .evaluation import Evaluation, evaluate
from .graded import (
    cumulative_gain,
    curve_area,
    dcg,
    dcg_curve,
    discounted_gains,
    ideal_gains,
    mean_curve,
    ndcg,
    normalised_curve,
)
from .ranked import (
    STANDARD_RECALL_LEVELS,
    average_precision,
    geometric_mean_average_precision,
    interpolate_points,
    interpolated_precision,
    judge,
    mean_average_precision,
    mean_reciprocal_rank,
    pr_table,
    precision_at,
    r_precision,
    recall_at,
    reciprocal_rank,
    rels_from_ranks,
)
from .recall import MorParts, f_prime, mor, mor_ap_bounds, mor_parts, pres, rnorm
from .registry import Measure, known_measures, parse_measure
from .setbased import Confusion, accuracy, confusion, e_measure, f_measure, precision, recall
from .trec import (
    as_qrels_frame,
    as_run_frame,
    qrels_to_dict,
    read_qrels,
    read_run,
    run_to_dict,
    sort_run,
    write_qrels,
    write_run,
)

__version__ = "0.1.0"

# Modules loaded on first use (they import matplotlib or ipywidgets).
_LAZY = {"plots", "widgets", "widgets_compare", "datasets", "display", "exercises", "grade"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module 'coursekit' has no attribute {name!r}")


__all__ = [
    "Confusion",
    "Evaluation",
    "Measure",
    "MorParts",
    "STANDARD_RECALL_LEVELS",
    "TestResult",
    "accuracy",
    "as_qrels_frame",
    "as_run_frame",
    "average_precision",
    "bootstrap_ci",
    "concordant_pairs",
    "confusion",
    "cumulative_gain",
    "curve_area",
    "dcg",
    "dcg_curve",
    "discounted_gains",
    "e_measure",
    "evaluate",
    "f_measure",
    "f_prime",
    "gain_percent",
    "geometric_mean_average_precision",
    "ideal_gains",
    "interpolate_points",
    "interpolated_precision",
    "judge",
    "kendall_tau",
    "known_measures",
    "mean_average_precision",
    "mean_curve",
    "mean_reciprocal_rank",
    "mor",
    "mor_ap_bounds",
    "mor_parts",
    "ndcg",
    "normalised_curve",
    "paired_t_test",
    "parse_measure",
    "positions",
    "pr_table",
    "precision",
    "precision_at",
    "pres",
    "qrels_to_dict",
    "r_precision",
    "randomization_test",
    "read_qrels",
    "read_run",
    "recall",
    "recall_at",
    "reciprocal_rank",
    "rels_from_ranks",
    "rnorm",
    "run_to_dict",
    "sort_run",
    "spearman_rho",
    "wilcoxon_test",
    "write_qrels",
    "write_run",
]
