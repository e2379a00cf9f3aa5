"""Self-check for the exercise notebooks: ``check("q3", answer)`` prints one line.

The line says *passed*, or what is wrong: not answered yet, wrong type, wrong length, out of
range, right to fewer decimals than asked, wrong on one element or on one edge case. It never
prints the expected value, and the expected values are not stored in clear in what students
install: ``data/exercises/checks.json`` holds, for each question, salted SHA-256 hashes of the
expected value rounded to 2, 3 and 4 decimals (:func:`digest`), and for a function to write,
the inputs it is tried on and the coursekit function it must agree with.

A function to write is refused before it is run when it uses coursekit or a package its
question does not allow (the spec's ``allowed``: the standard library and numpy unless the key
says more), with the sentence the grader's judge would give (``write it without scipy: ...``).

The same judging code serves the batch grader (:mod:`coursekit.grading.grader`), which builds the
public form of each question from the lecturer's answer key (:class:`Value`, :class:`Choice`,
:class:`Function`) and tries functions on hidden inputs as well.

Exercise notebooks are generated from ``solutions/`` by ``python -m coursekit.exercises
build`` (see :mod:`coursekit.grading.build`).

A multiple-choice question is judged for a limited number of different wrong letters (its
``attempts``); after them check() says where to read instead of right or wrong. The wrong letters
tried are kept per chapter and question in ``coursekit/attempts.json`` of the user's cache folder
(``$XDG_CACHE_HOME``, else ``~/.cache``), so that restarting the kernel does not reset them; where
that folder cannot be written, they are counted for the running kernel only. This is a nudge to
read, not a lock: the batch grader ignores attempts.

"""

from __future__ import annotations

import json
import os
import tempfile
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .judging import as_plain, judge_format, judge_function_here, judge_value
from .portable import function_source, uses_coursekit
from .questions import ANSWER_LOG, CHECKS_PATH, PASSED

# --------------------------------------------------------------------------------------------
# check()

_CHECKS: dict[str, Any] = {}


def _checks() -> dict[str, Any]:
    if not _CHECKS:
        _CHECKS.update(json.loads(CHECKS_PATH.read_text(encoding="utf-8")))
    return _CHECKS


def _name(value: Any, what: str) -> str:
    """A chapter or question id (``what``: "the chapter ('03_ap_map')", say): a string (a
    list, say, would be an unhashable key)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {type(value).__name__} {value!r:.40}")
    return value


def _find(qid: str, chapter: str) -> dict[str, Any]:
    chapters = _checks()
    qid, chapter = _name(qid, "the question id ('q1')"), _name(chapter, "the chapter ('03_ap_map')")
    if chapter not in chapters:
        raise ValueError(f"unknown chapter {chapter!r}; known: {', '.join(sorted(chapters))}")
    questions = chapters[chapter]
    if qid not in questions:
        raise ValueError(
            f"unknown question {qid!r} in chapter {chapter}; known: {', '.join(questions)}"
        )
    return questions[qid]


_CURRENT: dict[str, Any] = {"chapter": None, "own": frozenset()}
#: What check() says when the set-up cell has not run in this kernel.
NO_SETUP = (
    "{qid}: run the set-up cell first (the first code cell of the notebook, which calls "
    "start(...)), and the cells that set up the data, then this cell again"
)


def start(chapter: str, own_data: Sequence[str] = ()) -> None:
    """Say which chapter the following :func:`check` calls belong to (the first cell of each
    exercise notebook calls it). In a student's variant notebook, ``own_data`` names the
    questions computed on the student's own data: for those, check() looks at the format of
    the answer only (the expected values are the grader's)."""
    if _name(chapter, "the chapter ('03_ap_map')") not in _checks():
        raise ValueError(f"unknown chapter {chapter!r}; known: {', '.join(sorted(_checks()))}")
    if not isinstance(own_data, (list, tuple, set, frozenset)) or not all(
        isinstance(q, str) for q in own_data
    ):
        raise TypeError(f"own_data must be a list of question ids, got {own_data!r:.60}")
    _CURRENT["chapter"], _CURRENT["own"] = chapter, frozenset(own_data)
    print(f"Exercises of chapter {chapter}: run each check(...) cell after your answer.")


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


# --------------------------------------------------------------------------------------------
# Attempts at multiple-choice questions

#: Wrong letters tried, by "chapter:qid" (this kernel's copy; merged with the cache file).
_TRIED: dict[str, list[str]] = {}


def attempts_path() -> Path | None:
    """The file keeping the wrong letters tried (None when no cache folder can be named, and
    while the grader runs the notebook: its kernel counts in memory and writes no cache)."""
    if os.environ.get(ANSWER_LOG):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    try:
        root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    except (RuntimeError, KeyError):  # no home folder (a bare sandbox)
        return None
    return root / "coursekit" / "attempts.json"


def _load_tried() -> dict[str, list[str]]:
    """The kernel's record merged with the cache file's (a missing or bad file counts as
    empty)."""
    path = attempts_path()
    try:
        stored = json.loads(path.read_text(encoding="utf-8")) if path else {}
    except (OSError, ValueError):
        stored = {}
    if isinstance(stored, dict):
        for key, letters in stored.items():
            if isinstance(key, str) and isinstance(letters, list):
                mine = _TRIED.setdefault(key, [])
                mine += [x for x in letters if isinstance(x, str) and x not in mine]
    return _TRIED


def _save_tried() -> None:
    """Write the record to the cache file; an unwritable folder keeps it in this kernel only."""
    path = attempts_path()
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", dir=path.parent, suffix=".tmp", delete=False, encoding="utf-8"
        ) as f:
            json.dump(_TRIED, f, sort_keys=True)
        os.replace(f.name, path)
    except OSError:
        return


def judge_choice(spec: dict[str, Any], answer: Any, chapter: str) -> str:
    """:func:`judge_value` for a choice, within the question's attempts."""
    qid, attempts = spec["qid"], int(spec.get("attempts", 2))
    key = f"{chapter}:{qid}"
    tried = _load_tried().setdefault(key, [])
    if len(tried) >= attempts:
        where = spec.get("hint") or "the chapter's section on this question"
        return (
            f"{qid}: your {attempts} attempts are used up, so this check no longer says right "
            f"or wrong; read again: {where}"
        )
    verdict = judge_value(spec, answer)
    if verdict == f"{qid}: {PASSED}" or not verdict.startswith(f"{qid}: not this one"):
        return verdict  # right, or not a letter among the options: no attempt used
    letter = answer.strip().lower()
    if letter not in tried:
        tried.append(letter)
        _save_tried()
    left = attempts - len(tried)
    return verdict + (
        f" ({left} more attempt{'s' if left > 1 else ''})"
        if left
        else " (that was your last attempt: read again before you change it)"
    )


def check(qid: str, answer: Any, chapter: str | None = None) -> None:
    """Print one line saying whether ``answer`` to question ``qid`` is right, or what is wrong.

    ``answer`` is a value (number, list, letter) or, for "write a function" questions, the
    function itself. Nothing is returned; the expected value is never shown.
    """
    if chapter is None:
        chapter = _CURRENT["chapter"]
        if chapter is None:  # a check cell run before the set-up cell, or after a restart
            print(NO_SETUP.format(qid=qid))
            return
    spec = _find(qid, chapter)
    _record(qid, chapter, answer)
    if qid in _CURRENT["own"] and chapter == _CURRENT["chapter"]:
        print(judge_format(spec, answer))
    elif spec["kind"] == "function":
        print(judge_function_here(spec, answer))
    elif spec["kind"] == "choice":
        print(judge_choice(spec, answer, chapter))
    else:
        print(judge_value(spec, answer))
