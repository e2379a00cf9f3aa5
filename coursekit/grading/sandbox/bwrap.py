"""How bubblewrap is started: its options from a file, the launcher that sets the rlimits.

A sandbox's bwrap process is its PID 1, so ``/proc/1/cmdline`` shows bwrap's command line to
the notebook: the options (every bind's host path) are given in a file read through
``--args`` (:func:`options_from_file`), the command line keeping only the marker the grader
finds orphaned sandboxes by (:func:`.cgroup.kill_orphans`) and the command, whose paths are the
sandbox's own (:mod:`.fs`).
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

MARKER = ["--setenv", "COURSEKIT_SANDBOX", "1"]  # finds the sandboxes' bwrap processes
# applies the rlimits, then becomes the command (python -I -S: no site, nothing imported)
LAUNCH = (
    "import os,resource as r,sys\n"
    "for n,v in zip(('AS','NPROC','FSIZE','CORE','NOFILE'),sys.argv[1:6]):\n"
    " k,v=getattr(r,'RLIMIT_'+n),int(v)\n"
    " h=r.getrlimit(k)[1]\n"
    " if v>=0:r.setrlimit(k,(v if h<0 else min(v,h),)*2)\n"
    "os.execvp(sys.argv[6],sys.argv[6:])"
)
# starts bwrap, its options read from the file $0: a sandbox's processes are the first the
# out-of-memory killer takes (1000; a grading worker 500: .worker.OOM_SCORE_ADJ)
START = 'echo 1000 > /proc/self/oom_score_adj 2>/dev/null; exec "$@" 3<"$0"'


@functools.cache
def _arguments_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="ck-bwrap-"))  # mode 0700: the grader's only
    atexit.register(shutil.rmtree, folder, True)
    return folder


def options_from_file(bwrap: str, options: list[str]) -> list[str]:
    """bwrap reading its ``options`` from a file (``--args``): the sandbox sees bwrap's own
    process as its PID 1, and ``/proc/1/cmdline`` would show every bind's host path. Only
    :data:`MARKER` stays on the command line (:func:`.cgroup.kill_orphans` looks for it),
    after ``--clearenv``, which bwrap applies where it reads it; the command follows (its
    paths are the sandbox's own)."""
    fd, path = tempfile.mkstemp(dir=_arguments_folder(), suffix=".args")
    with os.fdopen(fd, "wb") as f:
        f.write(b"".join(option.encode() + b"\0" for option in options))
    shown = [bwrap, "--clearenv", *MARKER, "--args", "3"]
    return ["/bin/sh", "-c", START, path, *shown]


def bwrap_options(line: Sequence[str]) -> list[str]:
    """A command line of :func:`command` as bwrap reads it: its ``--args`` file inlined (to
    inspect or log what a sandbox is given)."""
    line = list(line)
    if "--args" not in line:
        return line
    at = line.index("--args")
    path = line[line.index(START) + 1]
    with open(path, "rb") as f:
        options = [option.decode() for option in f.read().split(b"\0")[:-1]]
    return [*line[:at], *options, *line[at + 2 :]]
