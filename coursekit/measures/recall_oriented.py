"""Recall-oriented measures: F', normalised recall, PRES and MOR.

For tasks where the user wants every relevant document (patent search, systematic medical
reviews, legal discovery), following Audeh, Beaune & Beigbeder, "MOR : Mesure orientée rappel
pour les systèmes de recherche d'information", Document numérique 18(1), 2015.

``rels`` are grades in rank order (grade >= 1 is relevant), ``n_relevant`` the number of relevant
documents of the query, ``n_max`` the number of documents the user is prepared to examine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..validation import (
    as_binary,
    check_n_relevant,
    check_positive_int,
    check_unit_interval,
    refuse_unordered,
)
from .ranked import average_precision
from .setbased import f_measure

__all__ = ["f_prime", "rnorm", "pres", "MorParts", "mor_parts", "mor_ap_bounds", "mor"]


def f_prime(ap: float, recall: float, beta: float = 1.0) -> float:
    """F'_beta: F_beta with average precision in place of precision (Audeh et al. 2015, eq. 4).

    F'_beta = (1 + beta²) · AP · R / (beta² · AP + R).

    >>> round(f_prime(0.25, 0.25, beta=4), 3)
    0.25
    """
    check_unit_interval(ap, "ap")  # named here: f_measure would call it precision
    return f_measure(ap, recall, beta)


def _rank_sum_with_missing(relevant: np.ndarray, n_relevant: int, worst_start: int) -> int:
    """The sum of the ranks of the relevant documents; the i-th relevant one that is missing
    gets rank ``worst_start + i``, its rank in the worst case (all relevant documents after the
    others). Summed in Python ints, without a list of the missing ranks (n_relevant may be
    huge)."""
    found = np.flatnonzero(relevant) + 1
    f, n = int(found.size), n_relevant
    # Σ_{i=f+1..n} (worst_start + i)
    missing = (n - f) * worst_start + (n * (n + 1) - f * (f + 1)) // 2
    return int(found.sum()) + missing


def rnorm(rels: Sequence[float], n_relevant: int, n_docs: int) -> float:
    """Normalised recall (Rocchio 1964; van Rijsbergen 1979) over a collection of ``n_docs``.

    Rnorm = 1 − (Σ r_i − Σ_{i=1..n} i) / (n · (N − n)), with r_i the ranks of the n relevant
    documents in a ranking of the whole collection of N documents: 1 when they come first,
    0 when they come last. Relevant documents missing from ``rels`` are placed at the worst
    ranks (N − n + i). 0 when the query has no relevant document; 1 when every document is
    relevant.

    >>> rnorm([1, 0, 1, 0], n_relevant=2, n_docs=4)
    0.75
    """
    refuse_unordered(rels, "rels")
    relevant = as_binary(rels)
    n = check_n_relevant(n_relevant, relevant)
    n_docs = check_positive_int(n_docs, "n_docs")
    missing = n - int(relevant.sum())
    if relevant.size + missing > n_docs:
        raise ValueError(
            f"n_docs={n_docs} is too small: the ranking holds {relevant.size} documents and "
            f"{missing} relevant document(s) are missing from it, {relevant.size + missing} in all"
        )
    if n == 0:
        return 0.0
    if n == n_docs:
        return 1.0
    rank_sum = _rank_sum_with_missing(relevant, n, n_docs - n)
    return float(1.0 - (rank_sum - n * (n + 1) / 2) / (n * (n_docs - n)))


def pres(rels: Sequence[float], n_relevant: int, n_max: int) -> float:
    """PRES, the patent retrieval evaluation score (Magdy & Jones 2010).

    PRES = 1 − (Σ r_i / n − (n + 1) / 2) / N_max over the first N_max ranks. A relevant
    document not found in the first N_max is placed just after them, at the rank it would have
    in the worst case: the i-th relevant document, if missing, gets rank N_max + i. Audeh et
    al. (2015) write this sum of ranks as their eq. 7, misprinted with nR (the documents found)
    where n(1 − R) (those missing) belongs (chapter 06). 1 when every relevant document comes
    first, 0 when none is found in the first N_max.

    >>> pres([1] + [0] * 99, n_relevant=4, n_max=100)
    0.25
    """
    refuse_unordered(rels, "rels")
    relevant = as_binary(rels)
    n = check_n_relevant(n_relevant, relevant)
    n_max = check_positive_int(n_max, "n_max")
    if n == 0:
        return 0.0
    rank_sum = _rank_sum_with_missing(relevant[:n_max], n, n_max)
    return float(1.0 - (rank_sum / n - (n + 1) / 2) / n_max)


class MorParts(NamedTuple):
    """The ingredients of MOR for one ranked list (Audeh et al. 2015, section 4)."""

    h: int  #: height: relevant documents found in the first N_max ranks
    w: int  #: width: rank of the last of them (0 when none is found)
    ap: float  #: average precision of the list cut at N_max
    ap_worst: float  #: AP0, the lowest AP possible for this h and w
    ap_best: float  #: AP1, the highest AP possible for this h and w
    g: float  #: g_{h,w}(AP) in [0, 1], where AP lies between AP0 and AP1 (eq. 11)


def mor_ap_bounds(h: int, w: int, n_relevant: int) -> tuple[float, float]:
    """(AP0, AP1): the worst and best average precision for h relevant documents, the last at w.

    Worst: the h relevant documents are the ranks w − h + 1 .. w, so
    AP0 = (1/n) · Σ_{i=1..h} i / (w − h + i). Best: h − 1 of them at ranks 1 .. h − 1 and the
    last at w, so AP1 = (1/n) · (h − 1 + h / w) (Audeh et al. 2015, eq. 12; its text swaps the
    words "best" and "worst", its Table 4 has them right).

    >>> mor_ap_bounds(2, 3, n_relevant=2)
    (0.5833333333333333, 0.8333333333333333)
    """
    n = check_n_relevant(n_relevant)
    h = check_positive_int(h, "h")
    w = check_positive_int(w, "w")
    if w < h:
        raise ValueError(f"the last of h={h} relevant documents cannot be at rank w={w} < h")
    if h > n:
        raise ValueError(f"h={h} relevant documents found but n_relevant={n}")
    worst = 0.0
    for start in range(1, h + 1, _CHUNK):  # in chunks: h can be in the billions
        i = np.arange(start, min(start + _CHUNK, h + 1), dtype=np.float64)
        worst += float((i / (w - h + i)).sum())
    return worst / n, float((h - 1 + h / w) / n)


_CHUNK = 1 << 20  #: terms of AP0 summed at once by :func:`mor_ap_bounds`


def mor_parts(rels: Sequence[float], n_relevant: int, n_max: int) -> MorParts:
    """Compute h, w, AP, AP0, AP1 and g for :func:`mor`.

    >>> parts = mor_parts([1, 0, 1], n_relevant=2, n_max=3)
    >>> parts.h, parts.w, round(parts.ap, 4), round(parts.ap_worst, 4), parts.g
    (2, 3, 0.8333, 0.5833, 1.0)
    """
    refuse_unordered(rels, "rels")
    relevant = as_binary(rels)
    n = check_n_relevant(n_relevant, relevant)
    n_max = check_positive_int(n_max, "n_max")
    top = relevant[:n_max]
    hits = np.flatnonzero(top)
    h = int(hits.size)
    if h == 0:
        return MorParts(0, 0, 0.0, 0.0, 0.0, 0.0)
    w = int(hits[-1] + 1)
    ap = average_precision(top, n)
    ap_worst, ap_best = mor_ap_bounds(h, w, n)
    # AP0 = AP1 exactly when w = h (a single configuration) or h = 1 (both are 1 / (n·w)):
    # eq. 11 then uses AP itself.
    g = ap if (w == h or h == 1) else (ap - ap_worst) / (ap_best - ap_worst)
    return MorParts(h, w, ap, ap_worst, ap_best, float(min(max(g, 0.0), 1.0)))


def mor(rels: Sequence[float], n_relevant: int, n_max: int) -> float:
    """MOR, the recall-oriented measure of Audeh, Beaune & Beigbeder (2015), eqs. 9 to 12.

    MOR = (h + g_h(w, AP)) / (min(n, N_max) + 1) with
    g_h(w, AP) = (N_max − w + g_{h,w}(AP)) / (N_max − h + 1), i.e.

        MOR = (h·(N_max − h + 1) + N_max − w + g) / ((min(n, N_max) + 1)·(N_max − h + 1))

    and MOR = 0 when h = 0. It ranks lists by h (recall at N_max) first, then by w (earlier
    last relevant document is better), then by AP (see :func:`mor_parts`). MOR = 1 when all
    n <= N_max relevant documents come first.

    >>> round(mor([1] + [0] * 99, n_relevant=4, n_max=100), 4)
    0.3985
    """
    parts = mor_parts(rels, n_relevant, n_max)
    if parts.h == 0:
        return 0.0
    n_max = int(n_max)
    h, w, g = parts.h, parts.w, parts.g
    numerator = h * (n_max - h + 1) + n_max - w + g
    return float(numerator / ((min(int(n_relevant), n_max) + 1) * (n_max - h + 1)))
