"""The batch grader's command line: ``python -m coursekit.grade SUBMISSIONS --out OUT``.

The options, and the start of a run: the parser's result becomes one checked
:class:`~coursekit.grading.config.GraderConfig` (a bad option is said and exits 2), which the
grading itself, :func:`coursekit.grading.grader.grade_folder`, reads (its module says what a run
does and writes).
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from . import container, sandbox
from .config import MIN_MEMORY_MB, GraderConfig
from .grader import UNSAFE_WARNING, Interrupted, grade_folder
from .intake import MAX_NOTEBOOK_MB
from .kernel_channels import MAX_MESSAGE_MB
from .sandbox import disk as sandbox_disk

DISK_FULL = f"not graded: {sandbox_disk.FULL_DISK}"  # the rows of a run stopped by a full disk


def _default_keys() -> str:
    return str(Path.cwd() / "solutions" / "keys")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m coursekit.grade",
        description="Grade a folder of exercise notebooks, each in a sandbox.",
    )
    p.add_argument("submissions", help="folder of submitted .ipynb files (searched recursively)")
    p.add_argument(
        "--out",
        required=True,
        help="folder for grades.csv, feedback/, stats.csv and stats.html (and gradebook.csv "
        "with --roster)",
    )
    p.add_argument("--jobs", type=int, default=1, help="submissions run at once (default 1)")
    p.add_argument(
        "--timeout", type=int, default=120, help="seconds for a whole notebook (default 120)"
    )
    p.add_argument("--cell-timeout", type=int, default=30, help="seconds for one cell (default 30)")
    p.add_argument(
        "--memory",
        type=int,
        default=2048,
        help="memory limit of a notebook's kernel and every process it starts, in MB "
        f"(default 2048, at least {MIN_MEMORY_MB})",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=64,
        help="processes and threads a notebook may run at once (default 64)",
    )
    p.add_argument(
        "--disk",
        type=int,
        default=sandbox.Limits.disk_mb,
        help="MB a notebook (or a judged function) may write in its folder "
        f"(default {sandbox.Limits.disk_mb})",
    )
    p.add_argument(
        "--max-notebook-mb",
        type=int,
        default=MAX_NOTEBOOK_MB,
        help=f"larger submissions are refused (default {MAX_NOTEBOOK_MB})",
    )
    p.add_argument(
        "--submission-timeout",
        type=int,
        default=0,
        help="seconds for reading, running and judging one submission (default: --timeout + 120)",
    )
    p.add_argument(
        "--max-message-mb",
        type=int,
        default=MAX_MESSAGE_MB,
        help="largest message frame taken from a notebook's kernel; a larger one stops the "
        f"notebook (default {MAX_MESSAGE_MB})",
    )
    p.add_argument("--judge-memory", type=int, default=1024, help=argparse.SUPPRESS)
    p.add_argument(
        "--keys",
        default=_default_keys(),
        help="folder of answer keys NN_topic.py (default: solutions/keys)",
    )
    p.add_argument(
        "--secret-file", help="graded variants: the secret given to `release` (with --roster)"
    )
    p.add_argument(
        "--roster",
        help="the CSV of students (an id column: id, student_id, ID number, username or email; "
        "',', ';' or tab): grades.csv gets each submission's owner, OUT/gradebook.csv a row "
        "per student; with --secret-file, the roster given to `release`",
    )
    p.add_argument(
        "--id-from",
        metavar="RULE",
        help="with --roster, whose a submission is: 'folder' (default: SUBMISSIONS/<id>/...), "
        "'name:REGEX' (its one group, searched in the path under SUBMISSIONS) or "
        "'map:FILE.csv' (columns: submission path or file name, student id)",
    )
    p.add_argument(
        "--only",
        metavar="ID[,ID...]",
        help="with --roster, grade these students only and merge them into the earlier run "
        "in OUT (the other students' rows are kept as they are)",
    )
    p.add_argument(
        "--manual",
        metavar="MARKS.csv",
        help="merge the lecturer's marks of the free-text answers: OUT/free_text.csv with "
        "its points (and max, where the key has none) filled in",
    )
    p.add_argument(
        "--deadline",
        metavar="WHEN",
        help="ISO 8601 (2026-12-15T23:59; local time unless an offset is given): a late column "
        "in grades.csv, lateness in the gradebook's notes and the feedback",
    )
    p.add_argument(
        "--times",
        metavar="TIMES.csv",
        help="with --deadline, when each submission was handed in (an LMS export: an id or "
        "submission column, a time column: ISO 8601, Unix seconds or Moodle's); else the "
        "file's modification time",
    )
    p.add_argument(
        "--late-penalty",
        metavar="P/day",
        help="with --deadline, P points off the total per started day late (1/day)",
    )
    p.add_argument(
        "--late-cap",
        type=float,
        metavar="C",
        help="with --deadline, the total of a late submission capped at C points",
    )
    p.add_argument(
        "--lang",
        choices=("en", "fr"),
        help="the language of the students' feedback, for every submission (default: each "
        "notebook's own, its metadata.coursekit.language, else English); grades.csv, the "
        "gradebook and stats stay in English",
    )
    p.add_argument(
        "--variants",
        default=str(Path.cwd() / "solutions" / "variants"),
        help="older variant generators NN_topic.py, used for a chapter whose answer key has no "
        "generate(rng) (default: solutions/variants)",
    )
    p.add_argument(
        "--container",
        choices=container.ENGINES,
        help="run this grader, sandbox and limits included, in a Linux container (where "
        "bubblewrap cannot run: macOS, Windows); needs the image built from Containerfile",
    )
    p.add_argument(
        "--unsafe-no-sandbox",
        action="store_true",
        help="run the notebooks WITHOUT the sandbox, with your rights (only where bubblewrap "
        "cannot run, and only for trusted notebooks)",
    )
    return p


def _engines_here() -> str:
    found = [engine for engine in container.ENGINES if container.available(engine)]
    return f" (here: --container {found[0]})" if found else ""


def in_container(config: GraderConfig, submissions: Path, out: Path) -> int:
    """Run the grader in ``config.container`` (:mod:`coursekit.grading.container`); its exit
    code. The configuration has refused what a container cannot take (``--id-from``,
    ``--unsafe-no-sandbox``)."""
    engine = container.available(config.container)
    if engine is None:
        print(f"error: {config.container} is not installed", file=sys.stderr)
        return 2
    out.mkdir(mode=0o700, parents=True, exist_ok=True)
    argv = container.command(
        config.container,
        submissions,
        out,
        config.keys,
        config.container_options(),
        secret_file=config.secret_file,
        roster=config.roster,
    )
    print("container:", " ".join(argv))
    return subprocess.run([engine, *argv[1:]], check=False).returncode


def honour_stop_signals() -> None:
    """Make SIGINT and SIGTERM stop the run, whatever the parent process left in place.

    A process inherits its parent's blocked-signal mask, and a shell without job control starts
    background commands with SIGINT ignored: started that way (as CI starts it), the grader would
    receive neither signal and grade to the end. Main thread only (signals are the main
    thread's), so that the kernels started afterwards inherit the same state.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def main(argv: Sequence[str] | None = None) -> int:
    options = parser().parse_args(argv)
    honour_stop_signals()
    try:
        config = GraderConfig.from_args(options)  # every option checked, once
    except (TypeError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    submissions, out = Path(options.submissions), Path(options.out)
    if config.container:
        return in_container(config, submissions, out)
    if config.unsafe_no_sandbox:
        print(UNSAFE_WARNING)
        print(UNSAFE_WARNING, file=sys.stderr)
    else:
        reason = sandbox.sandbox_available()
        if reason is not None:
            print(
                f"error: the grading sandbox cannot run here: {reason}.\nIt needs "
                f"{sandbox.INSTALL}; grade on Linux, or in a Linux VM or container"
                f"{_engines_here()}. --unsafe-no-sandbox grades without it, with your rights "
                "(never for graded coursework).",
                file=sys.stderr,
            )
            return 2
        print(f"sandbox: bubblewrap; {sandbox.describe_enforcement(config.kernel_limits())}")
    try:
        grades = grade_folder(submissions, out, config)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (Interrupted, KeyboardInterrupt):
        print("interrupted: grades.csv not written (the feedback written so far is kept)")
        return 130
    for g in grades:
        suffix = f"  ({g.error})" if g.error else ""
        print(f"{g.total:5g} / {g.max:<4g} {g.submission}{suffix}")
    print(f"{len(grades)} submissions graded; see {out / 'grades.csv'} and {out / 'stats.html'}")
    if config.roster is not None:
        print(f"gradebook (a row per student of the roster): {out / 'gradebook.csv'}")
    if config.unsafe_no_sandbox:
        print(UNSAFE_WARNING)
    full = next((g.error for g in grades if g.error.startswith(DISK_FULL)), "")
    if full:  # grades.csv is complete, but some submissions were not graded
        print(f"error: grading stopped: {full}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
