"""Grade N copies of a solution notebook with ``--jobs J`` and report seconds per submission.

    .venv/bin/python benchmarks/bench_grader.py                 # 40 copies, --jobs 2, 3 runs
    .venv/bin/python benchmarks/bench_grader.py --copies 10 --repeats 1
    .venv/bin/python benchmarks/bench_grader.py --unsafe-no-sandbox   # for comparison

Every copy must score full marks (the script stops otherwise). The figure is the median, over
the runs, of the wall-clock time of ``grade_folder`` divided by the number of copies; a kernel
start in the sandbox (bubblewrap, cgroup), the notebook's cells, the judging of the answers and
the function tests in the sandboxed judge are all included. Target: at most 1 s per submission
with the sandbox on a 2-core machine. Each run prints the load average before and after it:
on a shared machine the figure grows with the load (see benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from coursekit.grading import grade_cli
from coursekit.grading import grader as grade

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--copies", type=int, default=40)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--unsafe-no-sandbox", action="store_true", help="time without the sandbox")
    p.add_argument("--notebook", default=str(ROOT / "solutions" / "01_precision_recall.ipynb"))
    args = p.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
