"""Shared checks for the arguments of every measure.

Each helper turns a student's input into what the measures compute on, or raises a
``TypeError`` / ``ValueError`` that says what is wrong and with which argument, so that a
mistake never surfaces as a traceback from deep inside numpy or as a silently wrong number.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

#: A judged grade at or above this level counts as relevant (trec_eval's default
#: ``relevance_level``). Grades below it (0 and negative grades) are judged but not relevant.
RELEVANCE_THRESHOLD = 1


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def as_grades(rels: Any, name: str = "rels") -> np.ndarray:
    """Return ``rels`` as a 1-D float array of finite grades (an empty list is allowed)."""
    if isinstance(rels, (str, bytes)) or isinstance(rels, dict):
        raise TypeError(
            f"{name} must be a sequence of relevance grades in rank order, "
            f"got {type(rels).__name__} {_describe(rels)}"
        )
    if isinstance(rels, np.ndarray):
        array = rels
    else:
        if not isinstance(rels, Iterable):
            raise TypeError(
                f"{name} must be a sequence of relevance grades in rank order, "
                f"got {type(rels).__name__} {_describe(rels)}"
            )
        items = list(rels)
        for position, item in enumerate(items, start=1):
            if isinstance(item, bool) or isinstance(item, np.bool_):
                continue
            if not isinstance(item, numbers.Real):
                raise TypeError(
                    f"{name}[{position - 1}] (rank {position}) must be a number, "
                    f"got {type(item).__name__} {_describe(item)}"
                )
        array = np.asarray(items, dtype=float) if items else np.zeros(0)
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {array.shape}")
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold numbers, got an array of dtype {array.dtype}")
    array = array.astype(float, copy=False)
    if array.size and not np.all(np.isfinite(array)):
        position = int(np.flatnonzero(~np.isfinite(array))[0])
        raise ValueError(
            f"{name}[{position}] (rank {position + 1}) is {array[position]!r}: "
            "grades must be finite numbers"
        )
    return array


def as_binary(rels: Any, name: str = "rels") -> np.ndarray:
    """Return a boolean array: True where the grade counts as relevant (grade >= 1)."""
    return as_grades(rels, name) >= RELEVANCE_THRESHOLD


def check_positive_int(value: Any, name: str) -> int:
    """Return ``value`` as an ``int`` if it is an integer >= 1."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer, got {type(value).__name__} {value!r}")
    if value <= 0:
        raise ValueError(f"{name} must be a positive integer (>= 1), got {value!r}")
    return int(value)


def check_k(k: Any) -> int:
    """A rank cut-off: a positive integer."""
    return check_positive_int(k, "k")


def check_n_relevant(n_relevant: Any, relevant: np.ndarray | None = None) -> int:
    """Return the number of relevant documents of the query, checked against the ranking.

    ``relevant`` is the boolean array of the ranking: the collection cannot hold fewer relevant
    documents than the ranking retrieves.
    """
    if isinstance(n_relevant, (bool, np.bool_)) or not isinstance(n_relevant, numbers.Integral):
        raise TypeError(
            "n_relevant (the number of relevant documents of the query) must be an integer, "
            f"got {type(n_relevant).__name__} {n_relevant!r}"
        )
    if n_relevant < 0:
        raise ValueError(f"n_relevant must be >= 0, got {n_relevant}")
    if relevant is not None:
        found = int(np.count_nonzero(relevant))
        if found > n_relevant:
            raise ValueError(
                f"n_relevant={n_relevant} is smaller than the {found} relevant documents "
                "the ranking retrieves: n_relevant counts every relevant document of the "
                "collection for this query, retrieved or not"
            )
    return int(n_relevant)


def check_beta(beta: Any) -> float:
    """The weight of recall against precision in F_beta: a finite number > 0."""
    if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, numbers.Real):
        raise TypeError(f"beta must be a positive number, got {type(beta).__name__} {beta!r}")
    if not math.isfinite(beta) or beta <= 0:
        raise ValueError(f"beta must be a finite number > 0, got {beta!r}")
    return float(beta)


def check_unit_interval(value: Any, name: str) -> float:
    """A proportion such as a precision, a recall or an AP: a number in [0, 1]."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number in [0, 1], got {type(value).__name__} {value!r}")
    if not (0.0 <= value <= 1.0):
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")
    return float(value)


def as_id_set(items: Any, name: str) -> set:
    """A set of document identifiers (any hashable values)."""
    if isinstance(items, (str, bytes)):
        raise TypeError(
            f"{name} must be a collection of document ids such as a list or a set, "
            f"got the string {_describe(items)}"
        )
    if not isinstance(items, Iterable):
        raise TypeError(f"{name} must be a collection of document ids, got {type(items).__name__}")
    return set(items)
