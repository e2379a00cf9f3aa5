"""The questions of an answer key and their public form.

A lecturer writes :class:`Value`, :class:`Choice` and :class:`Function` in
``solutions/keys/NN_topic.py``; :meth:`public` gives what students install: salted SHA-256
hashes of the expected value rounded to 2, 3 and 4 decimals (:func:`digest`), never the value.
"""

from __future__ import annotations

import hashlib
import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHECKS_PATH = Path(__file__).parent.parent / "data" / "exercises" / "checks.json"
#: Environment variable naming the file where :func:`check` records answers while grading.
ANSWER_LOG = "COURSEKIT_ANSWER_LOG"
PASSED = "passed"
DECIMALS = (4, 3, 2)
TOLERANCE = 1e-6


# --------------------------------------------------------------------------------------------
# Hashing of rounded values


def _canonical_float(value: float, decimals: int) -> str:
    text = f"{value:.{decimals}f}"
    return "0." + "0" * decimals if float(text) == 0 else text  # -0.0000 is 0.0000


def _canonical(value: Any, decimals: int) -> str:
    if isinstance(value, str):
        return "s:" + value.strip().lower()
    if isinstance(value, numbers.Integral):
        return f"i:{int(value)}"
    return "f:" + _canonical_float(float(value), decimals)


def digest(salt: str, value: Any, decimals: int = 4) -> str:
    """Salted SHA-256 of ``value`` rounded to ``decimals`` (strings: stripped, lower case).

    >>> digest("demo", 0.123449999999) == digest("demo", 0.1234)
    True
    """
    text = f"coursekit:{salt}:{_canonical(value, decimals)}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def matches(salt: str, value: Any, hashes: dict[str, str], decimals: int) -> bool:
    expected = hashes.get(str(decimals))
    if expected is None:
        return False
    if isinstance(value, float) and math.isfinite(value):
        # a value a hair away from a rounding boundary counts as its neighbour too
        near = (value, value - 1e-9, value + 1e-9)
        return any(digest(salt, v, decimals) == expected for v in near)
    return digest(salt, value, decimals) == expected


# --------------------------------------------------------------------------------------------
# Questions of an answer key (lecturer side) and their public form (what students install)


@dataclass
class Value:
    """A question whose answer is a number, a whole number, a list of them, or a list of ids.

    ``expected`` is the value in clear; only :meth:`public` (hashes) is shipped to students.
    """

    qid: str
    expected: Any
    points: float = 1.0
    low: float | None = None
    high: float | None = None
    hint: str = ""
    decimals: int = 4

    def kind(self) -> str:
        e = self.expected
        if isinstance(e, str):
            return "text"
        if isinstance(e, (list, tuple)):
            if all(isinstance(x, str) for x in e):
                return "ids"
            if all(isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in e):
                return "ints"
            return "floats"
        if isinstance(e, numbers.Integral) and not isinstance(e, bool):
            return "int"
        return "float"

    def public(self, chapter: str) -> dict[str, Any]:
        salt = f"{chapter}:{self.qid}"
        kind = self.kind()
        spec: dict[str, Any] = {
            "qid": self.qid,
            "kind": kind,
            "points": self.points,
            "salt": salt,
            "hint": self.hint,
            "decimals": self.decimals,
        }
        if self.low is not None:
            spec["low"] = self.low
        if self.high is not None:
            spec["high"] = self.high
        if kind in ("ids", "ints", "floats"):
            values = list(self.expected)
            spec["length"] = len(values)
            spec["items"] = [self._hashes(f"{salt}:{i}", v) for i, v in enumerate(values)]
        else:
            spec["hashes"] = self._hashes(salt, self.expected)
        return spec

    def _hashes(self, salt: str, value: Any) -> dict[str, str]:
        if isinstance(value, float):
            return {str(d): digest(salt, value, d) for d in DECIMALS if d <= self.decimals}
        return {"0": digest(salt, value, 0)}


@dataclass
class Choice:
    """A multiple-choice question: the answer is one letter among ``options``."""

    qid: str
    expected: str
    options: str = "abcd"
    points: float = 1.0
    hint: str = ""

    def public(self, chapter: str) -> dict[str, Any]:
        salt = f"{chapter}:{self.qid}"
        if self.expected not in self.options:
            raise ValueError(f"{self.qid}: {self.expected!r} is not among {self.options!r}")
        return {
            "qid": self.qid,
            "kind": "choice",
            "points": self.points,
            "salt": salt,
            "options": list(self.options),
            "hint": self.hint,
            "hashes": {"0": digest(salt, self.expected, 0)},
        }


@dataclass
class Function:
    """A function to write without coursekit, judged against ``reference`` on inputs.

    ``reference`` is ``"module:function"`` of coursekit; ``cases`` are ``(label, args)`` pairs
    shipped with the self-check; ``hidden`` are more pairs only the grader uses.
    """

    qid: str
    name: str
    reference: str
    cases: Sequence[tuple[str, Sequence[Any]]]
    hidden: Sequence[tuple[str, Sequence[Any]]] = field(default_factory=list)
    points: float = 2.0
    hint: str = ""

    def public(self, chapter: str) -> dict[str, Any]:
        return {
            "qid": self.qid,
            "kind": "function",
            "points": self.points,
            "name": self.name,
            "reference": self.reference,
            "hint": self.hint,
            "cases": [[label, list(args)] for label, args in self.cases],
        }


Question = Value | Choice | Function
