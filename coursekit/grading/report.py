"""What the grader writes: a ``Grade`` per submission, grades.csv, feedback pages.

A feedback page is in the language of its grade (``Grade.language``: ``--lang``, or the
notebook's ``metadata.coursekit.language``); grades.csv and the lecturer's other files are in
English: a grade's ``error`` and ``late`` are English, and its ``error_said`` and ``late_said``
what the feedback says instead when its language is another.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import speaking
from .wording import _

MAX_CELL_ERRORS = 20
MAX_NOTES = 10
MAX_TEXT = 500


@dataclass
class Grade:
    """The outcome for one submission."""

    submission: str
    chapter: str = ""
    questions: dict[str, dict[str, Any]] = field(default_factory=dict)
    error: str = ""
    cell_errors: list[list[Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: the recorded answer per question (a value, or a function's source; capped): for
    #: :mod:`~coursekit.grading.integrity` only, never in grades.csv or the feedback
    answers: dict[str, Any] = field(default_factory=dict)
    #: the roster id owning the submission (:mod:`~coursekit.grading.ownership`); "" without
    #: a roster, or when it has no owner there
    owner: str = ""
    #: with ``--deadline``: when it was handed in and what that cost (:mod:`.deadline`)
    late: str = ""
    #: points taken off the questions' sum for lateness (:mod:`.deadline`)
    deduction: float = 0.0
    #: the language of the feedback (the messages and the page): "en" or "fr"
    language: str = "en"
    #: ``error`` and ``late`` as the feedback says them, in its language ("": as they are);
    #: ``error`` and ``late`` stay English (grades.csv, the gradebook, ``--only``)
    error_said: str = ""
    late_said: str = ""

    @property
    def total(self) -> float:
        earned = sum(q["points"] for q in self.questions.values())  # partial credit
        return round(earned - self.deduction, 2)

    @property
    def max(self) -> float:
        return round(sum(q["max"] for q in self.questions.values()), 2)

    def as_dict(self) -> dict[str, Any]:
        return {
            "submission": self.submission,
            "id": self.owner,
            "chapter": self.chapter,
            "total": self.total,
            "max": self.max,
            "error": self.error,
            "questions": self.questions,
            "cell_errors": self.cell_errors[:MAX_CELL_ERRORS],
            "notes": self.notes[:MAX_NOTES],
            **({"late": self.late, "deduction": self.deduction} if self.late else {}),
            **({"language": self.language} if self.language != "en" else {}),
            **({"error_said": self.error_said} if self.error_said else {}),
            **({"late_said": self.late_said} if self.late_said else {}),
        }


PRIVATE_FOLDER, PRIVATE_FILE = 0o700, 0o600


def private_folder(path: Path) -> None:
    """Make ``path`` and its missing parents with mode 0700 (readable by their owner only,
    whatever the umask: grades, feedback and personal variants are private). A folder that
    exists is left as it is: its owner may have shared it on purpose."""
    path = Path(path)
    missing = []
    while not path.exists() and path != path.parent:
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, PRIVATE_FOLDER)
        except FileExistsError:
            continue  # made meanwhile by someone else: not ours to change
        os.chmod(folder, PRIVATE_FOLDER)  # a umask such as 0277 removes bits mkdir asked for


def write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole (a temporary file, then a rename), with mode 0600 and
    missing folders 0700 (:func:`private_folder`): what the grader and ``release`` write is
    readable by the lecturer only, under any umask."""
    path = Path(path)
    private_folder(path.parent)
    temporary = path.with_name(path.name + ".tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(temporary, flags, PRIVATE_FILE)
    if hasattr(os, "fchmod"):
        os.fchmod(fd, PRIVATE_FILE)  # a .tmp left by an interrupted run keeps its old mode
    with open(fd, "w", encoding="utf-8", errors="replace") as f:
        f.write(text)
    os.replace(temporary, path)


def _html(grade: Grade) -> str:
    with speaking(grade.language if grade.language in ("en", "fr") else "en"):
        return _page(grade)


def _page(grade: Grade) -> str:
    rows = "\n".join(
        f"<tr><td>{html.escape(qid)}</td><td>{q['points']:g} / {q['max']:g}</td>"
        f"<td>{html.escape(q['message'])}</td></tr>"
        for qid, q in grade.questions.items()
    )
    note, handed_in = html.escape(_("Note:")), html.escape(_("Handed in:"))
    said, late = grade.error_said or grade.error, grade.late_said or grade.late
    error = f"<p><b>{note}</b> {html.escape(said)}</p>" if said else ""
    error += "".join(f"<p><b>{note}</b> {html.escape(n)}</p>" for n in grade.notes[:MAX_NOTES])
    error += f"<p><b>{handed_in}</b> {html.escape(late)}</p>" if late else ""
    chapter = html.escape(_("Chapter {chapter}").format(chapter=grade.chapter or "?"))
    heads = (_("question"), _("points"), _("feedback"))
    head = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
    return (
        f"<!DOCTYPE html>\n<html lang='{html.escape(grade.language)}'><head><meta "
        f"charset='utf-8'><title>{html.escape(grade.submission)}</title></head><body>\n"
        f"<h1>{html.escape(grade.submission)}: {grade.total:g} / {grade.max:g}</h1>\n"
        f"<p>{chapter}</p>{error}\n"
        f"<table border='1'><tr>{head}</tr>\n"
        f"{rows}\n</table></body></html>\n"
    )


def feedback_name(submission: str) -> str:
    """The feedback files' name for a submission: its name made safe (letters, digits,
    ``._-``), shortened, and a short hash of the exact name, so that "01 alice" and
    "01_alice" (or "Alice" and "alice" on a case-insensitive disk) never share a file."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", submission).strip("._-")[:80] or "submission"
    digest = hashlib.sha256(submission.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{safe}-{digest}"


def owner_feedback(grade: Grade, out: Path) -> Path | None:
    """``OUT/feedback/<id>/<chapter>`` (without a suffix) for a submission whose owner and
    chapter are known, else None (its feedback keeps the name of :func:`feedback_name`)."""
    if not grade.owner or not grade.chapter:
        return None
    safe = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]*")
    if not (safe.fullmatch(grade.owner) and safe.fullmatch(grade.chapter)):
        return None
    return Path(out) / "feedback" / grade.owner / grade.chapter


def write_feedback(grade: Grade, out: Path, base: Path | None = None) -> None:
    """Write the feedback of ``grade`` (JSON and HTML) as ``base`` plus a suffix; by default
    ``OUT/feedback/<name>`` (:func:`feedback_name`)."""
    base = out / "feedback" / feedback_name(grade.submission) if base is None else Path(base)
    write(base.with_suffix(".json"), json.dumps(grade.as_dict(), indent=1) + "\n")
    write(base.with_suffix(".html"), _html(grade))


def csv_cell(text: str) -> str:
    """A text cell that a spreadsheet shows as text: a leading ``= + - @``, tab or carriage
    return (a formula, in Excel or LibreOffice) gets a single quote before it."""
    text = str(text)[:MAX_TEXT]
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _columns(grades: Sequence[Grade], keys: Any, chapters: list[str]) -> list[tuple[str, str]]:
    """``(chapter, qid)`` of every column: the key's questions, then those marked by hand
    (:mod:`.freetext`) in the order found."""
    columns = [(c, q.qid) for c in chapters for q in keys[c]]
    seen = set(columns)
    for g in grades:
        for qid, record in g.questions.items():
            if g.chapter and record.get("manual") and (g.chapter, qid) not in seen:
                seen.add((g.chapter, qid))
                columns.append((g.chapter, qid))
    return sorted(columns, key=lambda column: chapters.index(column[0]))  # stable: key first


def grades_csv(grades: Sequence[Grade], keys: Any, late: bool = False) -> str:
    """The text of ``grades.csv``; with ``late`` (``--deadline``) a last column ``late``."""
    chapters = sorted({g.chapter for g in grades if g.chapter})
    columns = _columns(grades, keys, chapters)
    label = (lambda c, q: q) if len(chapters) <= 1 else (lambda c, q: f"{c}:{q}")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        ["submission", "id", "chapter", *(label(c, q) for c, q in columns), "total", "max", "error"]
        + (["late"] if late else [])
    )
    for g in grades:
        cells = [
            f"{g.questions[q]['points']:g}" if g.chapter == c and q in g.questions else ""
            for c, q in columns
        ]
        writer.writerow(
            [
                csv_cell(g.submission),
                csv_cell(g.owner),
                csv_cell(g.chapter),
                *cells,
                f"{g.total:g}",
                f"{g.max:g}",
                csv_cell(g.error),
            ]
            + ([csv_cell(g.late)] if late else [])
        )
    return buffer.getvalue()


def keep_previous(path: Path, text: str) -> None:
    if path.exists() and path.read_text(encoding="utf-8") != text:
        n = 1
        while (kept := path.with_name(f"grades.previous-{n}.csv")).exists():
            n += 1
        os.replace(path, kept)
