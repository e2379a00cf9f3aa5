"""Inter-assessor agreement: Cohen's kappa for two assessors, Fleiss' kappa for many.

Relevance judgments are made by people, and people disagree. Kappa measures how much two (or
more) assessors agree beyond what chance alone would give:

    κ = (P(A) − P(E)) / (1 − P(E)),

where P(A) is the observed proportion of agreement and P(E) the agreement expected by chance
from how often each label is used. κ = 1 is perfect agreement, κ = 0 is chance level, and a
negative κ is worse than chance. Manning, Raghavan & Schütze (2008, §8.5) quote the rule of
thumb: above 0.8 good agreement, 0.67–0.8 fair, below 0.67 a dubious basis for an evaluation.

The chance term P(E) is computed two ways in the literature:

* **Cohen (1960)** uses each assessor's own label proportions: P(E) = Σ_c p_a(c) · p_b(c);
* **Scott (1955), Fleiss (1971)** pool the labels of all assessors: P(E) = Σ_c p(c)², with
  p(c) the share of all judgments that are c. This is the computation of Manning et al.'s
  worked example (their Table 8.2); :func:`cohen_kappa` gives it with ``pooled=True``, and
  :func:`fleiss_kappa` with two assessors equals it.

Labels may be any hashable values ("yes"/"no", grades 0/1/2, ...).

English / French / Italian: inter-assessor agreement / accord inter-annotateurs / accordo tra
valutatori; chance agreement / accord aléatoire / accordo casuale.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import numpy as np

from ..validation import check_bool

__all__ = ["agreement_table", "cohen_kappa", "fleiss_kappa", "rating_table"]


def _is_missing(item: Any) -> bool:
    """None, nan, or a value such as pandas' NA that is neither equal nor unequal to itself."""
    if item is None:
        return True
    try:
        return bool(item != item)
    except (TypeError, ValueError):
        return True


def _labels_of(values: Any, name: str) -> list:
    """A sequence of hashable labels, as a list (a string is refused: it would be split)."""
    if isinstance(values, (str, bytes)) or isinstance(values, dict):
        raise TypeError(
            f"{name} must be a sequence of labels, one per item, got {type(values).__name__} "
            f"{values!r:.60}"
        )
    if isinstance(values, np.ndarray) and values.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {values.shape}")
    if not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a sequence of labels, one per item, got {type(values)}")
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    for i, item in enumerate(items):
        if not isinstance(item, Hashable):
            raise TypeError(
                f"{name}[{i}] must be a label (a hashable value such as a string or a number), "
                f"got {type(item).__name__}"
            )
        if _is_missing(item):
            raise ValueError(f"{name}[{i}] is {item!r}: every item needs a label")
    return items


def _order(found: Iterable[Hashable]) -> list:
    """Labels in sorted order when they can be sorted, else in order of first appearance."""
    unique = list(dict.fromkeys(found))
    try:
        return sorted(unique)
    except TypeError:
        return unique


def _check_labels(labels: Any, found: list, where: str) -> list:
    if labels is None:
        return _order(found)
    chosen = _labels_of(labels, "labels")
    if len(set(chosen)) != len(chosen):
        raise ValueError("labels must not repeat a label")
    unknown = [x for x in dict.fromkeys(found) if x not in set(chosen)]
    if unknown:
        raise ValueError(
            f"{where} uses label(s) {', '.join(map(repr, unknown[:5]))} missing from labels="
            f"{chosen!r:.80}"
        )
    return chosen


def agreement_table(
    a: Sequence[Hashable], b: Sequence[Hashable], labels: Sequence[Hashable] | None = None
) -> tuple[list, np.ndarray]:
    """The contingency table of two assessors: ``counts[i, j]`` = items ``a`` labelled
    ``labels[i]`` and ``b`` labelled ``labels[j]``.

    Returns ``(labels, counts)``: the labels (sorted when they can be, unless given) and an
    integer matrix, rows for assessor ``a``, columns for assessor ``b``. The diagonal holds the
    agreements.

    >>> labels, counts = agreement_table(["yes", "yes", "no", "yes"], ["yes", "no", "no", "yes"])
    >>> labels
    ['no', 'yes']
    >>> counts.tolist()
    [[1, 0], [1, 2]]
    """
    x = _labels_of(a, "a")
    y = _labels_of(b, "b")
    if len(x) != len(y):
        raise ValueError(
            f"a and b must judge the same items: got {len(x)} labels in a and {len(y)} in b"
        )
    if not x:
        raise ValueError("a and b are empty: agreement needs at least one judged item")
    chosen = _check_labels(labels, x + y, "a or b")
    index = {label: i for i, label in enumerate(chosen)}
    counts = np.zeros((len(chosen), len(chosen)), dtype=np.int64)
    np.add.at(counts, ([index[v] for v in x], [index[v] for v in y]), 1)
    return chosen, counts


def cohen_kappa(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    labels: Sequence[Hashable] | None = None,
    pooled: bool = False,
) -> float:
    """Cohen's kappa of two assessors who judged the same items (``a[i]``, ``b[i]``: item i).

    κ = (P(A) − P(E)) / (1 − P(E)), with P(A) = Σ_c n_cc / N the observed agreement and
    P(E) = Σ_c (n_c· / N)(n_·c / N) the chance agreement from each assessor's own label
    proportions (Cohen 1960; equal to ``sklearn.metrics.cohen_kappa_score``).
    With ``pooled=True`` the chance agreement pools both assessors' labels,
    P(E) = Σ_c ((n_c· + n_·c) / 2N)², as in Scott's π (1955), Fleiss (1971) and the worked
    example of Manning et al. (2008). ``nan`` when P(E) = 1 (both assessors gave every item the
    same single label: kappa is 0/0).

    Reference: J. Cohen, "A coefficient of agreement for nominal scales", 1960; C. D. Manning,
    P. Raghavan & H. Schütze, *Introduction to Information Retrieval*, 2008, §8.5.

    Manning et al.'s Table 8.2: 400 documents, both judges say yes to 300, both no to 70,
    judge 1 yes / judge 2 no 20, judge 1 no / judge 2 yes 10. P(A) = 370/400 = 0.925; pooled,
    P(nonrelevant) = 170/800 = 0.2125, P(relevant) = 630/800 = 0.7875 and
    P(E) = 0.2125² + 0.7875² = 0.6653 (the book rounds to 0.665), κ = 0.776:

    >>> judge1 = ["yes"] * 300 + ["no"] * 70 + ["yes"] * 20 + ["no"] * 10
    >>> judge2 = ["yes"] * 300 + ["no"] * 70 + ["no"] * 20 + ["yes"] * 10
    >>> round(cohen_kappa(judge1, judge2, pooled=True), 4)
    0.7759

    Cohen's own marginals, 320/400 and 310/400 "yes": P(E) = 0.8 · 0.775 + 0.2 · 0.225 = 0.665,
    κ = (0.925 − 0.665) / 0.335:

    >>> round(cohen_kappa(judge1, judge2), 4)
    0.7761
    """
    pooled = check_bool(pooled, "pooled")
    _, counts = agreement_table(a, b, labels)
    total = counts.sum()
    table = counts / total
    observed = float(np.trace(table))
    row, column = table.sum(axis=1), table.sum(axis=0)
    if pooled:
        share = (row + column) / 2
        expected = float(np.dot(share, share))
    else:
        expected = float(np.dot(row, column))
    if expected >= 1.0:
        return float("nan")
    return (observed - expected) / (1.0 - expected)


def rating_table(
    ratings: Sequence[Sequence[Hashable]], labels: Sequence[Hashable] | None = None
) -> tuple[list, np.ndarray]:
    """The items × categories count matrix of per-item label lists, for :func:`fleiss_kappa`.

    ``ratings[i]`` lists the labels the raters gave item i (the same number of raters for every
    item; who gave which label does not matter). Returns ``(labels, counts)``.

    >>> labels, counts = rating_table([["rel", "rel", "non"], ["non", "non", "non"]])
    >>> labels, counts.tolist()
    (['non', 'rel'], [[1, 2], [3, 0]])
    """
    if isinstance(ratings, (str, bytes)) or not isinstance(ratings, Iterable):
        raise TypeError(
            "ratings must be a list with, for each item, the list of labels its raters gave, "
            f"got {type(ratings).__name__}"
        )
    rows = [_labels_of(item, f"ratings[{i}]") for i, item in enumerate(ratings)]
    if not rows:
        raise ValueError("ratings is empty: agreement needs at least one rated item")
    sizes = {len(r) for r in rows}
    if len(sizes) != 1:
        first = len(rows[0])
        odd = next(i for i, r in enumerate(rows) if len(r) != first)
        raise ValueError(
            "ratings must give every item the same number of ratings: ratings[0] has "
            f"{first}, ratings[{odd}] has {len(rows[odd])}"
        )
    chosen = _check_labels(labels, [x for r in rows for x in r], "ratings")
    index = {label: j for j, label in enumerate(chosen)}
    counts = np.zeros((len(rows), len(chosen)), dtype=np.int64)
    for i, r in enumerate(rows):
        for label in r:
            counts[i, index[label]] += 1
    return chosen, counts


def _count_matrix(table: Any) -> np.ndarray:
    if isinstance(table, (str, bytes)) or not isinstance(table, (Iterable, np.ndarray)):
        raise TypeError(
            f"table must be an items × categories matrix of counts, got {type(table).__name__}"
        )
    rows = table if isinstance(table, np.ndarray) else [list(r) for r in table]
    try:
        counts = np.asarray(rows)
    except ValueError:
        raise ValueError(
            "table must be an items × categories matrix of counts: its rows have different "
            "lengths (for per-item lists of labels, pass ratings=True)"
        ) from None
    if counts.ndim != 2 or counts.size == 0:
        raise ValueError(
            "table must be a non-empty items × categories matrix of counts, got shape "
            f"{counts.shape}"
        )
    if counts.dtype.kind == "O":  # whole numbers beyond 64 bits (10**20): Python ints
        return _big_counts(counts)
    if counts.dtype.kind not in "iuf" or (
        counts.dtype.kind == "f" and not np.all(np.isfinite(counts))
    ):
        raise TypeError(
            "table must hold counts (whole numbers >= 0); for per-item lists of labels, "
            "pass ratings=True"
        )
    if np.any(counts < 0) or np.any(counts != np.round(counts)):
        raise ValueError("table must hold counts: whole numbers >= 0")
    if counts.dtype.kind != "i" and counts.max() >= 2**62:  # 1e300 or a uint64 beyond int64
        return _big_counts(counts)
    return counts.astype(np.int64)


def _big_counts(counts: np.ndarray) -> np.ndarray:
    """Counts as an array of Python ints, which do not overflow (checked one by one)."""
    values = []
    for x in counts.ravel().tolist():
        if isinstance(x, bool) or not isinstance(x, numbers.Real):
            raise TypeError(
                "table must hold counts (whole numbers >= 0); for per-item lists of labels, "
                "pass ratings=True"
            )
        if x != x or x in (math.inf, -math.inf) or x < 0 or x != int(x):
            raise ValueError("table must hold counts: whole numbers >= 0")
        values.append(int(x))
    return np.array(values, dtype=object).reshape(counts.shape)


def fleiss_kappa(table: Any, *, ratings: bool = False) -> float:
    """Fleiss' kappa: the agreement of n raters who each put N items into k categories.

    ``table`` is the N × k matrix n_ij = number of raters who put item i into category j, each
    row summing to the same n >= 2. With ``ratings=True`` (implied when the entries are not
    numbers), ``table`` is instead one list of labels per item (see :func:`rating_table`).

    P_i = (Σ_j n_ij² − n) / (n(n − 1)), the agreement on item i (the share of agreeing rater
    pairs); P̄ = (1/N) Σ_i P_i; p_j = (1 / Nn) Σ_i n_ij, the share of category j;
    P̄_e = Σ_j p_j²; κ = (P̄ − P̄_e) / (1 − P̄_e). ``nan`` when P̄_e = 1 (every rating in one
    category). With n = 2 raters it equals Scott's π, i.e. ``cohen_kappa(..., pooled=True)``.
    The raters need not be the same people from item to item.

    Reference: J. L. Fleiss, "Measuring nominal scale agreement among many raters", 1971.

    Three raters, four items, categories (relevant, not relevant): P_i = 1, 1/3, 1/3, 1,
    P̄ = 2/3; p = (7/12, 5/12), P̄_e = 74/144; κ = (96/144 − 74/144) / (70/144) = 11/35:

    >>> round(fleiss_kappa([[3, 0], [2, 1], [2, 1], [0, 3]]), 4)
    0.3143
    >>> round(fleiss_kappa([["r", "r", "r"], ["r", "r", "n"], ["n", "r", "r"], ["n"] * 3]), 4)
    0.3143
    """
    ratings = check_bool(ratings, "ratings")
    if isinstance(table, (str, bytes)) or not isinstance(table, (Iterable, np.ndarray)):
        raise TypeError(
            "table must be an items × categories matrix of counts (or, with ratings=True, one "
            f"list of labels per item), got {type(table).__name__}"
        )
    if isinstance(table, np.ndarray) and table.dtype.kind == "O":
        table = table.tolist()
    if not ratings and isinstance(table, np.ndarray):
        ratings = table.dtype.kind in "SU"
    elif not ratings:
        rows = list(table)
        for i, row in enumerate(rows):
            if isinstance(row, (str, bytes)) or not isinstance(row, (Iterable, np.ndarray)):
                raise ValueError(
                    f"table must be an items × categories matrix of counts: table[{i}] is "
                    f"{type(row).__name__} {row!r:.40}, not a row"
                )
        table = [row.tolist() if isinstance(row, np.ndarray) else list(row) for row in rows]
        ratings = not all(
            isinstance(x, numbers.Real) and not isinstance(x, bool) for row in table for x in row
        )
    if ratings:
        _, counts = rating_table(table)
    else:
        counts = _count_matrix(table)
    if counts.dtype != object and int(counts.max()) * counts.size >= 2**31:
        counts = counts.astype(object)  # n² and N·n could overflow 64 bits: Python ints
    totals = counts.sum(axis=1)
    n = int(totals[0])
    if np.any(totals != n):
        odd = int(np.flatnonzero(totals != n)[0])
        raise ValueError(
            "every row of table must sum to the same number of raters: row 0 sums to "
            f"{n}, row {odd} to {int(totals[odd])} (for per-item lists of labels, pass "
            "ratings=True)"
        )
    if n < 2:
        raise ValueError(
            f"fleiss_kappa needs at least 2 ratings per item, got {n} (for per-item lists of "
            "labels, pass ratings=True)"
        )
    n_items = counts.shape[0]
    per_item = np.asarray(((counts**2).sum(axis=1) - n) / (n * (n - 1)), dtype=float)
    observed = float(per_item.mean())
    share = np.asarray(counts.sum(axis=0) / (n_items * n), dtype=float)
    expected = float(np.dot(share, share))
    if expected >= 1.0:
        return float("nan")
    return (observed - expected) / (1.0 - expected)
