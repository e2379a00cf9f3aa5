"""The feedback lines of the grader (:mod:`.marking`): each question's one-line message, in the
language in use, and the share of its points earned, from the student's recorded answer and
what the judges said of a function.

A hidden case's line names its label only (:func:`~.function_judging.compare_outputs`), and
an error while judging a function's outputs is said without its text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..i18n import key_text, speaking
from .judging import judge_value_points, score_outputs
from .portable import call_with_copies, library_message, reference_function
from .questions import PER_CASE, Choice, Function, Value, points_of
from .wording import _, is_passed, said

MAX_MESSAGE = 300


def _short(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def _judged(qid: str, judge: Any, detail: bool = True) -> tuple[str, float]:
    """``judge()`` (a message and the share of the points earned), or why the answer could
    not be judged (without the error's text unless ``detail``: judging a function's outputs
    on hidden cases must not show them) and no points."""
    try:
        return judge()
    except Exception as error:  # noqa: BLE001 - a bad answer costs its own question only
        text = f": {str(error)[:80]}" if detail else ""
        said = _(
            "{qid}: the answer could not be judged ({error}); give a finite number of ordinary size"
        )
        return said.format(qid=qid, error=f"{type(error).__name__}{text}"), 0.0


def _function_message(q: Function, chapter: str, judged: Sequence[Any]) -> tuple[str, float]:
    """The message of a function from its judges (public cases, then hidden ones if run) and
    the share of its points earned. Per case, a judge of hidden cases that gave no result
    leaves the public cases' points (its cases count as failed)."""
    lost = ""
    per_case_public = q.partial == PER_CASE and judged and judged[0] is not None
    if per_case_public and any(j is None for j in judged[1:]):
        judged, lost = judged[:1], _("; the hidden cases could not be run to the end")
    if any(j is None for j in judged):
        return _(
            "{qid}: the function could not be run to the end (it ended the judge's process, or "
            "used more time or memory than allowed)"
        ).format(qid=q.qid), 0.0
    refused = next((j.refused for j in judged if j is not None and j.refused), "")
    if refused:
        return library_message(q.qid, refused, q.allowed), 0.0
    got = [out for j in judged if j is not None for out in j.outputs]
    hidden = [
        (_("hidden: {label}").format(label=key_text(label)), args) for label, args in q.hidden
    ]
    cases = [*q.cases, *hidden][: len(got)]
    reference = reference_function(q.reference)
    results = [
        (label, out, call_with_copies(reference, args))
        for (label, args), out in zip(cases, got, strict=True)
    ]
    # the inputs of the public cases are shown; those of the hidden ones are not
    inputs = [list(args) for _, args in q.cases] + [None] * (len(cases) - len(q.cases))

    def judge() -> tuple[str, float]:
        spec = q.public(chapter)
        message, share = score_outputs(q.qid, results, q.hint, inputs, spec, q.case_count())
        if lost and is_passed(q.qid, message):  # the public cases only, all passed
            share = len(results) / q.case_count()
            said = points_of(share * q.points, q.points)
            message = _("{qid}: {passed} of {count} cases passed ({earned})").format(
                qid=q.qid, passed=len(results), count=q.case_count(), earned=said
            )
        return message + lost, share

    return _judged(q.qid, judge, detail=False)


def _messages(
    questions: Sequence[Value | Choice | Function],
    answers: dict[str, dict[str, Any]],
    chapter: str,
    judged: dict[str, list[Any]],
    truncated: bool,
) -> dict[str, tuple[str, float]]:
    """Each question's message (in the language in use) and the share of its points earned,
    from its recorded answer and, for a function sent to the judges, what they said
    (``judged``)."""
    said: dict[str, tuple[str, float]] = {}
    for q in questions:
        entry = answers.get(q.qid)
        if entry is None:
            message = _("{qid}: not answered").format(qid=q.qid)
            if truncated:
                message += " " + _("(or answered after the answer log's cap)")
            said[q.qid] = message, 0.0
        elif "unreadable" in entry:
            message = _("{qid}: the answer could not be read ({why})")
            said[q.qid] = message.format(qid=q.qid, why=str(entry["unreadable"])[:150]), 0.0
        elif isinstance(q, Function) and q.qid in judged:
            said[q.qid] = _function_message(q, chapter, judged[q.qid])
        elif isinstance(q, Function):
            if not isinstance(entry.get("source"), str):
                message = _("{qid}: expected the function {name} itself")
                said[q.qid] = message.format(qid=q.qid, name=q.name), 0.0
            else:
                message = _("{qid}: write it without coursekit (it uses {used})")
                used = str(entry["uses_coursekit"])[:80]
                said[q.qid] = message.format(qid=q.qid, used=used), 0.0
        else:
            spec, value = q.public(chapter), entry.get("value")
            said[q.qid] = _judged(q.qid, lambda s=spec, v=value: judge_value_points(s, v))
    return said


def not_graded(qid: str, points: float, error: str, language: str) -> dict[str, Any]:
    """The record of a question of a submission that could not be graded (``error``: why, as
    the error column says it, in English), its line in ``language`` (the reason too when it is
    one of our :class:`~.wording.Fixed` texts)."""
    message = f"{qid}: not graded ({error})"
    record: dict[str, Any] = {"points": 0.0, "max": float(points), "message": message}
    if language != "en":
        with speaking(language):
            message_said = _("{qid}: not graded ({error})").format(qid=qid, error=said(error))
            record["message"] = message_said
        record["message_en"] = message
    return record
