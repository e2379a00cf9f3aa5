"""Exports of the gradebook for Moodle and Canvas (coursekit.grading.export), read back with the
rules their grade imports document:

- Moodle ("Grade import", CSV): a header row; one column identifies the user, mapped in
  "Identify user by" to ``useridnumber`` (ID number) or ``useremail`` (email, compared with its
  case); every other column a grade item, a number (an empty cell grades nothing).
- Canvas (Gradebook import): ``Student, ID, SIS User ID, SIS Login ID, Section`` then one column
  per assignment, and a ``Points Possible`` row under the header with each one's maximum.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from types import SimpleNamespace

import pytest

from coursekit.grade import main
from coursekit.grading import export
from coursekit.grading.gradebook import gradebook_csv
from coursekit.grading.report import Grade, grades_csv
from coursekit.grading.roster import read


def _q(points: float, top: float) -> dict:
    return {"points": points, "max": top, "message": ""}


GRADES = [
    Grade("a/01", "01_a", {"q1": _q(2, 2), "q2": _q(1.5, 3)}, owner="21903456"),
    Grade("b/01", "01_a", {"q1": _q(0, 2), "q2": _q(3, 3)}, owner="21907777"),
    Grade("b/02", "02_b", {"q1": _q(4, 4)}, owner="21907777"),
]
KEYS = {
    "01_a": [SimpleNamespace(qid="q1"), SimpleNamespace(qid="q2")],
    "02_b": [SimpleNamespace(qid="q1")],
}
MOODLE = (
    "First name,Surname,ID number,Username,Email address,Group\n"
    "Jane,Doe,21903456,jdoe,Jane.Doe@uni.edu,L1\n"
    "Li,Wei,21907777,lwei,li@uni.edu,L2\n"
    "Cy,Roe,21909999,croe,cy@uni.edu,L1\n"
)


def _results(tmp_path: Path, roster_text: str) -> tuple[Path, Path]:
    roster = tmp_path / "students.csv"
    roster.write_text(roster_text, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "gradebook.csv").write_text(gradebook_csv(read(roster), GRADES), encoding="utf-8")
    (out / "grades.csv").write_text(grades_csv(GRADES, KEYS), encoding="utf-8")
    return out, roster


def _read(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def test_moodle_identifies_by_id_number_and_has_a_column_per_chapter(tmp_path):
    out, roster = _results(tmp_path, MOODLE)
    target = tmp_path / "moodle.csv"
    assert (
        main(
            [
                "export",
                str(out),
                "--format",
                "moodle",
                "--roster",
                str(roster),
                "--out",
                str(target),
            ]
        )
        == 0
    )
    header, *rows = _read(target)
    assert header == ["ID number", "01_a", "02_b"]
    grades = {row[0]: row[1:] for row in rows}
    assert list(grades) == ["21903456", "21907777", "21909999"]  # every student, once
    assert grades["21903456"] == ["3.5", ""]  # 2 + 1.5; nothing handed in for 02: no grade
    assert grades["21907777"] == ["3", "4"]
    assert grades["21909999"] == ["", ""]
    for row in rows:  # every grade cell a number or empty
        assert all(cell == "" or float(cell) >= 0 for cell in row[1:])


def test_moodle_falls_back_on_the_email_with_its_case(tmp_path):
    out, roster = _results(
        tmp_path, "username,email\n21903456,Jane.Doe@uni.edu\n21907777,li@x.org\n"
    )
    target = tmp_path / "moodle.csv"
    export.export(out, "moodle", roster, target)
    header, first, second = _read(target)
    assert header[0] == "Email address"
    assert (first[0], first[1], second[2]) == ("Jane.Doe@uni.edu", "3.5", "4")


def test_moodle_needs_an_id_number_or_an_email(tmp_path):
    out, roster = _results(tmp_path, "id,name\n21903456,Jane\n21907777,Li\n")
    with pytest.raises(ValueError, match="neither \\(columns: id, name\\)"):
        export.export(out, "moodle", roster, tmp_path / "m.csv")


def test_canvas_has_its_five_columns_and_a_points_possible_row(tmp_path):
    text = (
        "Student ID,Last name,First name,Section,Email\n"
        "21903456,Doe,Jane,L1,j@u.edu\n21907777,Wei,Li,L2,l@u.edu\n"
    )
    out, roster = _results(tmp_path, text)
    target = tmp_path / "canvas.csv"
    export.export(out, "canvas", roster, target)
    header, points, *rows = _read(target)
    assert header == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "01_a", "02_b"]
    assert points[0] == "Points Possible" and points[5:] == ["5", "4"]  # 2 + 3, and 4
    students = {row[2]: row for row in rows}  # by SIS User ID
    assert students["21903456"][:5] == ["Doe, Jane", "", "21903456", "j@u.edu", "L1"]
    assert students["21903456"][5:] == ["3.5", ""]
    assert students["21907777"][5:] == ["3", "4"]


def test_export_refuses_a_run_without_gradebook_and_a_stranger(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "r.csv").write_text("ID number\n21903456\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no gradebook.csv here"):
        export.export(tmp_path / "empty", "canvas", tmp_path / "r.csv", tmp_path / "c.csv")
    out, _ = _results(tmp_path, MOODLE)
    with pytest.raises(ValueError, match="gradebook.csv:3: '21907777' is not on the roster"):
        export.export(out, "canvas", tmp_path / "r.csv", tmp_path / "c.csv")
    with pytest.raises(SystemExit):  # argparse: exit 2 naming --format
        main(["export", str(out), "--format", "blackboard", "--roster", "r", "--out", "x"])
