"""Click models: simulated users clicking on a ranked list (position-based and cascade).

Craswell, Zoeter, Taylor & Ramsey (2008); Chuklin, Markov & de Rijke, *Click Models for Web
Search* (2015). Everything random draws from an explicit ``numpy.random.Generator``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from ..validation import check_rng
from .incomplete import as_incomplete_grades
from .user import check_max_grade, stop_probability

__all__ = ["ClickModel", "cascade_clicks", "position_based_clicks"]

ClickModel = Callable[[np.ndarray, np.random.Generator], Sequence[int]]


def as_probabilities(values: Any, name: str) -> np.ndarray:
    """``values`` as a 1-D float array of probabilities, or an error naming ``name``."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Iterable, np.ndarray)):
        raise TypeError(f"{name} must be a sequence of probabilities, got {type(values).__name__}")
    array = np.asarray(values if isinstance(values, np.ndarray) else list(values))
    if array.ndim != 1 or array.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a one-dimensional sequence of probabilities (numbers)")
    array = array.astype(float)
    if not np.all((array >= 0) & (array <= 1)):
        raise ValueError(f"{name} must hold probabilities in [0, 1], got {array.tolist()!r:.80}")
    return array


def _click_grades(grades: Any) -> np.ndarray:
    """Grades for a click model: unjudged and negative grades count as 0."""
    g = as_incomplete_grades(grades)
    return np.where(np.isnan(g), 0.0, np.maximum(g, 0.0))


def position_based_clicks(
    grades: Sequence[float | None],
    rng: np.random.Generator,
    examination: Sequence[float] | None = None,
    attractiveness: Sequence[float] = (0.1, 0.9),
) -> list[int]:
    """Clicks of one simulated user under the position-based model: sorted 0-based positions.

    P(click at rank i) = γ_i · α(g_i): the user examines rank i with probability γ_i =
    ``examination[i - 1]`` (default 1/i) and clicks an examined document of grade g with
    probability α(g) = ``attractiveness[g]`` (grades above the last entry use the last one;
    default 0.1 for non-relevant, 0.9 for relevant documents). Grades are whole numbers;
    unjudged and negative grades count as 0. Several clicks per session are possible.

    Reference: N. Craswell, O. Zoeter, M. Taylor & B. Ramsey, "An experimental comparison of
    click position-bias models", WSDM 2008; A. Chuklin, I. Markov & M. de Rijke, *Click Models
    for Web Search*, 2015.

    >>> position_based_clicks([1, 0, 1], np.random.default_rng(0), examination=[1, 1, 1],
    ...                       attractiveness=[0, 1])
    [0, 2]
    """
    g = _click_grades(grades)
    rng = check_rng(rng)
    if np.any(g != np.round(g)):
        raise ValueError("grades must be whole numbers for position_based_clicks")
    if examination is None:
        gamma = 1.0 / np.arange(1, g.size + 1)
    else:
        gamma = as_probabilities(examination, "examination")
        if gamma.size < g.size:
            raise ValueError(
                f"examination gives {gamma.size} probabilities for a ranking of {g.size} "
                "documents: give one per rank"
            )
        gamma = gamma[: g.size]
    alpha = as_probabilities(attractiveness, "attractiveness")
    if alpha.size == 0:
        raise ValueError("attractiveness must give at least one probability (for grade 0)")
    p_click = gamma * alpha[np.minimum(g.astype(int), alpha.size - 1)]
    return np.flatnonzero(rng.random(g.size) < p_click).tolist()


def cascade_clicks(
    grades: Sequence[float | None], rng: np.random.Generator, max_grade: float
) -> list[int]:
    """The click of one simulated user under the cascade model: ``[]`` or ``[position]``.

    The user reads from the top; at rank i they are satisfied by the document, click it and
    stop, with probability R_i = (2^g_i − 1) / 2^g_max (g_max = ``max_grade``, as in ERR), and
    otherwise go on. Unjudged and negative grades count as 0 (never clicked). The expected
    reciprocal rank of the click is ERR.

    Reference: N. Craswell, O. Zoeter, M. Taylor & B. Ramsey, WSDM 2008; O. Chapelle,
    D. Metzler, Y. Zhang & P. Grinspan, "Expected reciprocal rank for graded relevance",
    CIKM 2009.

    >>> cascade_clicks([0, 0, 0], np.random.default_rng(0), max_grade=1)
    []
    """
    g = _click_grades(grades)
    rng = check_rng(rng)
    satisfied = stop_probability(g, check_max_grade(max_grade, g))
    hits = np.flatnonzero(rng.random(g.size) < satisfied)
    return hits[:1].tolist()
