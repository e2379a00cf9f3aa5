"""The grading sandbox: run students' code (a script, a judge, a Jupyter kernel) isolated.

Built on bubblewrap (``bwrap``, Debian package ``bubblewrap``). A sandboxed command gets:

* new user, PID, network, IPC, UTS and cgroup namespaces (``--unshare-all``): it sees only its
  own processes, has only its own loopback interface (no network at all, not even the
  grader's 127.0.0.1), cannot signal or ptrace anything outside, cannot make namespaces;
* a file system of its own: a read-only root with ``/usr`` (and the ``/bin``, ``/lib*``
  links), a few files of ``/etc`` (``ld.so.cache``, ``localtime``, ...), the Python
  interpreter's prefixes and site-packages (a virtual environment at ``/opt/venv``, a base
  interpreter outside ``/usr`` at ``/opt/python``), ``coursekit``'s package directory at
  ``/course/coursekit`` (never the repository around it: ``solutions/`` stays invisible)
  unless ``hide_coursekit``, the ``readonly`` paths, a fresh ``/proc``, a minimal ``/dev``,
  size-limited tmpfs ``/tmp`` and ``/dev/shm``, and ``writable`` (the submission's own
  folder) read-write at ``/home/student``; nothing else: no other ``/home`` folder, no
  ``/root``, ``/run``, ``/sys``, and no host path in the arguments, the environment or
  ``sys.path`` (:mod:`.fs`: the lecturer's folders are not shown);
* no capabilities, ``no_new_privs``, a new session (no terminal injection), a cleared
  environment (the bwrap process itself starts from ``env -i``: bwrap's PID 1 is visible
  inside, and its ``/proc/1/environ`` would show the grader's environment);
* one lifetime: bubblewrap's PID 1 ends the namespace, killing every process in it, when
  the command exits (double forks, ``setsid``, ``nohup`` included) and, with
  ``--die-with-parent``, when the bwrap process is killed: :func:`run_sandboxed` and
  :class:`SandboxedKernelManager` kill it at the wall-time limit, and so does the grader's
  death (a sandbox whose grader died while it started is killed by the next one's start:
  :func:`.cgroup.kill_orphans`).

Files the sandboxed code wrote are the student's: read them with :func:`read_output`, which
follows no symbolic link (a result file may point at the answer keys) and reads no FIFO.

Memory and process counts (:func:`enforcement`, :meth:`Limits.describe`):

* ``cgroup2`` / ``cgroup1``: a fresh cgroup per sandbox (:mod:`.cgroup`) limits the
  memory of the whole process tree (tmpfs pages included) and its task count (``pids.max``;
  threads count). Used when a delegated writable cgroup v2 with ``memory`` and ``pids`` is
  found, or, on hybrid hosts as root, the v1 ``memory`` and ``pids`` hierarchies.
* ``rlimit`` (no usable cgroup, not root): ``RLIMIT_AS`` per process (the total is *not*
  limited) and ``RLIMIT_NPROC``. RLIMIT_NPROC is charged per (user namespace, uid) since
  Linux 5.14: inside the sandbox's fresh user namespace it counts the sandbox's processes
  only, not the user's other processes on the host (checked: with 30 ``sleep`` of the same
  uid outside and ``RLIMIT_NPROC=20``, the host refuses a fork, the sandbox allows 10 and
  stops at 20). Older kernels count all the user's processes.
* As root without a usable cgroup the sandbox is refused (:func:`sandbox_available`): the
  kernel never applies RLIMIT_NPROC to host uid 0, and ``bwrap --uid N`` only renames uid 0
  inside the namespace (checked: ``--uid 1000`` with ``RLIMIT_NPROC=20`` still forked 40).

Files: ``RLIMIT_FSIZE`` (``file_mb``) for every process, also on its stdout and stderr, and
``RLIMIT_NOFILE`` (:data:`OPEN_FILES`). Disk: the grader measures the writable folder while
the sandbox runs, with the files its processes deleted but hold open, and kills it past
``disk_mb`` or :data:`.disk.MAX_ENTRIES` entries (:mod:`.disk`: a polled
limit, since an unprivileged process cannot put a quota on a host folder).
Threads: ``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS`` are 1 unless
``env`` says otherwise, since the task limit counts threads.
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import cgroup as sandbox_cgroup
from . import disk as sandbox_disk
from . import fs as sandbox_fs
from .bwrap import LAUNCH, MARKER, bwrap_options, options_from_file  # noqa: F401

INSTALL = "bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)"
_BWRAP_BASE = ["--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent"]
_SANDBOX_UID = "1000"
# open files per sandboxed process (RLIMIT_NOFILE). Each descriptor can hold a file deleted
# while open, which the disk watcher finds by looking at every descriptor of every process
# (.disk.held): the limit bounds that look, and the files held by descriptors in
# flight over a unix socket, which no look sees (the kernel allows RLIMIT_NOFILE of them).
# An ipykernel that has imported coursekit, numpy, pandas and matplotlib and saved a figure
# holds 64 (measured).
OPEN_FILES = 256


@dataclass(frozen=True)
class Limits:
    """Resources of one sandbox (see :func:`describe_enforcement` for how they are held)."""

    memory_mb: int = 1024  # the whole process tree (per process without a cgroup)
    processes: int = 64  # tasks of the command, threads included (+2 for bwrap's own)
    tmp_mb: int = 64  # the private /tmp (and /dev/shm) tmpfs
    file_mb: int = 64  # largest file a process may write
    wall_seconds: float = 60.0  # then everything is killed
    disk_mb: int = (
        sandbox_disk.DEFAULT_MB
    )  # the writable folder in all (checked while it runs: .disk)

    def __post_init__(self) -> None:
        for name in ("memory_mb", "processes", "tmp_mb", "file_mb", "wall_seconds", "disk_mb"):
            if not getattr(self, name) > 0:
                raise ValueError(f"Limits.{name} must be positive")

    def describe(self) -> str:
        """How these limits are enforced on this machine, in one sentence per limit."""
        return describe_enforcement(self)


def enforcement() -> str:
    """``"cgroup2"``, ``"cgroup1"`` or ``"rlimit"``: what limits memory and processes here."""
    parent = sandbox_cgroup.cgroup_parent()
    return f"cgroup{parent.version}" if parent else "rlimit"


def describe_enforcement(limits: Limits) -> str:
    """How ``limits`` are enforced on this machine (for the README and the grader's log)."""
    kind = enforcement()
    if kind == "rlimit":
        memory = f"{limits.memory_mb} MB of address space per process (RLIMIT_AS; no total)"
        tasks = f"{limits.processes} processes and threads (RLIMIT_NPROC in the user namespace)"
    else:
        memory = f"{limits.memory_mb} MB for the whole process tree ({kind} memory controller)"
        tasks = f"{limits.processes} processes and threads in all ({kind} pids.max)"
    return (
        f"memory: {memory}; processes: {tasks}; /tmp: a {limits.tmp_mb} MB tmpfs; "
        f"files: at most {limits.file_mb} MB each (RLIMIT_FSIZE), {OPEN_FILES} open per "
        f"process (RLIMIT_NOFILE), and the writable folder at most {limits.disk_mb} MB, files "
        f"deleted but held open included, and {sandbox_disk.MAX_ENTRIES} entries (measured "
        f"every {sandbox_disk.PERIOD:g} s, then the sandbox is killed); wall time: "
        f"{limits.wall_seconds:g} s, then the sandbox's PID namespace is killed"
    )


@functools.cache
def _try_bwrap(bwrap: str) -> str | None:
    command = [bwrap, *_BWRAP_BASE, "--ro-bind", "/", "/", "true"]
    try:
        done = subprocess.run(command, capture_output=True, timeout=30, env={})
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap could not be run: {error}"
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip()
        return (
            f"bwrap cannot create the sandbox's namespaces ({message}): unprivileged user "
            "namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1, or "
            "kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu)"
        )
    return None


def sandbox_available() -> str | None:
    """None if sandboxes can run here, else why not."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return f"bwrap is not installed: install {INSTALL}"
    reason = _try_bwrap(bwrap)
    if reason is None and os.geteuid() == 0 and enforcement() == "rlimit":
        reason = (
            "running as root without a writable cgroup (memory and pids): the process "
            "limit cannot be enforced (RLIMIT_NPROC does not apply to uid 0)"
        )
    return reason


def require_sandbox() -> None:
    """Raise a RuntimeError saying what to install or enable if sandboxes cannot run here."""
    reason = sandbox_available()
    if reason is not None:
        raise RuntimeError(f"the grading sandbox cannot run: {reason}. It needs {INSTALL}.")


def no_cgroups(pid: int) -> list[Path]:
    """The cgroups of a command run without one (unsandboxed, or limited by rlimits): none."""
    return []


def command(
    argv: Sequence[str],
    *,
    writable: Path,
    readonly: Sequence[Path] = (),
    limits: Limits,
    hide_coursekit: bool = False,
    env: Mapping[str, str] | None = None,
    process_memory_mb: int | None = None,
) -> tuple[list[str], Callable[[int], list[Path]]]:
    """The command line running ``argv`` in a sandbox (see the module's docstring), and a
    function giving the cgroup directories it makes when run as a given PID (remove them with
    :func:`.cgroup.remove` once it ended): for a caller that starts and watches the process
    itself (the kernel manager, the judge; :func:`run_sandboxed` waits for it).

    ``writable`` is bound read-write at ``/home/student`` and is the working directory
    (arguments and ``env`` values naming it, or the interpreter's folders, are rewritten);
    ``readonly`` paths are bound read-only at their own paths; ``env`` is added to the
    sandbox's small environment. With ``hide_coursekit``, coursekit cannot be imported.
    The command does not stop at ``limits.wall_seconds`` by itself: kill it then (killing
    its process kills the whole sandbox), as :func:`run_sandboxed` does. It can be run more
    than once. With a cgroup, each run leaves an empty cgroup directory, removed by later
    sandboxes. ``process_memory_mb`` puts each process under that ``RLIMIT_AS`` also when a
    cgroup holds the total (a single huge allocation then gets a ``MemoryError`` instead of
    the cgroup's kill of the whole tree)."""
    if not argv:
        raise ValueError("no command to run in the sandbox")
    writable = Path(os.path.abspath(writable))
    if not writable.is_dir():
        raise ValueError(f"{writable} is not a directory")
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise RuntimeError(f"bwrap is not installed: install {INSTALL}")
    sandbox_cgroup.kill_orphans("\0".join(MARKER).encode())
    env_binary = shutil.which("env") or "/usr/bin/env"
    line = [*_BWRAP_BASE, "--new-session", "--cap-drop", "ALL"]
    line += ["--uid", _SANDBOX_UID, "--gid", _SANDBOX_UID, "--hostname", "sandbox"]
    line += sandbox_fs.mounts(writable, readonly, limits.tmp_mb << 20, hide_coursekit)
    line += ["--chdir", str(sandbox_fs.WORK)]
    places = sandbox_fs.places(writable, hide_coursekit)  # host folders at neutral places
    for name, value in sandbox_fs.environment(env, places).items():
        line += ["--setenv", name, value]
    parent = sandbox_cgroup.cgroup_parent()
    memory = -1 if parent else limits.memory_mb << 20
    if process_memory_mb is not None:
        if process_memory_mb <= 0:
            raise ValueError("process_memory_mb must be positive")
        memory = process_memory_mb << 20 if parent else min(memory, process_memory_mb << 20)
    rlimits = [memory, limits.processes + 1, limits.file_mb << 20, 0, OPEN_FILES]
    argv = [sandbox_fs.inside(str(argument), places) for argument in argv]
    launch = [sandbox_fs.interpreter(), "-I", "-S", "-c", LAUNCH, *map(str, rlimits), *argv]
    line = [*options_from_file(bwrap, line), "--", *launch]
    cgroups = no_cgroups
    if parent is not None:
        line, cgroups = sandbox_cgroup.wrap(
            parent, limits.memory_mb << 20, limits.processes + 2, line
        )
    return [env_binary, "-i", *line], cgroups


class SandboxResult(subprocess.CompletedProcess):
    """A finished sandboxed run: ``returncode``, ``stdout``, ``stderr`` (bytes, truncated to
    ``max_output``), ``timed_out`` (killed at the wall-time limit) and ``seconds``."""

    def __init__(
        self,
        args: list[str],
        returncode: int,
        stdout: bytes,
        stderr: bytes,
        *,
        timed_out: bool = False,
        seconds: float = 0.0,
    ) -> None:
        super().__init__(args, returncode, stdout, stderr)
        self.timed_out = timed_out
        self.seconds = seconds


def run_sandboxed(
    argv: Sequence[str],
    *,
    writable: Path,
    readonly: Sequence[Path] = (),
    limits: Limits | None = None,
    hide_coursekit: bool = False,
    env: Mapping[str, str] | None = None,
    input: bytes | None = None,
    max_output: int = 1 << 20,
) -> SandboxResult:
    """Run ``argv`` in a sandbox (:func:`command`) and wait for it, at most
    ``limits.wall_seconds``: then the whole sandbox is killed and ``timed_out`` is set."""
    limits = limits or Limits()
    line, cgroups = command(
        argv,
        writable=writable,
        readonly=readonly,
        limits=limits,
        hide_coursekit=hide_coursekit,
        env=env,
    )
    timed_out = False
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        process = subprocess.Popen(
            line,
            stdin=subprocess.DEVNULL if input is None else subprocess.PIPE,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
        try:
            process.communicate(input, timeout=limits.wall_seconds)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            if process.poll() is None:
                process.kill()  # bwrap's PID 1 dies with it, and every process in the sandbox
                process.wait()
            sandbox_cgroup.remove(cgroups(process.pid))
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(max_output), err.read(max_output)
    return SandboxResult(
        line, process.returncode, stdout, stderr, timed_out=timed_out, seconds=seconds
    )


def read_output(writable: Path, name: str | Path, max_bytes: int = 1 << 20) -> bytes:
    """The first ``max_bytes`` of the file ``name`` the sandbox wrote in ``writable``.

    Read as the sandboxed code left it, without following links: a result file may have been
    replaced by a symbolic link to a host file (the answer keys), a FIFO or a folder; all
    raise OSError here instead of being read by the grader's own rights.
    """
    parts = Path(name).parts
    if not parts or Path(name).is_absolute() or ".." in parts:
        raise ValueError(f"{name} is not a path inside writable")
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(writable, flags | os.O_DIRECTORY)
    try:
        for part in parts[:-1]:
            inner = os.open(part, flags | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
        inner = os.open(parts[-1], flags | os.O_NONBLOCK, dir_fd=fd)
        os.close(fd)
        fd = inner
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{name} is not a regular file")
        chunks, left = [], max_bytes
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
