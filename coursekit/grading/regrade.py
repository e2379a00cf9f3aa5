"""Regrading some students: ``--only ID[,ID...]``, merged into an existing OUT.

With ``--only`` (and ``--roster``: the ids are the roster's) the grader grades only the
submissions those students own (by the run's ``--id-from`` rule), then merges them into what
OUT holds: the grades of every other submission are read back from their feedback
(``OUT/feedback/<name>-<hash>.json``, :func:`previous_grades`) and their recorded answers from
``OUT/answers.json`` (private, for :mod:`.integrity`), the regraded students' grades replace
theirs, and grades.csv, gradebook.csv, stats, integrity.csv and the feedback are written again
from the whole: the other students' rows are unchanged byte for byte (as long as the chapters
graded, hence the columns, are the same). ``free_text.csv`` keeps the other students' rows as
they were. A regrade applies ``--manual`` and ``--deadline`` to the regraded students only.
An id not on the roster, or an OUT without grades.csv, is refused before anything runs.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .ownership import ID_PATTERN
from .report import Grade

ANSWERS_FILE = "answers.json"  # OUT's record of the answers (integrity.csv's input)


def only_ids(text: str | None, roster: Any) -> list[str] | None:
    """The ids of ``--only`` (None: every student); ``roster``: the ``--roster`` path."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError(f"--only must be text (ID[,ID...]), got {text!r}")
    ids = [part.strip() for part in text.split(",")]
    if not any(ids):
        raise ValueError("--only: no student id given (ID[,ID...])")
    for sid in ids:
        if not ID_PATTERN.fullmatch(sid):
            raise ValueError(f"--only: {sid[:64]!r} is not a student id (letters, digits, ._-)")
    if roster is None:
        raise ValueError("--only names students of the roster: give --roster")
    return list(dict.fromkeys(ids))


def check_on_roster(ids: Sequence[str], roster_ids: Sequence[str], out: Path) -> None:
    """Refuse an id not on the roster, or an OUT with no earlier run to merge into."""
    unknown = [sid for sid in ids if sid not in roster_ids]
    if unknown:
        raise ValueError(f"--only: {', '.join(unknown[:5])} not on the roster")
    if not (Path(out) / "grades.csv").is_file():
        raise ValueError(f"--only merges into an earlier run: {out} has no grades.csv")


def _grade(raw: Any, where: Path) -> Grade:
    if not isinstance(raw, dict) or not isinstance(raw.get("submission"), str):
        raise ValueError(f"{where}: not a grader's feedback")
    try:
        return Grade(
            raw["submission"],
            str(raw.get("chapter", "")),
            {str(q): dict(r) for q, r in dict(raw.get("questions", {})).items()},
            str(raw.get("error", "")),
            list(raw.get("cell_errors", [])),
            list(raw.get("notes", [])),
            owner=str(raw.get("id", "")),
            late=str(raw.get("late", "")),
            deduction=float(raw.get("deduction", 0.0)),
            language="fr" if raw.get("language") == "fr" else "en",
            error_said=str(raw.get("error_said", "")),
            late_said=str(raw.get("late_said", "")),
        )
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: not a grader's feedback ({error})") from None


def previous_grades(out: Path) -> list[Grade]:
    """The grades of the earlier run in ``out``, from its feedback files (by name)."""
    grades, answers = [], {}
    kept = Path(out) / ANSWERS_FILE
    if kept.is_file():
        answers = json.loads(kept.read_text(encoding="utf-8"))
    for path in sorted((Path(out) / "feedback").glob("*.json")):
        grade = _grade(json.loads(path.read_text(encoding="utf-8")), path)
        grade.answers = dict(answers.get(grade.submission, {}))
        grades.append(grade)
    return grades


def merged(previous: Sequence[Grade], new: Sequence[Grade], ids: Sequence[str]) -> list[Grade]:
    """The earlier grades of students not in ``ids`` and the new ones, by submission name."""
    regraded = {g.submission for g in new}
    kept = [g for g in previous if g.owner not in ids and g.submission not in regraded]
    return sorted([*kept, *new], key=lambda g: g.submission)


def answers_json(grades: Sequence[Grade]) -> str:
    """The text of ``answers.json``: submission -> its recorded answers."""
    return json.dumps({g.submission: g.answers for g in grades if g.answers}, indent=0) + "\n"


def merged_rows(old_text: str, rows: Sequence[Sequence[str]], ids: Sequence[str]) -> list:
    """The rows of an earlier CSV (first column: the id) whose student is not in ``ids``,
    then ``rows``, sorted as the earlier file was written (by id, submission, chapter)."""
    old = list(csv.reader(io.StringIO(old_text, newline="")))[1:]
    kept = [row for row in old if row and row[0] not in ids]
    return sorted([*kept, *map(list, rows)], key=lambda row: row[:4])
