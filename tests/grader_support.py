"""The batch grader run as a lecturer runs it (``python -m coursekit.grade``), for the tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_grader(
    submissions: Path,
    out: Path,
    keys: Path,
    *extra: str,
    cell_timeout: int = 20,
    memory_mb: int = 2048,
    timeout: int = 600,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess:
    """Grade ``submissions`` into ``out`` with the answer keys of ``keys`` (2 jobs, 60 s a
    notebook), from the folder above ``submissions``; ``extra`` options are passed on."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "coursekit.grade",
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
