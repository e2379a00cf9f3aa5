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

from ..i18n import key_text
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
from .spec import AnswerFormat, ChoiceSpec, FunctionSpec, ValueMistake, ValueSpec
from .wording import N_, _, about, hint_of, passed

#: What the value judges read: the public form of a Value or a Choice (typed, :mod:`.spec`).
Judged = ValueSpec | ChoiceSpec

# --------------------------------------------------------------------------------------------
# Judging (shared by check() and the grader)

_KIND_WORDS = {
    "float": N_("a number"),
    "int": N_("a whole number"),
    "text": N_("a text"),
    "choice": N_("one letter"),
    "floats": N_("a list of numbers"),
    "ints": N_("a list of whole numbers"),
    "ids": N_("a list of document ids (strings)"),
}


_TOO_LARGE = N_("{value} is too large: not a number we can mark")


def _type_error(spec: Judged | AnswerFormat, value: Any) -> str | None:
    kind = spec.kind
    if kind in ("float", "int") and not is_number(value):
        return _("expected {kind}, got {type}").format(
            kind=_(_KIND_WORDS[kind]), type=type(value).__name__
        )
    if kind == "float" and not fits_a_float(value):  # an int beyond any float: 10**400
        return _(_TOO_LARGE).format(value=describe(value, 30))
    if (
        kind == "int"
        and is_number(value)
        and not isinstance(value, numbers.Integral)
        and not float(value).is_integer()
    ):
        return _("expected a whole number, got {value}").format(value=repr(value))
    if kind in ("text", "choice") and not isinstance(value, str):
        return _("expected {kind} as a string, got {type}").format(
            kind=_(_KIND_WORDS[kind]), type=type(value).__name__
        )
    if kind in ("floats", "ints", "ids"):
        if isinstance(value, (str, bytes, dict, set)) or not hasattr(value, "__len__"):
            return _("expected {kind}, got {type}").format(
                kind=_(_KIND_WORDS[kind]), type=type(value).__name__
            )
        item_ok = (lambda x: isinstance(x, str)) if kind == "ids" else is_number
        for i, item in enumerate(value):
            if not item_ok(item):
                should = (
                    _("element {i} should be a string, got {type}")
                    if kind == "ids"
                    else _("element {i} should be a number, got {type}")
                )
                return should.format(i=i, type=type(item).__name__)
            if kind == "floats" and not fits_a_float(item):
                return _("element {i}: {problem}").format(
                    i=i, problem=_(_TOO_LARGE).format(value=describe(item, 30))
                )
    return None


def _range_error(spec: ValueSpec | AnswerFormat, value: float) -> str | None:
    low, high = spec.low, spec.high
    if isinstance(value, float) and math.isnan(value):
        return _("the answer is nan (not a number): a division by zero somewhere?")
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            bounds = _("the answer lies between {low} and {high}")
        elif low is not None:
            bounds = _("the answer is at least {low}")
        else:
            bounds = _("the answer is at most {high}")
        said = bounds.format(
            low="" if low is None else f"{low:g}", high="" if high is None else f"{high:g}"
        )
        return _("{value} is out of range: {bounds}").format(value=describe(value, 30), bounds=said)
    return None


def _judge_scalar(spec: Judged, salt: str, value: Any, hashes: dict[str, str]) -> str:
    """PASSED, or the number of decimals the value is right to (as text), or ''."""
    if spec.kind in ("float", "floats") and "4" in hashes:
        value = float(value)
        significant = isinstance(spec, ValueSpec) and spec.significant
        finest = max(precisions(hashes))
        for decimals in DECIMALS:
            if matches(salt, value, hashes, decimals, significant):
                return PASSED if decimals == finest else str(decimals)
        return ""
    if spec.kind in ("int", "ints") and is_number(value):
        value = int(value)
    return PASSED if matches(salt, value, hashes, 0, exact=spec.kind == "ids") else ""


def _level(spec: ValueSpec, salt: str, value: Any, hashes: dict[str, str]) -> int | None:
    """The most decimals to which ``value`` matches ``hashes`` (0: exactly), or None."""
    if spec.kind in ("float", "floats") and "4" in hashes:
        try:
            value = float(value)
        except (OverflowError, TypeError, ValueError):
            return None
        significant = spec.significant
        return next((d for d in DECIMALS if matches(salt, value, hashes, d, significant)), None)
    if spec.kind in ("int", "ints") and is_number(value):
        try:
            value = int(value)
        except (OverflowError, ValueError):
            return None
    return 0 if matches(salt, value, hashes, 0, exact=spec.kind == "ids") else None


def _agreement(spec: ValueSpec, salt: str, answer: Any, hashed: ValueSpec | ValueMistake) -> int:
    """To how many decimals ``answer`` agrees with a hashed value (-1: not at all)."""
    if hashed.items is None:
        level = _level(spec, salt, answer, hashed.hashes or {})
        return -1 if level is None else level
    if len(answer) != hashed.length:
        return -1
    levels = [
        _level(spec, f"{salt}:{i}", item, hashes)
        for i, (item, hashes) in enumerate(zip(answer, hashed.items, strict=True))
    ]
    return -1 if None in levels else min(levels)  # type: ignore[type-var]


def mistake_hint(spec: Judged, answer: Any) -> str | None:
    """The hint of the common mistake ``answer`` matches (to more decimals than it matches
    the expected value), or None. ``answer`` is plain and of the right type."""
    if not isinstance(spec, ValueSpec) or not spec.mistakes:
        return None
    right = _agreement(spec, spec.salt, answer, spec)
    # a number written with 3 decimals or more must agree with a mistake to 3: to 2, far
    # answers would get a hint about a slip they did not make (0.5722 took the hint of 0.5676);
    # one written with 2 (the mistake rounded, 0.72) may agree to 2
    least = 0
    if spec.kind in ("float", "floats"):
        items = answer if isinstance(answer, list) else [answer]
        least = 3 if min((_decimals_given(v) for v in items), default=0) >= 3 else 2
    for j, mistake in enumerate(spec.mistakes):
        level = _agreement(spec, f"{spec.salt}:mistake{j}", answer, mistake)
        if level > right and level >= least:
            return key_text(mistake.hint)
    return None


def judge_value(spec: Judged, answer: Any) -> str:
    """Judge ``answer`` against the public form of a :class:`Value` or :class:`Choice`."""
    return judge_value_points(spec, answer)[0]


def value_share(spec: ValueSpec, right_to: str | int) -> float:
    """The share of its question's points that an answer right to ``right_to`` decimals (or
    significant digits) only earns: the best share the key's ``partial`` gives to as many
    decimals or fewer (0 without partial credit).

    >>> from coursekit.grading.questions import Value
    >>> shares = Value("q", 2 / 3, partial={2: 0.5, 3: 0.75}).public("demo")
    >>> value_share(shares, "3"), value_share(Value("q", 2 / 3).public("demo"), 3)
    (0.75, 0.0)
    """
    partial = spec.partial or {}
    return max((float(s) for d, s in partial.items() if d <= int(right_to)), default=0.0)


def judge_value_points(spec: Judged, answer: Any) -> tuple[str, float]:
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
    qid = spec.qid
    hint = hint_of(spec.hint) if spec.hint else ""
    if answer is ... or answer is None:
        return _("{qid}: not answered yet: replace ... with your answer").format(qid=qid), 0.0
    answer = as_plain(answer)
    problem = _type_error(spec, answer)
    if problem:
        return about(qid, problem), 0.0
    kind = spec.kind
    mistake = mistake_hint(spec, answer)
    if mistake:
        return _("{qid}: not right yet: {mistake}").format(qid=qid, mistake=mistake), 0.0
    if isinstance(spec, ChoiceSpec):
        letter = answer.strip().lower()
        if letter not in spec.options:
            options = ", ".join(repr(o) for o in spec.options)
            said = _("{qid}: answer one of {options}, got {answer}")
            return said.format(qid=qid, options=options, answer=repr(answer)), 0.0
        verdict = _judge_scalar(spec, spec.salt, letter, spec.hashes)
        if verdict == PASSED:
            return passed(qid), 1.0
        return _("{qid}: not this one").format(qid=qid) + hint, 0.0
    if kind in ("floats", "ints", "ids"):
        if len(answer) != spec.length:
            said = _("{qid}: expected a list of {length} elements, got {count}")
            return said.format(qid=qid, length=spec.length, count=len(answer)), 0.0
        rounded = []
        for i, (item, hashes) in enumerate(zip(answer, spec.items or (), strict=True)):
            if kind != "ids":
                problem = _range_error(spec, item)
                if problem:
                    said = _("{qid}: element {i}: {problem}")
                    return said.format(qid=qid, i=i, problem=problem), 0.0
            verdict = _judge_scalar(spec, f"{spec.salt}:{i}", item, hashes)
            if verdict == "":
                said = _("{qid}: element {i} ({item}) is not right")
                return said.format(qid=qid, i=i, item=repr(item)) + hint, 0.0
            if verdict != PASSED:
                rounded.append(verdict)
        if rounded:
            return _rounded(spec, min(rounded), answer)
        return passed(qid), 1.0
    if kind in ("float", "int"):
        problem = _range_error(spec, answer)
        if problem:
            return about(qid, problem), 0.0
    verdict = _judge_scalar(spec, spec.salt, answer, spec.hashes or {})
    if verdict == PASSED:
        return passed(qid), 1.0
    if verdict:
        return _rounded(spec, verdict, [answer])
    return _("{qid}: not right yet").format(qid=qid) + hint, 0.0


def _rounded(spec: ValueSpec, right_to: str, values: Sequence[Any]) -> tuple[str, float]:
    """What an answer right only to ``right_to`` decimals (or significant digits) is told:
    to give more of them, or, when it already gives enough, that its last ones are off (and
    the points it earns when the key gives partial credit), and the share of the points."""
    unit = _("significant digits") if spec.significant else _("decimals")
    qid, wanted = spec.qid, spec.decimals
    share = value_share(spec, right_to)
    points = float(spec.points)
    said = _("{qid}: right to {right_to} {unit} only").format(qid=qid, right_to=right_to, unit=unit)
    if share:
        said += f" ({points_of(share * points, points)})"
    if not spec.significant and all(_decimals_given(v) >= wanted for v in values):
        return said + _(
            ", though you give {wanted} or more: the last ones are off (cut rather than "
            "rounded, or rounded too early): keep full precision"
        ).format(wanted=wanted), share
    return said + _(": give at least {wanted} {unit} (do not round before the end)").format(
        wanted=wanted, unit=unit
    ), share


def _decimals_given(value: Any) -> int:
    """How many decimals a number is written with (as Python writes it): 0.5555 has 4."""
    try:
        text = repr(float(value))
    except (OverflowError, TypeError, ValueError):
        return 0
    if "e" in text or "." not in text:
        return 17 if "e-" in text else 0
    return len(text.split(".")[1].rstrip("0"))


def judge_format(spec: Judged | FunctionSpec | AnswerFormat, answer: Any) -> str:
    """The problem with the *format* of an answer (type, length, range), or that it was
    recorded: what check() says for a question on a student's own variant data (``spec``:
    its public form, or a variant's :class:`~.spec.AnswerFormat` of a value or a choice)."""
    qid = spec.qid
    if isinstance(spec, FunctionSpec):
        return judge_function_here(spec, answer)
    if answer is ... or answer is None:
        return _("{qid}: not answered yet: replace ... with your answer").format(qid=qid)
    value = as_plain(answer)
    problem = _type_error(spec, value)
    if problem is None and spec.kind in ("floats", "ints", "ids"):
        if len(value) != spec.length:
            problem = _("expected a list of {length} elements, got {count}").format(
                length=spec.length, count=len(value)
            )
        elif spec.kind != "ids":
            problem = next(filter(None, (_range_error(spec, v) for v in value)), None)
    elif problem is None and spec.kind in ("float", "int"):
        problem = _range_error(spec, value)
    if problem:
        return about(qid, problem)
    return _(
        "{qid}: recorded (the format is right; your own data's answer is judged when graded)"
    ).format(qid=qid)
