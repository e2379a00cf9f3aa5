"""Graded coursework on per-student variants: release, self-check of a variant, grading.

``python -m coursekit.grade release`` writes one notebook per student of a roster, whose data
are drawn from HMAC-SHA256(secret, chapter, student id); the grader, given the same secret and
roster, grades each submission on its owner's data. One grading run (module fixture) over:
two students' own variant solutions (full marks), a student handing in a classmate's variant
(an id mismatch; the data questions score 0) and a student handing in the public solution
(the data questions score 0).
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from coursekit.grading import grader as grade
from coursekit.grading import variants
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "01_precision_recall"
KEY = grade.load_keys(ROOT / "solutions" / "keys")[CHAPTER]
POINTS = {q.qid: q.points for q in KEY}
GENERATOR = variants.load_generator(ROOT / "solutions" / "variants", CHAPTER)
DATA_QIDS = [q.qid for q in GENERATOR.generate(__import__("numpy").random.default_rng(0))[1]]
SECRET = b"a lecturer's secret of more than sixteen bytes"
ROSTER = ["alice", "bob", "carol", "dave"]
UNSAFE = (
    ["--unsafe-no-sandbox"]
    if sandbox_available() is not None and os.environ.get("COURSEKIT_REQUIRE_SANDBOX") != "1"
    else []
)


def _files(tmp: Path) -> tuple[Path, Path]:
    (tmp / "secret").write_bytes(SECRET + b"\n")
    (tmp / "students.csv").write_text("id,name\n" + "".join(f"{s},{s.title()}\n" for s in ROSTER))
    return tmp / "secret", tmp / "students.csv"


def _release(tmp: Path, out: Path) -> subprocess.CompletedProcess:
    secret, roster = _files(tmp)
    return subprocess.run(
        [sys.executable, "-m", "coursekit.grade", "release", CHAPTER]
        + ["--roster", str(roster), "--secret-file", str(secret), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def _tree(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _variant_solution(student: str) -> nbformat.NotebookNode:
    """The solution notebook turned into ``student``'s variant, as the release does."""
    notebook = nbformat.read(ROOT / "solutions" / f"{CHAPTER}.ipynb", as_version=4)
    return variants.personalise(notebook, CHAPTER, student, GENERATOR, SECRET)


def test_release_is_reproducible_and_personal(tmp_path):
    first, second = tmp_path / "r1", tmp_path / "r2"
    assert _release(tmp_path, first).returncode == 0
    assert _release(tmp_path, second).returncode == 0
    assert _tree(first) == _tree(second)
    assert sorted(_tree(first)) == [f"{s}/{CHAPTER}.ipynb" for s in ROSTER]
    data = set()
    for student in ROSTER:
        notebook = nbformat.read(first / student / f"{CHAPTER}.ipynb", as_version=4)
        assert notebook.metadata["coursekit"]["student"] == student
        cell = next(c for c in notebook.cells if c.source.startswith(GENERATOR.DATA_CELL))
        data.add(cell.source)
        assert "variant_check" in "".join(c.source for c in notebook.cells)
    assert len(data) == len(ROSTER)  # each student's own data


def test_the_seed_depends_on_secret_chapter_and_student():
    seeds = {
        variants.seed(SECRET, CHAPTER, "alice"),
        variants.seed(SECRET, CHAPTER, "bob"),
        variants.seed(SECRET + b"!", CHAPTER, "alice"),
        variants.seed(SECRET, "03_ap_map", "alice"),
    }
    assert len(seeds) == 4


def test_a_variant_check_gives_the_format_only(capsys):
    check = variants.variant_check(CHAPTER, DATA_QIDS)
    _, questions = variants.variant(GENERATOR, SECRET, CHAPTER, "alice")
    expected = {q.qid: q.expected for q in questions}
    from coursekit.grading import start

    start(CHAPTER)
    check("q2", expected["q2"])
    check("q2", 0.123456)
    check("q2", 1.5)
    check("q1", [1, 2, 3])
    lines = capsys.readouterr().out.splitlines()[1:]
    assert lines[0] == lines[1] and "recorded" in lines[0] and "passed" not in lines[0]
    assert "out of range" in lines[2]
    assert "expected a list of 4 elements" in lines[3]


def test_bad_secrets_and_rosters_are_refused(tmp_path):
    (tmp_path / "short").write_bytes(b"short")
    with pytest.raises(ValueError, match="at least 16 bytes"):
        variants.read_secret(tmp_path / "short")
    (tmp_path / "roster.csv").write_text("id\nalice\n../etc\n")
    with pytest.raises(ValueError, match="not a student id"):
        variants.read_roster(tmp_path / "roster.csv")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("variants")
    secret, roster = _files(base)
    subs = base / "subs"
    for student, notebook in {
        "alice": _variant_solution("alice"),
        "dave": _variant_solution("dave"),
        "bob": _variant_solution("alice"),  # a classmate's variant, solved
        "carol": nbformat.read(ROOT / "solutions" / f"{CHAPTER}.ipynb", as_version=4),
    }.items():
        (subs / student).mkdir(parents=True)
        nbformat.write(notebook, subs / student / f"{CHAPTER}.ipynb")
    done = subprocess.run(
        [sys.executable, "-m", "coursekit.grade", str(subs), "--out", str(base / "out")]
        + ["--jobs", "2", "--keys", str(ROOT / "solutions" / "keys")]
        + ["--secret-file", str(secret), "--roster", str(roster), *UNSAFE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with open(base / "out" / "grades.csv", encoding="utf-8") as f:
        rows = {row["submission"].split("/")[0]: row for row in csv.DictReader(f)}
    return base, rows


@pytest.mark.parametrize("student", ["alice", "dave"])
def test_each_variant_solution_scores_full_marks(graded, student):
    row = graded[1][student]
    assert row["error"] == "" and float(row["total"]) == float(row["max"]) > 0


@pytest.mark.parametrize("student", ["bob", "carol"])
def test_answers_of_another_variant_or_the_public_data_score_zero(graded, student):
    row = graded[1][student]
    assert [row[q] for q in DATA_QIDS] == ["0"] * len(DATA_QIDS)
    others = [q for q in POINTS if q not in DATA_QIDS]
    assert float(row["total"]) == sum(float(row[q]) for q in others)


def test_an_id_mismatch_is_reported(graded):
    base, rows = graded
    assert "id mismatch" in rows["bob"]["error"] and "'alice'" in rows["bob"]["error"]
    feedback = next((base / "out" / "feedback").glob("bob_*.json"))
    assert any("id mismatch" in n for n in json.loads(feedback.read_text())["notes"])
