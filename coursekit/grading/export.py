"""``python -m coursekit.grade export OUT --format moodle|canvas --roster R --out F``.

Turns a run's ``OUT/gradebook.csv`` (graded with ``--roster``: :mod:`.gradebook`) into a CSV an
LMS imports: one column per chapter, its total (a chapter a student handed nothing in for is an
empty cell, which both LMSs leave ungraded: enter a 0 there yourself if that is your rule).
The roster gives who each student is to the LMS.

``moodle`` (Grades > Import > CSV file): a first column ``ID number`` when the roster has one
(Moodle's field of that name), else ``Email address`` (the roster's email column), then one
column per chapter. In the import's "Identify user by", map ``ID number`` to ``useridnumber``
(or ``Email address`` to ``useremail``: Moodle compares emails with their case), and each
chapter's column to its grade item (or a new one).

``canvas`` (Grades > Import): ``Student, ID, SIS User ID, SIS Login ID, Section``, then one
column per chapter (a column whose name is not an assignment's creates one), and a second row
``Points Possible`` with each chapter's maximum. ``Student`` is the roster's ``name`` (or
``last name, first name``), ``ID`` its ``canvas id`` column if it has one, ``SIS User ID`` its
``sis user id`` column else the roster id, ``SIS Login ID`` its ``sis login id``, ``login``
or ``username`` column, else its email, ``Section`` its ``section`` column.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from collections.abc import Sequence
from pathlib import Path

from .gradebook import MISSING
from .report import csv_cell, write
from .roster import Roster, read

FORMATS = ("moodle", "canvas")
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
POINTS_POSSIBLE = "Points Possible"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m coursekit.grade export",
        description="Export a graded run's gradebook.csv (graded with --roster) for Moodle's "
        "or Canvas's grade import: one column per chapter total.",
    )
    p.add_argument("results", help="the grader's --out folder (with gradebook.csv, grades.csv)")
    p.add_argument(
        "--format",
        required=True,
        choices=FORMATS,
        help="moodle: 'ID number' (the roster's ID number column; else 'Email address', its "
        "email) then a column per chapter: map it to useridnumber (or useremail) in Moodle's "
        "'Identify user by'; canvas: Student, ID, SIS User ID, SIS Login ID, Section, a column "
        "per chapter and a 'Points Possible' row",
    )
    p.add_argument("--roster", required=True, help="the roster CSV given to the grader")
    p.add_argument("--out", required=True, help="the CSV file to write")
    return p


def _read_csv(path: Path, what: str) -> list[dict[str, str]]:
    if not path.is_file():
        raise ValueError(f"{path}: no {what} here: grade with --roster, into this folder, first")
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def totals(results: Path, roster: Roster) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The chapters of ``results/gradebook.csv`` and each student's totals by chapter ("" for
    a missing chapter). A ValueError when the gradebook is not of this roster."""
    path = Path(results) / "gradebook.csv"
    rows = _read_csv(path, "gradebook.csv")
    header = list(rows[0]) if rows else []
    if roster.id_column not in header:
        raise ValueError(
            f"{path}: no column {roster.id_column!r}: it was not graded with --roster {roster.path}"
        )
    chapters = [h.removesuffix(":total") for h in header if h.endswith(":total")]
    found = {}
    for line, row in enumerate(rows, start=2):
        sid = row[roster.id_column]
        if sid not in roster.ids:
            raise ValueError(f"{path}:{line}: {sid!r} is not on the roster {roster.path}")
        found[sid] = {
            c: "" if row[f"{c}:total"] == MISSING else row[f"{c}:total"] for c in chapters
        }
    return chapters, found


def maxima(results: Path, chapters: Sequence[str]) -> dict[str, str]:
    """Each chapter's maximum, from ``results/grades.csv`` (its ``max`` column)."""
    rows = _read_csv(Path(results) / "grades.csv", "grades.csv")
    best: dict[str, float] = {}
    for row in rows:
        try:
            value = float(row.get("max") or "nan")
        except ValueError:
            continue
        if row.get("chapter") in chapters and value == value:
            best[row["chapter"]] = max(best.get(row["chapter"], 0.0), value)
    return {c: f"{best[c]:g}" if c in best else "" for c in chapters}


def _table(rows: Sequence[Sequence[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()


def moodle_csv(results: Path, roster: Roster) -> str:
    """The Moodle CSV (see the module)."""
    chapters, found = totals(results, roster)
    column = roster.column("id number") or roster.column("email")
    if column is None:
        seen = ", ".join([roster.id_column, *roster.columns])
        raise ValueError(
            f"--roster {roster.path}: Moodle identifies a student by 'ID number' or email; the "
            f"roster has neither (columns: {seen})"
        )
    name = "ID number" if roster.column("id number") == column else "Email address"
    rows = [[name, *chapters]]
    for sid in roster.ids:
        marks = found.get(sid, {})
        rows.append([csv_cell(roster.value(sid, column)), *(marks.get(c, "") for c in chapters)])
    return _table(rows)


def _student(roster: Roster, sid: str) -> str:
    name = roster.column("name", "full name", "student")
    if name is not None:
        return roster.value(sid, name)
    last, first = roster.column("last name", "surname"), roster.column("first name")
    parts = [roster.value(sid, c) for c in (last, first) if c is not None]
    return ", ".join(p for p in parts if p)


def canvas_csv(results: Path, roster: Roster) -> str:
    """The Canvas CSV (see the module)."""
    chapters, found = totals(results, roster)
    points = maxima(results, chapters)
    columns = {
        "ID": roster.column("canvas id", "canvas user id"),
        "SIS User ID": roster.column("sis user id"),
        "SIS Login ID": roster.column("sis login id", "login", "username", "email"),
        "Section": roster.column("section"),
    }
    rows = [[*CANVAS_COLUMNS, *chapters], [POINTS_POSSIBLE, "", "", "", ""]]
    rows[1] += [points[c] for c in chapters]
    for sid in roster.ids:
        cells = {k: roster.value(sid, c) if c else "" for k, c in columns.items()}
        cells["SIS User ID"] = cells["SIS User ID"] or sid
        marks = found.get(sid, {})
        rows.append(
            [csv_cell(_student(roster, sid)), *(csv_cell(cells[k]) for k in CANVAS_COLUMNS[1:])]
            + [marks.get(c, "") for c in chapters]
        )
    return _table(rows)


def export(results: Path, fmt: str, roster: Path | Roster, out: Path) -> None:
    """Write ``out``: the ``fmt`` (moodle or canvas) CSV of the run in ``results``."""
    if fmt not in FORMATS:
        raise ValueError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    roster = roster if isinstance(roster, Roster) else read(roster)
    text = (moodle_csv if fmt == "moodle" else canvas_csv)(Path(results), roster)
    write(Path(out), text)


def main(argv: Sequence[str] | None = None) -> int:
    options = parser().parse_args(argv)
    try:
        export(Path(options.results), options.format, Path(options.roster), Path(options.out))
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{options.format} grades: {options.out}")
    return 0
