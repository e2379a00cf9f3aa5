"""coursekit: the measures, data and tools of a course on evaluating information retrieval.

Every number the course shows, checks or grades comes from here. The package is layered, each
layer importing only those below it (see ARCHITECTURE.md):

1. :mod:`coursekit.measures`: one function per measure, pure numpy;
2. :mod:`coursekit.trec`, :mod:`coursekit.registry`, :mod:`coursekit.evaluation`: runs and
   qrels as files and DataFrames, measure names, ``evaluate()``;
3. :mod:`coursekit.course`: the worked examples, the course's collection, its retrieval systems;
4. :mod:`coursekit.views`: figures, erratum boxes, tables and widgets;
5. :mod:`coursekit.grading`: exercises, self-check and the batch grader.

Only layer 1 and the registry (numpy) are imported by ``import coursekit``; the functions of
layer 2 (pandas, pyarrow), ``pr_table`` and ``concordant_pairs``, and layers 3 to 5 (``ck.course``,
``ck.views``, ``ck.widgets``, ``ck.plots``) are imported when first used, so that ``import
coursekit`` stays light: a notebook or a graded kernel that computes measures never pays for
pandas.

>>> import coursekit as ck
>>> ck.average_precision([1, 0, 1], n_relevant=2)
0.8333333333333333
"""

from __future__ import annotations

import importlib
from typing import Any

from .measures import (
    STANDARD_RECALL_LEVELS,
    Confusion,
    MorParts,
    TestResult,
    accuracy,
    alpha_dcg,
    alpha_ndcg,
    ap_ia,
    average_precision,
    bootstrap_ci,
    bpref,
    cohen_kappa,
    cohens_dz,
    confusion,
    cumulative_gain,
    curve_area,
    dcg,
    dcg_curve,
    discounted_gains,
    dz_interval,
    e_measure,
    err,
    err_ia,
    f_measure,
    f_prime,
    fleiss_kappa,
    gain_percent,
    geometric_mean_average_precision,
    holm,
    ideal_diversity_ranking,
    ideal_gains,
    infap,
    interpolate_points,
    interpolated_precision,
    interpolated_step,
    judge,
    kendall_tau,
    mean_average_precision,
    mean_curve,
    mean_reciprocal_rank,
    mor,
    mor_ap_bounds,
    mor_parts,
    ndcg,
    ndcg_ia,
    nerr_ia,
    nnrbp,
    normalised_curve,
    novelty_gains,
    nrbp,
    paired_t_test,
    positions,
    power_paired_t,
    precision,
    precision_at,
    precision_ia,
    pres,
    r_precision,
    randomization_test,
    rbp,
    recall,
    recall_at,
    reciprocal_rank,
    rels_from_ranks,
    rnorm,
    spearman_rho,
    subtopic_recall,
    topic_set_size,
    wilcoxon_test,
)
from .registry import Measure, known_measures, parse_measure

__version__ = "0.1.0"

# Subpackages and modules loaded on first use (they import matplotlib, ipywidgets or nbformat).
_LAZY = {
    "course": ".course",
    "views": ".views",
    "grading": ".grading",
    "plots": ".views.plots",
    "display": ".views.display",
    "widgets": ".views.widgets",
}


# Functions loaded on first use, by the module that holds them (pandas and pyarrow).
_LAZY_NAMES = {
    ".evaluation": ("Evaluation", "evaluate"),
    ".evaluation.diversity": ("evaluate_diversity",),
    ".trec": (
        "as_qrels_frame",
        "as_run_frame",
        "as_subtopic_qrels_frame",
        "qrels_to_dict",
        "read_qrels",
        "read_run",
        "read_subtopic_qrels",
        "run_to_dict",
        "sort_run",
        "subtopic_qrels_to_dict",
        "write_qrels",
        "write_run",
        "write_subtopic_qrels",
    ),
    ".views.tables": ("concordant_pairs", "pr_table"),
    ".i18n": ("set_language",),
}
_HOME = {name: module for module, names in _LAZY_NAMES.items() for name in names}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = importlib.import_module(_LAZY[name], __name__)
    elif name in _HOME:
        value = getattr(importlib.import_module(_HOME[name], __name__), name)
    else:
        raise AttributeError(f"module 'coursekit' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, *_HOME})


__all__ = [
    "Confusion",
    "Evaluation",
    "Measure",
    "MorParts",
    "STANDARD_RECALL_LEVELS",
    "TestResult",
    "accuracy",
    "alpha_dcg",
    "alpha_ndcg",
    "ap_ia",
    "as_qrels_frame",
    "as_run_frame",
    "as_subtopic_qrels_frame",
    "average_precision",
    "bootstrap_ci",
    "bpref",
    "cohen_kappa",
    "cohens_dz",
    "concordant_pairs",
    "confusion",
    "cumulative_gain",
    "curve_area",
    "dcg",
    "dcg_curve",
    "discounted_gains",
    "dz_interval",
    "e_measure",
    "err",
    "err_ia",
    "evaluate",
    "evaluate_diversity",
    "f_measure",
    "f_prime",
    "fleiss_kappa",
    "gain_percent",
    "geometric_mean_average_precision",
    "holm",
    "ideal_diversity_ranking",
    "ideal_gains",
    "infap",
    "interpolate_points",
    "interpolated_step",
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
    "ndcg_ia",
    "nerr_ia",
    "nnrbp",
    "normalised_curve",
    "novelty_gains",
    "nrbp",
    "paired_t_test",
    "parse_measure",
    "positions",
    "power_paired_t",
    "pr_table",
    "precision",
    "precision_at",
    "precision_ia",
    "pres",
    "qrels_to_dict",
    "r_precision",
    "randomization_test",
    "rbp",
    "read_qrels",
    "read_run",
    "read_subtopic_qrels",
    "recall",
    "recall_at",
    "reciprocal_rank",
    "rels_from_ranks",
    "rnorm",
    "run_to_dict",
    "set_language",
    "sort_run",
    "spearman_rho",
    "subtopic_qrels_to_dict",
    "subtopic_recall",
    "topic_set_size",
    "wilcoxon_test",
    "write_qrels",
    "write_run",
    "write_subtopic_qrels",
]
