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

A function to write is run on each case under the grader's time limit (``CASE_SECONDS``, 2 s):
one that loops is stopped and check() names the case (:func:`~.judging.call_limited`: a
SIGALRM timer, in the main thread on Linux and macOS, where a Jupyter kernel runs cells;
elsewhere, Windows say, check() says first that it cannot stop a loop).

:func:`progress` lists each question of the chapter with the state of its last check() in this
kernel (passed, not right yet, not answered, recorded for a question on the student's own
data) and the points so far, partial credit included (a function's hidden cases are tried
when graded only). In a variant notebook it is :func:`.variantcheck.progress`, which never
says right or wrong.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..i18n import key_text
from . import session
from .judging import (
    judge_format,
    judge_function_points,
    judge_value,
    judge_value_points,
    time_limit_available,
)
from .questions import ANSWER_LOG, CASE_SECONDS, CHECKS_PATH, PASSED, points_of, points_text
from .session import NO_SETUP
from .spec import ChoiceSpec, FunctionSpec, QuestionSpec, chapter_from_json
from .wording import N_, _, is_passed, recorded, unanswered

# --------------------------------------------------------------------------------------------
# check()

#: The public form of every question, by chapter and question id (typed once, when read).
_CHECKS: dict[str, dict[str, QuestionSpec]] = {}


def _checks() -> dict[str, dict[str, QuestionSpec]]:
    if not _CHECKS:
        data = json.loads(CHECKS_PATH.read_text(encoding="utf-8"))
        _CHECKS.update({name: chapter_from_json(qs, name) for name, qs in data.items()})
    return _CHECKS


def _name(value: Any, what: str) -> str:
    """A chapter or question id (``what``: "the chapter ('03_ap_map')", say): a string (a
    list, say, would be an unhashable key)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {type(value).__name__} {value!r:.40}")
    return value


def _find(qid: str, chapter: str) -> QuestionSpec:
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
    session.CURRENT["chapter"], session.CURRENT["own"] = chapter, frozenset(own_data)
    session.CURRENT["variant"] = False
    said = _("Exercises of chapter {chapter}: run each check(...) cell after your answer.")
    print(said.format(chapter=chapter))


# --------------------------------------------------------------------------------------------
# Attempts at multiple-choice questions

#: What check() says of a choice once its attempts are used up.
ATTEMPTS_USED_UP = N_(
    "{qid}: your {attempts} attempts are used up, so this check no longer says right or wrong; "
    "read again: {where}"
)
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


def judge_choice(spec: ChoiceSpec, answer: Any, chapter: str) -> str:
    """:func:`judge_value` for a choice, within the question's attempts."""
    qid, attempts = spec.qid, spec.attempts
    key = f"{chapter}:{qid}"
    tried = _load_tried().setdefault(key, [])
    if len(tried) >= attempts:
        where = key_text(spec.hint) or _("the chapter's section on this question")
        return _(ATTEMPTS_USED_UP).format(qid=qid, attempts=attempts, where=where)
    verdict = judge_value(spec, answer)
    if is_passed(qid, verdict) or not verdict.startswith(_("{qid}: not this one").format(qid=qid)):
        return verdict  # right, or not a letter among the options: no attempt used
    letter = answer.strip().lower()
    if letter not in tried:
        tried.append(letter)
        _save_tried()
    left = attempts - len(tried)
    if not left:
        return verdict + " " + _("(that was your last attempt: read again before you change it)")
    more = _("({left} more attempts)") if left > 1 else _("({left} more attempt)")
    return verdict + " " + more.format(left=left)


# --------------------------------------------------------------------------------------------
# What check() said, for progress()

NOT_ANSWERED = N_("not answered")
NOT_RIGHT = N_("not right yet")
RECORDED = N_("recorded")
FORMAT = N_("format to fix")
USED_UP = N_("attempts used up")
#: What check() says before running a function where no time limit can stop it.
NO_TIME_LIMIT = N_(
    "{qid}: (no time limit here{why}: if this cell does not end, a loop of your function "
    "never ends: interrupt the kernel and look at your loops)"
)
#: check()'s last verdict in this kernel, by chapter and question: state and points earned.
_VERDICTS: dict[str, dict[str, tuple[str, float]]] = {}


def _state(qid: str, message: str, own: bool) -> str:
    """The state of a question from what check() said of it."""
    if is_passed(qid, message):
        return PASSED
    if unanswered(qid, message):
        return NOT_ANSWERED
    if own:
        return RECORDED if recorded(qid, message) else FORMAT
    used_up = _(ATTEMPTS_USED_UP).split("{attempts}")[1].split("{where}")[0]
    if used_up in message:
        return USED_UP
    return NOT_RIGHT


def _why_no_limit() -> str:
    import signal
    import threading

    if not hasattr(signal, "setitimer"):
        return " " + _("(this system has no interval timer)")
    if threading.current_thread() is not threading.main_thread():
        return " " + _("(check() runs outside the main thread)")
    return ""


def check(qid: str, answer: Any, chapter: str | None = None) -> None:
    """Print one line saying whether ``answer`` to question ``qid`` is right, or what is wrong.

    ``answer`` is a value (number, list, letter) or, for "write a function" questions, the
    function itself. Nothing is returned; the expected value is never shown.
    """
    if chapter is None:
        chapter = session.CURRENT["chapter"]
        if chapter is None:  # a check cell run before the set-up cell, or after a restart
            print(_(NO_SETUP).format(qid=qid))
            return
    spec = _find(qid, chapter)
    session.record(qid, chapter, answer)
    own = qid in session.CURRENT["own"] and chapter == session.CURRENT["chapter"]
    if isinstance(spec, FunctionSpec):
        if not time_limit_available() and callable(answer):
            print(_(NO_TIME_LIMIT).format(qid=qid, why=_why_no_limit()))
        message, share = judge_function_points(spec, answer, seconds=CASE_SECONDS)
        own = False  # a function is judged on the public cases, own data or not
    elif own:
        message, share = judge_format(spec, answer), 0.0
    elif isinstance(spec, ChoiceSpec):
        message = judge_choice(spec, answer, chapter)
        share = 1.0 if is_passed(qid, message) else 0.0
    else:
        message, share = judge_value_points(spec, answer)
    print(message)
    _VERDICTS.setdefault(chapter, {})[qid] = (_state(qid, message, own), share)


def _progress_rows(chapter: str) -> list[tuple[str, str, float, float]]:
    """``(qid, state, points earned, points)`` of each question of ``chapter``, from the last
    check() of each in this kernel (a question never checked: not answered)."""
    said = _VERDICTS.get(chapter, {})
    rows = []
    for qid, spec in _checks()[chapter].items():
        state, share = said.get(qid, (NOT_ANSWERED, 0.0))
        points = float(spec.points)
        rows.append((qid, state, round(share * points, 2), points))
    return rows


def progress(chapter: str | None = None) -> None:
    """Print each question of the chapter with its state (passed, not right yet, not
    answered; recorded for a question on your own data) and its points, from the last
    check() of each in this kernel, then the points so far. In a variant notebook (your own
    data) it says which answers are recorded, never whether they are right."""
    if chapter is None:
        if session.CURRENT.get("variant"):
            from .variantcheck import progress as variant_progress

            variant_progress()
            return
        chapter = session.CURRENT["chapter"]
        if chapter is None:
            print(_(NO_SETUP).format(qid="progress()"))
            return
    chapter = _name(chapter, "the chapter ('03_ap_map')")
    if chapter not in _checks():
        raise ValueError(f"unknown chapter {chapter!r}; known: {', '.join(sorted(_checks()))}")
    rows = _progress_rows(chapter)
    specs = _checks()[chapter]
    own = {  # a function is judged on the public cases, own data or not
        qid
        for qid in (session.CURRENT["own"] if chapter == session.CURRENT["chapter"] else ())
        if qid in specs and not isinstance(specs[qid], FunctionSpec)
    }
    width = max(len(qid) for qid, *_ in rows)
    said = _("Chapter {chapter}, from the check() calls since the kernel started:")
    print(said.format(chapter=chapter))
    states = max(16, *(len(_(state)) for _qid, state, *_rest in rows))
    for qid, state, earned, points in rows:
        if qid in own:
            worth = (
                _("{points} point, judged when graded")
                if points == 1
                else _("{points} points, judged when graded")
            ).format(points=points_text(points))
        else:
            worth = points_of(earned, points)
        print(f"  {qid:<{width}}  {_(state):<{states}} {worth}")
    mine = [r for r in rows if r[0] not in own]
    passed = sum(1 for r in mine if r[1] == PASSED)
    total = sum(r[3] for r in mine)
    line = _("Points so far: {earned} of {total} ({passed} of {count} questions passed)").format(
        earned=points_text(sum(r[2] for r in mine)),
        total=points_text(total),
        passed=passed,
        count=len(mine),
    )
    if any(isinstance(specs[qid], FunctionSpec) for qid, *_rest in mine):
        line += _("; a function is tried on more cases when graded")
    print(line + ".")
