"""The batch grader run as a lecturer runs it (``python -m coursekit.grade``), for the tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# runs ``python -m coursekit.grade`` in this process, then writes this process's own peak
# resident size (kB, not its children's) to the file named by its first argument: VmHWM of
# /proc/self/status, the high-water mark of this process's memory since its exec. Not
# ru_maxrss: Linux folds the memory the process had before its exec into it, and a grader
# started by (v)fork from a pytest of 400 MB read 437 MB though it never held more than 96.
MEASURED = """
import runpy, sys
peak = sys.argv.pop(1)
try:
    runpy.run_module("coursekit.grade", run_name="__main__", alter_sys=True)
    code = 0
except SystemExit as stop:
    code = stop.code
finally:
    with open(peak, "w") as f:
        with open("/proc/self/status", encoding="ascii") as status:
            hwm = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
        f.write(hwm)
raise SystemExit(code)
"""


def run_grader(
    submissions: Path,
    out: Path,
    keys: Path,
    *extra: str,
    cell_timeout: int = 20,
    memory_mb: int = 2048,
    timeout: int = 600,
    env: dict[str, str] | None = None,
    peak_file: Path | None = None,
) -> subprocess.CompletedProcess:
    """Grade ``submissions`` into ``out`` with the answer keys of ``keys`` (2 jobs, 60 s a
    notebook), from the folder above ``submissions``; ``extra`` options are passed on. With
    ``peak_file``, the grader's own peak resident size (kB) is written there."""
    start = ["-m", "coursekit.grade"] if peak_file is None else ["-c", MEASURED, str(peak_file)]
    return subprocess.run(
        [
            sys.executable,
            *start,
            str(submissions),
            "--out",
            str(out),
            "--jobs",
            "2",
            "--cell-timeout",
            str(cell_timeout),
            "--timeout",
            "60",
            "--memory",
            str(memory_mb),
            "--keys",
            str(keys),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=submissions.parent,
        env=env,
    )
