"""Grade N copies of a solution notebook with ``--jobs J`` and report seconds per submission.

    .venv/bin/python benchmarks/bench_grader.py                 # 40 copies, --jobs 2, 3 runs
    .venv/bin/python benchmarks/bench_grader.py --copies 10 --repeats 1
    .venv/bin/python benchmarks/bench_grader.py --unsafe-no-sandbox   # for comparison
    .venv/bin/python benchmarks/bench_grader.py --mix           # a hostile class (issue 32)

Every copy must score full marks (the script stops otherwise). The figure is the median, over
the runs, of the wall-clock time of ``grade_folder`` divided by the number of copies; a kernel
start in the sandbox (bubblewrap, cgroup), the notebook's cells, the judging of the answers and
the function tests in the sandboxed judge are all included. Target: at most 1 s per submission
with the sandbox on a 2-core machine. Each run prints the load average before and after it:
on a shared machine the figure grows with the load (see benchmarks/README.md).

``--mix`` grades a realistic, hostile class instead (issue 32), as a lecturer does:
``python -m coursekit.grade`` in its own process (the grader's defaults but ``--jobs`` and
``--disk``), wrapped as tests/grader_support.py's MEASURED so that it reports its own peak
resident memory (VmHWM). The class: the solution of every chapter, ``--per-chapter`` copies
each (full marks: checked); typical mistakes (wrong values, a wrong function, a blank
exercise); a function looping forever and a cell looping forever; and one notebook per attack
of issue 32, their cells imported from the attack tests (tests/ put on sys.path). The grader
reports no time per submission: the figure is the run's wall time (the grader's start
included) over all its submissions, stated as such.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from coursekit.grading import grade_cli
from coursekit.grading import grader as grade
from coursekit.grading.report import feedback_name

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--copies", type=int, default=40)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--unsafe-no-sandbox", action="store_true", help="time without the sandbox")
    p.add_argument("--notebook", default=str(ROOT / "solutions" / "01_precision_recall.ipynb"))
    p.add_argument("--mix", action="store_true", help="a hostile class (issue 32) instead")
    p.add_argument("--per-chapter", type=int, default=2, help="--mix: copies of each solution")
    p.add_argument("--disk", type=int, default=64, help="--mix: the grader's --disk (MB)")
    p.add_argument("--honest-only", action="store_true", help="--mix: the honest submissions alone")
    p.add_argument(
        "--no-zygote", action="store_true", help="--mix: each worker a new Python (for comparison)"
    )
    args = p.parse_args(argv)
    return mix(args) if args.mix else copies(args)


def copies(args: argparse.Namespace) -> int:
    """Today's default: ``--copies`` copies of one notebook, graded in this process."""
    per_submission = []
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "submissions"
            folder.mkdir()
            for i in range(args.copies):
                shutil.copyfile(args.notebook, folder / f"student-{i:03d}.ipynb")
            options = grade_cli.parser().parse_args(
                [
                    str(folder),
                    "--out",
                    str(Path(tmp) / "out"),
                    "--jobs",
                    str(args.jobs),
                    "--keys",
                    str(ROOT / "solutions" / "keys"),
                    *(["--unsafe-no-sandbox"] if args.unsafe_no_sandbox else []),
                ]
            )
            load_before = os.getloadavg()[0]
            start = time.perf_counter()
            grades = grade.grade_folder(folder, Path(tmp) / "out", options)
            elapsed = time.perf_counter() - start
            load = f"load average {load_before:.1f} -> {os.getloadavg()[0]:.1f}"
        if any(g.total != g.max or g.error for g in grades):
            print(
                "not every copy scored full marks:",
                [(g.submission, g.error) for g in grades if g.total != g.max or g.error],
            )
            return 1
        per_submission.append(elapsed / args.copies)
        print(
            f"{args.copies} submissions in {elapsed:.1f} s: {elapsed / args.copies:.2f} s each "
            f"({load})"
        )
    median = statistics.median(per_submission)
    mode = "WITHOUT the sandbox" if args.unsafe_no_sandbox else "in the sandbox"
    print(
        f"median: {median:.2f} s per submission with --jobs {args.jobs}, {mode} "
        f"({Path(args.notebook).name}); target <= 1 s in the sandbox"
    )
    return 0


# --------------------------------------------------------------------------------------------
# --mix: a hostile class (issue 32)

CH01 = "01_precision_recall"
# typical mistakes in chapter 01's solution (source -> mistaken source)
MEAN_F1 = {"f1 = 2 * p * r / (p + r)": "f1 = (p + r) / 2"}  # q5: a wrong value
WRONG_ACCURACY = {  # q7: a wrong value (the relevant share, not the lazy accuracy)
    "lazy_accuracy = (n_docs - len(relevant)) / n_docs": "lazy_accuracy = len(relevant) / n_docs"
}
MEAN_F_MEASURE = {  # q10: a wrong function (the arithmetic mean)
    "return (1 + b2) * precision * recall / (b2 * precision + recall)": (
        "return (precision + recall) / 2"
    )
}
LOOPING_FUNCTION = {  # q10: a function that never returns
    '    """F_beta of a precision and a recall."""\n    if precision == 0': (
        '    """F_beta of a precision and a recall."""\n    while True:\n        pass\n'
        "    if precision == 0"
    )
}
LOOPING_CELL = "while True:\n    pass"


def _attacks():
    """The attack tests' modules, imported from tests/ (they import pytest, installed with the
    dev extra, but importing them runs no fixture and no test)."""
    tests = str(ROOT / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    import grader_support
    import test_grader_attacks
    import test_grader_disk_attacks
    import test_grader_kernel_attacks
    import test_judge_hostile

    return (
        grader_support,
        test_grader_attacks,
        test_grader_disk_attacks,
        test_grader_kernel_attacks,
        test_judge_hostile,
    )


def _class(
    folder: Path, per_chapter: int, trap: Path, honest_only: bool = False
) -> dict[str, tuple[str, object]]:
    """Write the class into ``folder`` (its honest part only with ``honest_only``); return
    submission -> (kind, what its row must show): kind "honest" (full marks), "mistake",
    "loop" or "attack"."""
    _, attacks, disk, kernel, judge = _attacks()
    expected: dict[str, tuple[str, object]] = {}
    for path in sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb")):
        for i in range(per_chapter):
            name = f"{path.stem[:2]}-honest-{i}"
            shutil.copyfile(path, folder / f"{name}.ipynb")
            expected[name] = ("honest", None)
    if honest_only:
        return expected

    def write(name: str, notebook, kind: str, check: object = None) -> None:
        nbformat.write(notebook, folder / f"{name}.ipynb")
        expected[name] = (kind, check)

    write("01-mistake-mean-f1", attacks._with("solution", replace=MEAN_F1), "mistake", "q5")
    write("01-mistake-accuracy", attacks._with("solution", replace=WRONG_ACCURACY), "mistake", "q7")
    write(
        "01-mistake-function", attacks._with("solution", replace=MEAN_F_MEASURE), "mistake", "q10"
    )
    shutil.copyfile(ROOT / "exercises" / f"{CH01}.ipynb", folder / "01-blank.ipynb")
    expected["01-blank"] = ("mistake", None)
    write("01-loop-function", attacks._with("solution", replace=LOOPING_FUNCTION), "loop", "q10")
    write("01-loop-cell", attacks._with("solution", LOOPING_CELL), "loop")
    for name, (cell, words) in kernel.ATTACKS.items():
        if name == "01-4-many-frames":
            continue  # not one of issue 32's classes (and needs --memory 1024 to be stopped)
        code = cell.replace("__TRAP__", repr(str(trap)))
        write(f"01-attack-{name[5:]}", attacks._with("solution", code, first=True), "attack", words)
    write(
        "01-attack-held-open",
        attacks._with("solution", disk.UNLINKED_FILL, first=True),
        "attack",
        "in files deleted but held open",
    )
    write(
        "01-attack-echo-hidden",
        judge._notebook(judge.CH01, judge._source("return-hidden")),
        "attack",
        "q10",
    )
    write(
        "07-attack-scipy",
        judge._notebook(judge.CH07, judge.SCIPY_TAU),
        "attack",
        "q10: write it without scipy",
    )
    return expected


def _problems(expected, rows: dict, out: Path) -> list[str]:
    """What the grades do not show as they must (an empty list when all is right)."""
    _, _, _, _, judge = _attacks()
    found = []
    if set(rows) != set(expected):
        found.append(f"grades.csv lists {sorted(rows)}, not {sorted(expected)}")
    for name, (kind, check) in expected.items():
        row = rows.get(name)
        if row is None:
            continue
        total, full, error = float(row["total"]), float(row["max"]), row["error"]
        feedback = json.loads(
            (out / "feedback" / f"{feedback_name(name)}.json").read_text(encoding="utf-8")
        )
        if "grader error" in error:
            found.append(f"{name}: {error}")
        elif kind == "honest" and (total != full or error):
            found.append(f"{name}: {total:g} / {full:g} {error}")
        elif kind == "loop" and check is None and not error:
            found.append(f"{name}: no error said")  # (the cell after every answer: full marks)
        elif kind in ("mistake", "attack") and total >= full:
            found.append(f"{name}: full marks")
        elif isinstance(check, str) and check.startswith("q") and " " not in check:
            if feedback["questions"][check]["points"] != 0:
                found.append(f"{name}: points on {check}")
        elif isinstance(check, str) and check.startswith("q10:"):
            if not feedback["questions"]["q10"]["message"].startswith(check):
                found.append(f"{name}: {feedback['questions']['q10']['message']}")
        elif isinstance(check, str) and check not in error:
            found.append(f"{name}: {error!r} does not say {check!r}")
        if name == "01-attack-echo-hidden":
            text = json.dumps(feedback)
            leaked = [t for t in judge._hidden_texts(judge.F01) if t in text]
            found.extend(f"{name}: a hidden input in the feedback: {t}" for t in leaked)
    return found


# the grader as it was before its fork server (coursekit.grading.zygote): a worker per
# submission started as a new Python, importing everything and loading its key itself
NO_ZYGOTE = (
    "import coursekit.grading.zygote as _z\n"
    "async def _none(*args):\n    return None\n"
    "_z.Zygote.start = staticmethod(_none)\n"
)


def _cpu_of_children() -> float:
    """CPU seconds (user and system) of every process this one has waited for, and theirs:
    the grader, its zygote, its workers and judges, but not the sandboxed kernels (killed
    with their sandbox at their end, their time reaches no waiting parent). Unlike the wall
    time, it does not grow with what else the machine runs: it shows what the worker's side
    costs, not a whole submission."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def mix(args: argparse.Namespace) -> int:
    """Grade the hostile class ``--repeats`` times; report the median figures."""
    support, _, _, kernel, _ = _attacks()
    per_submission, walls, peaks, cpus = [], [], [], []
    for _ in range(args.repeats):
        base = Path(tempfile.mkdtemp(prefix="ckb", dir="/tmp"))  # short: the kernels' sockets
        trap = kernel.Trap(base / "trap.sock")  # where the symlink attack points its sockets
        try:
            subs, out, tmp, peak = base / "subs", base / "out", base / "tmp", base / "peak"
            subs.mkdir()
            tmp.mkdir()
            expected = _class(subs, args.per_chapter, trap.path, args.honest_only)
            wrapper = (NO_ZYGOTE if args.no_zygote else "") + support.MEASURED
            argv = [sys.executable, "-c", wrapper, str(peak), str(subs)]
            argv += ["--out", str(out), "--jobs", str(args.jobs), "--disk", str(args.disk)]
            argv += ["--keys", str(ROOT / "solutions" / "keys")]
            load_before = os.getloadavg()[0]
            used_before = _cpu_of_children()
            start = time.perf_counter()
            done = subprocess.run(
                argv,
                capture_output=True,
                text=True,
                cwd=base,
                env={**os.environ, "TMPDIR": str(tmp)},
                timeout=3600,
            )
            elapsed = time.perf_counter() - start
            cpu = _cpu_of_children() - used_before
            load = f"load average {load_before:.1f} -> {os.getloadavg()[0]:.1f}"
            if done.returncode != 0:
                print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
                return 1
            with open(out / "grades.csv", encoding="utf-8") as f:
                rows = {row["submission"]: row for row in csv.DictReader(f)}
            problems = _problems(expected, rows, out)
            if trap.connections:
                problems.append(f"{trap.connections} connections to the trap socket")
            left = list(tmp.iterdir())
            if left:
                problems.append(f"left in the temporary folder: {left}")
            peak_mb = int(peak.read_text()) / 1024
        finally:
            trap.close()
            shutil.rmtree(base, ignore_errors=True)
        if problems:
            print("the grades are not as they must be:", *problems, sep="\n  ")
            return 1
        n = len(expected)
        honest = sum(kind == "honest" for kind, _ in expected.values())
        per_submission.append(elapsed / n)
        cpus.append(cpu / n)
        walls.append(elapsed)
        peaks.append(peak_mb)
        print(
            f"{n} submissions ({honest} honest, all with full marks) in {elapsed:.1f} s: "
            f"{elapsed / n:.2f} s each, {cpu / n:.2f} s of CPU each; grader's peak RSS "
            f"{peak_mb:.0f} MB ({load})"
        )
    print(
        f"median of {args.repeats}: {statistics.median(per_submission):.2f} s per submission "
        f"(the run's wall time over all its submissions: the grader reports no time per "
        f"submission; CPU {statistics.median(cpus):.2f} s per submission), "
        f"{statistics.median(walls):.1f} s in all, grader's peak RSS "
        f"{statistics.median(peaks):.0f} MB; --jobs {args.jobs}, --disk {args.disk}, "
        f"{'the honest submissions only, ' if args.honest_only else ''}"
        f"in the sandbox; target <= 1 s per honest submission"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
