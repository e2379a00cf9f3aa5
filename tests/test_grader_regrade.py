"""--only (a regrade merged into an earlier run) and the answer keys checked before grading,
with the real grader (python -m coursekit.grade) on small folders."""

from __future__ import annotations

import csv
import os
import shutil
from pathlib import Path

import pytest
from grader_support import run_grader

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


def _hand_in(subs: Path, sid: str, source: Path) -> None:
    (subs / sid).mkdir(parents=True, exist_ok=True)
    shutil.copy(source, subs / sid / f"{CHAPTER}.ipynb")


def _lines(path: Path, prefix: str) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.startswith(prefix)]


def _rows(path: Path, column: str) -> dict[str, dict[str, str]]:
    with open(path, encoding="utf-8") as f:
        return {row[column]: row for row in csv.DictReader(f)}


def test_only_regrades_one_student_and_keeps_the_others_rows_byte_for_byte(tmp_path):
    subs, out = tmp_path / "subs", tmp_path / "out"
    _hand_in(subs, "s1", ROOT / "solutions" / f"{CHAPTER}.ipynb")
    _hand_in(subs, "s2", ROOT / "solutions" / f"{CHAPTER}.ipynb")
    _hand_in(subs, "s3", ROOT / "exercises" / f"{CHAPTER}.ipynb")  # nothing answered yet
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\ns1,Ann\ns2,Bob\ns3,Cy\n", encoding="utf-8")
    done = run_grader(subs, out, KEYS, "--roster", str(roster), *UNSAFE)
    assert done.returncode == 0, done.stdout + done.stderr
    first = (out / "grades.csv").read_bytes()
    others = {
        name: _lines(out / name, "s1") + _lines(out / name, "s2")
        for name in ("grades.csv", "gradebook.csv")
    }
    assert len(others["grades.csv"]) == 2 and len(others["gradebook.csv"]) == 2
    free_before = _rows(out / "free_text.csv", "id")
    assert _rows(out / "grades.csv", "id")["s3"]["total"] == "0"
    stats = _rows(out / "stats.csv", "question")["total"]
    assert stats["mean_points"] == "7.333"  # (11 + 11 + 0) / 3

    _hand_in(subs, "s3", ROOT / "solutions" / f"{CHAPTER}.ipynb")  # s3 hands in again
    _hand_in(subs, "s1", ROOT / "exercises" / f"{CHAPTER}.ipynb")  # not regraded: ignored
    done = run_grader(subs, out, KEYS, "--roster", str(roster), "--only", "s3", *UNSAFE)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 submissions graded" in done.stdout
    for name, lines in others.items():  # the others' rows: the same bytes
        assert _lines(out / name, "s1") + _lines(out / name, "s2") == lines, name
    grades = _rows(out / "grades.csv", "id")
    assert [grades[s]["total"] for s in ("s1", "s2", "s3")] == [str(FULL)] * 3
    assert _rows(out / "gradebook.csv", "id")["s3"][f"{CHAPTER}:total"] == str(FULL)
    free_after = _rows(out / "free_text.csv", "id")
    assert free_after["s1"] == free_before["s1"] and free_after["s2"] == free_before["s2"]
    assert free_after["s3"]["answer"].startswith("<!-- BEGIN SOLUTION -->")  # the solution's
    assert free_before["s3"]["answer"] == ""  # the exercise's placeholder is no answer
    stats = _rows(out / "stats.csv", "question")["total"]
    assert (stats["submissions"], stats["mean_points"], stats["full_marks"]) == ("3", "11", "1")
    assert (out / "grades.previous-1.csv").read_bytes() == first
    assert (out / "integrity.csv").is_file()
    assert (out / "feedback" / "s3" / f"{CHAPTER}.html").read_text().count(f"{FULL} / {FULL}")


def test_only_is_refused_for_an_unknown_id_or_without_an_earlier_run(tmp_path):
    subs, out = tmp_path / "subs", tmp_path / "out"
    _hand_in(subs, "s1", ROOT / "solutions" / f"{CHAPTER}.ipynb")
    roster = tmp_path / "roster.csv"
    roster.write_text("id\ns1\ns2\n", encoding="utf-8")
    done = run_grader(subs, out, KEYS, "--roster", str(roster), "--only", "s1,s9", *UNSAFE)
    assert done.returncode == 2 and "--only: s9 not on the roster" in done.stderr
    assert not out.exists()
    done = run_grader(subs, out, KEYS, "--roster", str(roster), "--only", "s1", *UNSAFE)
    assert done.returncode == 2 and "has no grades.csv" in done.stderr
    assert not out.exists()
    done = run_grader(subs, out, KEYS, "--only", "s1", *UNSAFE)
    assert done.returncode == 2 and "--only names students of the roster" in done.stderr
    done = run_grader(subs, out, KEYS, "--roster", str(roster), "--only", "s 1", *UNSAFE)
    assert done.returncode == 2 and "'s 1' is not a student id" in done.stderr


def _broken(tmp_path: Path, how: str) -> tuple[Path, int]:
    """A keys folder whose chapter-01 key is broken ``how``, and the line it is broken at."""
    keys = tmp_path / f"keys-{how}"
    keys.mkdir()
    lines = (KEYS / f"{CHAPTER}.py").read_text(encoding="utf-8").split("\n")
    if how == "syntax":
        at = lines.index("import math")  # after the docstring
        lines.insert(at, "def broken(:")
        line = at + 1
    elif how == "generate":
        at = lines.index("def generate(rng):")
        lines.insert(at + 1, '    raise RuntimeError("the data file moved")')
        line = at + 2
    else:  # a Choice whose answer is not among its options
        lines.append('QUESTIONS.append(Choice("q11", "z", options={"a": "x", "b": "y"}))')
        line = len(lines)
    (keys / f"{CHAPTER}.py").write_text("\n".join(lines), encoding="utf-8")
    shutil.copy(KEYS / "02_curves_interpolation.py", keys)  # a good key beside it
    return keys, line


@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("syntax", "does not compile: SyntaxError"),
        ("generate", "fails when run: RuntimeError: the data file moved"),
        ("question", "has a bad question: ValueError: q11: 'z' is not among"),
    ],
)
def test_a_broken_key_stops_the_run_before_anything_is_written(tmp_path, how, said):
    subs, out = tmp_path / "subs", tmp_path / "out"
    _hand_in(subs, "s1", ROOT / "solutions" / f"{CHAPTER}.ipynb")
    keys, line = _broken(tmp_path, how)
    done = run_grader(subs, out, keys, *UNSAFE)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"the answer key {keys / CHAPTER}.py:{line} {said}" in done.stderr
    assert not out.exists()  # nothing graded, nothing written
    assert "graded" not in done.stdout
