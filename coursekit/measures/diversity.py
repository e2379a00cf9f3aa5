"""Diversity and novelty: measures that reward a ranking for covering every subtopic (intent)
of a query, and for not repeating what the user has already seen (chapter 11).

A query's **subtopic judgments** map each judged document to its grade for each subtopic,
``{doc: {subtopic: grade}}``, as a TREC Web track diversity qrels file gives them
(:func:`coursekit.read_subtopic_qrels`). A grade >= 1 is relevant to that subtopic; a document
judged for no subtopic (``{}``, or grades 0 only) is judged but relevant to none. Every measure
here follows ndeval (the TREC Web track's tool, v4.5): the subtopics S of the query are those
with at least one relevant document (a subtopic nobody found relevant is ignored), each weighs
1 / |S| (uniform intent weights), a query with no such subtopic scores 0, and a document absent
from the judgments is not relevant.

With c(r, s) the number of documents above rank r relevant to subtopic s, the **novelty gain**
of rank r (Clarke et al. 2008) is G_r = Σ_{s relevant to d_r} (1 − α)^{c(r, s)}: a subtopic
already seen gains less each time, α being the user's intolerance of redundancy.

The functions of the intent-aware family (S-recall, P-IA, AP-IA, nDCG-IA) are in
:mod:`.intent_aware`.

English / French / Italian: subtopic / sous-thème / sottotema; novelty / nouveauté / novità;
diversity / diversité / diversità.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..validation import (
    RELEVANCE_THRESHOLD,
    check_k,
    check_positive_int,
    check_scalar,
    describe,
    first_ranks,
    refuse_unordered,
)

__all__ = [
    "Judged",
    "SubtopicJudgments",
    "alpha_dcg",
    "alpha_ndcg",
    "err_ia",
    "ideal_diversity_ranking",
    "judged_subtopics",
    "nerr_ia",
    "nnrbp",
    "novelty_gains",
    "nrbp",
]

#: One query's subtopic judgments: ``{doc: {subtopic: grade}}``.
SubtopicJudgments = Mapping[Hashable, Mapping[Hashable, float]]


@dataclass(frozen=True)
class Judged:
    """One query's subtopic judgments, checked (see :func:`judged_subtopics`)."""

    subtopics: tuple  #: the subtopics with a relevant document, in the order first seen
    covers: dict  #: doc -> indexes (in ``subtopics``) of the subtopics it is relevant to
    grades: Mapping  #: the judgments as given, {doc: {subtopic: grade}}


def judged_subtopics(judgments: SubtopicJudgments) -> Judged:
    """Check one query's subtopic judgments ``{doc: {subtopic: grade}}``: the subtopics with a
    relevant document (grade >= 1) and, for each document, those it is relevant to.

    >>> judged = judged_subtopics({"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"c": 0}})
    >>> judged.subtopics, judged.covers
    (('a', 'b'), {'d1': (0, 1), 'd2': (0,)})
    """
    if isinstance(judgments, Judged):
        return judgments
    if not isinstance(judgments, Mapping):
        raise TypeError(
            "judgments must map each judged document to its grade for each subtopic, "
            "{doc: {subtopic: grade}} (one query's subtopic judgments, as "
            "coursekit.read_subtopic_qrels reads them; coursekit.evaluate_diversity evaluates a "
            f"run with them), got {type(judgments).__name__} {describe(judgments, 40)}"
        )
    index: dict = {}
    covers: dict = {}
    for doc, grades in judgments.items():
        if not isinstance(grades, Mapping):
            raise TypeError(
                f"judgments[{doc!r}] must map subtopics to grades, such as {{'1': 1, '2': 0}}, "
                f"got {type(grades).__name__} {describe(grades, 40)}"
            )
        found = []
        for subtopic, grade in grades.items():
            name = f"judgments[{doc!r}][{subtopic!r}]"
            check_scalar(grade, name, numbers.Real, what="a grade (a finite number)")
            if grade >= RELEVANCE_THRESHOLD:
                found.append(index.setdefault(subtopic, len(index)))
        if found:
            covers[doc] = tuple(sorted(found))
    return Judged(tuple(index), covers, judgments)


def _ranking(ranking: Any) -> list:
    """The ranking as a list of doc ids: ordered, each id once."""
    refuse_unordered(ranking, "ranking", "document ids")
    if isinstance(ranking, (str, bytes)) or not isinstance(ranking, Iterable):
        raise TypeError(
            "ranking must be a sequence of document ids in rank order, such as a list, "
            f"got {type(ranking).__name__} {describe(ranking, 40)}"
        )
    items = list(ranking)
    first_ranks(items, "ranking")
    return items


def check_alpha(alpha: Any, name: str = "alpha") -> float:
    """α (or β): a number in [0, 1], as ndeval's ``-alpha`` and ``-beta`` take them.

    >>> check_alpha(0.5)
    0.5
    """
    return float(check_scalar(alpha, name, numbers.Real, what="a number", min_val=0, max_val=1))


def _cut(k: Any, size: int) -> int:
    """The cut-off: ``k`` checked, or the ranking's length when ``k`` is None."""
    return size if k is None else check_k(k)


def _novelty(ranking: list, judged: Judged, alpha: float) -> np.ndarray:
    """G_r of each rank: each subtopic's gain starts at 1 and is multiplied by 1 − α each time a
    document relevant to it is seen (ndeval's order of operations)."""
    weight = [1.0] * len(judged.subtopics)
    gains = np.zeros(len(ranking))
    for rank, doc in enumerate(ranking):
        for s in judged.covers.get(doc, ()):
            gains[rank] += weight[s]
            weight[s] *= 1.0 - alpha
    return gains


def novelty_gains(
    ranking: Sequence[Hashable], judgments: SubtopicJudgments, alpha: float = 0.5
) -> np.ndarray:
    """The novelty gain of each rank: G_r = Σ_{s relevant to d_r} (1 − α)^{c(r, s)}, where
    c(r, s) counts the documents above rank r relevant to subtopic s (Clarke et al. 2008).

    d2 covers a (gain 1); d1 covers a again (0.5) and b (1); d4 nothing; d3 b again (0.5):

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> novelty_gains(["d2", "d1", "d4", "d3"], judgments).tolist()
    [1.0, 1.5, 0.0, 0.5]
    """
    judged = judged_subtopics(judgments)
    return _novelty(_ranking(ranking), judged, check_alpha(alpha))


def _greedy(judged: Judged, alpha: float, depth: int | None) -> list:
    """ndeval's ideal ranking: at each rank the document of highest novelty gain given those
    above it, ties to the doc id that sorts last as text (ndeval's strcmp)."""
    weight = [1.0] * len(judged.subtopics)
    left = dict(judged.covers)
    order: list = []
    while left and (depth is None or len(order) < depth):
        best, best_gain = None, 0.0
        for doc, covers in left.items():
            gain = 0.0
            for s in covers:
                gain += weight[s]
            if best is None or gain > best_gain or (gain == best_gain and str(doc) > str(best)):
                best, best_gain = doc, gain
        if best_gain == 0.0:  # (alpha = 1) no gain left: ndeval goes on by doc id alone
            break
        order.append(best)
        for s in left.pop(best):
            weight[s] *= 1.0 - alpha
    chosen = set(order)
    rest = sorted((d for d in judged.grades if d not in chosen), key=str, reverse=True)
    return (order + rest)[:depth]


def ideal_diversity_ranking(
    judgments: SubtopicJudgments, alpha: float = 0.5, depth: int | None = None
) -> list:
    """The ideal ranking of alpha-nDCG, as ndeval builds it: greedily, at each rank the judged
    document of highest novelty gain given the documents above it, ties to the doc id that
    sorts last (ndeval compares doc ids with strcmp). Finding the best ranking is NP-hard; the
    greedy one is not always the best, so alpha-nDCG can exceed 1 (rarely). ``depth``: only the
    first ``depth`` documents (all the judged documents when None).

    d1 covers both subtopics (gain 2); then d2 and d3 gain 0.5 each: d3, the later doc id:

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> ideal_diversity_ranking(judgments)
    ['d1', 'd3', 'd2', 'd4']
    """
    judged = judged_subtopics(judgments)
    alpha = check_alpha(alpha)
    return _greedy(judged, alpha, None if depth is None else check_positive_int(depth, "depth"))


def _dcg(gains: np.ndarray, k: int) -> float:
    top = gains[:k]
    return float(np.sum(top / np.log2(np.arange(2, top.size + 2))))


def alpha_dcg(
    ranking: Sequence[Hashable],
    judgments: SubtopicJudgments,
    k: int | None = None,
    alpha: float = 0.5,
) -> float:
    """alpha-DCG@k: the novelty gains discounted by rank, Σ_{r=1..k} G_r / log2(r + 1)
    (Clarke, Kolla, Cormack, Vechtomova, Ashkan, Büttcher & MacKinnon, "Novelty and diversity
    in information retrieval evaluation", SIGIR 2008). The whole ranking when k is None.

    ndeval's column alpha-DCG@k is this value divided by that of a ranking whose every document
    covers every subtopic (Σ_r |S| (1 − α)^{r−1} / log2(r + 1)), except at k = 1.

    1 + 1.5 / log2(3) + 0 + 0.5 / log2(5) = 1 + 0.9464 + 0 + 0.2153:

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> round(alpha_dcg(["d2", "d1", "d4", "d3"], judgments, k=4), 4)
    2.1617
    """
    gains = novelty_gains(ranking, judgments, alpha)
    return _dcg(gains, _cut(k, gains.size))


def alpha_ndcg(
    ranking: Sequence[Hashable],
    judgments: SubtopicJudgments,
    k: int | None = None,
    alpha: float = 0.5,
) -> float:
    """alpha-nDCG@k: alpha-DCG@k of the ranking over alpha-DCG@k of the ideal ranking
    (:func:`ideal_diversity_ranking`, greedy, as ndeval builds it) (Clarke et al., "Novelty and
    diversity in information retrieval evaluation", SIGIR 2008). 0 when the query has no
    relevant document; the ideal is greedy, not always the best, so the value can pass 1.

    The ideal [d1, d3, d2, d4] gains [2, 0.5, 0.5, 0]: 2 + 0.5 / log2(3) + 0.5 / 2 = 2.5655,
    and 2.1617 / 2.5655 = 0.8426:

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> round(alpha_ndcg(["d2", "d1", "d4", "d3"], judgments, k=4), 4)
    0.8426
    """
    return _over_ideal(_dcg, ranking, judgments, k, alpha)


def _err_sum(gains: np.ndarray, k: int) -> float:
    top = gains[:k]
    return float(np.sum(top / np.arange(1, top.size + 1)))


def _over_ideal(
    score: Callable[[np.ndarray, int], float],
    ranking: Sequence[Hashable],
    judgments: SubtopicJudgments,
    k: int | None,
    alpha: float,
) -> float:
    """``score`` of the ranking's novelty gains over ``score`` of the greedy ideal's, at k
    (None: each whole list); 0 when the ideal scores nothing (no relevant document)."""
    judged = judged_subtopics(judgments)
    alpha = check_alpha(alpha)
    gains = _novelty(_ranking(ranking), judged, alpha)
    k = None if k is None else check_k(k)
    ideal = _novelty(_greedy(judged, alpha, k), judged, alpha)
    best = score(ideal, ideal.size if k is None else k)
    return score(gains, gains.size if k is None else k) / best if best > 0 else 0.0


def err_ia(
    ranking: Sequence[Hashable],
    judgments: SubtopicJudgments,
    k: int | None = None,
    alpha: float = 0.5,
) -> float:
    """ERR-IA@k as ndeval computes it: the intent-aware expected reciprocal rank, each
    subtopic's ERR over the best ERR a ranking can reach for one subtopic, averaged over the
    subtopics with equal weights (Chapelle, Metzler, Zhang & Grinspan, "Expected reciprocal rank
    for graded relevance", CIKM 2009; intents as in Agrawal, Gollapudi, Halverson & Ieong,
    "Diversifying search results", WSDM 2009).

    A document relevant to s satisfies a user looking for s with probability α, so
    ERR_s@k = Σ_{r<=k} α (1 − α)^{c(r, s)} / r, at best α Σ_{r<=k} (1 − α)^{r−1} / r; hence

    ERR-IA@k = Σ_{r<=k} G_r / r  ÷  |S| Σ_{r<=k} (1 − α)^{r−1} / r

    (ndeval's "collection-independent normalisation"; at k = 1 ndeval prints the numerator
    undivided). k = None: the whole ranking.

    (1 + 1.5/2 + 0/3 + 0.5/4) / (2 (1 + 0.5/2 + 0.25/3 + 0.125/4)) = 1.875 / 2.7292:

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> round(err_ia(["d2", "d1", "d4", "d3"], judgments, k=4), 4)
    0.687
    """
    judged = judged_subtopics(judgments)
    alpha = check_alpha(alpha)
    gains = _novelty(_ranking(ranking), judged, alpha)
    k = _cut(k, gains.size)
    ranks = np.arange(1, k + 1)
    best = len(judged.subtopics) * float(np.sum((1.0 - alpha) ** (ranks - 1) / ranks))
    return _err_sum(gains, k) / best if best > 0 else 0.0


def nerr_ia(
    ranking: Sequence[Hashable],
    judgments: SubtopicJudgments,
    k: int | None = None,
    alpha: float = 0.5,
) -> float:
    """nERR-IA@k: ERR-IA@k of the ranking over that of the ideal ranking of alpha-nDCG
    (:func:`ideal_diversity_ranking`), as ndeval normalises it ("collection-dependent");
    that is Σ_{r<=k} G_r / r over the same sum for the ideal (Chapelle et al., CIKM 2009).
    0 when the query has no relevant document.

    The ideal gains [2, 0.5, 0.5, 0]: 1.875 / (2 + 0.25 + 0.5/3) = 1.875 / 2.4167:

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> round(nerr_ia(["d2", "d1", "d4", "d3"], judgments, k=4), 4)
    0.7759
    """
    return _over_ideal(_err_sum, ranking, judgments, k, alpha)


def _nrbp(gains: np.ndarray, n_subtopics: int, alpha: float, beta: float) -> float:
    if n_subtopics == 0:
        return 0.0
    # 1, β, β², ... by repeated products, as ndeval computes them
    decay = np.cumprod(np.concatenate(([1.0], np.full(max(gains.size - 1, 0), beta))))
    return (1.0 - (1.0 - alpha) * beta) / n_subtopics * float(np.sum(gains * decay))


def nrbp(
    ranking: Sequence[Hashable],
    judgments: SubtopicJudgments,
    alpha: float = 0.5,
    beta: float = 0.5,
) -> float:
    """NRBP, novelty- and rank-biased precision: RBP's patient user (who reads on with
    probability β) with alpha-nDCG's novelty gains,

    NRBP = (1 − (1 − α) β) / |S| · Σ_r β^{r−1} G_r

    over the whole ranking (Clarke, Kolla & Vechtomova, "An effectiveness measure for ambiguous
    and underspecified queries", ICTIR 2009). 0 when the query has no relevant document.

    (1 − 0.5 · 0.5) / 2 · (1 + 0.5 · 1.5 + 0.25 · 0 + 0.125 · 0.5) = 0.375 · 1.8125:

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> nrbp(["d2", "d1", "d4", "d3"], judgments)
    0.6796875
    """
    judged = judged_subtopics(judgments)
    alpha, beta = check_alpha(alpha), check_alpha(beta, "beta")
    gains = _novelty(_ranking(ranking), judged, alpha)
    return _nrbp(gains, len(judged.subtopics), alpha, beta)


def nnrbp(
    ranking: Sequence[Hashable],
    judgments: SubtopicJudgments,
    alpha: float = 0.5,
    beta: float = 0.5,
) -> float:
    """nNRBP: NRBP of the ranking over NRBP of the whole ideal ranking of alpha-nDCG
    (:func:`ideal_diversity_ranking`), as ndeval normalises it (Clarke, Kolla & Vechtomova,
    ICTIR 2009). 0 when the query has no relevant document (ndeval: not a number).

    The ideal gains [2, 0.5, 0.5, 0]: 1.8125 / (2 + 0.5 · 0.5 + 0.25 · 0.5) = 1.8125 / 2.375:

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> round(nnrbp(["d2", "d1", "d4", "d3"], judgments), 4)
    0.7632
    """
    judged = judged_subtopics(judgments)
    alpha, beta = check_alpha(alpha), check_alpha(beta, "beta")
    gains = _novelty(_ranking(ranking), judged, alpha)
    ideal = _novelty(_greedy(judged, alpha, None), judged, alpha)
    best = _nrbp(ideal, len(judged.subtopics), alpha, beta)
    return _nrbp(gains, len(judged.subtopics), alpha, beta) / best if best > 0 else 0.0
