"""Answers and points as plain values: numpy scalars and arrays as Python numbers and lists
(for judging and for JSON), what counts as a number, and points as feedback writes them
(shared by the questions, :mod:`.judging` and :mod:`.function_judging`)."""

from __future__ import annotations

import numbers
from typing import Any

from .wording import _


def is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def as_plain(value: Any) -> Any:
    """numpy scalars and arrays as Python numbers and lists (for judging and for JSON)."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return value.tolist()
    if isinstance(value, tuple):
        return list(value)
    return value


def points_text(points: float) -> str:
    """Points as feedback writes them: to 2 decimals at most, without trailing zeros.

    >>> points_text(1.4999999), points_text(2.0), points_text(0.6), points_text(2 / 3)
    ('1.5', '2', '0.6', '0.67')
    """
    return f"{round(float(points), 2) + 0.0:g}"


def points_of(earned: float, points: float) -> str:
    """``"0.6 of 1 point"``: what an answer earned of its question's points."""
    said = _("{earned} of {points} point") if points == 1 else _("{earned} of {points} points")
    return said.format(earned=points_text(earned), points=points_text(points))
