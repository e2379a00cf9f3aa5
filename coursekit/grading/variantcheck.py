"""The self-check of a student's variant notebook: the *format* of every answer, never more.

A variant's questions are computed on the student's own data (and its multiple-choice options
are in the student's own order), so the public self-check data (``checks.json``: hashes of
the public answers) say nothing right about them, and hashes of the student's answers would
give them away. A variant's set-up cell therefore holds the format of each answer only
(:func:`answer_format`: the kind, a list's length, the range, the letters of a choice, a
function's name and numbers of arguments; no hash), and its ``check()`` says whether an
answer has that format and records it for the grader: it never says passed or not right, for
any question, and never reads ``checks.json``. The variant's cells import ``start``,
``check`` and ``progress`` from here (:func:`use_variant_check` rewrites them at release);
:func:`progress` lists which answers are recorded, not answered, or of a format to fix, and
the points each question is worth, never whether an answer is right.

>>> from coursekit.grading.questions import Choice, Value
>>> judge_answer_format("q8", answer_format(Choice("q8", "b", options="abc")), "e")
"q8: 'e' is not one of the letters a, b, c"
>>> judge_answer_format("q2", answer_format(Value("q2", 0.5, low=0, high=1)), 0.25)
"q2: recorded (the format is right; your own data's answer is judged when graded)"
"""

from __future__ import annotations

import inspect
import json
import re
import types
from collections.abc import Callable, Mapping
from typing import Any

from . import session
from .judging import as_plain, judge_format
from .portable import function_source, portable_copy, uses_coursekit
from .questions import Choice, Function, Value, points_text
from .session import NO_SETUP

#: The body of a function to write, as the exercise hands it out (see build.placeholder).
UNWRITTEN = 'raise NotImplementedError("write this function")'
RECORDED_CHOICE = "{qid}: recorded (one of the letters {letters}; it is judged when graded)"
RECORDED_FUNCTION = (
    "{qid}: recorded (a function {name} of the right arguments; it is tried on the grader's "
    "inputs when graded)"
)


def answer_format(question: Value | Choice | Function) -> dict[str, Any]:
    """What a variant's check() may know of ``question``: the format of its answer, no hash."""
    points = {"points": question.points}  # for progress()
    if isinstance(question, Choice):
        return {"kind": "choice", "options": question.options, **points}
    if isinstance(question, Function):
        arities = sorted({len(args) for _, args in question.cases})
        return {"kind": "function", "name": question.name, "arities": arities, **points}
    spec: dict[str, Any] = {"kind": question.kind()}
    if spec["kind"] in ("ints", "floats", "ids"):
        spec["length"] = len(question.expected)
    bounds = {"low": question.low, "high": question.high}
    spec.update({name: b for name, b in bounds.items() if b is not None})
    return {**spec, **points}


def _function_format(qid: str, spec: Mapping[str, Any], func: Any) -> str:
    name = spec.get("name", "the function")
    if func is ... or func is None:
        return f"{qid}: not answered yet: write the function"
    if not callable(func):
        return f"{qid}: expected the function {name} itself, got {type(func).__name__}"
    used = uses_coursekit(func)
    if used:
        return f"{qid}: write it without coursekit (it uses {used})"
    if isinstance(func, types.FunctionType):
        try:
            portable_copy(func)  # what the grader will run: the function rebuilt from its source
        except ValueError as error:
            return f"{qid}: {error}"
        if UNWRITTEN in function_source(func):  # the exercise's placeholder, as handed out
            return f"{qid}: not answered yet: write the function"
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        signature = None
    for count in spec.get("arities", []):
        try:
            if signature is not None:
                signature.bind(*range(count))
        except TypeError:
            return f"{qid}: {name} must accept {count} arguments ({signature})"
    return RECORDED_FUNCTION.format(qid=qid, name=name)


def judge_answer_format(qid: str, spec: Mapping[str, Any], answer: Any) -> str:
    """What a variant's check() prints for ``answer``: a problem with its format, or that it
    was recorded (never whether it is right)."""
    kind = spec.get("kind")
    if kind == "function":
        return _function_format(qid, spec, answer)
    if kind == "choice":
        letters = ", ".join(spec["options"])
        if answer is ... or answer is None:
            return f"{qid}: not answered yet: replace ... with your answer"
        if not isinstance(answer, str):
            return f"{qid}: expected one letter as a string, got {type(answer).__name__}"
        if answer.strip().lower() not in set(spec["options"]):
            return f"{qid}: {as_plain(answer)[:20]!r} is not one of the letters {letters}"
        return RECORDED_CHOICE.format(qid=qid, letters=letters)
    return judge_format({**spec, "qid": qid}, answer)


def format_check(chapter: str, formats: Mapping[str, Mapping[str, Any]]) -> Callable[..., None]:
    """The ``check(qid, answer)`` of a variant notebook of ``chapter`` whose answers have the
    ``formats`` (``{qid: answer_format(question)}``): it prints the format's verdict and
    records the answer for the grader."""
    known = dict(formats)

    def check(qid: str, answer: Any) -> None:
        if not isinstance(qid, str) or qid not in known:
            print(f"unknown question {qid!r:.20} in chapter {chapter}; known: {', '.join(known)}")
            return
        session.record(qid, chapter, answer)
        said = judge_answer_format(qid, known[qid], answer)
        print(said)
        _SAID.setdefault(chapter, {})[qid] = _state(qid, said)

    return check


#: The state of each answer checked in this kernel, by chapter and question (never a verdict).
_SAID: dict[str, dict[str, str]] = {}


def _state(qid: str, said: str) -> str:
    """recorded, not answered or format to fix: what a variant's check() said of an answer."""
    if said.startswith(f"{qid}: recorded"):
        return "recorded"
    return "not answered" if said.startswith(f"{qid}: not answered yet") else "format to fix"


def progress() -> None:
    """Print each question of the variant with the state of its answer (recorded, not
    answered, format to fix) and the points it is worth: never whether it is right (answers
    on your own data are judged when graded)."""
    if "check" not in _STARTED:
        print(NO_SETUP.format(qid="progress()"))
        return
    chapter, formats = _STARTED["chapter"], _STARTED["formats"]
    said = _SAID.get(chapter, {})
    width = max((len(qid) for qid in formats), default=2)
    print(
        f"Chapter {chapter} on your own data, from the check() calls since the kernel started "
        "(check() looks at the format only: answers are judged when graded):"
    )
    worth = 0.0
    for qid, spec in formats.items():
        points = spec.get("points")
        worth += float(points or 0)
        shown = "" if points is None else f"{points_text(points)} point{'' if points == 1 else 's'}"
        print(f"  {qid:<{width}}  {said.get(qid, 'not answered'):<16} {shown}".rstrip())
    recorded = sum(1 for qid in formats if said.get(qid) == "recorded")
    total = f": {points_text(worth)} in all" if worth else ""
    print(f"Recorded: {recorded} of {len(formats)} answers (points are given when graded{total}).")


#: The check() of the variant whose set-up cell has run, its chapter and formats (:func:`start`).
_STARTED: dict[str, Any] = {}
#: An import of check, start or progress in an exercise's cells, which a variant takes from here.
IMPORT = re.compile(
    r"^from coursekit\.grading import ((?:check|start|progress)(?:, (?:check|start|progress))*)$",
    re.M,
)


def start(chapter: str, formats: Mapping[str, Mapping[str, Any]]) -> None:
    """The set-up of a variant notebook: the following :func:`check` calls judge the format of
    the answers (``formats``, written by the release) and record them."""
    _STARTED["check"] = format_check(chapter, formats)
    _STARTED["chapter"], _STARTED["formats"] = chapter, dict(formats)
    session.CURRENT["variant"] = True  # progress() of coursekit.grading is then this module's
    print(
        f"Exercises of chapter {chapter} on your own data: check() says whether an answer has "
        "the right format and records it; it is judged when graded."
    )


def check(qid: str, answer: Any) -> None:
    """Say whether ``answer`` to ``qid`` has the right format (never whether it is right)."""
    if "check" not in _STARTED:  # a check cell run before the set-up cell, or after a restart
        print(NO_SETUP.format(qid=qid))
        return
    _STARTED["check"](qid, answer)


def use_variant_check(notebook: Any, chapter: str, questions: list[Any]) -> None:
    """Make ``notebook``'s cells import :func:`start` and :func:`check` from here, and its
    set-up cell pass the format of every question's answer (``questions``: the variant's)."""
    call = f'start("{chapter}")'
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    setup = [c for c in cells if c.get("metadata", {}).get("coursekit", {}).get("role") == "setup"]
    if len(setup) != 1 or call not in setup[0].source:
        raise ValueError(
            f"{chapter}: no single cell marked as the set-up cell (metadata "
            f'{{"coursekit": {{"role": "setup"}}}}) calling {call}'
        )
    for cell in cells:
        cell.source = IMPORT.sub(r"from coursekit.grading.variantcheck import \1", cell.source)
    rows = "".join(
        f"        {json.dumps(q.qid)}: {json.dumps(answer_format(q))},\n" for q in questions
    )
    setup[0].source = setup[0].source.replace(
        call,
        "# your own data: check() says whether an answer has the right format, never whether "
        f'it is right\nstart(\n    "{chapter}",\n    formats={{\n{rows}    }},\n)',
    )
