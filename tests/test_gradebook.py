"""The roster-keyed gradebook (coursekit.grading.gradebook), on Grade objects and small rosters;
and one run of the real grader with --roster alone (no variants), read back."""

from __future__ import annotations

import csv
import io
import os
import shutil
from pathlib import Path
from types import SimpleNamespace

from grader_support import run_grader

from coursekit.grading import gradebook
from coursekit.grading import grader as grade
from coursekit.grading.report import Grade, grades_csv
from coursekit.grading.roster import read
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
UNSAFE = (
    ["--unsafe-no-sandbox"]
    if sandbox_available() is not None and os.environ.get("COURSEKIT_REQUIRE_SANDBOX") != "1"
    else []
)


def _q(points: float, top: float, message: str = "") -> dict:
    return {"points": points, "max": top, "message": message}


def _roster(tmp_path: Path):
    path = tmp_path / "roster.csv"
    path.write_text("id;name;section\ns1;Ann;L1\ns2;Bob;L2\ns3;Cy;L1\n", encoding="utf-8")
    return read(path)


def _grades() -> list[Grade]:
    return [
        Grade("s1/01", "01_a", {"q1": _q(2, 2), "q2": _q(1, 3)}, owner="s1"),
        Grade("s2/01", "01_a", {"q1": _q(0, 2), "q2": _q(3, 3)}, error="cell 4: boom", owner="s2"),
        Grade("s2/02", "02_b", {"q1": _q(5, 5)}, owner="s2"),
    ]


def _table(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_one_row_per_student_and_the_missing_ones_marked(tmp_path):
    rows = _table(gradebook.gradebook_csv(_roster(tmp_path), _grades()))
    assert [r["id"] for r in rows] == ["s1", "s2", "s3"]
    assert list(rows[0]) == [
        "id", "name", "section",
        "01_a:total", "01_a:q1", "01_a:q2", "02_b:total", "02_b:q1", "notes",
    ]  # fmt: skip
    s1, s2, s3 = rows
    assert (s1["name"], s1["01_a:total"], s1["01_a:q1"], s1["01_a:q2"]) == ("Ann", "3", "2", "1")
    assert (s1["02_b:total"], s1["02_b:q1"]) == ("missing", "")  # s1 handed nothing for 02
    assert (s2["01_a:total"], s2["02_b:total"], s2["notes"]) == ("3", "5", "01_a: cell 4: boom")
    assert [s3[c] for c in ("01_a:total", "01_a:q1", "02_b:total")] == ["missing", "", "missing"]


def test_of_two_submissions_the_last_modified_is_kept(tmp_path):
    grades = [
        Grade("s1/01_v1", "01_a", {"q1": _q(2, 2)}, owner="s1", error="2 submissions"),
        Grade("s1/01_v2", "01_a", {"q1": _q(0, 2)}, owner="s1", error="2 submissions"),
    ]
    older_first = {"s1/01_v2": 10.0, "s1/01_v1": 20.0}
    rows = _table(gradebook.gradebook_csv(_roster(tmp_path), grades, older_first))
    assert (rows[0]["01_a:total"], rows[0]["notes"]) == ("2", "01_a: 2 submissions")
    rows = _table(gradebook.gradebook_csv(_roster(tmp_path), grades, {"s1/01_v2": 30.0}))
    assert rows[0]["01_a:total"] == "0"


def test_owners_are_assigned_and_an_unknown_one_is_said(tmp_path):
    grades = [
        Grade("s3/01_a"),
        Grade("loose/01_a", error="cell 2: x"),
        Grade("x", error="not graded: y"),
    ]
    gradebook.assign_owners(grades, _roster(tmp_path).owners(None))
    assert [g.owner for g in grades] == ["s3", "", ""]
    assert grades[1].error.startswith("no owner on the roster ('loose' (--id-from folder)")
    assert grades[1].error.endswith("; cell 2: x")
    assert grades[2].error == "not graded: y"  # refused already: said once
    keys = {"01_a": [SimpleNamespace(qid="q1")]}
    grades[0].chapter, grades[0].questions = "01_a", {"q1": _q(1, 2)}
    rows = _table(grades_csv(grades, keys))
    assert [r["id"] for r in rows] == ["s3", "", ""]


def test_results_write_the_gradebook_and_the_feedback_by_id(tmp_path):
    out = tmp_path / "out"
    gradebook.write_results(_grades(), out, _roster(tmp_path))
    assert (out / "gradebook.csv").is_file() and (out / "stats.csv").is_file()
    page = (out / "feedback" / "s2" / "01_a.html").read_text(encoding="utf-8")
    assert "s2/01: 3 / 5" in page and "cell 4: boom" in page
    assert (out / "feedback" / "s2" / "02_b.json").is_file()
    assert not (out / "feedback" / "s3").exists()
    gradebook.write_results(_grades(), tmp_path / "alone", None)  # no roster: stats only
    assert sorted(p.name for p in (tmp_path / "alone").iterdir()) == ["stats.csv", "stats.html"]


def test_the_grader_with_a_roster_alone_writes_the_gradebook(tmp_path):
    """Practice notebooks graded with --roster and no --secret-file: s1001 hands in the
    solution (full marks), s1002 a file that is not a notebook, s1003 nothing; a notebook
    outside the students' folders is graded without an owner."""
    chapter = "01_precision_recall"
    full = sum(q.points for q in grade.load_keys(ROOT / "solutions" / "keys")[chapter])
    subs = tmp_path / "subs"
    (subs / "s1001").mkdir(parents=True)
    (subs / "s1002").mkdir()
    shutil.copy(ROOT / "solutions" / f"{chapter}.ipynb", subs / "s1001" / f"{chapter}.ipynb")
    (subs / "s1002" / f"{chapter}.ipynb").write_text("not json", encoding="utf-8")
    (subs / f"{chapter}.ipynb").write_text("not json", encoding="utf-8")
    roster = tmp_path / "students.csv"
    roster.write_bytes("\ufeffID number;Name\ns1001;Ann\ns1002;Bob\ns1003;Cy\n".encode())
    done = run_grader(
        subs, tmp_path / "out", ROOT / "solutions" / "keys", "--roster", str(roster), *UNSAFE
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = tmp_path / "out"
    with open(out / "gradebook.csv", encoding="utf-8") as f:
        rows = {r["ID number"]: r for r in csv.DictReader(f)}
    assert float(rows["s1001"][f"{chapter}:total"]) == full
    assert rows["s1002"][f"{chapter}:total"] == "0" and "JSON" in rows["s1002"]["notes"]
    assert rows["s1003"][f"{chapter}:total"] == "missing"
    with open(out / "grades.csv", encoding="utf-8") as f:
        ids = {r["submission"]: (r["id"], r["error"]) for r in csv.DictReader(f)}
    assert ids[f"s1001/{chapter}"] == ("s1001", "")
    assert ids[chapter][0] == "" and ids[chapter][1].startswith("no owner on the roster")
    assert (out / "feedback" / "s1001" / f"{chapter}.html").is_file()
    assert (out / "stats.html").read_text(encoding="utf-8").count("data:image/png;base64,") == 1
