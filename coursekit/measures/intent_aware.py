"""Intent-aware measures and subtopic recall: the classic measures computed subtopic by
subtopic and averaged (chapter 11).

Agrawal, Gollapudi, Halverson & Ieong ("Diversifying search results", WSDM 2009) weigh each
intent (subtopic) s of a query by its probability P(s | q): M-IA = Σ_s P(s | q) · M_s, where
M_s is the measure computed with the judgments of s alone. As ndeval does, the weights here
are uniform, 1 / |S|, over the subtopics S that have a relevant document. Subtopic judgments
are ``{doc: {subtopic: grade}}`` as in :mod:`.diversity` (grade >= 1: relevant).

English / French / Italian: subtopic recall / rappel des sous-thèmes / richiamo dei sottotemi;
intent / intention / intento.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from ..validation import check_k
from .diversity import SubtopicJudgments, _ranking, judged_subtopics
from .graded import ndcg
from .ranked import average_precision

__all__ = ["ap_ia", "ndcg_ia", "precision_ia", "subtopic_recall"]


def subtopic_recall(
    ranking: Sequence[Hashable], judgments: SubtopicJudgments, k: int | None = None
) -> float:
    """S-recall@k: the share of the query's subtopics that the top k documents cover,

    S-recall@k = |∪_{r<=k} subtopics(d_r)| / |S|

    (Zhai, Cohen & Lafferty, "Beyond independent relevance: methods and evaluation metrics for
    subtopic retrieval", SIGIR 2003; ndeval's strec@k). The whole ranking when k is None; 0 when
    the query has no relevant document.

    d2 covers a, one of the two subtopics; d1 adds b:

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> subtopic_recall(["d2", "d1", "d4", "d3"], judgments, k=1)
    0.5
    >>> subtopic_recall(["d2", "d1", "d4", "d3"], judgments, k=2)
    1.0
    """
    judged = judged_subtopics(judgments)
    ranking = _ranking(ranking)
    k = len(ranking) if k is None else check_k(k)
    if not judged.subtopics:
        return 0.0
    covered = {s for doc in ranking[:k] for s in judged.covers.get(doc, ())}
    return len(covered) / len(judged.subtopics)


def precision_ia(ranking: Sequence[Hashable], judgments: SubtopicJudgments, k: int) -> float:
    """P-IA@k: intent-aware precision, each subtopic's P@k averaged over the subtopics,

    P-IA@k = (1 / |S|) Σ_s P_s@k = Σ_{r<=k} |subtopics(d_r)| / (k · |S|)

    (Agrawal et al., "Diversifying search results", WSDM 2009; ndeval's P-IA@k). A ranking
    shorter than k counts as padded with non-relevant documents; 0 without relevant document.

    (1 subtopic for d2 + 2 for d1) / (2 ranks · 2 subtopics):

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> precision_ia(["d2", "d1", "d4", "d3"], judgments, k=2)
    0.75
    """
    judged = judged_subtopics(judgments)
    ranking = _ranking(ranking)
    k = check_k(k)
    if not judged.subtopics:
        return 0.0
    found = sum(len(judged.covers.get(doc, ())) for doc in ranking[:k])
    return found / (k * len(judged.subtopics))


def ap_ia(ranking: Sequence[Hashable], judgments: SubtopicJudgments) -> float:
    """AP-IA (MAP-IA for one query): each subtopic's average precision, with the documents
    relevant to that subtopic as the relevant ones, averaged over the subtopics,

    AP-IA = (1 / |S|) Σ_s AP_s

    over the whole ranking (Agrawal et al., "Diversifying search results", WSDM 2009; ndeval's
    MAP-IA). 0 when the query has no relevant document.

    Subtopic a: d2, d1 at ranks 1, 2 (AP 1); b: d1, d3 at ranks 2, 4 ((1/2 + 2/4) / 2 = 0.5):

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> ap_ia(["d2", "d1", "d4", "d3"], judgments)
    0.75
    """
    judged = judged_subtopics(judgments)
    ranking = _ranking(ranking)
    if not judged.subtopics:
        return 0.0
    total = 0.0
    for s in range(len(judged.subtopics)):
        rels = [int(s in judged.covers.get(doc, ())) for doc in ranking]
        n_relevant = sum(s in covers for covers in judged.covers.values())
        total += average_precision(rels, n_relevant)
    return total / len(judged.subtopics)


def ndcg_ia(
    ranking: Sequence[Hashable], judgments: SubtopicJudgments, k: int | None = None
) -> float:
    """nDCG-IA@k: intent-aware nDCG, each subtopic's nDCG@k (its grades as gains, trec_eval's
    formula, :func:`coursekit.ndcg`; the ideal from every document judged for that subtopic)
    averaged over the subtopics,

    nDCG-IA@k = (1 / |S|) Σ_s nDCG_s@k

    (Agrawal, Gollapudi, Halverson & Ieong, "Diversifying search results", WSDM 2009). Unlike
    alpha-nDCG, a document counts fully for every subtopic it is relevant to, however many
    documents above it already covered that subtopic. Not computed by ndeval. The whole ranking
    when k is None; 0 when the query has no relevant document.

    Subtopic a: d2, d1 at ranks 1, 2 (nDCG 1); b: d1, d3 at ranks 2, 4, so
    (1/log2(3) + 1/log2(5)) / (1 + 1/log2(3)) = 0.6509; their mean:

    >>> judgments = {"d1": {"a": 1, "b": 1}, "d2": {"a": 1}, "d3": {"b": 1}, "d4": {"a": 0}}
    >>> round(ndcg_ia(["d2", "d1", "d4", "d3"], judgments, k=4), 4)
    0.8255
    """
    judged = judged_subtopics(judgments)
    ranking = _ranking(ranking)
    k = None if k is None else check_k(k)
    if not judged.subtopics:
        return 0.0
    total = 0.0
    for s in judged.subtopics:
        gains = [judged.grades.get(doc, {}).get(s, 0) for doc in ranking]
        ideal = [grades[s] for grades in judged.grades.values() if s in grades]
        total += ndcg(gains, k=k, ideal=ideal)
    return total / len(judged.subtopics)
