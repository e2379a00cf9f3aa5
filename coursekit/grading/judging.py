"""Judging an answer against the public form of a question (shared by check() and the grader).

>>> from coursekit.grading.questions import Value
>>> spec = Value("q1", 2 / 3, low=0, high=1).public("demo")
>>> judge_value(spec, 0.6667)
'q1: passed'
>>> judge_value(spec, 0.67)
'q1: right to 2 decimals only: give at least 4 decimals (do not round before the end)'
>>> judge_value(spec, 1.5)
'q1: 1.5 is out of range: the answer lies between 0 and 1'
>>> judge_value(spec, ...)
'q1: not answered yet: replace ... with your answer'

A common mistake's value gives its hint (never the expected value):

>>> from coursekit.grading.questions import Mistake
>>> spec = Value("q2", 0.5, mistakes=[Mistake(0.625, "divide by all relevant documents")])
>>> judge_value(spec.public("demo"), 0.625)
'q2: not right yet: divide by all relevant documents'
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

from ..validation import describe, fits_a_float
from .function_judging import (  # noqa: F401 - their former address, used by callers
    call_limited,
    compare_outputs,
    judge_function_here,
    judge_function_points,
    score_outputs,
    time_limit_available,
    timeout_output,
)
from .plain import as_plain, is_number
from .portable import reference_function  # noqa: F401 - its former address
from .questions import (
    DECIMALS,
    PASSED,
    matches,
    points_of,
    precisions,
)

# --------------------------------------------------------------------------------------------
# Judging (shared by check() and the grader)

_KIND_WORDS = {
    "float": "a number",
    "int": "a whole number",
    "text": "a text",
    "choice": "one letter",
    "floats": "a list of numbers",
    "ints": "a list of whole numbers",
    "ids": "a list of document ids (strings)",
}


_TOO_LARGE = "is too large: not a number we can mark"


def _type_error(spec: dict[str, Any], value: Any) -> str | None:
    kind = spec["kind"]
    if kind in ("float", "int") and not is_number(value):
        return f"expected {_KIND_WORDS[kind]}, got {type(value).__name__}"
    if kind == "float" and not fits_a_float(value):  # an int beyond any float: 10**400
        return f"{describe(value, 30)} {_TOO_LARGE}"
    if (
        kind == "int"
        and is_number(value)
        and not isinstance(value, numbers.Integral)
        and not float(value).is_integer()
    ):
        return f"expected a whole number, got {value!r}"
    if kind in ("text", "choice") and not isinstance(value, str):
        return f"expected {_KIND_WORDS[kind]} as a string, got {type(value).__name__}"
    if kind in ("floats", "ints", "ids"):
        if isinstance(value, (str, bytes, dict, set)) or not hasattr(value, "__len__"):
            return f"expected {_KIND_WORDS[kind]}, got {type(value).__name__}"
        item_ok = (lambda x: isinstance(x, str)) if kind == "ids" else is_number
        for i, item in enumerate(value):
            if not item_ok(item):
                return (
                    f"element {i} should be {'a string' if kind == 'ids' else 'a number'}, "
                    f"got {type(item).__name__}"
                )
            if kind == "floats" and not fits_a_float(item):
                return f"element {i} ({describe(item, 30)}) {_TOO_LARGE}"
    return None


def _range_error(spec: dict[str, Any], value: float) -> str | None:
    low, high = spec.get("low"), spec.get("high")
    if isinstance(value, float) and math.isnan(value):
        return "the answer is nan (not a number): a division by zero somewhere?"
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (
            f"between {low:g} and {high:g}"
            if low is not None and high is not None
            else (f"at least {low:g}" if low is not None else f"at most {high:g}")
        )
        return f"{describe(value, 30)} is out of range: the answer lies {bounds}"
    return None


def _judge_scalar(spec: dict[str, Any], salt: str, value: Any, hashes: dict[str, str]) -> str:
    """PASSED, or the number of decimals the value is right to (as text), or ''."""
    if spec["kind"] in ("float", "floats") and "4" in hashes:
        value = float(value)
        significant = bool(spec.get("significant"))
        finest = max(precisions(hashes))
        for decimals in DECIMALS:
            if matches(salt, value, hashes, decimals, significant):
                return PASSED if decimals == finest else str(decimals)
        return ""
    if spec["kind"] in ("int", "ints") and is_number(value):
        value = int(value)
    return PASSED if matches(salt, value, hashes, 0, exact=spec["kind"] == "ids") else ""


def _level(spec: dict[str, Any], salt: str, value: Any, hashes: dict[str, str]) -> int | None:
    """The most decimals to which ``value`` matches ``hashes`` (0: exactly), or None."""
    if spec["kind"] in ("float", "floats") and "4" in hashes:
        try:
            value = float(value)
        except (OverflowError, TypeError, ValueError):
            return None
        significant = bool(spec.get("significant"))
        return next((d for d in DECIMALS if matches(salt, value, hashes, d, significant)), None)
    if spec["kind"] in ("int", "ints") and is_number(value):
        try:
            value = int(value)
        except (OverflowError, ValueError):
            return None
    return 0 if matches(salt, value, hashes, 0, exact=spec["kind"] == "ids") else None


def _agreement(spec: dict[str, Any], salt: str, answer: Any, hashed: dict[str, Any]) -> int:
    """To how many decimals ``answer`` agrees with a hashed value (-1: not at all)."""
    if "items" not in hashed:
        level = _level(spec, salt, answer, hashed["hashes"])
        return -1 if level is None else level
    if len(answer) != hashed["length"]:
        return -1
    levels = [
        _level(spec, f"{salt}:{i}", item, hashes)
        for i, (item, hashes) in enumerate(zip(answer, hashed["items"], strict=True))
    ]
    return -1 if None in levels else min(levels)  # type: ignore[type-var]


def mistake_hint(spec: dict[str, Any], answer: Any) -> str | None:
    """The hint of the common mistake ``answer`` matches (to more decimals than it matches
    the expected value), or None. ``answer`` is plain and of the right type."""
    mistakes = spec.get("mistakes") or []
    if not mistakes:
        return None
    right = _agreement(spec, spec["salt"], answer, spec)
    # a number written with 3 decimals or more must agree with a mistake to 3: to 2, far
    # answers would get a hint about a slip they did not make (0.5722 took the hint of 0.5676);
    # one written with 2 (the mistake rounded, 0.72) may agree to 2
    least = 0
    if spec["kind"] in ("float", "floats"):
        items = answer if isinstance(answer, list) else [answer]
        least = 3 if min((_decimals_given(v) for v in items), default=0) >= 3 else 2
    for j, mistake in enumerate(mistakes):
        level = _agreement(spec, f"{spec['salt']}:mistake{j}", answer, mistake)
        if level > right and level >= least:
            return str(mistake["hint"])
    return None


def judge_value(spec: dict[str, Any], answer: Any) -> str:
    """Judge ``answer`` against the public form of a :class:`Value` or :class:`Choice`."""
    return judge_value_points(spec, answer)[0]


def value_share(spec: dict[str, Any], right_to: str | int) -> float:
    """The share of its question's points that an answer right to ``right_to`` decimals (or
    significant digits) only earns: the best share the key's ``partial`` gives to as many
    decimals or fewer (0 without partial credit).

    >>> value_share({"partial": {"2": 0.5, "3": 0.75}}, "3"), value_share({}, 3)
    (0.75, 0.0)
    """
    partial = spec.get("partial") or {}
    return max((float(s) for d, s in partial.items() if int(d) <= int(right_to)), default=0.0)


def judge_value_points(spec: dict[str, Any], answer: Any) -> tuple[str, float]:
    """:func:`judge_value`'s message and the share of the question's points the answer earns:
    1 when it passes, the key's partial share when it is right to fewer decimals than asked
    (the message then says the points: "right to 2 decimals only (0.5 of 1 point): ..."), 0
    otherwise.

    >>> from coursekit.grading.questions import Value
    >>> spec = Value("q1", 2 / 3, partial={2: 0.5}).public("demo")
    >>> message, share = judge_value_points(spec, 0.67)
    >>> message.split(":")[1], share
    (' right to 2 decimals only (0.5 of 1 point)', 0.5)
    >>> judge_value_points(spec, 0.6667), judge_value_points(spec, 0.7)[1]
    (('q1: passed', 1.0), 0.0)
    """
    qid = spec["qid"]
    hint = f" (hint: {spec['hint']})" if spec.get("hint") else ""
    if answer is ... or answer is None:
        return f"{qid}: not answered yet: replace ... with your answer", 0.0
    answer = as_plain(answer)
    problem = _type_error(spec, answer)
    if problem:
        return f"{qid}: {problem}", 0.0
    kind = spec["kind"]
    mistake = mistake_hint(spec, answer)
    if mistake:
        return f"{qid}: not right yet: {mistake}", 0.0
    if kind == "choice":
        letter = answer.strip().lower()
        if letter not in spec["options"]:
            options = ", ".join(repr(o) for o in spec["options"])
            return f"{qid}: answer one of {options}, got {answer!r}", 0.0
        verdict = _judge_scalar(spec, spec["salt"], letter, spec["hashes"])
        if verdict == PASSED:
            return f"{qid}: {PASSED}", 1.0
        return f"{qid}: not this one{hint}", 0.0
    if kind in ("floats", "ints", "ids"):
        if len(answer) != spec["length"]:
            return f"{qid}: expected a list of {spec['length']} elements, got {len(answer)}", 0.0
        rounded = []
        for i, (item, hashes) in enumerate(zip(answer, spec["items"], strict=True)):
            if kind != "ids":
                problem = _range_error(spec, item)
                if problem:
                    return f"{qid}: element {i}: {problem}", 0.0
            verdict = _judge_scalar(spec, f"{spec['salt']}:{i}", item, hashes)
            if verdict == "":
                return f"{qid}: element {i} ({item!r}) is not right{hint}", 0.0
            if verdict != PASSED:
                rounded.append(verdict)
        if rounded:
            return _rounded(spec, min(rounded), answer)
        return f"{qid}: {PASSED}", 1.0
    if kind in ("float", "int"):
        problem = _range_error(spec, answer)
        if problem:
            return f"{qid}: {problem}", 0.0
    verdict = _judge_scalar(spec, spec["salt"], answer, spec["hashes"])
    if verdict == PASSED:
        return f"{qid}: {PASSED}", 1.0
    if verdict:
        return _rounded(spec, verdict, [answer])
    return f"{qid}: not right yet{hint}", 0.0


def _rounded(spec: dict[str, Any], right_to: str, values: Sequence[Any]) -> tuple[str, float]:
    """What an answer right only to ``right_to`` decimals (or significant digits) is told:
    to give more of them, or, when it already gives enough, that its last ones are off (and
    the points it earns when the key gives partial credit), and the share of the points."""
    unit = "significant digits" if spec.get("significant") else "decimals"
    qid, wanted = spec["qid"], spec["decimals"]
    share = value_share(spec, right_to)
    points = float(spec.get("points", 1))
    said = f"{qid}: right to {right_to} {unit} only"
    if share:
        said += f" ({points_of(share * points, points)})"
    if not spec.get("significant") and all(_decimals_given(v) >= wanted for v in values):
        return (
            f"{said}, though you give {wanted} or more: the last ones are off (cut rather than "
            "rounded, or rounded too early): keep full precision"
        ), share
    return f"{said}: give at least {wanted} {unit} (do not round before the end)", share


def _decimals_given(value: Any) -> int:
    """How many decimals a number is written with (as Python writes it): 0.5555 has 4."""
    try:
        text = repr(float(value))
    except (OverflowError, TypeError, ValueError):
        return 0
    if "e" in text or "." not in text:
        return 17 if "e-" in text else 0
    return len(text.split(".")[1].rstrip("0"))


def judge_format(spec: dict[str, Any], answer: Any) -> str:
    """The problem with the *format* of an answer (type, length, range), or that it was
    recorded: what check() says for a question on a student's own variant data."""
    qid = spec["qid"]
    if spec["kind"] == "function":
        return judge_function_here(spec, answer)
    if answer is ... or answer is None:
        return f"{qid}: not answered yet: replace ... with your answer"
    value = as_plain(answer)
    problem = _type_error(spec, value)
    if problem is None and spec["kind"] in ("floats", "ints", "ids"):
        if len(value) != spec["length"]:
            problem = f"expected a list of {spec['length']} elements, got {len(value)}"
        elif spec["kind"] != "ids":
            problem = next(filter(None, (_range_error(spec, v) for v in value)), None)
    elif problem is None and spec["kind"] in ("float", "int"):
        problem = _range_error(spec, value)
    if problem:
        return f"{qid}: {problem}"
    return f"{qid}: recorded (the format is right; your own data's answer is judged when graded)"
