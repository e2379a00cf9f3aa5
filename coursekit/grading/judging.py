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

import builtins
import math
import numbers
import re
import types
from collections.abc import Sequence
from typing import Any

from ..validation import describe, fits_a_float
from . import portable
from .portable import call_with_copies, reference_function
from .questions import DECIMALS, PASSED, TOLERANCE, matches, output_digest, precisions

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


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


_TOO_LARGE = "is too large: not a number we can mark"


def _type_error(spec: dict[str, Any], value: Any) -> str | None:
    kind = spec["kind"]
    if kind in ("float", "int") and not _is_number(value):
        return f"expected {_KIND_WORDS[kind]}, got {type(value).__name__}"
    if kind == "float" and not fits_a_float(value):  # an int beyond any float: 10**400
        return f"{describe(value, 30)} {_TOO_LARGE}"
    if (
        kind == "int"
        and _is_number(value)
        and not isinstance(value, numbers.Integral)
        and not float(value).is_integer()
    ):
        return f"expected a whole number, got {value!r}"
    if kind in ("text", "choice") and not isinstance(value, str):
        return f"expected {_KIND_WORDS[kind]} as a string, got {type(value).__name__}"
    if kind in ("floats", "ints", "ids"):
        if isinstance(value, (str, bytes, dict, set)) or not hasattr(value, "__len__"):
            return f"expected {_KIND_WORDS[kind]}, got {type(value).__name__}"
        item_ok = (lambda x: isinstance(x, str)) if kind == "ids" else _is_number
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


def as_plain(value: Any) -> Any:
    """numpy scalars and arrays as Python numbers and lists (for judging and for JSON)."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return value.tolist()
    if isinstance(value, tuple):
        return list(value)
    return value


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
    if spec["kind"] in ("int", "ints") and _is_number(value):
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
    if spec["kind"] in ("int", "ints") and _is_number(value):
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
    qid = spec["qid"]
    hint = f" (hint: {spec['hint']})" if spec.get("hint") else ""
    if answer is ... or answer is None:
        return f"{qid}: not answered yet: replace ... with your answer"
    answer = as_plain(answer)
    problem = _type_error(spec, answer)
    if problem:
        return f"{qid}: {problem}"
    kind = spec["kind"]
    mistake = mistake_hint(spec, answer)
    if mistake:
        return f"{qid}: not right yet: {mistake}"
    if kind == "choice":
        letter = answer.strip().lower()
        if letter not in spec["options"]:
            options = ", ".join(repr(o) for o in spec["options"])
            return f"{qid}: answer one of {options}, got {answer!r}"
        verdict = _judge_scalar(spec, spec["salt"], letter, spec["hashes"])
        return f"{qid}: {PASSED}" if verdict == PASSED else f"{qid}: not this one{hint}"
    if kind in ("floats", "ints", "ids"):
        if len(answer) != spec["length"]:
            return f"{qid}: expected a list of {spec['length']} elements, got {len(answer)}"
        rounded = []
        for i, (item, hashes) in enumerate(zip(answer, spec["items"], strict=True)):
            if kind != "ids":
                problem = _range_error(spec, item)
                if problem:
                    return f"{qid}: element {i}: {problem}"
            verdict = _judge_scalar(spec, f"{spec['salt']}:{i}", item, hashes)
            if verdict == "":
                return f"{qid}: element {i} ({item!r}) is not right{hint}"
            if verdict != PASSED:
                rounded.append(verdict)
        if rounded:
            return _rounded(spec, min(rounded), answer)
        return f"{qid}: {PASSED}"
    if kind in ("float", "int"):
        problem = _range_error(spec, answer)
        if problem:
            return f"{qid}: {problem}"
    verdict = _judge_scalar(spec, spec["salt"], answer, spec["hashes"])
    if verdict == PASSED:
        return f"{qid}: {PASSED}"
    if verdict:
        return _rounded(spec, verdict, [answer])
    return f"{qid}: not right yet{hint}"


def _rounded(spec: dict[str, Any], right_to: str, values: Sequence[Any]) -> str:
    """What an answer right only to ``right_to`` decimals (or significant digits) is told:
    to give more of them, or, when it already gives enough, that its last ones are off."""
    unit = "significant digits" if spec.get("significant") else "decimals"
    qid, wanted = spec["qid"], spec["decimals"]
    if not spec.get("significant") and all(_decimals_given(v) >= wanted for v in values):
        return (
            f"{qid}: right to {right_to} {unit} only, though you give {wanted} or more: the "
            "last ones are off (cut rather than rounded, or rounded too early): keep full "
            "precision"
        )
    return (
        f"{qid}: right to {right_to} {unit} only: give at least {wanted} {unit} (do not round "
        "before the end)"
    )


def _decimals_given(value: Any) -> int:
    """How many decimals a number is written with (as Python writes it): 0.5555 has 4."""
    try:
        text = repr(float(value))
    except (OverflowError, TypeError, ValueError):
        return 0
    if "e" in text or "." not in text:
        return 17 if "e-" in text else 0
    return len(text.split(".")[1].rstrip("0"))


def _close(got: Any, expected: Any) -> bool:
    got, expected = as_plain(got), as_plain(expected)
    if isinstance(expected, list):
        return (
            isinstance(got, list)
            and len(got) == len(expected)
            and all(_close(g, e) for g, e in zip(got, expected, strict=True))
        )
    if _is_number(expected):
        if not _is_number(got):
            return False
        if math.isnan(expected) or math.isnan(got):
            return math.isnan(expected) and math.isnan(got)
        return math.isclose(got, expected, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    return got == expected


def _short(value: Any) -> str:
    text = repr(as_plain(value))
    return text if len(text) <= 50 else text[:47] + "..."


def compare_outputs(
    qid: str,
    results: Sequence[tuple[str, Any, Any]],
    hint: str = "",
    inputs: Sequence[Sequence[Any] | None] | None = None,
    spec: dict[str, Any] | None = None,
) -> str:
    """Judge a function from ``(label, got, expected)`` triples; ``got`` may be an exception
    message (a string starting with ``"raised "``) when the function failed. The message of a
    failing case names its label, its input (``inputs[i]``) and the question's ``hint`` — or
    the hint of the common mistake (the ``spec``'s ``mistakes``) whose output the function
    gave — never the expected value. A hidden case (``inputs[i]`` is None) shows its label
    only: not its input, nor what the function returned, nor an exception's text (the function
    saw the input: it can write it into them), only a built-in exception's type."""
    for i, (label, got, expected) in enumerate(results):
        tip = _output_mistake(spec or {}, i, got) or (f" (hint: {hint})" if hint else "")
        hidden = inputs is not None and i < len(inputs) and inputs[i] is None
        args = inputs[i] if inputs is not None and i < len(inputs) else None
        case = f"on the case '{label}'" + ("" if args is None else f" (input: {_args(args)})")
        if isinstance(got, str) and got.startswith("raised NotImplementedError"):
            return f"{qid}: not answered yet: write the function's body"
        if isinstance(got, str) and got.startswith("raised "):
            return f"{qid}: {case} your function {_hidden_error(got) if hidden else got}{tip}"
        if not _close(got, expected):
            said = "a value (not shown: a hidden case) that" if hidden else f"{_short(got)}, which"
            return (
                f"{qid}: wrong {case}: your function returned {said} is not the expected value{tip}"
            )
    return f"{qid}: {PASSED}"


#: What the judge itself says of an output (no text of the function's in it)
_JUDGE_SAYS = re.compile(
    r"raised (TimeoutError: ran longer than [0-9.]+ s|OverflowError: returned a whole number "
    r"too large to compare|ValueError: returned a text of over 10,000 characters)"
)


def _hidden_error(got: str) -> str:
    """``raised ...`` of a hidden case without the function's text: the judge's own words,
    or the type of a built-in exception (a class of the function's own can be named after
    its input)."""
    if _JUDGE_SAYS.fullmatch(got):
        return got
    name = got[len("raised ") :].partition(":")[0].strip()
    kind = getattr(builtins, name, None)
    if isinstance(kind, type) and issubclass(kind, BaseException):
        return f"raised {name} (the text of an error on a hidden case is not shown)"
    return "raised an exception of its own class (not shown on a hidden case)"


def _output_mistake(spec: dict[str, Any], case: int, got: Any) -> str:
    """ ": <hint>" of the mistake whose hashed output on public case ``case`` is ``got``."""
    for j, mistake in enumerate(spec.get("mistakes") or []):
        outputs = mistake.get("outputs") or []
        salt = f"{spec.get('salt', '')}:mistake{j}:{case}"
        if case < len(outputs) and output_digest(salt, got) == outputs[case]:
            return f": {mistake['hint']}"
    return ""


def _args(args: Sequence[Any]) -> str:
    """The arguments of a case as a call would show them: ``[1, 0, 1], 3``."""
    text = ", ".join(repr(as_plain(a)) for a in args)
    return text if len(text) <= 80 else text[:77] + "..."


def judge_function_here(
    spec: dict[str, Any], func: Any, cases: Sequence[tuple[str, Sequence[Any]]] | None = None
) -> str:
    """Judge ``func`` in this process on the spec's cases (the self-check does this)."""
    qid = spec["qid"]
    if func is ... or func is None:
        return f"{qid}: not answered yet: write the function"
    if not callable(func):
        return f"{qid}: expected the function {spec['name']} itself, got {type(func).__name__}"
    used = portable.uses_coursekit(func)
    if used:
        return f"{qid}: write it without coursekit (it uses {used})"
    allowed = spec.get("allowed", portable.DEFAULT_ALLOWED)
    refused = portable.refused_library(func, allowed)
    if refused:
        return portable.library_message(qid, refused, allowed)
    if isinstance(func, types.FunctionType):
        # judge what the grader will run: the function rebuilt from its source
        try:
            func = portable.portable_copy(func)
        except ValueError as error:
            return f"{qid}: {error}"
    reference = reference_function(spec["reference"])
    cases = spec["cases"] if cases is None else cases
    results = [
        (label, call_with_copies(func, args), call_with_copies(reference, args))
        for label, args in cases
    ]
    inputs = [args for _, args in cases]
    return compare_outputs(qid, results, spec.get("hint", ""), inputs, spec)


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
