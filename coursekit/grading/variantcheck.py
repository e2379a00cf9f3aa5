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

import dataclasses
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
from .spec import LIST_KINDS, AnswerFormat
from .wording import N_, _, about, recorded, unanswered

#: The body of a function to write, as the exercise hands it out (see build.placeholder).
UNWRITTEN = 'raise NotImplementedError("write this function")'
RECORDED_CHOICE = N_("{qid}: recorded (one of the letters {letters}; it is judged when graded)")
RECORDED_FUNCTION = N_(
    "{qid}: recorded (a function {name} of the right arguments; it is tried on the grader's "
    "inputs when graded)"
)


def answer_format(question: Value | Choice | Function) -> AnswerFormat:
    """What a variant's check() may know of ``question``: the format of its answer, no hash
    (the set-up cell holds its ``to_json()``; the points are for progress())."""
    qid, points = question.qid, question.points
    if isinstance(question, Choice):
        return AnswerFormat(qid, "choice", options=question.options, points=points)
    if isinstance(question, Function):
        arities = tuple(sorted({len(args) for _, args in question.cases}))
        return AnswerFormat(qid, "function", name=question.name, arities=arities, points=points)
    kind = question.kind()
    length = len(question.expected) if kind in LIST_KINDS else None
    return AnswerFormat(
        qid, kind, length=length, low=question.low, high=question.high, points=points
    )


def typed_formats(
    formats: Mapping[str, AnswerFormat | Mapping[str, Any]],
) -> dict[str, AnswerFormat]:
    """``formats`` by question id, each an :class:`~.spec.AnswerFormat` (one given as JSON, by a
    variant's set-up cell, is read with :meth:`~.spec.AnswerFormat.from_json`)."""
    return {
        qid: f if isinstance(f, AnswerFormat) else AnswerFormat.from_json(f, qid)
        for qid, f in formats.items()
    }


def _function_format(qid: str, spec: AnswerFormat, func: Any) -> str:
    name = spec.name or "the function"
    if func is ... or func is None:
        return _("{qid}: not answered yet: write the function").format(qid=qid)
    if not callable(func):
        said = _("{qid}: expected the function {name} itself, got {type}")
        return said.format(qid=qid, name=name, type=type(func).__name__)
    used = uses_coursekit(func)
    if used:
        return _("{qid}: write it without coursekit (it uses {used})").format(qid=qid, used=used)
    if isinstance(func, types.FunctionType):
        try:
            portable_copy(func)  # what the grader will run: the function rebuilt from its source
        except ValueError as error:
            return about(qid, str(error))
        if UNWRITTEN in function_source(func):  # the exercise's placeholder, as handed out
            return _("{qid}: not answered yet: write the function").format(qid=qid)
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        signature = None
    for count in spec.arities or ():
        try:
            if signature is not None:
                signature.bind(*range(count))
        except TypeError:
            said = _("{qid}: {name} must accept {count} arguments ({signature})")
            return said.format(qid=qid, name=name, count=count, signature=signature)
    return _(RECORDED_FUNCTION).format(qid=qid, name=name)


def judge_answer_format(qid: str, spec: AnswerFormat, answer: Any) -> str:
    """What a variant's check() prints for ``answer``: a problem with its format, or that it
    was recorded (never whether it is right)."""
    kind = spec.kind
    if kind == "function":
        return _function_format(qid, spec, answer)
    if kind == "choice":
        letters = ", ".join(spec.options or "")
        if answer is ... or answer is None:
            return _("{qid}: not answered yet: replace ... with your answer").format(qid=qid)
        if not isinstance(answer, str):
            said = _("{qid}: expected one letter as a string, got {type}")
            return said.format(qid=qid, type=type(answer).__name__)
        if answer.strip().lower() not in set(spec.options or ""):
            said = _("{qid}: {answer} is not one of the letters {letters}")
            return said.format(qid=qid, answer=repr(as_plain(answer)[:20]), letters=letters)
        return _(RECORDED_CHOICE).format(qid=qid, letters=letters)
    return judge_format(dataclasses.replace(spec, qid=qid), answer)


def format_check(
    chapter: str, formats: Mapping[str, AnswerFormat | Mapping[str, Any]]
) -> Callable[..., None]:
    """The ``check(qid, answer)`` of a variant notebook of ``chapter`` whose answers have the
    ``formats`` (``{qid: answer_format(question)}``): it prints the format's verdict and
    records the answer for the grader."""
    known = typed_formats(formats)

    def check(qid: str, answer: Any) -> None:
        if not isinstance(qid, str) or qid not in known:
            said = _("unknown question {qid} in chapter {chapter}; known: {known}")
            print(said.format(qid=f"{qid!r:.20}", chapter=chapter, known=", ".join(known)))
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
    if recorded(qid, said):
        return "recorded"
    return "not answered" if unanswered(qid, said) else "format to fix"


def progress() -> None:
    """Print each question of the variant with the state of its answer (recorded, not
    answered, format to fix) and the points it is worth: never whether it is right (answers
    on your own data are judged when graded)."""
    if "check" not in _STARTED:
        print(_(NO_SETUP).format(qid="progress()"))
        return
    chapter, formats = _STARTED["chapter"], _STARTED["formats"]
    said = _SAID.get(chapter, {})
    width = max((len(qid) for qid in formats), default=2)
    print(
        _(
            "Chapter {chapter} on your own data, from the check() calls since the kernel started "
            "(check() looks at the format only: answers are judged when graded):"
        ).format(chapter=chapter)
    )
    worth = 0.0
    states = max(16, *(len(_(s)) for s in ("recorded", "not answered", "format to fix")))
    for qid, spec in formats.items():
        points = spec.points
        worth += float(points or 0)
        shown = ""
        if points is not None:
            shown = (_("{points} point") if points == 1 else _("{points} points")).format(
                points=points_text(points)
            )
        state = _(said.get(qid, "not answered"))
        print(f"  {qid:<{width}}  {state:<{states}} {shown}".rstrip())
    count = sum(1 for qid in formats if said.get(qid) == "recorded")
    if worth:
        line = _(
            "Recorded: {count} of {total} answers (points are given when graded: {points} in all)."
        )
    else:
        line = _("Recorded: {count} of {total} answers (points are given when graded).")
    print(line.format(count=count, total=len(formats), points=points_text(worth)))


#: The check() of the variant whose set-up cell has run, its chapter and formats (:func:`start`).
_STARTED: dict[str, Any] = {}
#: An import of check, start or progress in an exercise's cells, which a variant takes from here.
IMPORT = re.compile(
    r"^from coursekit\.grading import ((?:check|start|progress)(?:, (?:check|start|progress))*)$",
    re.M,
)


def start(chapter: str, formats: Mapping[str, AnswerFormat | Mapping[str, Any]]) -> None:
    """The set-up of a variant notebook: the following :func:`check` calls judge the format of
    the answers (``formats``, written by the release) and record them."""
    formats = typed_formats(formats)  # read once, here: a malformed one is said now
    _STARTED["check"] = format_check(chapter, formats)
    _STARTED["chapter"], _STARTED["formats"] = chapter, formats
    session.CURRENT["variant"] = True  # progress() of coursekit.grading is then this module's
    print(
        _(
            "Exercises of chapter {chapter} on your own data: check() says whether an answer has "
            "the right format and records it; it is judged when graded."
        ).format(chapter=chapter)
    )


def check(qid: str, answer: Any) -> None:
    """Say whether ``answer`` to ``qid`` has the right format (never whether it is right)."""
    if "check" not in _STARTED:  # a check cell run before the set-up cell, or after a restart
        print(_(NO_SETUP).format(qid=qid))
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
        f"        {json.dumps(q.qid)}: {json.dumps(answer_format(q).to_json())},\n"
        for q in questions
    )
    setup[0].source = setup[0].source.replace(
        call,
        "# your own data: check() says whether an answer has the right format, never whether "
        f'it is right\nstart(\n    "{chapter}",\n    formats={{\n{rows}    }},\n)',
    )
