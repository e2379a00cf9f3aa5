"""Set-based measures: the retrieved set against the relevant set, order ignored.

English / French / Italian: precision / précision / precisione; recall / rappel / richiamo;
accuracy / taux de succès (exactitude) / accuratezza.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from ..validation import as_id_set, check_beta, check_positive_int, check_unit_interval

__all__ = ["Confusion", "confusion", "precision", "recall", "accuracy", "f_measure", "e_measure"]


class Confusion(NamedTuple):
    """The four cells of the confusion matrix (matrice de confusion)."""

    tp: int  #: relevant and retrieved (vrais positifs)
    fp: int  #: retrieved but not relevant (faux positifs)
    fn: int  #: relevant but missed (faux négatifs)
    tn: int  #: neither retrieved nor relevant (vrais négatifs)


def _id_set(items: Any, name: str) -> set:
    """A set of document ids; an unhashable item (a list inside the list) is named."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        return as_id_set(items, name)  # raises, naming the argument
    values = list(items)  # once: a generator can be read only once
    for item in values:
        try:
            hash(item)
        except TypeError:
            raise TypeError(
                f"{name} must hold document ids such as strings or numbers, "
                f"got {type(item).__name__} {item!r:.40}"
            ) from None
    return set(values)


def confusion(retrieved: Iterable[Any], relevant: Iterable[Any], n_docs: int) -> Confusion:
    """Count the confusion-matrix cells of a retrieved set in a collection of ``n_docs``.

    tp = |retrieved ∩ relevant|, fp = |retrieved − relevant|, fn = |relevant − retrieved|,
    tn = n_docs − tp − fp − fn.

    >>> confusion(["d1", "d2", "d3"], ["d1", "d4"], n_docs=10)
    Confusion(tp=1, fp=2, fn=1, tn=6)
    """
    retrieved_set = _id_set(retrieved, "retrieved")
    relevant_set = _id_set(relevant, "relevant")
    n_docs = check_positive_int(n_docs, "n_docs")
    tp = len(retrieved_set & relevant_set)
    fp = len(retrieved_set - relevant_set)
    fn = len(relevant_set - retrieved_set)
    tn = n_docs - tp - fp - fn
    if tn < 0:
        raise ValueError(
            f"n_docs={n_docs} is smaller than the {tp + fp + fn} distinct documents "
            "retrieved or relevant"
        )
    return Confusion(tp, fp, fn, tn)


def precision(retrieved: Iterable[Any], relevant: Iterable[Any]) -> float:
    """Share of the retrieved documents that are relevant: tp / (tp + fp).

    Cleverdon et al. (1966). An empty retrieved set has precision 0 (trec_eval's convention).

    >>> precision(["d5", "d1", "d6", "d2"], ["d1", "d4", "d6", "d10"])
    0.5
    """
    retrieved_set = _id_set(retrieved, "retrieved")
    relevant_set = _id_set(relevant, "relevant")
    if not retrieved_set:
        return 0.0
    return len(retrieved_set & relevant_set) / len(retrieved_set)


def recall(retrieved: Iterable[Any], relevant: Iterable[Any]) -> float:
    """Share of the relevant documents that are retrieved: tp / (tp + fn).

    Cleverdon et al. (1966). A query with no relevant document has recall 0.

    >>> recall(["d5", "d1", "d6", "d2"], ["d1", "d4", "d6", "d10"])
    0.5
    """
    retrieved_set = _id_set(retrieved, "retrieved")
    relevant_set = _id_set(relevant, "relevant")
    if not relevant_set:
        return 0.0
    return len(retrieved_set & relevant_set) / len(relevant_set)


def accuracy(retrieved: Iterable[Any], relevant: Iterable[Any], n_docs: int) -> float:
    """Share of the collection classified correctly: (tp + tn) / n_docs.

    Misleading in IR: with few relevant documents, retrieving nothing scores close to 1.

    >>> accuracy([], ["d1", "d2"], n_docs=100)
    0.98
    """
    cells = confusion(retrieved, relevant, n_docs)
    return (cells.tp + cells.tn) / n_docs


def f_measure(precision: float, recall: float, beta: float = 1.0) -> float:
    """F_beta, the weighted harmonic mean of precision P and recall R (van Rijsbergen 1979).

    F_beta = (1 + beta²) · P · R / (beta² · P + R), and 0 when P or R is 0.

    beta > 1 favours recall, beta < 1 favours precision, beta = 1 gives F1 = 2PR / (P + R).
    The alpha form is F = 1 / (alpha / P + (1 − alpha) / R) with beta² = (1 − alpha) / alpha,
    and van Rijsbergen's effectiveness measure is E = 1 − F (see :func:`e_measure`).

    >>> f_measure(0.6, 0.3)
    0.4
    >>> round(f_measure(0.5, 1.0, beta=2), 4)
    0.8333
    """
    p = check_unit_interval(precision, "precision")
    r = check_unit_interval(recall, "recall")
    beta = check_beta(beta)
    if p == 0.0 or r == 0.0:  # F is 0 as soon as one of them is (and b2 * p may underflow)
        return 0.0
    try:
        b2 = beta**2
    except OverflowError:  # beta > 1.3e154: divide the numerator and the denominator by beta²
        inverse = (1 / beta) ** 2
        return (inverse + 1) * p * r / (p + inverse * r)
    return (1 + b2) * p * r / (b2 * p + r)


def e_measure(precision: float, recall: float, beta: float = 1.0) -> float:
    """van Rijsbergen's (1979) E-measure: E = 1 − F_beta (lower is better).

    Some course material calls F_beta itself "the E-measure"; van Rijsbergen's E is the
    complement, an error rather than a score.

    >>> e_measure(0.6, 0.3)
    0.6
    """
    return 1.0 - f_measure(precision, recall, beta)
