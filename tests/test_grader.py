"""The batch grader on a folder of honest, broken and hostile submissions, graded together.

One grading run (module fixture, ``--jobs 2``) over: every solution notebook (full marks),
every generated exercise notebook (0), and variants of the chapter-01 solution that loop,
raise, exit, crash their kernel, hog memory, monkeypatch coursekit or ``check``, print a fake
score, write files, print without end, are not JSON or name another kernel. The expected
points are derived here from which questions each variant answers before it fails.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from grader_support import run_grader

from coursekit.grading import grader as grade
from coursekit.grading.report import feedback_name
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
CHAPTER = "01_precision_recall"
KEY = grade.load_keys(ROOT / "solutions" / "keys")[CHAPTER]
POINTS = {q.qid: q.points for q in KEY}
FULL = sum(POINTS.values())
CELL_TIMEOUT = 15  # generous: the machine running the tests may be loaded
# the sandbox is on by default; where it cannot run (and CI does not require it), the same
# submissions are graded without it
UNSAFE = (
    ["--unsafe-no-sandbox"]
    if sandbox_available() is not None and os.environ.get("COURSEKIT_REQUIRE_SANDBOX") != "1"
    else []
)


def _feedback(base: Path, submission: str, suffix: str = ".json") -> Path:
    return base / "out" / "feedback" / (feedback_name(submission) + suffix)


def _solution() -> nbformat.NotebookNode:
    return nbformat.read(ROOT / "solutions" / f"{CHAPTER}.ipynb", as_version=4)


def _after(notebook: nbformat.NotebookNode, qid: str) -> int:
    """Index just after the cell that checks ``qid``."""
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code" and f'check("{qid}",' in cell.source:
            return index + 1
    raise AssertionError(f"no check of {qid}")


def _variant(source: str, after: str, replace: dict[str, str] | None = None):
    notebook = _solution()
    for cell in notebook.cells:
        for old, new in (replace or {}).items():
            cell.source = cell.source.replace(old, new)
    notebook.cells.insert(_after(notebook, after), nbformat.v4.new_code_cell(source))
    return notebook


def _points(*qids: str) -> float:
    return sum(POINTS[q] for q in qids)


QIDS = list(POINTS)
UP_TO_Q2 = _points("q1", "q2")
UP_TO_Q3 = _points("q1", "q2", "q3")

# name -> (notebook or raw text, expected total, words expected in the error column)
VARIANTS = {
    "loop": (_variant("while True:\n    pass", after="q3"), UP_TO_Q3, "ran longer"),
    "exception": (_variant("1 / 0", after="q3"), FULL, "ZeroDivisionError"),
    "sys_exit": (_variant("import sys\nsys.exit(3)", after="q2"), FULL, "SystemExit"),
    "os_exit": (_variant("import os\nos._exit(0)", after="q2"), UP_TO_Q2, "kernel died"),
    "crash": (_variant("import ctypes\nctypes.string_at(0)", after="q2"), UP_TO_Q2, "kernel died"),
    # grows until the kernel's memory limit (np.empty: quick, it does not touch the pages)
    "memory_hog": (
        _variant(
            "import numpy as np\nhog = []\nwhile True:\n    hog.append(np.empty(10**8))", after="q3"
        ),
        FULL,
        "MemoryError",
    ),
    # q2 answered with a patched ck.precision, q3 onwards judged by a fake check that
    # records nothing; and a fake entry written straight into the answer log
    "monkeypatch": (
        _variant(
            "import os\nimport coursekit as ck\nimport coursekit.exercises as ex\n"
            "ck.precision = lambda *args: 0.999\n"
            "ex.judge_value = lambda spec, answer: spec.qid + ': passed'\n"
            "def check(qid, answer):\n    print(qid + ': passed')\n"
            "with open(os.environ['COURSEKIT_ANSWER_LOG'], 'a') as log:\n"
            '    log.write(\'{"chapter": "01_precision_recall", "qid": "q1", '
            '"value": [1, 1, 1, 37], "points": 99}\\n\')',
            after="q1",
        ),
        0.0,
        "",
    ),
    "fake_score": (
        _variant(
            "print('Score: 11 / 11, all passed')\nprint('q1: passed')",
            after="q1",
            replace={
                "lazy_accuracy = (n_docs - len(relevant))": (
                    "lazy_accuracy = (n_docs - 1 - len(relevant))"
                )
            },
        ),
        FULL - POINTS["q7"],
        "",
    ),
    "writes_files": (
        _variant(
            "from pathlib import Path\n"
            "for name in ('grades.csv', 'submission.ipynb', 'answers.jsonl', '../result.json'):\n"
            "    try:\n"
            "        Path(name).write_text('tampered')\n"
            "    except OSError:  # ../ is the sandbox's read-only /home\n"
            "        pass",
            after="q3",
        ),
        FULL,
        "",
    ),
    "huge_output": (
        _variant(
            "for i in range(20000):\n    print('x' * 1000)\nprint('y' * 30_000_000)", after="q3"
        ),
        FULL,
        "",
    ),
    # the function of q10 reads a global dict: check() passes it, so must the grader
    "global_dict": (
        _variant(
            "pass",
            after="q1",
            replace={
                "    b2 = beta * beta\n": "    b2 = SQUARES.get(beta, beta * beta)\n",
                "def f_measure(": "SQUARES = {1.0: 1.0, 2.0: 4.0}\n\n\ndef f_measure(",
            },
        ),
        FULL,
        "",
    ),
    # ... a global numpy array cannot be carried to the judge: no points for q10, and the
    # feedback names the variable (check() in the notebook says the same)
    "global_array": (
        _variant(
            "pass",
            after="q1",
            replace={
                "    b2 = beta * beta\n": "    b2 = beta * beta * WEIGHT[0]\n",
                "def f_measure(": "import numpy as np\n\nWEIGHT = np.ones(1)\n\n\ndef f_measure(",
            },
        ),
        FULL - POINTS["q10"],
        "",
    ),
    "invalid_json": ('{"cells": [ this is not json', 0.0, "invalid JSON at line 1"),
    "not_a_notebook": (
        '{"cells": [{"cell_type": "code"}], "metadata": [], "nbformat": 4}',
        0.0,
        "could not run the notebook",
    ),
    "unknown_kernel": (None, 0.0, "unknown kernel 'ir'"),
}


def _write_submissions(folder: Path) -> None:
    for path in SOLUTIONS:
        shutil.copyfile(path, folder / f"solution-{path.name}")
        shutil.copyfile(ROOT / "exercises" / path.name, folder / f"exercise-{path.name}")
    for name, (content, _, _) in VARIANTS.items():
        target = folder / f"{CHAPTER[:2]}-{name}.ipynb"
        if name == "unknown_kernel":
            content = _solution()
            content.metadata["kernelspec"] = {"name": "ir", "language": "R", "display_name": "R"}
        if isinstance(content, str):
            target.write_text(content, encoding="utf-8")
        else:
            nbformat.write(content, target)


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _grade(submissions: Path, out: Path) -> subprocess.CompletedProcess:
    keys = ROOT / "solutions" / "keys"
    return run_grader(submissions, out, keys, *UNSAFE, cell_timeout=CELL_TIMEOUT)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("grading")
    submissions = base / "submissions"
    submissions.mkdir()
    _write_submissions(submissions)
    before = _digest(submissions)
    first = _grade(submissions, base / "out")
    assert first.returncode == 0, first.stderr
    snapshot = _digest(base / "out")
    second = _grade(submissions, base / "out")
    assert second.returncode == 0, second.stderr
    with open(base / "out" / "grades.csv", encoding="utf-8") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    return {
        "rows": rows,
        "base": base,
        "before": before,
        "after": _digest(submissions),
        "snapshot": snapshot,
        "again": _digest(base / "out"),
    }


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_every_solution_scores_full_marks(graded, path):
    row = graded["rows"][f"solution-{path.stem}"]
    assert row["error"] == ""
    assert float(row["total"]) == float(row["max"]) > 0


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_every_exercise_scores_zero(graded, path):
    row = graded["rows"][f"exercise-{path.stem}"]
    assert float(row["total"]) == 0 and float(row["max"]) > 0


@pytest.mark.parametrize("name", list(VARIANTS))
def test_hostile_and_broken_submissions(graded, name):
    _, expected, words = VARIANTS[name]
    row = graded["rows"][f"{CHAPTER[:2]}-{name}"]
    assert float(row["total"]) == expected, row["error"]
    assert words in row["error"], row["error"]
    if not words:
        assert row["error"] == ""


def test_a_global_array_is_named_in_the_feedback(graded):
    feedback = json.loads(
        _feedback(graded["base"], f"{CHAPTER[:2]}-global_array").read_text(encoding="utf-8")
    )
    assert "global variable 'WEIGHT' (a ndarray)" in feedback["questions"]["q10"]["message"]


def test_a_broken_file_still_shows_its_chapter_maximum(graded):
    row = graded["rows"][f"{CHAPTER[:2]}-invalid_json"]
    assert row["chapter"] == CHAPTER and float(row["max"]) == FULL


def test_points_before_the_failure_are_per_question(graded):
    row = graded["rows"][f"{CHAPTER[:2]}-loop"]
    # several chapters in one folder: the columns are named chapter:question
    assert [row[f"{CHAPTER}:{q}"] for q in QIDS] == [
        f"{POINTS[q]:g}" if q in ("q1", "q2", "q3") else "0" for q in QIDS
    ]


def test_submissions_are_never_modified(graded):
    assert graded["after"] == graded["before"]


def test_running_again_gives_the_same_files(graded):
    assert graded["again"] == graded["snapshot"]
    assert not list((graded["base"] / "out").glob("grades.previous-*.csv"))


def test_feedback_names_the_problem_but_not_the_value(graded):
    feedback = json.loads(
        _feedback(graded["base"], f"{CHAPTER[:2]}-fake_score").read_text(encoding="utf-8")
    )
    message = feedback["questions"]["q7"]["message"]
    assert message.startswith("q7: not right yet")
    # the expected accuracy of the empty answer: (40 - 8) / 40, derived by hand
    assert "0.8" not in message
    html = _feedback(graded["base"], f"{CHAPTER[:2]}-fake_score", ".html").read_text()
    assert "q7: not right yet" in html


def test_a_changed_result_keeps_the_previous_grades(tmp_path):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "01-a.ipynb").write_text("not json", encoding="utf-8")
    assert _grade(submissions, tmp_path / "out").returncode == 0
    first = (tmp_path / "out" / "grades.csv").read_text()
    (submissions / "01-b.ipynb").write_text("[]", encoding="utf-8")
    assert _grade(submissions, tmp_path / "out").returncode == 0
    assert (tmp_path / "out" / "grades.previous-1.csv").read_text() == first
    assert "01-b" in (tmp_path / "out" / "grades.csv").read_text()


def test_bad_command_lines_say_what_is_wrong(tmp_path):
    missing = _grade(tmp_path / "nowhere", tmp_path / "out")
    assert missing.returncode == 2 and "is not a folder" in missing.stderr
    (tmp_path / "subs").mkdir()
    inside = subprocess.run(
        [
            sys.executable,
            "-m",
            "coursekit.grade",
            str(tmp_path / "subs"),
            "--out",
            str(tmp_path / "subs" / "out"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert inside.returncode == 2 and "must not be inside" in inside.stderr
    keys = subprocess.run(
        [
            sys.executable,
            "-m",
            "coursekit.grade",
            str(tmp_path / "subs"),
            "--out",
            str(tmp_path / "out"),
            "--keys",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert keys.returncode == 2 and "no answer key" in keys.stderr


def test_the_whole_notebook_limit_stops_a_slow_notebook(tmp_path):
    import asyncio

    from coursekit.grading.notebooks import run_limited

    # three cells of 2 s each: every cell is under the 4 s cell limit, the whole is over 3 s
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("import time\ntime.sleep(2)") for _ in range(3)]
    )
    path = tmp_path / "slow.ipynb"
    nbformat.write(notebook, path)
    error, cell_errors = asyncio.run(
        run_limited(path, {}, cell_seconds=4, total_seconds=3, memory_mb=2048)
    )
    assert "ran longer than its limit of 3 s (stopped in cell" in error
    assert cell_errors == []


def test_without_the_sandbox_it_warns_and_still_grades(tmp_path):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    shutil.copyfile(ROOT / "solutions" / f"{CHAPTER}.ipynb", submissions / "01-a.ipynb")
    done = subprocess.run(
        [sys.executable, "-m", "coursekit.grade", str(submissions), "--out", str(tmp_path / "out")]
        + ["--keys", str(ROOT / "solutions" / "keys"), "--unsafe-no-sandbox"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("WARNING: --unsafe-no-sandbox")
    assert done.stdout.rstrip().endswith("Use it only for trusted notebooks.")
    assert f"{FULL:5g} / {FULL:<4g} 01-a" in done.stdout


def test_a_key_that_fails_stops_the_run_before_anything_is_graded(tmp_path):
    """Every answer key is loaded and checked first (issue 34): a broken one stops the run
    with its file and line, exit 2, and nothing in OUT (before, its chapter's rows said
    "grader error" and grades.csv was overwritten)."""
    keys, submissions = tmp_path / "keys", tmp_path / "submissions"
    shutil.copytree(ROOT / "solutions" / "keys", keys)
    broken = keys / "02_curves_interpolation.py"  # compiles, fails when run
    text = broken.read_text(encoding="utf-8")
    broken.write_text(text + "\nraise RuntimeError('broken')\n")
    line = text.count("\n") + 2  # the appended raise, counted by hand
    submissions.mkdir()
    shutil.copyfile(ROOT / "solutions" / f"{CHAPTER}.ipynb", submissions / "01-a.ipynb")
    done = subprocess.run(
        [sys.executable, "-m", "coursekit.grade", str(submissions), "--out", str(tmp_path / "out")]
        + ["--keys", str(keys), "--cell-timeout", str(CELL_TIMEOUT), *UNSAFE],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"02_curves_interpolation.py:{line}" in done.stderr and "broken" in done.stderr
    assert not (tmp_path / "out").exists()
