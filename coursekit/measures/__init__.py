"""The measures of the course, one function each: pure numpy, no pandas, no I/O.

- :mod:`.setbased`: confusion matrix, precision, recall, F, E (chapter 01);
- :mod:`.ranked`: P(k), R(k), AP, MAP, GMAP, P@k, R-precision, RR; :mod:`.interpolation`:
  interpolated precision at recall levels (chapters 02-04);
- :mod:`.graded`: CG, DCG, nDCG and their curves (chapter 05);
- :mod:`.recall_oriented`: R_norm, PRES, MOR (chapter 06);
- :mod:`.correlation`: Spearman's rho, Kendall's tau (chapter 07);
- :mod:`.significance`: gain, paired t-test, Wilcoxon, randomization test, bootstrap (chapter 08),
  on scores checked and paired by :mod:`.paired`;
- :mod:`.power`: effect size d_z, power, topic set size, Holm–Bonferroni (chapter 08);
- :mod:`.agreement`: Cohen's and Fleiss' kappa; :mod:`.incomplete`: bpref, infAP, condensed
  lists (chapter 09);
- :mod:`.user`: RBP, ERR; :mod:`.clicks`, :mod:`.interleaving`, :mod:`.online`: click models,
  interleaving, simulated A/B and interleaving experiments; :mod:`.simulation`: the same
  sessions in bulk (chapter 10);
- :mod:`.diversity`: novelty gains, the greedy ideal ranking, alpha-DCG, alpha-nDCG, ERR-IA,
  nERR-IA, NRBP, nNRBP; :mod:`.intent_aware`: S-recall, P-IA, AP-IA, nDCG-IA (chapter 11).
"""

from __future__ import annotations

from .agreement import agreement_table, cohen_kappa, fleiss_kappa, rating_table
from .clicks import cascade_clicks, position_based_clicks
from .correlation import aligned, kendall_tau, positions, spearman_rho
from .diversity import (
    alpha_dcg,
    alpha_ndcg,
    err_ia,
    ideal_diversity_ranking,
    judged_subtopics,
    nerr_ia,
    nnrbp,
    novelty_gains,
    nrbp,
)
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
from .incomplete import bpref, condensed, infap, judge_incomplete, judgment_counts
from .intent_aware import ap_ia, ndcg_ia, precision_ia, subtopic_recall
from .interleaving import (
    balanced_interleave,
    common_prefix,
    credit_balanced,
    credit_clicks,
    team_draft_interleave,
)
from .interpolation import (
    STANDARD_RECALL_LEVELS,
    interpolate_points,
    interpolated_precision,
    interpolated_step,
)
from .online import simulate_ab, simulate_interleaving
from .power import cohens_dz, dz_interval, holm, power_paired_t, topic_set_size
from .ranked import (
    average_precision,
    geometric_mean_average_precision,
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
from .simulation import CLICK_MODELS, INTERLEAVINGS, SessionSimulator, default_attractiveness
from .user import RBPResult, err, rbp

__all__ = [
    "CLICK_MODELS",
    "Confusion",
    "INTERLEAVINGS",
    "MorParts",
    "RBPResult",
    "STANDARD_RECALL_LEVELS",
    "SessionSimulator",
    "TestResult",
    "VARIANTS",
    "accuracy",
    "agreement_table",
    "aligned",
    "alpha_dcg",
    "alpha_ndcg",
    "ap_ia",
    "average_precision",
    "balanced_interleave",
    "bootstrap_ci",
    "bpref",
    "cascade_clicks",
    "cohen_kappa",
    "cohens_dz",
    "common_prefix",
    "condensed",
    "confusion",
    "credit_balanced",
    "credit_clicks",
    "cumulative_gain",
    "curve_area",
    "dcg",
    "dcg_curve",
    "default_attractiveness",
    "discounted_gains",
    "dz_interval",
    "e_measure",
    "err",
    "err_ia",
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
    "judge_incomplete",
    "judged_subtopics",
    "judgment_counts",
    "kendall_tau",
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
    "position_based_clicks",
    "positions",
    "power_paired_t",
    "precision",
    "precision_at",
    "precision_ia",
    "pres",
    "r_precision",
    "randomization_test",
    "rating_table",
    "rbp",
    "recall",
    "recall_at",
    "reciprocal_rank",
    "rels_from_ranks",
    "rnorm",
    "simulate_ab",
    "simulate_interleaving",
    "spearman_rho",
    "subtopic_recall",
    "team_draft_interleave",
    "topic_set_size",
    "wilcoxon_test",
]
