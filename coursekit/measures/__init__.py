"""The measures of the course, one function each: pure numpy, no pandas, no I/O.

- :mod:`.setbased`: confusion matrix, precision, recall, F, E (chapter 01);
- :mod:`.ranked`: P(k), R(k), curves and interpolation, AP, MAP, GMAP, P@k, R-precision, RR
  (chapters 02-04);
- :mod:`.graded`: CG, DCG, nDCG and their curves (chapter 05);
- :mod:`.recall_oriented`: R_norm, PRES, MOR (chapter 06);
- :mod:`.correlation`: Spearman's rho, Kendall's tau (chapter 07);
- :mod:`.significance`: gain, paired t-test, Wilcoxon, randomization test, bootstrap (chapter 08).
"""

from __future__ import annotations

from .correlation import aligned, kendall_tau, positions, spearman_rho
from .graded import (
    VARIANTS,
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
    precision_at,
    r_precision,
    recall_at,
    reciprocal_rank,
    rels_from_ranks,
)
from .recall_oriented import MorParts, f_prime, mor, mor_ap_bounds, mor_parts, pres, rnorm
from .setbased import Confusion, accuracy, confusion, e_measure, f_measure, precision, recall
from .significance import (
    TestResult,
    bootstrap_ci,
    gain_percent,
    paired_t_test,
    randomization_test,
    wilcoxon_test,
)

__all__ = [
    "Confusion",
    "MorParts",
    "STANDARD_RECALL_LEVELS",
    "TestResult",
    "VARIANTS",
    "accuracy",
    "average_precision",
    "bootstrap_ci",
    "aligned",
    "confusion",
    "cumulative_gain",
    "curve_area",
    "dcg",
    "dcg_curve",
    "discounted_gains",
    "e_measure",
    "f_measure",
    "f_prime",
    "gain_percent",
    "geometric_mean_average_precision",
    "ideal_gains",
    "interpolate_points",
    "interpolated_precision",
    "judge",
    "kendall_tau",
    "mean_average_precision",
    "mean_curve",
    "mean_reciprocal_rank",
    "mor",
    "mor_ap_bounds",
    "mor_parts",
    "ndcg",
    "normalised_curve",
    "paired_t_test",
    "positions",
    "precision",
    "precision_at",
    "pres",
    "r_precision",
    "randomization_test",
    "recall",
    "recall_at",
    "reciprocal_rank",
    "rels_from_ranks",
    "rnorm",
    "spearman_rho",
    "wilcoxon_test",
]
