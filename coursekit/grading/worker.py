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
import atexit
import contextlib
import ctypes
import dataclasses
import importlib
import json
import os
import pickle
import resource
import select
import signal
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
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


_WARM: dict[Path, Any] = {}  # keys loaded by a zygote before it forked this worker


def warm_keys(keys_dir: Path) -> Any:
    """The answer keys of ``keys_dir`` (:func:`.keys.load_keys`): those a zygote
    (:mod:`.zygote`) loaded before forking this worker, else loaded now."""
    from .keys import load_keys

    keys_dir = Path(keys_dir)
    if keys_dir not in _WARM:
        _WARM[keys_dir] = load_keys(keys_dir)
    return _WARM[keys_dir]


async def grade(request: dict[str, Any]) -> Any:
    """The grade of the submission ``request`` describes (never raises for the submission's
    problems; a grader error is its row's ``error``)."""
    from .grader import grade_one
    from .report import Grade

    task = asyncio.current_task()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    name = request["name"]
    try:
        keys = warm_keys(request["keys"])
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
    from .sandbox.cgroup import join_own

    join_own(int(args[0]) << 20)  # its own memory cgroup too, where cgroups can be made
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


# --- a zygote: the fork server of coursekit.grading.zygote -------------------------------------


def serve_forks(argv: list[str] | None = None) -> int:
    """A zygote (:mod:`.zygote`): ``SOCKET_FD GRADER_PID KEYS``, started by
    :meth:`.zygote.Zygote.start`; forks a worker for each request (see :mod:`.zygote`)."""
    fd, grader, keys_dir = (sys.argv[1:] if argv is None else argv)[:3]
    die_with(int(grader))
    first_to_die()
    for name in SKIPPED_MODULES:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sock = socket.socket(fileno=int(fd))
    sock.setblocking(True)
    from .zygote import PRELOAD

    for module in PRELOAD:
        importlib.import_module(module)
    _warm_sandbox()
    keys = warm_keys(Path(keys_dir))
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    workers: set[int] = set()
    sock.send(b"R")
    while True:
        ready, _, _ = select.select([sock, wake_r], [], [])
        if wake_r in ready:
            os.read(wake_r, 512)
            _reap(sock, workers)
        if sock not in ready:
            continue
        try:
            message, fds, _, _ = socket.recv_fds(sock, 256, 3)
        except OSError:
            message, fds = b"", []
        if not message:  # the grader closed its end: the run is over
            for pid in workers:
                with contextlib.suppress(OSError):
                    os.killpg(pid, signal.SIGKILL)
            return 0
        kind, rest = message[:1], message[1:].decode(errors="replace").split()
        if kind == b"S" and len(fds) == 0 and int(rest[0]) in workers:
            with contextlib.suppress(OSError):
                os.killpg(int(rest[0]), int(rest[1]))
        elif kind == b"F" and len(fds) == 3:
            chapter = None if rest[1] == "-" else rest[1]
            if chapter in keys:
                with contextlib.suppress(Exception):  # a failing key: its worker says so
                    keys[chapter]
            pid = os.fork()
            if pid == 0:
                os._exit(_worker(int(rest[0]), fds, (sock.fileno(), wake_r, wake_w)))
            workers.add(pid)
            sock.send(f"P{pid}".encode())
        for descriptor in fds:
            os.close(descriptor)


def _warm_sandbox() -> None:
    """What every worker's sandboxes look up once (bubblewrap tried, cgroups found, the
    venv's cut-down ``pyvenv.cfg`` and bwrap's options folder made): looked up here, once per
    run; the folders are the zygote's, removed when it ends (its ``atexit``)."""
    from .sandbox import bwrap, cgroup, fs, sandbox_available

    for step in (sandbox_available, cgroup.cgroup_parent, fs._pyvenv_cfg, bwrap._arguments_folder):
        with contextlib.suppress(Exception):  # a worker meets the same problem and says it
            step()


def _reap(sock: socket.socket, workers: set[int]) -> None:
    while workers:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        workers.discard(pid)
        with contextlib.suppress(OSError):
            sock.send(f"X{pid} {os.waitstatus_to_exitcode(status)}".encode())


def _worker(limit_mb: int, fds: list[int], zygote_fds: tuple[int, ...]) -> int:
    """In the forked child: become the worker of one submission (never returns to serve)."""
    try:
        atexit._clear()  # the zygote's handlers remove the zygote's folders: not a worker's
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()  # its own process group: the grader stops it and its sandboxes at once
        for fd in zygote_fds:
            os.close(fd)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        code = main([str(limit_mb), str(os.getppid())])
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # noqa: BLE001 - said on its standard error, then ended
        import traceback

        traceback.print_exc()
        code = 1
    with contextlib.suppress(Exception):
        atexit._run_exitfuncs()  # what the worker made for itself (os._exit skips them)
        sys.stdout.flush()
        sys.stderr.flush()
    return code


if __name__ == "__main__":
    raise SystemExit(main())
