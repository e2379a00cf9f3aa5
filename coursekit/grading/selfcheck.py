"""Self-check for the exercise notebooks: ``check("q3", answer)`` prints one line.

The line says *passed*, or what is wrong: not answered yet, wrong type, wrong length, out of
range, right to fewer decimals than asked, wrong on one element or on one edge case. It never
prints the expected value, and the expected values are not stored in clear in what students
install: ``data/exercises/checks.json`` holds, for each question, salted SHA-256 hashes of the
expected value rounded to 2, 3 and 4 decimals (:func:`digest`), and for a function to write,
the inputs it is tried on and the coursekit function it must agree with.

The same judging code serves the batch grader (:mod:`coursekit.grading.grader`), which builds the
public form of each question from the lecturer's answer key (:class:`Value`, :class:`Choice`,
:class:`Function`) and tries functions on hidden inputs as well.

Exercise notebooks are generated from ``solutions/`` by ``python -m coursekit.exercises
build`` (see :mod:`coursekit.grading.build`).

"""

from __future__ import annotations

import json
import os
import types
from typing import Any

from .judging import as_plain, judge_function_here, judge_value
from .portable import function_source, uses_coursekit
from .questions import ANSWER_LOG, CHECKS_PATH

# --------------------------------------------------------------------------------------------
# check()

_CHECKS: dict[str, Any] = {}


def _checks() -> dict[str, Any]:
    if not _CHECKS:
        _CHECKS.update(json.loads(CHECKS_PATH.read_text(encoding="utf-8")))
    return _CHECKS


def _find(qid: str, chapter: str) -> dict[str, Any]:
    chapters = _checks()
    if chapter not in chapters:
        raise ValueError(f"unknown chapter {chapter!r}; known: {', '.join(sorted(chapters))}")
    questions = chapters[chapter]
    if qid not in questions:
        raise ValueError(
            f"unknown question {qid!r} in chapter {chapter}; known: {', '.join(questions)}"
        )
    return questions[qid]


_CURRENT = {"chapter": None}


def start(chapter: str) -> None:
    """Say which chapter the following :func:`check` calls belong to (the first cell of each
    exercise notebook calls it)."""
    if chapter not in _checks():
        raise ValueError(f"unknown chapter {chapter!r}; known: {', '.join(sorted(_checks()))}")
    _CURRENT["chapter"] = chapter
    print(f"Exercises of chapter {chapter}: run each check(...) cell after your answer.")


def _chapter_of_caller() -> str:
    if _CURRENT["chapter"] is None:
        raise ValueError("run the first cell of the notebook (it calls exercises.start) first")
    return _CURRENT["chapter"]


def _record(qid: str, chapter: str, answer: Any) -> None:
    path = os.environ.get(ANSWER_LOG)
    if not path:
        return
    entry: dict[str, Any] = {"chapter": chapter, "qid": qid}
    try:
        if isinstance(answer, types.FunctionType):
            entry["source"] = function_source(answer)
            entry["name"] = answer.__name__
            entry["uses_coursekit"] = uses_coursekit(answer)
        else:
            entry["value"] = as_plain(answer) if answer is not ... else None
        line = json.dumps(entry, allow_nan=True)
    except (TypeError, ValueError, OSError) as error:
        line = json.dumps(
            {"chapter": chapter, "qid": qid, "unreadable": f"{type(error).__name__}: {error}"[:200]}
        )
    with open(path, "a", encoding="utf-8") as log:
        log.write(line + "\n")


def check(qid: str, answer: Any, chapter: str | None = None) -> None:
    """Print one line saying whether ``answer`` to question ``qid`` is right, or what is wrong.

    ``answer`` is a value (number, list, letter) or, for "write a function" questions, the
    function itself. Nothing is returned; the expected value is never shown.
    """
    chapter = chapter or _chapter_of_caller()
    spec = _find(qid, chapter)
    _record(qid, chapter, answer)
    if spec["kind"] == "function":
        print(judge_function_here(spec, answer))
    else:
        print(judge_value(spec, answer))
