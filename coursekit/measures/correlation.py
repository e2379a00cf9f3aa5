"""Rank correlation: how much two rankings of the same items agree.

A ranking is given either as an **ordering** — a sequence of distinct items from first to last,
such as ``["d3", "d1", "d2"]`` — or as a **mapping** item -> score (for example system -> MAP),
where higher scores rank first and equal scores are ties. Both rankings must hold the same items.

Spearman's rho compares the positions of each item; Kendall's tau counts the pairs of items the
two rankings put in the same order (concordant) and in opposite orders (discordant). Both lie in
[-1, 1]: 1 for identical rankings, -1 for reversed ones. Where their definitions coincide they
equal ``scipy.stats.spearmanr`` and ``scipy.stats.kendalltau``.

English / French / Italian: rank correlation / corrélation de rangs / correlazione tra ranking;
concordant pair / paire concordante / coppia concorde.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..validation import first_ranks

__all__ = ["aligned", "positions", "spearman_rho", "kendall_tau"]


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _scores(ranking: Mapping[Any, Any], name: str) -> tuple[list, np.ndarray]:
    """The items of a mapping item -> score and their scores, checked: finite real numbers."""
    items = list(ranking)
    for item in items:
        score = ranking[item]
        complex_ = isinstance(score, numbers.Complex) and not isinstance(score, numbers.Real)
        if complex_ or not isinstance(score, (numbers.Number, np.bool_)):
            raise TypeError(
                f"{name}[{item!r}] must be a score (a number), "
                f"got {type(score).__name__} {_describe(score)}"
            )
    try:
        values = np.asarray([ranking[i] for i in items], dtype=float)
    except OverflowError:  # an int of 400 digits
        values = np.array([float("inf")])
    if not np.all(np.isfinite(values)):
        raise ValueError(f"the scores of {name} must be finite numbers")
    return items, values


def positions(
    ranking: Sequence[Any] | Mapping[Any, float], name: str = "ranking"
) -> dict[Any, float]:
    """Each item's rank position (1 = first); tied scores share their average position.

    ``name`` names the ranking in error messages.

    >>> positions(["b", "a", "c"])
    {'b': 1.0, 'a': 2.0, 'c': 3.0}
    >>> positions({"x": 0.9, "y": 0.5, "z": 0.9})
    {'x': 1.5, 'y': 3.0, 'z': 1.5}
    """
    if isinstance(ranking, Mapping):
        items, values = _scores(ranking, name)
        from scipy import stats  # on first use: import coursekit stays light

        ranks = stats.rankdata(-values, method="average")
        return {item: float(r) for item, r in zip(items, ranks, strict=True)}
    if isinstance(ranking, (str, bytes)) or not isinstance(ranking, Sequence):
        raise TypeError(
            f"{name} must be a sequence of distinct items (first to last) or a mapping "
            f"item -> score, got {type(ranking).__name__}"
        )
    return {item: float(rank) for item, rank in first_ranks(list(ranking), name, "item").items()}


def aligned(a: Any, b: Any) -> tuple[list, np.ndarray, np.ndarray]:
    """The items of two rankings of the same items, and their positions in each (checked).

    >>> aligned(["x", "y", "z"], ["y", "x", "z"])
    (['x', 'y', 'z'], array([1., 2., 3.]), array([2., 1., 3.]))
    """
    pa, pb = positions(a, "a"), positions(b, "b")
    if len(pa) != len(pb):
        raise ValueError(f"the two rankings have different lengths: {len(pa)} and {len(pb)} items")
    if set(pa) != set(pb):
        only_a = sorted(map(repr, set(pa) - set(pb)))[:5]
        only_b = sorted(map(repr, set(pb) - set(pa)))[:5]
        raise ValueError(
            "the two rankings must hold the same items; only in the first: "
            f"{', '.join(only_a)}; only in the second: {', '.join(only_b)}"
        )
    if len(pa) < 2:
        raise ValueError("a rank correlation needs at least two items")
    items = list(pa)
    return items, np.array([pa[i] for i in items]), np.array([pb[i] for i in items])


def spearman_rho(
    a: Sequence[Any] | Mapping[Any, float], b: Sequence[Any] | Mapping[Any, float]
) -> float:
    """Spearman's rank correlation coefficient.

    Without ties: rho = 1 − 6 · Σ d_i² / (K · (K² − 1)) = 1 − 2 · Σ d_i² / max, where d_i is
    the difference of item i's positions in the two rankings of K items and
    max = K(K² − 1)/3 is the largest possible sum of squares (reversed rankings).
    With ties: Pearson's correlation of the average positions (as scipy computes it).

    >>> spearman_rho(["d1", "d2", "d3", "d4"], ["d2", "d1", "d3", "d4"])
    0.8
    """
    _, x, y = aligned(a, b)
    k = x.size
    if len(set(x)) == k and len(set(y)) == k:
        return float(1.0 - 6.0 * np.sum((x - y) ** 2) / (k * (k * k - 1)))
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        raise ValueError("Spearman's rho is undefined when every item of a ranking is tied")
    return float(np.corrcoef(x, y)[0, 1])


_PAIRWISE = 2000  #: up to this many items, pairs are compared one by one (K² memory)


def _pair_counts(x: np.ndarray, y: np.ndarray) -> tuple[int, int, int, int]:
    """(concordant, discordant, tied only in a, tied only in b); pairs tied in both are skipped.

    Up to :data:`_PAIRWISE` items, every pair is compared; beyond, the counts come from the
    ties (pairs tied in a, in b, in both: from the sizes of the groups of equal values) and
    C − D from ``scipy.stats.kendalltau`` (O(K log K)), C − D being an integer that tau-b
    times its denominator gives back to well within 0.5."""
    if x.size > _PAIRWISE:
        return _counted_pairs(x, y)
    dx = np.sign(x[:, None] - x[None, :])
    dy = np.sign(y[:, None] - y[None, :])
    upper = np.triu(np.ones_like(dx, dtype=bool), k=1)
    prod = (dx * dy)[upper]
    tx, ty = (dx == 0)[upper], (dy == 0)[upper]
    return (
        int(np.count_nonzero(prod > 0)),
        int(np.count_nonzero(prod < 0)),
        int(np.count_nonzero(tx & ~ty)),
        int(np.count_nonzero(ty & ~tx)),
    )


def _tied_pairs(*keys: np.ndarray) -> int:
    """Pairs of rows equal on every one of ``keys``: Σ t(t − 1)/2 over the groups."""
    _, sizes = np.unique(np.column_stack(keys), axis=0, return_counts=True)
    return int(np.sum(sizes * (sizes - 1) // 2))


def _counted_pairs(x: np.ndarray, y: np.ndarray) -> tuple[int, int, int, int]:
    from scipy import stats  # on first use: import coursekit stays light

    k = x.size
    n0 = k * (k - 1) // 2
    in_x, in_y, in_both = _tied_pairs(x), _tied_pairs(y), _tied_pairs(x, y)
    untied = n0 - in_x - in_y + in_both  # C + D
    denominator = math.sqrt(float(n0 - in_x) * float(n0 - in_y))
    difference = 0  # C − D (no pair untied in both when one ranking ties every pair)
    if denominator > 0:
        difference = round(float(stats.kendalltau(x, y).statistic) * denominator)
    concordant = (untied + difference) // 2
    return concordant, untied - concordant, in_x - in_both, in_y - in_both


def kendall_tau(
    a: Sequence[Any] | Mapping[Any, float],
    b: Sequence[Any] | Mapping[Any, float],
    variant: str = "b",
) -> float:
    """Kendall's tau (Kendall 1938) from the n_c concordant and n_d discordant pairs.

    * ``"a"``: tau_a = (n_c − n_d) / (K(K − 1)/2), every pair in the denominator, ties included;
    * ``"b"``: tau_b = (n_c − n_d) / sqrt((n_c + n_d + T_a)(n_c + n_d + T_b)), where T_a
      (T_b) counts pairs tied in the first (second) ranking only; equals
      ``scipy.stats.kendalltau``.

    Without ties both equal P(same order) − P(opposite order).

    >>> kendall_tau(["d1", "d2", "d3", "d4"], ["d2", "d1", "d3", "d4"])
    0.6666666666666666
    >>> kendall_tau({"A": 3, "B": 2, "C": 2}, {"A": 3, "B": 2, "C": 1}, variant="a")
    0.6666666666666666
    """
    if variant not in ("a", "b"):
        raise ValueError(f"unknown Kendall tau variant {variant!r}: choose 'a' or 'b'")
    _, x, y = aligned(a, b)
    c, d, tied_a, tied_b = _pair_counts(x, y)
    if variant == "a":
        k = x.size
        return (c - d) / (k * (k - 1) / 2)
    denominator = np.sqrt(float(c + d + tied_a) * float(c + d + tied_b))
    if denominator == 0:
        raise ValueError("Kendall's tau-b is undefined when every item of a ranking is tied")
    return float((c - d) / denominator)
