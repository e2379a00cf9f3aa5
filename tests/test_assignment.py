"""Graded questions are private: `release` refuses the kit's public questions, and
`python -m coursekit.grade new-assignment` starts a private assignment that releases and grades.

The end-to-end test builds a private assignment of chapter 01, edits it as a lecturer would (q4
adds 5 non-relevant documents instead of 9, q2 reworded, the review marks deleted), releases
it for a roster of 2 with a secret made by `python -m coursekit.grade secret`, and grades: the
private solution on a student's data scores full marks; the public solution's cells under a
student's data lose q4 (the question whose key changed).
"""

from __future__ import annotations

import csv
import os
import stat
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from coursekit.grading import release, variants
from coursekit.grading.assignment import NOTE_ROLE, TODO, new_assignment, public_questions
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "01_precision_recall"
KIT_KEYS = ROOT / "solutions" / "keys"
UNSAFE = (
    ["--unsafe-no-sandbox"]
    if sandbox_available() is not None and os.environ.get("COURSEKIT_REQUIRE_SANDBOX") != "1"
    else []
)
REFUSAL = (
    f"the public solutions in solutions/{CHAPTER}.ipynb answer every variant: start a private "
    f"assignment with `python -m coursekit.grade new-assignment {CHAPTER} --out PRIVATE/`, or "
    "pass --allow-public-questions for practice"
)


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "coursekit.grade", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )


def _files(tmp: Path) -> tuple[Path, Path]:
    """A secret made by `python -m coursekit.grade secret` and a roster of 2."""
    done = _run("secret", str(tmp / "secret"))
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE((tmp / "secret").stat().st_mode) == 0o600
    (tmp / "students.csv").write_text("id\nann\nben\n", encoding="utf-8")
    return tmp / "secret", tmp / "students.csv"


def _data_cell(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    return next(c for c in notebook.cells if c.source.startswith("n_docs = "))


def test_release_refuses_the_kits_public_questions_and_says_why(tmp_path):
    secret, roster = _files(tmp_path)
    out = tmp_path / "release"
    with pytest.raises(ValueError) as refused:
        release.release(CHAPTER, roster, secret, out, ROOT / "exercises", None, KIT_KEYS)
    assert str(refused.value) == f"{KIT_KEYS} is the kit's own keys folder: {REFUSAL}"
    assert not out.exists()
    # a copy under another name, re-commented and reformatted, is still the public key
    copy = tmp_path / "mine" / "keys"
    copy.mkdir(parents=True)
    text = (KIT_KEYS / f"{CHAPTER}.py").read_text(encoding="utf-8")
    (copy / f"{CHAPTER}.py").write_text("# my course\n" + text.replace("\n\n\n", "\n\n"))
    assert public_questions(CHAPTER, copy) == (
        f"{copy / CHAPTER}.py is a copy of the kit's public key {CHAPTER}.py"
    )
    done = _run(
        *["release", CHAPTER, "--roster", str(roster), "--secret-file", str(secret)],
        *["--out", str(out), "--keys", str(copy)],
    )
    assert done.returncode == 2 and REFUSAL in done.stdout and not out.exists()


def test_allow_public_questions_releases_with_a_warning(tmp_path, capsys):
    secret, roster = _files(tmp_path)
    written = release.release(
        CHAPTER,
        roster,
        secret,
        tmp_path / "out",
        ROOT / "exercises",
        None,
        KIT_KEYS,
        allow_public_questions=True,
    )
    assert len(written) == 2
    warning = capsys.readouterr().err
    assert warning.startswith("warning: ") and "for practice only" in warning


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_new_assignment_is_private_with_a_new_example(tmp_path, umask_022):
    out = tmp_path / "term" / "private"
    notebook_path, key_path, readme = new_assignment("01", out)
    assert notebook_path == out / f"{CHAPTER}.ipynb" and key_path == out / "keys" / f"{CHAPTER}.py"
    paths = [tmp_path / "term", *(tmp_path / "term").rglob("*")]
    assert {stat.S_IMODE(p.stat().st_mode) for p in paths if p.is_dir()} == {0o700}
    assert {stat.S_IMODE(p.stat().st_mode) for p in paths if p.is_file()} == {0o600}
    notebook = nbformat.read(notebook_path, as_version=4)
    assert notebook.cells[0].metadata["coursekit"]["role"] == NOTE_ROLE
    assert "the questions' wording" in notebook.cells[0].source
    assert "ADDED_RELEVANT, ADDED_OTHERS = 1, 9" in notebook.cells[0].source
    assert "FIXED_OPTIONS = {'q8': 'c'}" in notebook.cells[0].source
    private = variants.key_generator(out / "keys", CHAPTER)
    public = variants.key_generator(KIT_KEYS, CHAPTER)
    assert _data_cell(notebook).source == private.generate(None)[0]
    assert private.generate(None)[0] != public.generate(None)[0]
    assert not any(c.get("outputs") for c in notebook.cells if c.cell_type == "code")
    assert (
        TODO in key_path.read_text(encoding="utf-8")
        and public_questions(CHAPTER, key_path.parent) is None
    )
    assert "the questions are still the public chapter's" in readme.read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="already holds 01_precision_recall"):
        new_assignment(CHAPTER, out)
    with pytest.raises(ValueError, match="no chapter '99'"):
        new_assignment("99", tmp_path / "other")


def _review(out: Path) -> None:
    """A lecturer's edit: q4 adds 5 non-relevant documents (not 9), q2 reworded, the review
    marks deleted."""
    key = out / "keys" / f"{CHAPTER}.py"
    text = key.read_text(encoding="utf-8")
    assert "ADDED_RELEVANT, ADDED_OTHERS = 1, 9" in text
    text = text.replace(
        "ADDED_RELEVANT, ADDED_OTHERS = 1, 9", "ADDED_RELEVANT, ADDED_OTHERS = 1, 5"
    )
    key.write_text("".join(line for line in text.splitlines(True) if TODO not in line))
    path = out / f"{CHAPTER}.ipynb"
    notebook = nbformat.read(path, as_version=4)
    notebook.cells = [
        c for c in notebook.cells if c.metadata.get("coursekit", {}).get("role") != NOTE_ROLE
    ]
    edits = [
        ("**q2.** Precision", "**q2.** The precision"),
        ("returns 10 documents more", "returns 6 documents more"),
        ("and 9 documents that are not relevant", "and 5 documents that are not relevant"),
        ("(len(retrieved) + 10)", "(len(retrieved) + 6)"),
        ("cells[3] - 9)", "cells[3] - 5)"),
        ("others[:9]", "others[:5]"),
    ]
    for old, new in edits:
        cells = [c for c in notebook.cells if old in c.source]
        assert len(cells) == 1, old
        cells[0].source = cells[0].source.replace(old, new)
    nbformat.write(notebook, path)


def test_a_private_assignment_releases_and_grades(tmp_path):
    out = tmp_path / "private"
    done = _run("new-assignment", CHAPTER, "--out", str(out))
    assert done.returncode == 0, done.stderr
    _review(out)
    secret_file, roster = _files(tmp_path)
    keys = out / "keys"
    done = _run(
        *["release", CHAPTER, "--roster", str(roster), "--secret-file", str(secret_file)],
        *["--keys", str(keys), "--exercises", str(out), "--out", str(tmp_path / "release")],
    )
    assert done.returncode == 0 and done.stderr == "", done.stdout + done.stderr
    released = nbformat.read(tmp_path / "release" / "ann" / f"{CHAPTER}.ipynb", as_version=4)
    text = "\n".join(c.source for c in released.cells)
    assert "**q2.** The precision" in text and "BEGIN SOLUTION" not in text
    assert "others[:5]" in text and "Private assignment" not in text

    secret = variants.read_secret(secret_file)
    private = variants.key_generator(keys, CHAPTER)
    subs = tmp_path / "subs"
    answered = variants.personalise(
        nbformat.read(out / f"{CHAPTER}.ipynb", as_version=4), CHAPTER, "ann", private, secret
    )
    assert _data_cell(answered).source == _data_cell(released).source
    # ben pastes the public solution's cells under his own data cell
    pasted = nbformat.read(ROOT / "solutions" / f"{CHAPTER}.ipynb", as_version=4)
    _data_cell(pasted).source = private.generate(None)[0]
    pasted = variants.personalise(pasted, CHAPTER, "ben", private, secret)
    for student, notebook in (("ann", answered), ("ben", pasted)):
        (subs / student).mkdir(parents=True)
        nbformat.write(notebook, subs / student / f"{CHAPTER}.ipynb")
    done = _run(
        *[str(subs), "--out", str(tmp_path / "out"), "--jobs", "2", "--keys", str(keys)],
        *["--secret-file", str(secret_file), "--roster", str(roster), *UNSAFE],
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    ann, ben = rows[f"ann/{CHAPTER}"], rows[f"ben/{CHAPTER}"]
    assert ann["error"] == "" and float(ann["total"]) == float(ann["max"]) > 0
    assert ben["q4"] == "0" and float(ben["total"]) < float(ben["max"])
    # honest: the questions the lecturer did not change are still answered by the public code
    qids = [q.qid for q in private.QUESTIONS]
    assert [q for q in qids if ben[q] != ann[q]] == ["q4"]
