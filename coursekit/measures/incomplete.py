"""Measures for incomplete judgments: bpref, infAP and the condensed list (AP', nDCG').

Pooling judges only some of the documents a run retrieves. AP and nDCG count every unjudged
document as non-relevant, which penalises a new system whose documents were never pooled. The
measures here use only what was judged, or estimate what was not.

**Convention.** ``grades`` are the grades of a ranked list in rank order, as elsewhere in
coursekit (a grade >= 1 is relevant; 0 and negative grades are judged non-relevant), with
``nan`` (or ``None``) marking an **unjudged** document. infAP needs one more distinction: an
unjudged document that *was in the judging pool* but left out of the judged sample. It takes a
separate boolean array ``pooled``, True for such documents (for judged documents it is ignored).

trec_eval reads a qrels line with a negative grade as "in the pool, not judged" (its
RELVALUE_UNJUDGED) and a document absent from the qrels as "not in the pool"
(RELVALUE_NONPOOL). :func:`judge_incomplete` turns a ranking and such qrels into ``grades`` and
``pooled`` the same way, and :func:`judgment_counts` gives ``n_relevant`` and ``n_nonrelevant``
as trec_eval counts them; with those, :func:`bpref` and :func:`infap` equal trec_eval's
``bpref`` and ``infAP`` (tested against pytrec_eval).

English / French / Italian: incomplete judgments / jugements incomplets / giudizi incompleti;
unjudged document / document non jugé / documento non giudicato.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..validation import (
    RELEVANCE_THRESHOLD,
    as_grades,
    check_n_relevant,
    check_scalar,
    first_ranks,
)

__all__ = [
    "INFAP_EPSILON",
    "as_incomplete_grades",
    "bpref",
    "condensed",
    "infap",
    "judge_incomplete",
    "judgment_counts",
]

#: trec_eval's smoothing constant in infAP's estimate of precision among judged documents.
INFAP_EPSILON = 0.00001


def _is_missing(item: Any) -> bool:
    return item is None or (isinstance(item, numbers.Real) and item != item)


def as_incomplete_grades(grades: Any, name: str = "grades") -> np.ndarray:
    """``grades`` as a 1-D float array in which ``nan`` marks an unjudged document.

    ``None`` and ``nan`` both mean unjudged; every other entry must be a finite number.

    >>> as_incomplete_grades([2, None, 0, float("nan")]).tolist()
    [2.0, nan, 0.0, nan]
    """
    if isinstance(grades, np.ndarray) and grades.dtype.kind == "f":
        missing = np.isnan(grades) if grades.ndim == 1 else None
        filled = np.where(missing, 0.0, grades) if missing is not None else grades
    elif isinstance(grades, (str, bytes, dict, np.ndarray)) or not isinstance(grades, Iterable):
        missing, filled = None, grades  # as_grades explains what is wrong (or accepts ints)
    else:
        items = list(grades)
        missing = np.array([_is_missing(item) for item in items], dtype=bool)
        filled = [0 if m else item for item, m in zip(items, missing, strict=True)]
    array = as_grades(filled, name).copy()
    if missing is not None and missing.size:
        array[missing] = np.nan
    return array


def _check_count(value: Any, name: str, found: int, what: str) -> int:
    """A count of judged documents of the query, at least the ``found`` ones retrieved."""
    check_scalar(
        value, name, numbers.Integral, what=f"an integer (the number of {what})", min_val=0
    )
    if found > value:
        raise ValueError(
            f"{name}={value} is smaller than the {found} {what} the ranking retrieves: "
            f"{name} counts every {what[:-1]} of the query, retrieved or not"
        )
    return int(value)


def condensed(grades: Sequence[float | None]) -> np.ndarray:
    """The condensed list: the ranking with its unjudged documents removed (Sakai 2007).

    Computing AP or nDCG on it gives AP' and nDCG' (``average_precision(condensed(g), R)``,
    ``ndcg(condensed(g), ideal=judged_grades)``): unjudged documents are neither rewarded nor
    penalised, and the judged ones move up. This is what trec_eval's ``-J`` flag does.

    Reference: T. Sakai, "Alternatives to Bpref", SIGIR 2007.

    >>> condensed([1, None, 0, float("nan"), 2]).tolist()
    [1.0, 0.0, 2.0]
    """
    g = as_incomplete_grades(grades)
    return g[~np.isnan(g)]


def judge_incomplete(
    ranking: Sequence[Any], qrels: Mapping[Any, float]
) -> tuple[np.ndarray, np.ndarray]:
    """``(grades, pooled)`` of a ranking, reading the qrels as trec_eval does.

    A document absent from ``qrels`` is unjudged and outside the pool (``nan``, not pooled); a
    negative grade in ``qrels`` marks a document in the pool that was not judged (``nan``,
    pooled); any other grade is a judgment.

    >>> grades, pooled = judge_incomplete(["d1", "d2", "d3"], {"d1": 1, "d3": -1})
    >>> grades.tolist(), pooled.tolist()
    ([1.0, nan, nan], [False, False, True])
    """
    if isinstance(ranking, (str, bytes)) or not isinstance(ranking, Iterable):
        raise TypeError(f"ranking must be a sequence of document ids, got {type(ranking).__name__}")
    if not isinstance(qrels, Mapping):
        raise TypeError(f"qrels must map document ids to grades, got {type(qrels).__name__}")
    docs = list(ranking)
    first_ranks(docs, "ranking")
    raw = as_grades([qrels[d] for d in docs if d in qrels], "qrels values")
    grades = np.full(len(docs), np.nan)
    pooled = np.zeros(len(docs), dtype=bool)
    in_qrels = np.array([d in qrels for d in docs], dtype=bool)
    judged = raw >= 0
    grades[np.flatnonzero(in_qrels)[judged]] = raw[judged]
    pooled[np.flatnonzero(in_qrels)[~judged]] = True
    return grades, pooled


def judgment_counts(qrels: Mapping[Any, float] | Iterable[float]) -> tuple[int, int]:
    """``(n_relevant, n_nonrelevant)`` of a query's qrels as trec_eval counts them.

    Relevant: grade >= 1; non-relevant: 0 <= grade < 1. Negative grades (pooled, unjudged) are
    neither. ``qrels`` is a mapping document -> grade, or the grades alone.

    >>> judgment_counts({"d1": 2, "d2": 0, "d3": -1, "d4": 1, "d5": 0})
    (2, 2)
    """
    values = qrels.values() if isinstance(qrels, Mapping) else qrels
    g = as_grades(list(values) if not isinstance(values, np.ndarray) else values, "qrels values")
    relevant = int(np.count_nonzero(g >= RELEVANCE_THRESHOLD))
    nonrelevant = int(np.count_nonzero((g >= 0) & (g < RELEVANCE_THRESHOLD)))
    return relevant, nonrelevant


def bpref(grades: Sequence[float | None], n_relevant: int, n_nonrelevant: int) -> float:
    """bpref: how often judged relevant documents come before judged non-relevant ones.

    bpref = (1/R) Σ_{r relevant retrieved} (1 − min(|n ranked above r|, R) / min(N, R)),

    where R = ``n_relevant`` and N = ``n_nonrelevant`` are the numbers of judged relevant and
    judged non-relevant documents of the query, and n ranges over the judged non-relevant
    documents retrieved. A relevant document with no judged non-relevant one above it
    contributes 1. Unjudged documents (``nan``) are skipped; 0 when R = 0. This is trec_eval's
    ``bpref`` (m_bpref.c). The paper writes 1 − |n ranked above r| / R with n among the first
    R judged non-relevant documents retrieved; trec_eval keeps that cap at R but divides by
    min(N, R), so that a query with fewer judged non-relevant than relevant documents can
    still score 0.

    Reference: C. Buckley & E. M. Voorhees, "Retrieval evaluation with incomplete
    information", SIGIR 2004.

    R = 2, N = 3: the first relevant document has no judged non-relevant one above it (1), the
    second has one (1 − 1/2); the unjudged document is skipped:

    >>> bpref([1, None, 0, 2], n_relevant=2, n_nonrelevant=3)
    0.75
    """
    g = as_incomplete_grades(grades)
    judged = ~np.isnan(g)
    relevant = judged & (g >= RELEVANCE_THRESHOLD)
    nonrelevant = judged & (g < RELEVANCE_THRESHOLD)
    n_relevant = check_n_relevant(n_relevant, relevant)
    n_nonrelevant = _check_count(
        n_nonrelevant,
        "n_nonrelevant",
        int(np.count_nonzero(nonrelevant)),
        "judged non-relevant documents",
    )
    if n_relevant == 0:
        return 0.0
    above = np.cumsum(nonrelevant)[relevant]  # judged non-relevant at ranks above each relevant
    denominator = max(min(n_nonrelevant, n_relevant), 1)
    scores = np.where(above > 0, 1.0 - np.minimum(above, n_relevant) / denominator, 1.0)
    return float(scores.sum() / n_relevant)


def infap(
    grades: Sequence[float | None],
    n_relevant: int,
    pooled: Sequence[bool] | None = None,
) -> float:
    """Inferred AP: AP estimated from a random sample of the judging pool.

    infAP = (1/R) Σ_{k: judged relevant} E[P@k], with E[P@1] = 1 and, for k > 1,

        E[P@k] = 1/k + ((k − 1)/k) · (|pool above k| / (k − 1)) · (rel + ε) / (rel + nonrel + 2ε)

    where |pool above k| counts the documents above rank k that were in the pool (judged, or
    ``pooled`` and unjudged), rel and nonrel count the judged relevant and non-relevant
    documents above k, and ε = 0.00001. Documents above k outside the pool are assumed
    non-relevant; pooled but unjudged ones are assumed relevant in the same proportion as the
    judged ones. R = ``n_relevant`` (judged relevant documents of the query); 0 when R = 0.
    With every document judged, infAP equals AP up to ε. This is trec_eval's ``infAP``
    (m_infap.c).

    ``pooled`` (optional, same length as ``grades``) is True for an unjudged document that was
    in the pool but not in the judged sample (trec_eval: a negative grade in the qrels); by
    default no unjudged document is in the pool.

    Reference: E. Yilmaz & J. A. Aslam, "Estimating average precision with incomplete and
    imperfect judgments", CIKM 2006.

    Rank 3 is relevant; above it one relevant and one pooled, unjudged document:
    E[P@3] = 1/3 + (2/3) · (2/2) · (1 + ε)/(1 + 2ε) ≈ 1, so infAP ≈ (1 + 1) / 2:

    >>> round(infap([1, None, 2], n_relevant=2, pooled=[False, True, False]), 4)
    1.0
    >>> round(infap([1, None, 2], n_relevant=2), 4)
    0.8333
    """
    g = as_incomplete_grades(grades)
    judged = ~np.isnan(g)
    if pooled is None:
        in_pool = judged.copy()
    else:
        if isinstance(pooled, (str, bytes)) or not isinstance(pooled, (Iterable, np.ndarray)):
            raise TypeError(
                "pooled must be a sequence of True/False, one per rank, got "
                f"{type(pooled).__name__}"
            )
        flags = np.asarray(pooled if isinstance(pooled, np.ndarray) else list(pooled))
        if flags.ndim != 1 or flags.size != g.size:
            raise ValueError(
                f"pooled must hold one True/False per rank: grades has {g.size} ranks, "
                f"pooled has shape {flags.shape}"
            )
        if flags.size and flags.dtype != bool:
            raise TypeError(f"pooled must hold True or False values, got dtype {flags.dtype}")
        in_pool = judged | flags.astype(bool)
    relevant = judged & (g >= RELEVANCE_THRESHOLD)
    nonrelevant = judged & (g < RELEVANCE_THRESHOLD)
    n_relevant = check_n_relevant(n_relevant, relevant)
    if n_relevant == 0:
        return 0.0
    j = np.flatnonzero(relevant).astype(float)  # 0-based rank index of each relevant document
    rel_above = np.cumsum(relevant)[relevant] - 1.0
    nonrel_above = np.cumsum(nonrelevant)[relevant].astype(float)
    pool_above = np.cumsum(in_pool)[relevant] - 1.0
    safe_j = np.where(j > 0, j, 1.0)
    estimate = 1.0 / (j + 1.0) + (j / (j + 1.0)) * (pool_above / safe_j) * (
        (rel_above + INFAP_EPSILON) / (rel_above + nonrel_above + 2 * INFAP_EPSILON)
    )
    estimate = np.where(j == 0, 1.0, estimate)
    return float(estimate.sum() / n_relevant)
