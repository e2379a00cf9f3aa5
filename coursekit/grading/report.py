"""What the grader writes: a ``Grade`` per submission, grades.csv, feedback pages."""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Grade:
    """The outcome for one submission."""

    submission: str
    chapter: str = ""
    questions: dict[str, dict[str, Any]] = field(default_factory=dict)
    error: str = ""
    cell_errors: list[list[Any]] = field(default_factory=list)

    @property
    def total(self) -> float:
        return sum(q["points"] for q in self.questions.values())

    @property
    def max(self) -> float:
        return sum(q["max"] for q in self.questions.values())

    def as_dict(self) -> dict[str, Any]:
        return {
            "submission": self.submission,
            "chapter": self.chapter,
            "total": self.total,
            "max": self.max,
            "error": self.error,
            "questions": self.questions,
            "cell_errors": self.cell_errors,
        }


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def _html(grade: Grade) -> str:
    rows = "\n".join(
        f"<tr><td>{html.escape(qid)}</td><td>{q['points']:g} / {q['max']:g}</td>"
        f"<td>{html.escape(q['message'])}</td></tr>"
        for qid, q in grade.questions.items()
    )
    error = f"<p><b>Note:</b> {html.escape(grade.error)}</p>" if grade.error else ""
    return (
        f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>"
        f"{html.escape(grade.submission)}</title></head><body>\n"
        f"<h1>{html.escape(grade.submission)}: {grade.total:g} / {grade.max:g}</h1>\n"
        f"<p>Chapter {html.escape(grade.chapter or '?')}</p>{error}\n"
        f"<table border='1'><tr><th>question</th><th>points</th><th>feedback</th></tr>\n"
        f"{rows}\n</table></body></html>\n"
    )


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)


def write_feedback(grade: Grade, out: Path) -> None:
    base = out / "feedback" / _safe_name(grade.submission)
    write(base.with_suffix(".json"), json.dumps(grade.as_dict(), indent=1) + "\n")
    write(base.with_suffix(".html"), _html(grade))


def grades_csv(grades: Sequence[Grade], keys: dict[str, Any]) -> str:
    chapters = sorted({g.chapter for g in grades if g.chapter})
    columns = [(c, q.qid) for c in chapters for q in keys[c]]
    label = (lambda c, q: q) if len(chapters) <= 1 else (lambda c, q: f"{c}:{q}")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        ["submission", "chapter", *(label(c, q) for c, q in columns), "total", "max", "error"]
    )
    for g in grades:
        cells = [
            f"{g.questions[q]['points']:g}" if g.chapter == c and q in g.questions else ""
            for c, q in columns
        ]
        writer.writerow([g.submission, g.chapter, *cells, f"{g.total:g}", f"{g.max:g}", g.error])
    return buffer.getvalue()


def keep_previous(path: Path, text: str) -> None:
    if path.exists() and path.read_text(encoding="utf-8") != text:
        n = 1
        while (kept := path.with_name(f"grades.previous-{n}.csv")).exists():
            n += 1
        os.replace(path, kept)
