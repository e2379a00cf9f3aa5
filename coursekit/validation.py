"""Shared checks for the arguments of every measure.

Each helper turns a student's input into what the measures compute on, or raises a
``TypeError`` / ``ValueError`` that says what is wrong and with which argument, so that a
mistake never surfaces as a traceback from deep inside numpy or as a silently wrong number.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

import numpy as np

#: A judged grade at or above this level counts as relevant (trec_eval's default
#: ``relevance_level``). Grades below it (0 and negative grades) are judged but not relevant.
RELEVANCE_THRESHOLD = 1


def preview(items: Any, limit: int = 5) -> str:
    """The first ``limit`` items, quoted, for an error message ("'q1', 'q2' ...").

    >>> preview(["q1", "q2", "q3"], limit=2)
    "'q1', 'q2' ..."
    """
    items = [str(x) for x in items]
    return ", ".join(map(repr, items[:limit])) + (" ..." if len(items) > limit else "")


def describe(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters for an error message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def refuse_unordered(values: Any, name: str, what: str = "relevance grades") -> None:
    """Refuse a set or a dict where a ranking (something in rank order) is expected: a set
    has no rank order, and a dict's order is that of its keys, not of a ranking."""
    if isinstance(values, (AbstractSet, Mapping)):
        kind = type(values).__name__
        raise TypeError(
            f"{name} must be a sequence of {what} in rank order, such as a list, "
            f"got {kind} {describe(values, 40)}: a {kind} has no rank order"
        )


def as_grades(rels: Any, name: str = "rels") -> np.ndarray:
    """Return ``rels`` as a 1-D float array of finite grades (an empty list is allowed)."""
    refuse_unordered(rels, name)
    if isinstance(rels, (str, bytes)):
        raise TypeError(
            f"{name} must be a sequence of relevance grades in rank order, "
            f"got {type(rels).__name__} {describe(rels)}"
        )
    if isinstance(rels, np.ndarray):
        array = rels
    else:
        if not isinstance(rels, Iterable):
            raise TypeError(
                f"{name} must be a sequence of relevance grades in rank order, "
                f"got {type(rels).__name__} {describe(rels)}"
            )
        items = list(rels)
        for position, item in enumerate(items, start=1):
            if isinstance(item, bool) or isinstance(item, np.bool_):
                continue
            if not isinstance(item, numbers.Real):
                raise TypeError(
                    f"{name}[{position - 1}] (rank {position}) must be a number, "
                    f"got {type(item).__name__} {describe(item)}"
                )
        try:
            array = np.asarray(items, dtype=float) if items else np.zeros(0)
        except OverflowError:  # an int beyond any float (10**400)
            position = next(i for i, item in enumerate(items) if not fits_a_float(item))
            raise ValueError(
                f"{name}[{position}] (rank {position + 1}) is {describe(items[position])}: "
                "too large for a grade"
            ) from None
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got an array of shape {array.shape}")
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold numbers, got an array of dtype {array.dtype}")
    array = array.astype(float, copy=False)
    if array.size and not np.all(np.isfinite(array)):
        position = int(np.flatnonzero(~np.isfinite(array))[0])
        raise ValueError(
            f"{name}[{position}] (rank {position + 1}) is {float(array[position])!r}: "
            "grades must be finite numbers"
        )
    return array


def as_binary(rels: Any, name: str = "rels") -> np.ndarray:
    """Return a boolean array: True where the grade counts as relevant (grade >= 1)."""
    return as_grades(rels, name) >= RELEVANCE_THRESHOLD


def check_scalar(
    value: Any,
    name: str,
    target_type: type | tuple[type, ...],
    *,
    what: str,
    min_val: float | None = None,
    max_val: float | None = None,
    include_boundaries: str = "both",
) -> Any:
    """Check one scalar argument: its type, that it is finite, and its range.

    Modelled on scikit-learn's ``check_scalar``: ``target_type`` is the accepted type (``bool``
    is never accepted as a number), ``what`` names what is expected in the error message
    ("a positive integer"), ``min_val``/``max_val`` bound it and ``include_boundaries`` says
    which bounds are allowed ("both", "left", "right" or "neither"). Returns ``value``
    unchanged; raises ``TypeError`` for a wrong type and ``ValueError`` for a value out of
    range, both naming the argument.

    >>> check_scalar(3, "k", numbers.Integral, what="a positive integer", min_val=1)
    3
    >>> check_scalar(0, "k", numbers.Integral, what="a positive integer", min_val=1)
    Traceback (most recent call last):
    ValueError: k must be a positive integer (>= 1), got 0
    """
    if include_boundaries not in ("both", "left", "right", "neither"):
        raise ValueError(
            f"include_boundaries must be both, left, right or neither, got {include_boundaries!r}"
        )
    types = target_type if isinstance(target_type, tuple) else (target_type,)
    is_flag = isinstance(value, (bool, np.bool_))
    if (is_flag and bool not in types) or not isinstance(value, types):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {describe(value)}")
    if isinstance(value, numbers.Real) and not is_flag:
        left = include_boundaries in ("both", "left")
        right = include_boundaries in ("both", "right")
        bounds = []
        if min_val is not None:
            bounds.append(f"{'>=' if left else '>'} {min_val}")
        if max_val is not None:
            bounds.append(f"{'<=' if right else '<'} {max_val}")
        if min_val is not None and max_val is not None:
            interval = f"in {'[' if left else '('}{min_val}, {max_val}{']' if right else ')'}"
            expected = f"{what} {interval}"
        else:
            expected = f"{what} ({bounds[0]})" if bounds else what
        too_low = min_val is not None and (value < min_val or (not left and value == min_val))
        too_high = max_val is not None and (value > max_val or (not right and value == max_val))
        if not fits_a_float(value) or (
            isinstance(value, numbers.Integral) and abs(int(value)) > _LARGEST_INT
        ):
            raise ValueError(f"{name} is too large: it must be {expected}, got {describe(value)}")
        if not math.isfinite(value) or too_low or too_high:
            raise ValueError(f"{name} must be {expected}, got {describe(value)}")
    return value


_LARGEST_INT = 2**63 - 1  #: integers beyond it cannot index arrays or count rows


def fits_a_float(value: Any) -> bool:
    """Whether a number converts to a float (an int of 400 digits does not)."""
    try:
        float(value)
    except OverflowError:
        return False
    return True


def check_positive_int(value: Any, name: str) -> int:
    """Return ``value`` as an ``int`` if it is an integer >= 1."""
    return int(check_scalar(value, name, numbers.Integral, what="a positive integer", min_val=1))


def check_bool(value: Any, name: str) -> bool:
    """A flag: ``True`` or ``False`` only (``"no"`` or ``1`` would silently count as true)."""
    return bool(check_scalar(value, name, (bool, np.bool_), what="True or False"))


def check_choice(value: Any, name: str, choices: Iterable[str]) -> str:
    """One of a fixed set of names, such as a DCG variant."""
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"unknown {name} {value!r}: choose one of {', '.join(choices)}")
    return value


def check_k(k: Any) -> int:
    """A rank cut-off: a positive integer."""
    return check_positive_int(k, "k")


def check_n_relevant(n_relevant: Any, relevant: np.ndarray | None = None) -> int:
    """Return the number of relevant documents of the query, checked against the ranking.

    ``relevant`` is the boolean array of the ranking: the collection cannot hold fewer relevant
    documents than the ranking retrieves.
    """
    check_scalar(
        n_relevant,
        "n_relevant",
        numbers.Integral,
        what="an integer",
        min_val=0,
    )
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
    check_scalar(
        beta,
        "beta",
        numbers.Real,
        what="a positive number",
        min_val=0,
        include_boundaries="neither",
    )
    return float(beta)


def check_unit_interval(value: Any, name: str) -> float:
    """A proportion such as a precision, a recall or an AP: a number in [0, 1]."""
    return float(check_scalar(value, name, numbers.Real, what="a number", min_val=0, max_val=1))


def check_finite(value: Any, name: str) -> float:
    """Any finite real number."""
    return float(check_scalar(value, name, numbers.Real, what="a finite number"))


def as_id_set(items: Any, name: str) -> set:
    """A set of document identifiers (any hashable values)."""
    if isinstance(items, (str, bytes)):
        raise TypeError(
            f"{name} must be a collection of document ids such as a list or a set, "
            f"got the string {describe(items)}"
        )
    if not isinstance(items, Iterable):
        raise TypeError(f"{name} must be a collection of document ids, got {type(items).__name__}")
    items = list(items)
    try:
        return set(items)
    except TypeError:  # an id that cannot be hashed (a list, say)
        i = next(i for i, item in enumerate(items) if not isinstance(item, Hashable))
        raise TypeError(
            f"{name}[{i}] must be a document id (a string or a number), "
            f"got {type(items[i]).__name__} {describe(items[i])}"
        ) from None


def check_rng(rng: Any) -> np.random.Generator:
    """A seeded source of randomness: a ``numpy.random.Generator``, never a global state."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            "rng must be a numpy.random.Generator, e.g. numpy.random.default_rng(42), "
            f"got {type(rng).__name__}"
        )
    return rng


def first_ranks(items: list, name: str, what: str = "document", as_text: bool = False) -> dict:
    """The rank (from 1) of each of ``items``, keyed by the item (by its text, ``as_text``: 7 and
    "7" are then one): a ``TypeError`` for an item that cannot be hashed (a list inside the
    list), a ``ValueError`` for one given twice, each naming ``name`` and the ranks.

    >>> first_ranks(["d1", "d2"], "ranking")
    {'d1': 1, 'd2': 2}
    >>> first_ranks(["d1", "d2", "d1"], "ranking")
    Traceback (most recent call last):
    ValueError: ranking: document 'd1' appears twice (ranks 1 and 3)
    """
    first: dict = {}
    for rank, item in enumerate(items, start=1):
        try:
            hash(item)
        except TypeError:  # a list inside the list, say
            raise TypeError(
                f"{name}: the {what} at rank {rank} must be a string or a number, "
                f"got {type(item).__name__} {describe(item)}"
            ) from None
        key = str(item) if as_text else item
        earlier = first.setdefault(key, rank)
        if earlier != rank:
            raise ValueError(f"{name}: {what} {key!r} appears twice (ranks {earlier} and {rank})")
    return first
