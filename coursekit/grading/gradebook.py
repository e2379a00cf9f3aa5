"""The lecturer's gradebook: one row per roster student, whatever was handed in.

With ``--roster`` the grader writes ``OUT/gradebook.csv`` (:func:`gradebook_csv`): the roster's
id column, its other columns (name, email, section...), then per chapter graded in the run its
total (``<chapter>:total``; ``missing`` when the student handed nothing in for it) and its
questions' points (``<chapter>:<qid>``, empty when missing), and ``notes``: each chapter's
error (two submissions of one chapter, an id mismatch, a cell's error, why it was not graded)
and the submissions of the student whose chapter is unknown; with ``--deadline``, each late
chapter's lateness and its cost (:mod:`.deadline`). Of two submissions of one student
for one chapter the gradebook shows the one modified last (the one
:func:`~coursekit.grading.ownership.flag_duplicates` proposes to keep), and its feedback is
also written as ``OUT/feedback/<id>/<chapter>.html`` and ``.json``
(:func:`write_results`).
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from .deadline import ON_TIME
from .report import Grade, csv_cell, owner_feedback, write, write_feedback
from .roster import Roster
from .stats import chapter_questions, write_stats

MISSING = "missing"
NO_OWNER = "no owner on the roster"


class HasOwner(Protocol):
    def owner(self, name: str) -> str: ...


def assign_owners(grades: Iterable[Grade], owners: HasOwner | None) -> None:
    """Set each grade's ``owner`` (the roster id of :meth:`owners.owner`, "" without a
    roster). A submission with no owner that was graded all the same (``--roster`` without
    ``--secret-file``) gets "no owner on the roster (why)" in its error."""
    for grade in grades:
        if owners is None:
            grade.owner = ""
            continue
        try:
            grade.owner = owners.owner(grade.submission)
        except ValueError as why:
            grade.owner = ""
            if not grade.error.startswith("not graded"):
                reason = str(why).removeprefix("not graded: ")
                grade.error = "; ".join(filter(None, [f"{NO_OWNER} ({reason})", grade.error]))


def kept(grades: Iterable[Grade], modified: Mapping[str, float] | None = None) -> dict:
    """``(owner, chapter) -> Grade``: of several submissions of one student for one chapter
    the one modified last (``modified``: submission -> time; missing counts as oldest), then
    the last by name, as :func:`~coursekit.grading.ownership.flag_duplicates` proposes."""
    modified = modified or {}
    chosen: dict[tuple[str, str], Grade] = {}
    for grade in grades:
        if not grade.owner or not grade.chapter:
            continue
        key = (grade.owner, grade.chapter)
        other = chosen.get(key)
        if other is None or _rank(grade, modified) > _rank(other, modified):
            chosen[key] = grade
    return chosen


def _rank(grade: Grade, modified: Mapping[str, float]) -> tuple[float, str]:
    return modified.get(grade.submission, float("-inf")), grade.submission


def gradebook_rows(
    roster: Roster, grades: Sequence[Grade], modified: Mapping[str, float] | None = None
) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the gradebook (see the module); the grades' ``owner`` set."""
    chapters = chapter_questions(grades)
    chosen = kept(grades, modified)
    header = [roster.id_column, *roster.columns]
    for chapter, qids in chapters.items():
        header += [f"{chapter}:total", *(f"{chapter}:{q}" for q in qids)]
    header.append("notes")
    unknown: dict[str, list[Grade]] = {}
    for grade in grades:
        if grade.owner and not grade.chapter:
            unknown.setdefault(grade.owner, []).append(grade)
    rows = []
    for sid, values in zip(roster.ids, roster.rows, strict=True):
        row = [sid, *(csv_cell(values.get(c, "")) for c in roster.columns)]
        notes = []
        for chapter, qids in chapters.items():
            grade = chosen.get((sid, chapter))
            if grade is None:
                row += [MISSING, *([""] * len(qids))]
                continue
            row.append(f"{grade.total:g}")
            row += [
                f"{grade.questions[q]['points']:g}" if q in grade.questions else "" for q in qids
            ]
            if grade.error:
                notes.append(f"{chapter}: {grade.error}")
            if grade.late and not grade.late.startswith(ON_TIME):  # --deadline
                notes.append(f"{chapter}: {grade.late}")
        notes += [f"{g.submission}: {g.error or 'no chapter'}" for g in unknown.get(sid, [])]
        rows.append([*row, csv_cell("; ".join(notes))])
    return header, rows


def gradebook_csv(
    roster: Roster, grades: Sequence[Grade], modified: Mapping[str, float] | None = None
) -> str:
    """The text of ``gradebook.csv`` (see the module)."""
    header, rows = gradebook_rows(roster, grades, modified)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([csv_cell(h) for h in header])
    writer.writerows(rows)
    return buffer.getvalue()


def modification_times(found: Sequence[tuple[Path, str]]) -> dict[str, float]:
    """submission name -> its file's modification time (what cannot be read is left out)."""
    times = {}
    for path, name in found:
        try:
            times[name] = os.lstat(path).st_mtime
        except OSError:
            continue
    return times


def write_results(
    grades: Sequence[Grade],
    out: Path,
    roster: Roster | None,
    found: Sequence[tuple[Path, str]] = (),
) -> None:
    """What a run writes besides grades.csv: ``stats.csv`` and ``stats.html`` always
    (:mod:`.stats`); with a roster, ``gradebook.csv`` and each kept submission's feedback as
    ``feedback/<id>/<chapter>`` (the grades' ``owner`` already set: :func:`assign_owners`)."""
    out = Path(out)
    write_stats(grades, out)
    if roster is None:
        return
    modified = modification_times(found)
    write(out / "gradebook.csv", gradebook_csv(roster, grades, modified))
    for grade in kept(grades, modified).values():
        base = owner_feedback(grade, out)
        if base is not None:
            write_feedback(grade, out, base)


def owners_of(roster: Roster | None, personal: Any, id_from: str | None) -> HasOwner | None:
    """Who owns a submission: the graded variants' ``personal``, else the roster's rule."""
    if personal is not None:
        return personal
    return roster.owners(id_from) if roster is not None else None
