"""Judging a student's function on the cases of its question (shared by check() and the grader).

:func:`judge_function_points` runs a function in this process (the self-check, each case under
:func:`call_limited`'s time limit) and compares it with the reference; the grader runs it in
its judge (:mod:`.judge`) and compares the outputs it sends back with :func:`score_outputs`.
Feedback on a hidden case names its label only: never its input, the value returned or the
text of an exception (:func:`_hidden_error`).
"""

from __future__ import annotations

import builtins
import math
import re
import signal
import threading
import time
import types
from collections.abc import Sequence
from typing import Any

from ..i18n import N_, key_text
from . import portable
from .plain import as_plain, is_number
from .portable import call_with_copies, reference_function
from .questions import CASE_SECONDS, PER_CASE, TOLERANCE, output_digest, points_of
from .spec import FunctionSpec
from .wording import _, about, hint_of, is_passed, passed, unanswered


def _close(got: Any, expected: Any) -> bool:
    got, expected = as_plain(got), as_plain(expected)
    if isinstance(expected, list):
        return (
            isinstance(got, list)
            and len(got) == len(expected)
            and all(_close(g, e) for g, e in zip(got, expected, strict=True))
        )
    if is_number(expected):
        if not is_number(got):
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
    spec: FunctionSpec | None = None,
) -> str:
    """Judge a function from ``(label, got, expected)`` triples; ``got`` may be an exception
    message (a string starting with ``"raised "``) when the function failed. The message of a
    failing case names its label, its input (``inputs[i]``) and the question's ``hint`` — or
    the hint of the common mistake (the ``spec``'s ``mistakes``) whose output the function
    gave — never the expected value. A hidden case (``inputs[i]`` is None) shows its label
    only: not its input, nor what the function returned, nor an exception's text (the function
    saw the input: it can write it into them), only a built-in exception's type."""
    for i, (label, got, expected) in enumerate(results):
        tip = _output_mistake(spec, i, got) or hint_of(hint)
        hidden = inputs is not None and i < len(inputs) and inputs[i] is None
        args = inputs[i] if inputs is not None and i < len(inputs) else None
        if args is None:
            case = _("on the case '{label}'").format(label=key_text(label))
        else:
            case = _("on the case '{label}' (input: {args})").format(
                label=key_text(label), args=_args(args)
            )
        if isinstance(got, str) and got.startswith("raised NotImplementedError"):
            return _("{qid}: not answered yet: write the function's body").format(qid=qid)
        if isinstance(got, str) and _TIMED_OUT.fullmatch(got):  # the judge's words or ours
            said = _(
                "{qid}: {case} your function {raised} and was stopped (a loop that never ends?)"
            )
            return said.format(qid=qid, case=case, raised=_raised(got)) + tip
        if isinstance(got, str) and got.startswith("raised "):
            said = _("{qid}: {case} your function {raised}")
            raised = _hidden_error(got) if hidden else _raised(got)
            return said.format(qid=qid, case=case, raised=raised) + tip
        if not _close(got, expected):
            if hidden:
                said = _(
                    "{qid}: wrong {case}: your function returned a value (not shown: a hidden "
                    "case) that is not the expected value"
                )
            else:
                said = _(
                    "{qid}: wrong {case}: your function returned {got}, which is not the "
                    "expected value"
                )
            return said.format(qid=qid, case=case, got=_short(got)) + tip
    return passed(qid)


#: The judge's own words after an exception's name (:mod:`.judge`, :func:`call_limited`): said
#: in the language in use, as the framing around an exception is
_JUDGE_WORDS = (
    (re.compile(r"ran longer than (?P<seconds>[0-9.]+) s"), N_("ran longer than {seconds} s")),
    (
        re.compile(r"returned a whole number too large to compare"),
        N_("returned a whole number too large to compare"),
    ),
    (
        re.compile(r"returned a text of over 10,000 characters"),
        N_("returned a text of over 10,000 characters"),
    ),
    (re.compile(r"returned a (?P<type>[A-Za-z_][A-Za-z0-9_]*)"), N_("returned a {type}")),
)


def _raised(got: str) -> str:
    """``"raised Error: text"`` (a public case's, or the judge's words) as the language says it:
    our words (``raised``, the judge's ``ran longer than 2 s``) translated, the exception's
    name and its own text as they are.

    >>> from coursekit.i18n import speaking
    >>> with speaking("fr"):
    ...     _raised("raised ValueError: bad input"), _raised(timeout_output(2))
    ('a levé ValueError : bad input', 'a levé TimeoutError : a tourné plus de 2 s')
    """
    name, colon, text = got[len("raised ") :].partition(": ")
    if not colon:
        return _("raised {name}").format(name=name)
    for pattern, words in _JUDGE_WORDS:
        if found := pattern.fullmatch(text):
            text = _(words).format(**found.groupdict())
            break
    return _("raised {name}: {text}").format(name=name, text=text)


def timeout_output(seconds: float) -> str:
    """What a case that ran over its time limit gives, as the grader's judge writes it."""
    return f"raised TimeoutError: ran longer than {seconds:g} s"


_TIMED_OUT = re.compile(r"raised TimeoutError: ran longer than [0-9.]+ s")


def score_outputs(
    qid: str,
    results: Sequence[tuple[str, Any, Any]],
    hint: str = "",
    inputs: Sequence[Sequence[Any] | None] | None = None,
    spec: FunctionSpec | None = None,
    total: int | None = None,
) -> tuple[str, float]:
    """:func:`compare_outputs`'s message and the share of the question's points earned: all
    when every case passes, else none — unless the question gives points per case (the
    spec's ``partial`` is ``"per-case"``): then the share of the ``total`` cases (default:
    those judged) that pass, said before the first failing case (whose message keeps every
    rule of :func:`compare_outputs`: a hidden case shows its label only).

    >>> from coursekit.grading.questions import Function
    >>> cases = [("a", [1])]
    >>> spec = Function("q4", "f", "coursekit:f", cases, points=1, partial="per-case").public("d")
    >>> rows = [("a", 1.0, 1.0), ("b", 2.0, 2.0), ("hidden: c", 5.0, 3.0)]
    >>> message, share = score_outputs("q4", rows, "", [[1], [2], None], spec)
    >>> message.split(";")[0], round(share, 4)
    ('q4: 2 of 3 cases passed (0.67 of 1 point)', 0.6667)
    >>> "(not shown: a hidden case)" in message
    True
    """
    message = compare_outputs(qid, results, hint, inputs, spec)
    if is_passed(qid, message):
        return message, 1.0
    if spec is None or spec.partial != PER_CASE or unanswered(qid, message):
        return message, 0.0
    count = len(results) if total is None else max(total, len(results))
    passed = sum(
        1
        for _, got, expected in results
        if not (isinstance(got, str) and got.startswith("raised ")) and _close(got, expected)
    )
    points = float(spec.points)
    share = passed / count if count else 0.0
    later = count - len(results)  # cases the grader tries that were not judged here
    earned = points_of(share * points, points)
    if later:
        more = (
            _("{earned} so far; {later} more cases are tried when graded")
            if later > 1
            else _("{earned} so far; {later} more case is tried when graded")
        )
        earned = more.format(earned=earned, later=later)
    said = _("{qid}: {passed} of {count} cases passed ({earned}); {rest}")
    rest = message.split(": ", 1)[-1]
    return said.format(qid=qid, passed=passed, count=len(results), earned=earned, rest=rest), share


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
        return _raised(got)
    name = got[len("raised ") :].partition(":")[0].strip()
    kind = getattr(builtins, name, None)
    if isinstance(kind, type) and issubclass(kind, BaseException):
        said = _("raised {name} (the text of an error on a hidden case is not shown)")
        return said.format(name=name)
    return _("raised an exception of its own class (not shown on a hidden case)")


def _output_mistake(spec: FunctionSpec | None, case: int, got: Any) -> str:
    """ ": <hint>" of the mistake whose hashed output on public case ``case`` is ``got``."""
    if spec is None:
        return ""
    for j, mistake in enumerate(spec.mistakes):
        outputs = mistake.outputs
        salt = f"{spec.salt or ''}:mistake{j}:{case}"
        if case < len(outputs) and output_digest(salt, got) == outputs[case]:
            return f": {key_text(mistake.hint)}"
    return ""


def _args(args: Sequence[Any]) -> str:
    """The arguments of a case as a call would show them: ``[1, 0, 1], 3``."""
    text = ", ".join(repr(as_plain(a)) for a in args)
    return text if len(text) <= 80 else text[:77] + "..."


# --------------------------------------------------------------------------------------------
# A time limit per case in this process (the self-check's; the grader's judge has its own)


class _CaseTimeout(BaseException):
    """Raised in a student's function that runs over its time limit (a BaseException: an
    ``except Exception`` in the function does not stop it)."""


def time_limit_available() -> bool:
    """Whether :func:`call_limited` can stop a function here: on a system with
    ``signal.setitimer`` (Linux, macOS), in the main thread (where a Jupyter kernel runs
    cells). Elsewhere (Windows, a thread) functions run without a limit."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def call_limited(func: Any, args: Sequence[Any], seconds: float | None = CASE_SECONDS) -> Any:
    """:func:`~coursekit.grading.portable.call_with_copies` under a time limit: a function
    still running after ``seconds`` is interrupted (SIGALRM) and gives the judge's
    ``"raised TimeoutError: ran longer than 2 s"``. A timer and an alarm handler already set
    (pytest-timeout's, say) are put back afterwards. Without :func:`time_limit_available`, or
    with ``seconds`` None, the function runs without a limit.

    >>> def loops(n):
    ...     while True:
    ...         n += 1
    >>> call_limited(loops, [0], 0.05)
    'raised TimeoutError: ran longer than 0.05 s'
    >>> call_limited(abs, [-2], 0.05)
    2
    """
    if seconds is None or not time_limit_available():
        return call_with_copies(func, args)
    state = {"armed": True, "expired": False}

    def on_alarm(signum: int, frame: Any) -> None:
        if state["armed"]:
            state["expired"] = True
            raise _CaseTimeout

    previous = signal.signal(signal.SIGALRM, on_alarm)
    # fired again every 0.1 s: a function whose loop catches the first one meets the next
    before, _ = signal.setitimer(signal.ITIMER_REAL, seconds, 0.1)
    started = time.monotonic()
    try:
        try:
            output = call_with_copies(func, args)
        finally:
            state["armed"] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _CaseTimeout:
        output = None
    finally:
        signal.signal(signal.SIGALRM, previous)
        if before > 0:  # someone else's timer: what is left of it
            left = before - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))
    return timeout_output(seconds) if state["expired"] else output


def judge_function_points(
    spec: FunctionSpec,
    func: Any,
    cases: Sequence[tuple[str, Sequence[Any]]] | None = None,
    seconds: float | None = CASE_SECONDS,
) -> tuple[str, float]:
    """Judge ``func`` in this process on the spec's cases (the self-check does this), each
    under a time limit of ``seconds`` (:func:`call_limited`): the message and the share of
    the points earned on these cases (:func:`score_outputs`; per case, the spec's hidden
    cases count as not yet tried)."""
    qid = spec.qid
    if func is ... or func is None:
        return _("{qid}: not answered yet: write the function").format(qid=qid), 0.0
    if not callable(func):
        got = type(func).__name__
        said = _("{qid}: expected the function {name} itself, got {type}")
        return said.format(qid=qid, name=spec.name, type=got), 0.0
    used = portable.uses_coursekit(func)
    if used:
        said = _("{qid}: write it without coursekit (it uses {used})")
        return said.format(qid=qid, used=used), 0.0
    allowed = spec.allowed
    refused = portable.refused_library(func, allowed)
    if refused:
        return portable.library_message(qid, refused, allowed), 0.0
    if isinstance(func, types.FunctionType):
        # judge what the grader will run: the function rebuilt from its source
        try:
            func = portable.portable_copy(func)
        except ValueError as error:
            return about(qid, str(error)), 0.0
    reference = reference_function(spec.reference)
    cases = spec.cases if cases is None else cases
    per_case = spec.partial == PER_CASE
    results = []
    for label, args in cases:
        got = call_limited(func, args, seconds)
        results.append((label, got, call_with_copies(reference, args)))
        if not per_case and isinstance(got, str) and _TIMED_OUT.fullmatch(got):
            break  # all or nothing: this case decides, the next ones need not wait
    inputs = [args for _, args in cases]
    total = len(cases) + (spec.hidden_cases or 0)
    return score_outputs(qid, results, spec.hint, inputs, spec, total)


def judge_function_here(
    spec: FunctionSpec,
    func: Any,
    cases: Sequence[tuple[str, Sequence[Any]]] | None = None,
    seconds: float | None = CASE_SECONDS,
) -> str:
    """Judge ``func`` in this process on the spec's cases (the self-check does this): the
    message of :func:`judge_function_points`."""
    return judge_function_points(spec, func, cases, seconds)[0]
