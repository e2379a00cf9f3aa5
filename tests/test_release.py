"""Graded coursework on per-student variants: release, self-check of a variant, grading.

``python -m coursekit.grade release`` writes one notebook per student of a roster, whose data
are drawn from HMAC-SHA256(secret, chapter, student id); the grader, given the same secret and
roster, grades each submission on its owner's data (its owner: its top folder). One grading
run (module fixture) over: two students' own variant solutions (full marks), a student handing
in a classmate's variant (an id mismatch; the data questions score 0), a student handing in the
public solution (the data questions score 0), a student whose data cell was edited (an error,
not a quiet grade) and a student with two files (both graded, both flagged). The secret is
the lecturer's: a file of mode 0600; RELEASE/ and OUT/ are written readable by the owner only.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from coursekit.grading import grader as grade
from coursekit.grading import judge_value, variants
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "01_precision_recall"
KEY = grade.load_keys(ROOT / "solutions" / "keys")[CHAPTER]
POINTS = {q.qid: q.points for q in KEY}
GENERATOR = variants.key_generator(ROOT / "solutions" / "keys", CHAPTER)
#: the questions whose answer depends on the student's data (every value question: D, n and N
#: are drawn too); the choices' letters depend on the student's order of their options
DATA_QIDS = ["q1", "q2", "q3", "q4", "q5", "q6", "q7"]
SECRET = b"a lecturer's secret of more than sixteen bytes"
ROSTER = ["alice", "bob", "carol", "dave", "erin", "frank"]
UNSAFE = (
    ["--unsafe-no-sandbox"]
    if sandbox_available() is not None and os.environ.get("COURSEKIT_REQUIRE_SANDBOX") != "1"
    else []
)


def _files(tmp: Path) -> tuple[Path, Path]:
    """The lecturer's secret (mode 0600, as `python -m coursekit.grade secret` makes it) and
    roster."""
    (tmp / "secret").write_bytes(SECRET + b"\n")
    os.chmod(tmp / "secret", 0o600)
    (tmp / "students.csv").write_text("id,name\n" + "".join(f"{s},{s.title()}\n" for s in ROSTER))
    return tmp / "secret", tmp / "students.csv"


def _release(tmp: Path, out: Path, make_files: bool = True) -> subprocess.CompletedProcess:
    secret, roster = _files(tmp) if make_files else (tmp / "secret", tmp / "students.csv")
    return subprocess.run(
        [sys.executable, "-m", "coursekit.grade", "release", CHAPTER]
        + ["--roster", str(roster), "--secret-file", str(secret), "--out", str(out)]
        + ["--allow-public-questions"],  # the kit's public chapter: practice only
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
        assert "from coursekit.grading.variantcheck import start" in setup
        assert f'"{CHAPTER}",\n    formats={{' in setup and '"q1": {"kind": "ints"' in setup
        assert not re.search(r"[0-9a-f]{24}", setup)  # the format only: no hash of an answer
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
    _, questions = variants.variant(GENERATOR, SECRET, CHAPTER, "alice")
    check = variants.variant_check(CHAPTER, questions)
    expected = {q.qid: q.expected for q in questions if hasattr(q, "expected")}
    wrong = "a" if expected["q9"] != "a" else "b"
    check("q2", expected["q2"])
    check("q2", 0.123456)
    check("q2", 1.5)
    check("q1", [1, 2, 3])
    check("q9", expected["q9"])
    check("q9", wrong)
    check("q9", "e")
    check("q8", "d")  # q8 has three options
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == lines[1] and "recorded" in lines[0] and "passed" not in lines[0]
    assert "out of range" in lines[2]
    assert "expected a list of 4 elements" in lines[3]
    recorded = "q9: recorded (one of the letters a, b, c, d; it is judged when graded)"
    assert lines[4] == lines[5] == recorded
    assert lines[6] == "q9: 'e' is not one of the letters a, b, c, d"
    assert lines[7] == "q8: 'd' is not one of the letters a, b, c"
    assert not any("passed" in line or "not right" in line for line in lines)


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
    # a variant: same questions, other data (D documents, n relevant, N retrieved)
    source, questions = GENERATOR.generate(np.random.default_rng(7))
    assert source != public_source and [q.qid for q in questions] == [q.qid for q in KEY]
    namespace: dict = {}
    exec(source, namespace)
    d, n, size = namespace["n_docs"], len(namespace["relevant"]), len(namespace["retrieved"])
    tp = len(set(namespace["relevant"]) & set(namespace["retrieved"]))
    expected = {q.qid: q.expected for q in questions if hasattr(q, "expected")}
    assert expected["q1"] == [tp, size - tp, n - tp, d - size - (n - tp)]
    assert expected["q2"] == pytest.approx(tp / size) and expected["q3"] == pytest.approx(tp / n)
    assert expected["q7"] == pytest.approx((d - n) / d)


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
    (tmp_path / "short").write_bytes(b"0123456789abcdef0123456789abcde\n")  # 31 bytes
    os.chmod(tmp_path / "short", 0o600)
    with pytest.raises(ValueError, match="a weak secret .*python -m coursekit.grade secret FILE"):
        variants.read_secret(tmp_path / "short")
    (tmp_path / "same").write_bytes(b"ab" * 40)  # long, but two distinct bytes
    os.chmod(tmp_path / "same", 0o600)
    with pytest.raises(ValueError, match="a weak secret"):
        variants.read_secret(tmp_path / "same")
    (tmp_path / "roster.csv").write_text("id\nalice\n../etc\n")
    with pytest.raises(ValueError, match="not a student id"):
        variants.read_roster(tmp_path / "roster.csv")


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620])
def test_a_secret_others_can_access_is_refused(tmp_path, mode):
    secret, _ = _files(tmp_path)
    os.chmod(secret, mode)
    with pytest.raises(ValueError, match=f"mode {mode:04o}.*chmod 600 {secret}"):
        variants.read_secret(secret)
    done = _release(tmp_path, tmp_path / "release", make_files=False)
    assert done.returncode == 2 and "chmod 600" in done.stdout
    assert not (tmp_path / "release").exists()


@pytest.fixture
def umask_022():
    """The usual umask, under which files are made readable by everyone unless asked not to."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def _modes(folder: Path) -> tuple[set[int], set[int]]:
    """The modes of the folders (``folder`` included) and of the files under ``folder``."""
    paths = [folder, *folder.rglob("*")]
    return (
        {stat.S_IMODE(p.stat().st_mode) for p in paths if p.is_dir()},
        {stat.S_IMODE(p.stat().st_mode) for p in paths if p.is_file()},
    )


def test_a_release_is_readable_by_the_lecturer_only(tmp_path, umask_022):
    out = tmp_path / "term" / "release"  # two folders to make
    assert _release(tmp_path, out).returncode == 0
    assert _modes(tmp_path / "term") == ({0o700}, {0o600})
    assert len(list(out.rglob("*.ipynb"))) == len(ROSTER)


def _edited(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``notebook`` with a number of its data cell changed (one document more)."""
    cell = next(c for c in notebook.cells if c.source.startswith("n_docs = "))
    cell.source = cell.source.replace("n_docs = ", "n_docs = 1 + ", 1)
    return notebook


#: the submissions of the graded run, by their path under SUBMISSIONS (without .ipynb)
SUBMITTED = {
    f"alice/{CHAPTER}": lambda: _variant_solution("alice"),
    f"dave/{CHAPTER}": lambda: _variant_solution("dave"),
    f"bob/{CHAPTER}": lambda: _variant_solution("alice"),  # a classmate's variant, solved
    f"carol/{CHAPTER}": lambda: nbformat.read(
        ROOT / "solutions" / f"{CHAPTER}.ipynb", as_version=4
    ),
    f"erin/{CHAPTER}": lambda: _edited(_variant_solution("erin")),
    f"frank/{CHAPTER}": lambda: _variant_solution("frank"),  # handed in twice
    f"frank/old/{CHAPTER}": lambda: _variant_solution("frank"),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("variants")
    secret, roster = _files(base)
    subs = base / "subs"
    for name, make in SUBMITTED.items():
        (subs / name).parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(make(), subs / f"{name}.ipynb")
    os.utime(subs / f"frank/old/{CHAPTER}.ipynb", (1e9, 1e9))  # the older of frank's two
    done = subprocess.run(
        [sys.executable, "-m", "coursekit.grade", str(subs), "--out", str(base / "out")]
        + ["--jobs", "2", "--keys", str(ROOT / "solutions" / "keys")]
        + ["--secret-file", str(secret), "--roster", str(roster), *UNSAFE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        preexec_fn=lambda: os.umask(0o022),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with open(base / "out" / "grades.csv", encoding="utf-8") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    assert sorted(rows) == sorted(SUBMITTED)
    return base, rows


def _notes(base: Path, name: str) -> list[str]:
    from coursekit.grading.report import feedback_name

    path = base / "out" / "feedback" / f"{feedback_name(name)}.json"
    return json.loads(path.read_text(encoding="utf-8"))["notes"]


@pytest.mark.parametrize("student", ["alice", "dave"])
def test_each_variant_solution_scores_full_marks(graded, student):
    row = graded[1][f"{student}/{CHAPTER}"]
    assert row["error"] == "" and float(row["total"]) == float(row["max"]) > 0


@pytest.mark.parametrize("student", ["bob", "carol"])
def test_answers_of_another_variant_or_the_public_data_score_zero(graded, student):
    row = graded[1][f"{student}/{CHAPTER}"]
    handed = {"bob": variants.variant(GENERATOR, SECRET, CHAPTER, "alice")[1], "carol": KEY}
    given = {q.qid: q.expected for q in handed[student] if hasattr(q, "expected")}
    own = variants.variant(GENERATOR, SECRET, CHAPTER, student)[1]
    # the questions where the answer handed in is not the student's own (a chance equality,
    # F1 = 2 TP / (n + N) of two data sets, say, is right and scores)
    differ = [
        q.qid
        for q in own
        if q.qid in DATA_QIDS and judge_value(q.public(CHAPTER), given[q.qid]) != f"{q.qid}: passed"
    ]
    assert len(differ) >= 5 and [row[q] for q in differ] == ["0"] * len(differ)
    others = [q for q in POINTS if q not in differ]
    assert float(row["total"]) == sum(float(row[q]) for q in others) > 0


def test_an_id_mismatch_is_reported(graded):
    base, rows = graded
    error = rows[f"bob/{CHAPTER}"]["error"]
    assert "the notebook is the variant of 'alice' but was handed in as 'bob'" in error
    assert (
        "the data cell is not the one released to 'bob': it is the one released to 'alice' "
        "(a classmate's data)" in error
    )
    assert any("id mismatch" in n for n in _notes(base, f"bob/{CHAPTER}"))


def test_a_data_cell_not_the_owners_is_an_error_not_a_quiet_grade(graded):
    rows = graded[1]
    assert (
        "the data cell is not the one released to 'carol': it is the public exercise's"
        in (rows[f"carol/{CHAPTER}"]["error"])
    )
    assert (
        "the data cell is not the one released to 'erin': wrong --secret-file, or edited data"
        in rows[f"erin/{CHAPTER}"]["error"]
    )


def test_two_files_of_one_student_are_both_graded_and_flagged(graded):
    base, rows = graded
    names = [f"frank/{CHAPTER}", f"frank/old/{CHAPTER}"]
    message = (
        f"2 submissions for frank, ch 01: {names[0]}, {names[1]}; all graded, keep one: the "
        f"last modified is {names[0]}"
    )
    for name in names:
        assert rows[name]["error"] == message
        assert float(rows[name]["total"]) == float(rows[name]["max"]) > 0
        assert message in _notes(base, name)


def test_the_grades_are_readable_by_the_lecturer_only(graded):
    base, _ = graded
    assert _modes(base / "out") == ({0o700}, {0o600})
