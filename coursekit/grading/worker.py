"""The grading process of one submission: ``python -m coursekit.grading.worker MEMORY_MB PID``.

Started by the grader (:mod:`coursekit.grading.isolation`) for each submission: reading the
notebook, running it (nbclient and its ZMQ client, whose memory a kernel can make grow) and
judging it happen here, in a process of its own, so that nothing a notebook sends can grow,
block or kill the grader itself or another student's grading. This process

- limits its own address space to ``MEMORY_MB`` (``RLIMIT_AS``: its kernels and judges inherit
  it as their ceiling, so the grader sizes it over their own limits);
- dies with the grader (``PR_SET_PDEATHSIG``; its sandboxes die with it: ``--die-with-parent``);
- reads its request, a pickle written by the grader (path, name, work folder, keys folder,
  the run's :class:`~coursekit.grading.config.GraderConfig` and the graded variants' personal
  data), from its standard input;
- writes the :class:`~coursekit.grading.report.Grade` as JSON (``dataclasses.asdict``: every
  field) to what was its standard output, and nothing else: whatever else prints goes to its
  standard error, which the grader keeps the end of;
- on SIGTERM, stops its kernel and judges and removes its work folder.
"""

from __future__ import annotations

import asyncio
import ctypes
import dataclasses
import json
import os
import pickle
import resource
import signal
import sys
from collections.abc import Sequence
from typing import Any

PR_SET_PDEATHSIG = 1
# jsonschema (through nbformat) imports this optional module, which builds a grammar in 1.3 s
# (measured), only to check the "iri" format, which no notebook schema uses: each worker
# starts without it (an ImportError, which jsonschema expects)
SKIPPED_MODULES = ("rfc3987_syntax",)


def limit_memory(memory_mb: int) -> None:
    """Put this process (and what it starts) under an address space of ``memory_mb``."""
    limit = memory_mb << 20
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


# the kernel's out-of-memory killer picks the process with the highest oom_score_adj first:
# a sandbox's processes (1000, :mod:`.sandbox`), then a grading worker (this), never the
# grader, which writes the class's results (where no cgroup holds a notebook's total, as in
# a container, the machine's memory is what a notebook exhausts)
OOM_SCORE_ADJ = 500


def first_to_die(score: int = OOM_SCORE_ADJ) -> None:
    """Raise this process's ``oom_score_adj`` (no privilege needed to raise it)."""
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write(str(score))
    except OSError:  # not Linux, or no /proc: nothing to do
        pass


def die_with(parent: int) -> None:
    """Be killed when the grader (``parent``) dies, even by SIGKILL; exit if it is gone."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the grader kills its workers itself
        return
    if os.getppid() != parent:
        os._exit(1)


async def grade(request: dict[str, Any]) -> Any:
    """The grade of the submission ``request`` describes (never raises for the submission's
    problems; a grader error is its row's ``error``)."""
    from .grader import grade_one, load_keys
    from .report import Grade

    task = asyncio.current_task()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    name = request["name"]
    try:
        keys = load_keys(request["keys"])
        config, personal = request["config"], request["personal"]
        return await grade_one(request["path"], name, keys, config, request["work"], personal)
    except Exception as error:  # noqa: BLE001 - one submission never stops the rest
        return Grade(name, error=f"grader error: {type(error).__name__}: {error}")


def main(argv: Sequence[str] | None = None) -> int:
    """Grade the submission of the request on standard input; the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or not all(a.isdigit() for a in args):
        print("usage: python -m coursekit.grading.worker MEMORY_MB GRADER_PID", file=sys.stderr)
        return 2
    limit_memory(int(args[0]))
    die_with(int(args[1]))
    first_to_die()
    for name in SKIPPED_MODULES:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the grader says when to stop (SIGTERM)
    result = os.dup(1)  # not inherited: only this process writes the grade
    os.dup2(2, 1)
    request = pickle.load(sys.stdin.buffer)  # from the grader, which started this process
    grade_ = asyncio.run(grade(request))
    data = json.dumps(dataclasses.asdict(grade_)).encode("utf-8")
    with os.fdopen(result, "wb") as out:
        out.write(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
