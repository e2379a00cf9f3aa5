"""Deadlines: --deadline, --times, --late-penalty P/day and --late-cap C."""

from __future__ import annotations

import csv
import os
import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest
from grader_support import run_grader

from coursekit.grading import deadline
from coursekit.grading.report import Grade
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
KEYS = ROOT / "solutions" / "keys"
CHAPTER = "01_precision_recall"
FULL = 11  # chapter 01: q1 ... q9 one point each, q10 two
UNSAFE = (
    ["--unsafe-no-sandbox"]
    if sandbox_available() is not None and os.environ.get("COURSEKIT_REQUIRE_SANDBOX") != "1"
    else []
)
UTC = timezone.utc
LATE = "2 days late (submitted 2026-12-17T00:59+00:00, t.csv)"


def test_times_are_read_in_the_documented_formats():
    assert deadline.parse_time("2026-12-15T23:59+01:00", "x") == datetime(
        2026, 12, 15, 22, 59, tzinfo=UTC
    )
    assert deadline.parse_time("2026-12-15 22:59:00Z", "x") == datetime(
        2026, 12, 15, 22, 59, tzinfo=UTC
    )
    assert deadline.parse_time("1797379200", "x") == datetime(2026, 12, 16, tzinfo=UTC)
    local = deadline.parse_time("Tuesday, 15 December 2026, 11:59 PM", "x")
    assert local.replace(tzinfo=None) == datetime(2026, 12, 15, 23, 59)
    assert local.utcoffset() == datetime(2026, 12, 15, 23, 59).astimezone().utcoffset()
    with pytest.raises(ValueError, match="^f.csv:3: 'tomorrow' is not a time"):
        deadline.parse_time("tomorrow", "f.csv:3")
    with pytest.raises(ValueError, match="has no time of day"):
        deadline.parse_time("2026-12-15", "--deadline")


def _grade(owner: str) -> Grade:
    points = {f"q{i}": {"points": 1.0, "max": 1.0, "message": ""} for i in range(6)}
    points["q9"] = {"points": 0.0, "max": 4.0, "message": ""}
    return Grade(f"{owner}/01", "01_a", points, owner=owner)  # 6 of 10


@pytest.mark.parametrize(
    ("penalty", "cap", "s2_total", "said"),
    [
        ("1.5/day", None, 3.0, f"{LATE}: -3 points (1.5/day)"),
        (None, 4.0, 4.0, f"{LATE}: total capped at 4 (late cap)"),
        (None, 8.0, 6.0, f"{LATE}: total capped at 8 (late cap)"),
        ("10/day", None, 0.0, f"{LATE}: -20 points (10/day)"),  # never below 0
        (None, None, 6.0, LATE),
    ],
)
def test_a_penalty_per_started_day_and_a_cap(penalty, cap, s2_total, said):
    times = deadline.Times(
        "t.csv",
        {"s1": datetime(2026, 12, 15, 23, 0, tzinfo=UTC)},
        {"s2/01": datetime(2026, 12, 17, 0, 59, tzinfo=UTC)},  # 1 day and 1 minute late
    )
    rule = deadline.LateRule(datetime(2026, 12, 15, 23, 58, tzinfo=UTC), penalty and
                             deadline.parse_penalty(penalty), cap, times)  # fmt: skip
    s1, s2 = _grade("s1"), _grade("s2")
    rule.apply(s1, None)
    rule.apply(s2, None)
    assert (s1.total, s1.late) == (6.0, "on time (submitted 2026-12-15T23:00+00:00, t.csv)")
    assert s2.total == s2_total and s2.late == said
    assert s2.as_dict()["late"] == s2.late and "late" not in _grade("s3").as_dict()


def test_the_file_time_when_times_do_not_say(tmp_path):
    path = tmp_path / "s1.ipynb"
    path.write_text("{}", encoding="utf-8")
    stamp = datetime(2026, 12, 18, 12, 0, tzinfo=UTC).timestamp()  # 3 started days late
    os.utime(path, (stamp, stamp))
    rule = deadline.LateRule(datetime(2026, 12, 15, 23, 59, tzinfo=UTC), 1.0)
    grade = _grade("s1")
    rule.apply(grade, path)
    assert grade.total == 3.0 and grade.late.startswith("3 days late (submitted ")
    assert grade.late.endswith(", file time): -3 points (1/day)")


def _times(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "times.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_bad_times_files_are_refused_with_their_line(tmp_path):
    roster = ["s1", "s2"]
    cases = [
        (["id;when?", "s1;2026-12-15T10:00"], r":1: needs a time column"),
        (["id,time", "s1,2026-12-15T10:00", "s2,soon"], r":3: 'soon' is not a time"),
        (["id,time", "s1,2026-12-15T10:00", "s9,2026-12-15T10:00"], r":3: 's9' is not an id"),
        (["id,time", "s1,2026-12-15T10:00", "s1,2026-12-15T11:00"], r":3: 's1' has a time"),
    ]
    for lines, said in cases:
        with pytest.raises(ValueError, match=f"^{_times(tmp_path, lines)}{said}"):
            deadline.read_times(tmp_path / "times.csv", roster)
    read = deadline.read_times(
        _times(tmp_path, ["Student_ID;Submission time;File", "s1;1797379200;", ";1797379200;x/s2"]),
        roster,
    )
    assert read.of("x/s2", "s2") == datetime(2026, 12, 16, tzinfo=UTC)
    assert read.of("s1/01", "s1") == read.of("x/s2", "") and read.of("other", "s2") is None


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--late-penalty", "1/day"], "--late-penalty needs --deadline"),
        (["--deadline", "tomorrow"], "--deadline: 'tomorrow' is not a time"),
        (["--deadline", "2026-12-15T23:59", "--late-penalty", "2"], "write points per started"),
        (["--deadline", "2026-12-15T23:59", "--late-cap", "-1"], "--late-cap must be 0 or more"),
        (
            ["--deadline", "2026-12-15T23:59", "--late-cap", "5", "--late-penalty", "1/day"],
            "exclude each other",
        ),
    ],
)
def test_bad_late_options_exit_2(tmp_path, capsys, options, said):
    from coursekit.grade import main

    assert main([str(tmp_path), "--out", str(tmp_path / "out"), *options]) == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_late_student_loses_points_and_an_honest_classmate_keeps_them(tmp_path):
    subs, out = tmp_path / "subs", tmp_path / "out"
    for sid in ("s1", "s2"):
        (subs / sid).mkdir(parents=True)
        shutil.copy(ROOT / "solutions" / f"{CHAPTER}.ipynb", subs / sid)
    roster = tmp_path / "roster.csv"
    roster.write_text("id\ns1\ns2\n", encoding="utf-8")
    times = _times(tmp_path, ["id,time", "s1,2026-12-15T20:00Z", "s2,2026-12-17T10:00Z"])
    rule = ["--deadline", "2026-12-15T23:59Z", "--times", str(times)]
    done = run_grader(subs, out, KEYS, "--roster", str(roster), *rule, "--late-penalty", "1/day",
                      *UNSAFE)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    with open(out / "grades.csv", encoding="utf-8") as f:
        grades = {r["id"]: r for r in csv.DictReader(f)}
    assert (grades["s1"]["total"], grades["s2"]["total"]) == (str(FULL), str(FULL - 2))
    assert grades["s1"]["late"] == "on time (submitted 2026-12-15T20:00+00:00, times.csv)"
    two_days = "2 days late (submitted 2026-12-17T10:00+00:00, times.csv): -2 points (1/day)"
    assert grades["s2"]["late"] == two_days
    with open(out / "gradebook.csv", encoding="utf-8") as f:
        book = {r["id"]: r for r in csv.DictReader(f)}
    assert book["s2"]["notes"] == f"{CHAPTER}: {two_days}" and book["s1"]["notes"] == ""
    page = (out / "feedback" / "s2" / f"{CHAPTER}.html").read_text(encoding="utf-8")
    assert two_days in page and f"{FULL - 2:g} / {FULL}" in page
    s1_row = [line for line in (out / "grades.csv").read_text().splitlines() if "s1/" in line]

    done = run_grader(subs, out, KEYS, "--roster", str(roster), *rule, "--late-cap", "5",
                      "--only", "s2", *UNSAFE)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    with open(out / "grades.csv", encoding="utf-8") as f:
        grades = {r["id"]: r for r in csv.DictReader(f)}
    assert grades["s2"]["total"] == "5"
    assert grades["s2"]["late"].endswith(": total capped at 5 (late cap)")
    assert [line for line in (out / "grades.csv").read_text().splitlines() if "s1/" in line] == (
        s1_row
    )
    assert grades["s1"]["total"] == str(FULL)
