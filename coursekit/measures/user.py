"""User-model measures: rank-biased precision (RBP) and expected reciprocal rank (ERR).

Both describe a user who reads the ranking from the top and stops at some point; the measure is
the expected utility the user gets.

* **RBP** (Moffat & Zobel 2008): after each document the user goes on to the next one with
  probability p (the *persistence*), whatever they saw. The expected number of documents read
  is 1 / (1 − p): p = 0.5 models an impatient user, p = 0.8 an average one, p = 0.95 a
  persistent one.
* **ERR** (Chapelle, Metzler, Zhang & Grinspan 2009): the cascade model — the user stops at
  a document with the probability that it satisfies them, so a highly relevant document
  discounts every document below it.

``grades`` are relevance grades in rank order (a grade >= 1 is relevant, negative grades gain
nothing); ``nan`` or ``None`` marks an unjudged document (see :mod:`.incomplete`).

English / French / Italian: persistence / persistance / persistenza; expected reciprocal rank /
rang réciproque espéré / rango reciproco atteso.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..validation import RELEVANCE_THRESHOLD, check_k, check_scalar, refuse_unordered
from .incomplete import as_incomplete_grades

__all__ = ["RBPResult", "err", "rbp"]


class RBPResult(NamedTuple):
    """RBP's value and its residual: the true RBP lies in [value, value + residual]."""

    value: float
    residual: float


def check_max_grade(max_grade: object, g: np.ndarray) -> float:
    """The top grade of the scale: a number > 0, at least every judged grade of ``g``."""
    check_scalar(
        max_grade,
        "max_grade",
        numbers.Real,
        what="a number (the highest grade of the scale)",
        min_val=0,
        include_boundaries="neither",
    )
    judged = g[~np.isnan(g)]
    if judged.size and judged.max() > max_grade:
        rank = int(np.flatnonzero(g == judged.max())[0]) + 1
        raise ValueError(
            f"grades[{rank - 1}] (rank {rank}) is {judged.max():g}, above max_grade={max_grade}: "
            "max_grade must be the highest grade of the scale"
        )
    return float(max_grade)


def stop_probability(grade: np.ndarray, top: float) -> np.ndarray:
    """ERR's R = (2^g − 1) / 2^top for grades ``g`` (at least 0) and the maximum grade ``top``:
    computed as 2^(g − top) − 2^−top where 2^top overflows a float (top >= 1024).

    >>> stop_probability(np.array([0.0, 1.0, 2.0]), 2.0).tolist()
    [0.0, 0.25, 0.75]
    """
    if top < 1024:
        return (np.exp2(grade) - 1.0) / np.exp2(top)
    with np.errstate(under="ignore"):
        return np.exp2(grade - top) - np.exp2(-top)


def rbp(
    grades: Sequence[float | None], p: float = 0.8, max_grade: float | None = None
) -> RBPResult:
    """Rank-biased precision and its residual.

    RBP = (1 − p) · Σ_{i=1..d} r_i · p^(i−1) for a ranking of depth d, where r_i is 1 for a
    relevant document (grade >= 1) and 0 otherwise, or, given ``max_grade``, the graded
    r_i = grade / max_grade (negative grades count 0). Unjudged documents (``nan``) count 0.

    The residual is what the unknown documents could still add: every document below depth d
    contributes at most (1 − p) Σ_{i>d} p^(i−1) = p^d, and each unjudged document at rank i
    within the ranking at most (1 − p) p^(i−1). So RBP lies in [value, value + residual];
    Moffat & Zobel report it as "value + residual".

    Reference: A. Moffat & J. Zobel, "Rank-biased precision for measurement of retrieval
    effectiveness", ACM TOIS 27(1), 2008.

    Relevant at ranks 1 and 3, rank 2 unjudged, p = 0.5: RBP = 0.5 · (1 + 0.5²) = 0.625;
    residual = 0.5 · 0.5 (rank 2) + 0.5³ (below depth 3) = 0.375. A judged non-relevant
    document at rank 4 adds nothing and shrinks the residual to 0.25 + 0.5⁴:

    >>> rbp([1, None, 1], p=0.5)
    RBPResult(value=0.625, residual=0.375)
    >>> rbp([1, None, 1, 0], p=0.5)
    RBPResult(value=0.625, residual=0.3125)
    """
    refuse_unordered(grades, "grades")
    g = as_incomplete_grades(grades)
    p = float(
        check_scalar(
            p,
            "p",
            numbers.Real,
            what="a persistence probability",
            min_val=0,
            max_val=1,
            include_boundaries="left",
        )
    )
    unjudged = np.isnan(g)
    if max_grade is None:
        gain = np.where(unjudged, 0.0, (np.nan_to_num(g) >= RELEVANCE_THRESHOLD).astype(float))
    else:
        top = check_max_grade(max_grade, g)
        gain = np.where(unjudged, 0.0, np.clip(np.nan_to_num(g), 0.0, None) / top)
    weights = (1.0 - p) * p ** np.arange(g.size, dtype=float)
    value = float(np.dot(gain, weights))
    residual = float(weights[unjudged].sum() + p**g.size)
    return RBPResult(value, residual)


def err(grades: Sequence[float | None], max_grade: float, k: int | None = None) -> float:
    """Expected reciprocal rank of the cascade model, at cut-off k (the whole list if None).

    R_i = (2^g_i − 1) / 2^g_max is the probability that the document at rank i satisfies the
    user (g_max = ``max_grade``; negative and unjudged grades count 0). The user stops at rank r
    with probability R_r Π_{i<r} (1 − R_i), and the utility of stopping at r is 1/r:

        ERR = Σ_{r=1..k} (1/r) · R_r · Π_{i=1..r−1} (1 − R_i).

    Reference: O. Chapelle, D. Metzler, Y. Zhang & P. Grinspan, "Expected reciprocal rank for
    graded relevance", CIKM 2009.

    Grades 0..2: R = (2² − 1)/4 = 0.75 for grade 2, 0.25 for grade 1. For [2, 1]:
    ERR = 0.75 + (1/2) · 0.25 · (1 − 0.75) = 0.78125:

    >>> err([2, 1], max_grade=2)
    0.78125
    >>> err([0, 2, 1], max_grade=2, k=2)
    0.375
    """
    refuse_unordered(grades, "grades")
    g = as_incomplete_grades(grades)
    top = check_max_grade(max_grade, g)
    if k is not None:
        g = g[: check_k(k)]
    grade = np.where(np.isnan(g), 0.0, np.clip(np.nan_to_num(g), 0.0, None))
    satisfied = stop_probability(grade, top)
    still_looking = np.concatenate(([1.0], np.cumprod(1.0 - satisfied)[:-1]))
    ranks = np.arange(1, g.size + 1, dtype=float)
    return float(np.sum(satisfied * still_looking / ranks))
