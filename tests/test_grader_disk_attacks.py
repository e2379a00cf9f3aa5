"""Notebooks that fill the grader's disk with files they deleted but hold open, against the
sandboxed grader (``python -m coursekit.grade``), and the grader's stop on a nearly full disk.

A file deleted while open keeps its blocks until its last descriptor closes, but has no name
left in the folder the grader measures: before such files were counted
(:func:`coursekit.grading.sandbox.disk.held`), a notebook held 1.2 GB under ``--disk 256``
and its classmates, graded beside and after it on a nearly full disk, got "No space left on
device". Each attack is graded with two honest classmates (chapter 01's solution: full
marks) in the same run, which must keep their marks, and grades.csv must list all three.

The tests need the sandbox (bubblewrap): skipped where it cannot run, unless
``COURSEKIT_REQUIRE_SANDBOX=1`` (CI), which makes them fail instead.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import tempfile
from pathlib import Path

import nbformat
import pytest
from test_grader_attacks import FULL, REQUIRED, ROOT, UNUSABLE, _grade, _notebook, _with

from coursekit.grading import grade_cli
from coursekit.grading.sandbox import disk as sandbox_disk

pytestmark = pytest.mark.skipif(
    UNUSABLE is not None and not REQUIRED,
    reason=f"the sandbox cannot run here ({UNUSABLE}); COURSEKIT_REQUIRE_SANDBOX=1 fails instead",
)
DISK_MB = 64
CLASSMATES = ["01-zz-honest-a", "01-zz-honest-b"]

# 40 files of 60 MB (under RLIMIT_FSIZE, 64 MB), each deleted as soon as it is made and kept
# open: 2.4 GB on the disk and nothing in the folder; if it is not stopped, the cells after it
# run and the solution gets full marks
UNLINKED_FILL = r"""
import os
block = b"x" * (1 << 20)
held = []
for i in range(40):
    f = open(f"hidden-{i}.bin", "wb")
    os.unlink(f"hidden-{i}.bin")
    for _ in range(60):
        f.write(block)
    f.flush()
    held.append(f)
print(f"held {60 * len(held)} MB in deleted files")
"""


def _rows(out: Path) -> dict[str, dict[str, str]]:
    with open(out / "grades.csv", encoding="utf-8") as f:
        return {row["submission"]: row for row in csv.DictReader(f)}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("disk-attacks")
    subs, out = base / "subs", base / "out"
    subs.mkdir()
    tmp = Path(tempfile.mkdtemp(prefix="ckt", dir="/tmp"))  # short: the kernels' socket paths
    try:
        nbformat.write(_with("solution", UNLINKED_FILL, first=True), subs / "01-attack.ipynb")
        for name in CLASSMATES:
            nbformat.write(_notebook("solution"), subs / f"{name}.ipynb")
        done = _grade(subs, out, ROOT / "solutions" / "keys", tmp, "--disk", str(DISK_MB))
        assert done.returncode == 0, done.stdout + done.stderr
        left = list(tmp.iterdir())
        yield _rows(out), left
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_deleted_files_held_open_count_against_the_disk_limit(graded):
    rows, _ = graded
    row = rows["01-attack"]
    assert float(row["total"]) == 0.0, row["error"]
    assert row["error"].startswith(f"the notebook wrote more than {DISK_MB} MB ("), row["error"]
    assert "in files deleted but held open" in row["error"]
    assert f"(its limits: {DISK_MB} MB," in row["error"]


def test_classmates_keep_full_marks_and_grades_csv_is_complete(graded):
    rows, left = graded
    assert set(rows) == {"01-attack", *CLASSMATES}
    for name in CLASSMATES:
        assert float(rows[name]["total"]) == FULL and rows[name]["error"] == "", rows[name]
    assert left == []  # the temporary folders (and the held files' blocks) are gone


# --------------------------------------------------------------------------------------------
# A nearly full disk: the grader stops before the next submission and says why


def test_a_nearly_full_disk_stops_the_grader_cleanly(tmp_path, monkeypatch, capsys):
    subs, out = tmp_path / "subs", tmp_path / "out"
    subs.mkdir()
    for name in ["01-a", "01-b", "01-c"]:
        nbformat.write(_notebook("solution"), subs / f"{name}.ipynb")
    real = os.statvfs
    asked = []

    def statvfs(path):  # the grader's temporary folder: room for the first submission only
        info = real(path)
        if not Path(path).name.startswith("coursekit-grade-"):
            return info  # (the disk watch's own look at a kernel's folder)
        asked.append(path)
        free = 10 << 30 if len(asked) == 1 else 100 << 20
        return argparse.Namespace(f_bavail=free // info.f_frsize, f_frsize=info.f_frsize)

    monkeypatch.setattr(sandbox_disk.os, "statvfs", statvfs)
    argv = [str(subs), "--out", str(out), "--keys", str(ROOT / "solutions" / "keys")]
    grade_cli.main([*argv, "--jobs", "1", "--disk", str(DISK_MB)])
    printed = capsys.readouterr().out
    rows = _rows(out)
    assert list(rows) == ["01-a", "01-b", "01-c"]
    assert float(rows["01-a"]["total"]) == FULL, rows["01-a"]["error"]
    needed = DISK_MB + sandbox_disk.MARGIN_MB
    for name in ["01-b", "01-c"]:
        error = rows[name]["error"]
        assert float(rows[name]["total"]) == 0.0
        assert error.startswith("not graded: the disk holding the grader's temporary folder ")
        assert f"has only 100 MB free; a submission needs {needed} MB" in error
        assert f"({error})" in printed
    assert len(asked) == 2  # once the disk is full, the rest is not graded without a look
