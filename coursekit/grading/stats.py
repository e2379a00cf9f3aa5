"""Class statistics of a grading run: ``OUT/stats.csv`` and ``OUT/stats.html``.

Per chapter, over every submission of it in the run (a submission not graded counts 0, as in
grades.csv), a row per question and one for the chapter's total (question ``total``):

- ``submissions``: the chapter's submissions; ``answered``: those whose answer was recorded
  (not "not answered", not "not graded");
- ``mean_points`` (over the submissions) and ``max_points``; ``full_marks``: the share of the
  submissions with all the points;
- ``top_mistake`` and ``top_mistake_count``: the most frequent feedback line of the answers
  without full marks (the question's id left out: "not right yet: divide by all relevant
  documents"); a tie goes to the first in alphabetical order. A feedback line is read in
  English (``message_en`` where the student's feedback is in another language).

``stats.html`` has a figure per chapter (Agg, 9 x 3 inches, 80 dpi, embedded as a base64 PNG):
each question's mean points against its maximum (bars), and a histogram of the totals.
"""

from __future__ import annotations

import base64
import csv
import html
import io
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .report import Grade, csv_cell, write

COLUMNS = (
    "chapter",
    "question",
    "submissions",
    "answered",
    "mean_points",
    "max_points",
    "full_marks",
    "top_mistake",
    "top_mistake_count",
)
FIGURE_INCHES = (9.0, 3.0)
FIGURE_DPI = 80
UNANSWERED = ("not answered", "not graded")


def _line(qid: str, message: str) -> str:
    """A feedback line without its question's id."""
    return message.removeprefix(f"{qid}: ").strip()


def _english(record: dict[str, Any]) -> str:
    """A question's feedback line in English (its ``message_en``, if the feedback is in
    another language)."""
    return str(record.get("message_en") or record["message"])


def chapter_questions(grades: Sequence[Grade]) -> dict[str, list[str]]:
    """Every chapter of ``grades`` (sorted) with its question ids, in the order graded."""
    found: dict[str, list[str]] = {}
    for grade in grades:
        if grade.chapter:
            qids = found.setdefault(grade.chapter, [])
            qids.extend(q for q in grade.questions if q not in qids)
    return dict(sorted(found.items()))


def question_stats(qid: str, records: Sequence[dict[str, Any] | None]) -> dict[str, Any]:
    """The statistics of question ``qid`` from its record (points, max, message) in each
    submission of its chapter (None: the submission has no record of it: 0 points)."""
    n = len(records)
    present = [r for r in records if r is not None]
    maximum = max((float(r["max"]) for r in present), default=0.0)
    answered = [r for r in present if _answered((qid, r))]
    full = [r for r in present if r["max"] > 0 and r["points"] >= r["max"]]
    wrong = Counter(_line(qid, _english(r)) for r in answered if r["points"] < r["max"])
    top = min(wrong.items(), key=lambda item: (-item[1], item[0])) if wrong else ("", 0)
    return {
        "question": qid,
        "submissions": n,
        "answered": len(answered),
        "mean_points": sum(float(r["points"]) for r in present) / n if n else 0.0,
        "max_points": maximum,
        "full_marks": len(full) / n if n else 0.0,
        "top_mistake": top[0],
        "top_mistake_count": top[1],
    }


def chapter_stats(grades: Sequence[Grade]) -> dict[str, list[dict[str, Any]]]:
    """Per chapter (sorted), a row per question (see the module) then its ``total``."""
    found = {}
    for chapter, qids in chapter_questions(grades).items():
        mine = [g for g in grades if g.chapter == chapter]
        rows = [question_stats(q, [g.questions.get(q) for g in mine]) for q in qids]
        maximum = max((g.max for g in mine), default=0.0)
        totals = [g.total for g in mine]
        rows.append(
            {
                "question": "total",
                "submissions": len(mine),
                "answered": sum(1 for g in mine if any(map(_answered, g.questions.items()))),
                "mean_points": sum(totals) / len(mine) if mine else 0.0,
                "max_points": maximum,
                "full_marks": sum(1 for t in totals if maximum and t >= maximum) / len(mine),
                "top_mistake": "",
                "top_mistake_count": 0,
            }
        )
        found[chapter] = rows
    return found


def _answered(item: tuple[str, dict[str, Any]]) -> bool:
    qid, record = item
    return not _line(qid, _english(record)).startswith(UNANSWERED)


def stats_csv(stats: dict[str, list[dict[str, Any]]]) -> str:
    """The text of ``stats.csv``: numbers to 4 significant digits."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for chapter, rows in stats.items():
        for row in rows:
            cells = {**row, "chapter": chapter}
            writer.writerow(
                [
                    f"{cells[c]:.4g}" if isinstance(cells[c], float) else csv_cell(cells[c])
                    for c in COLUMNS
                ]
            )
    return buffer.getvalue()


def figure_png(chapter: str, rows: Sequence[dict[str, Any]], totals: Sequence[float]) -> bytes:
    """The PNG of a chapter's figure: mean points per question (bars over their maximum, in
    outline) and the histogram of the totals."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=FIGURE_INCHES, dpi=FIGURE_DPI)
    FigureCanvasAgg(figure)
    bars, histogram = figure.subplots(1, 2, width_ratios=(3, 2))
    questions = [r for r in rows if r["question"] != "total"]
    names = [r["question"] for r in questions]
    bars.bar(names, [r["max_points"] for r in questions], fill=False, label="max")
    bars.bar(names, [r["mean_points"] for r in questions], label="mean")
    bars.set_ylabel("points")
    bars.set_title(f"{chapter}: points per question", fontsize=9)
    bars.legend(fontsize=7)
    bars.tick_params(axis="x", labelsize=7, rotation=45)
    histogram.hist(list(totals), bins=min(10, max(1, len(set(totals)))))
    histogram.set_xlabel("total")
    histogram.set_ylabel("submissions")
    histogram.set_title("totals", fontsize=9)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def stats_html(grades: Sequence[Grade], stats: dict[str, list[dict[str, Any]]]) -> str:
    """The page ``stats.html``: per chapter its figure and its table."""
    parts = []
    for chapter, rows in stats.items():
        totals = [g.total for g in grades if g.chapter == chapter]
        png = base64.b64encode(figure_png(chapter, rows, totals)).decode("ascii")
        cells = "\n".join(
            "<tr>"
            + "".join(
                f"<td>{html.escape(f'{r[c]:.4g}' if isinstance(r[c], float) else str(r[c]))}</td>"
                for c in COLUMNS[1:]
            )
            + "</tr>"
            for r in rows
        )
        head = "".join(f"<th>{c}</th>" for c in COLUMNS[1:])
        parts.append(
            f"<h2>{html.escape(chapter)}</h2>\n"
            f"<img alt='{html.escape(chapter)}' src='data:image/png;base64,{png}'>\n"
            f"<table border='1'><tr>{head}</tr>\n{cells}\n</table>"
        )
    body = "\n".join(parts) or "<p>No graded submission.</p>"
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>Class statistics</title>"
        f"</head><body>\n<h1>Class statistics</h1>\n{body}\n</body></html>\n"
    )


def write_stats(grades: Sequence[Grade], out: Path) -> None:
    """Write ``OUT/stats.csv`` and ``OUT/stats.html`` (see the module)."""
    stats = chapter_stats(grades)
    write(Path(out) / "stats.csv", stats_csv(stats))
    write(Path(out) / "stats.html", stats_html(grades, stats))
