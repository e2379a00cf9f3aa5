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
GENERATOR = variants.key_generator(ROOT / "solutions" / "keys", CHAPTER)
#: the questions whose answer depends on the student's data (q7, an empty answer's accuracy,
#: is 32/40 for everyone: its counts are those of the exercise's text)
DATA_QIDS = ["q1", "q2", "q3", "q4", "q5", "q6"]
#: what check() judges by the format only in a variant: every value question
OWN_QIDS = [*DATA_QIDS, "q7"]
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
        cell = next(c for c in notebook.cells if c.source.startswith("n_docs = "))
        data.add(cell.source)
        setup = next(c.source for c in notebook.cells if "start(" in c.source)
        own = ", ".join(f'"{q}"' for q in OWN_QIDS)
        assert f'start("{CHAPTER}", own_data=[{own}])' in setup
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
    expected = {q.qid: q.expected for q in questions if hasattr(q, "expected")}
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


def test_a_variant_notebooks_check_cells_give_the_format_only(tmp_path, capsys):
    out = tmp_path / "release"
    assert _release(tmp_path, out).returncode == 0
    notebook = nbformat.read(out / "alice" / f"{CHAPTER}.ipynb", as_version=4)
    _, questions = variants.variant(GENERATOR, SECRET, CHAPTER, "alice")
    expected = {q.qid: q.expected for q in questions if hasattr(q, "expected")}
    namespace: dict = {}
    for cell in notebook.cells:  # the set-up cell, then q2's cell with alice's right answer
        if cell.cell_type == "code" and ("start(" in cell.source or "p = ..." in cell.source):
            exec(cell.source.replace("p = ...", f"p = {expected['q2']!r}"), namespace)
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == (
        "q2: recorded (the format is right; your own data's answer is judged when graded)"
    )
    from coursekit.grading import check, start

    start(CHAPTER)  # the public notebook: right and wrong again
    check("q2", expected["q2"])
    assert capsys.readouterr().out.splitlines()[-1] != lines[-1]


def test_the_key_is_written_once_for_the_public_exercise_and_the_variants():
    import numpy as np

    public_source, public = GENERATOR.generate(None)
    assert [q.qid for q in public] == [q.qid for q in KEY]
    assert [q.public(CHAPTER) for q in public] == [q.public(CHAPTER) for q in KEY]
    # the public data cell is the exercise's (the cell a release replaces)
    exercise = nbformat.read(ROOT / "exercises" / f"{CHAPTER}.ipynb", as_version=4)
    assert [c.source for c in exercise.cells].count(public_source) == 1
    # a variant: same questions, other data; 8 relevant and 10 retrieved as in the text
    source, questions = GENERATOR.generate(np.random.default_rng(7))
    assert source != public_source and [q.qid for q in questions] == [q.qid for q in KEY]
    namespace: dict = {}
    exec(source, namespace)
    assert len(set(namespace["relevant"])) == 8 and len(set(namespace["retrieved"])) == 10
    tp = len(set(namespace["relevant"]) & set(namespace["retrieved"]))
    expected = {q.qid: q.expected for q in questions if hasattr(q, "expected")}
    assert expected["q1"] == [tp, 10 - tp, 8 - tp, 40 - 10 - (8 - tp)]
    assert expected["q2"] == pytest.approx(tp / 10) and expected["q3"] == pytest.approx(tp / 8)
    assert expected["q7"] == pytest.approx(32 / 40)


def test_a_chapter_without_generate_has_no_variants(tmp_path):
    from coursekit.grading import release

    secret, roster = _files(tmp_path)
    keys = tmp_path / "keys"  # a key of the old form: QUESTIONS only, no generate(rng)
    keys.mkdir()
    key = (ROOT / "solutions" / "keys" / "02_curves_interpolation.py").read_text(encoding="utf-8")
    key += "\n\ndel generate\n" if "def generate(" in key else ""
    (keys / "02_curves_interpolation.py").write_text(key, encoding="utf-8")
    with pytest.raises(ValueError, match="defines no generate"):
        release.release(
            "02_curves_interpolation",
            roster,
            secret,
            tmp_path / "out",
            ROOT / "exercises",
            tmp_path / "no-variants",
            keys,
        )


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
