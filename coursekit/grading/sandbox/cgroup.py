"""The cgroup part of the grading sandbox (:mod:`coursekit.grading.sandbox`), and the
removal of sandboxes whose grader died while they started (:func:`kill_orphans`).

A sandbox gets a fresh cgroup of its own, holding every process of the sandbox and nothing
else, with a memory limit (the whole tree's total) and a task limit (``pids.max``). This module
finds where such a cgroup can be made:

* cgroup v2: the nearest ancestor of this process's own cgroup that is writable by us (for
  an unprivileged user: a *delegated* subtree, such as systemd's ``user@UID.service``) and
  whose ``cgroup.subtree_control`` already enables ``memory`` and ``pids``;
* cgroup v1 (hybrid hosts, usually only as root): the ``memory`` and ``pids`` hierarchies,
  each at the nearest writable ancestor of this process's own cgroup.

``COURSEKIT_SANDBOX_CGROUP=off`` disables cgroups (rlimits only); a path there names the
cgroup v2 directory to create the sandboxes' cgroups in.

The cgroup is made and joined by the sandbox's own command line (:func:`wrap`): a ``/bin/sh``
that creates it, writes the limits, moves itself in and ``exec``\\ s bubblewrap, so the command
works in any ``Popen`` (a Jupyter kernel manager's too) and every sandboxed process starts
inside. The cgroup's name ends with that shell's PID, so the same command line can be run again. An
empty cgroup directory stays behind until :func:`remove` (called by the runners when the
sandbox has ended) or the next sandbox's sweep of directories older than a minute.
"""

from __future__ import annotations

import functools
import os
import signal
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PREFIX = "coursekit-sandbox-"
STALE_SECONDS = 60

# "$1" is the cgroup's name but for the shell's PID ($$: the Popen's PID), so that the command
# can be run again; an empty directory of that name (an earlier PID's) is removed first
_SETUP_V2 = """set -e
C="$2/$1$$"
rmdir "$C" 2>/dev/null || true
mkdir "$C"
echo "$3" > "$C/memory.max"
[ ! -e "$C/memory.swap.max" ] || echo 0 > "$C/memory.swap.max"
[ ! -e "$C/memory.oom.group" ] || echo 1 > "$C/memory.oom.group"
echo "$4" > "$C/pids.max"
echo $$ > "$C/cgroup.procs"
shift 4
exec "$@"
"""

_SETUP_V1 = """set -e
M="$2/$1$$"
P="$3/$1$$"
rmdir "$M" "$P" 2>/dev/null || true
mkdir "$M" "$P"
echo "$4" > "$M/memory.limit_in_bytes"
[ ! -e "$M/memory.memsw.limit_in_bytes" ] || echo "$4" > "$M/memory.memsw.limit_in_bytes"
echo "$5" > "$P/pids.max"
echo $$ > "$M/cgroup.procs"
echo $$ > "$P/cgroup.procs"
shift 5
exec "$@"
"""


@dataclass(frozen=True)
class CgroupParent:
    """Where sandboxes' cgroups are made: v2 ``(dir,)``, v1 ``(memory dir, pids dir)``."""

    version: int
    dirs: tuple[Path, ...]


def _mounts() -> list[tuple[str, Path, str, set[str]]]:
    """(root, mount point, file system type, super options) of each mount of this process."""
    found = []
    with open("/proc/self/mountinfo", encoding="utf-8") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            fields, rest = left.split(), right.split()
            if len(fields) >= 5 and len(rest) >= 3:
                found.append((fields[3], Path(fields[4]), rest[0], set(rest[2].split(","))))
    return found


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup path per v1 controller, and under ``""`` in the v2 hierarchy."""
    paths = {}
    with open("/proc/self/cgroup", encoding="utf-8") as f:
        for line in f:
            number, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(",") if number != "0" else [""]:
                paths[name] = path
    return paths


def _usable(directory: Path) -> bool:
    """Whether a cgroup can be made in ``directory`` and processes moved into it."""
    if not (os.access(directory, os.W_OK) and os.access(directory / "cgroup.procs", os.W_OK)):
        return False
    probe = directory / f"{PREFIX}probe-{uuid.uuid4().hex}"
    try:
        probe.mkdir()
        probe.rmdir()
    except OSError:
        return False
    return True


def _candidates(mount_root: str, mount_point: Path, own: str) -> list[Path]:
    """This process's cgroup directory in one hierarchy, then its ancestors up to the mount."""
    relative = os.path.relpath(own, mount_root)
    if relative.startswith(".."):
        return []
    directory = mount_point / relative
    return [directory, *[p for p in directory.parents if p.is_relative_to(mount_point)]]


def _find_v2(mounts: list, own: dict[str, str]) -> CgroupParent | None:
    for root, point, fstype, _ in mounts:
        if fstype != "cgroup2" or "" not in own:
            continue
        for directory in _candidates(root, point, own[""]):
            try:
                enabled = (directory / "cgroup.subtree_control").read_text().split()
            except OSError:
                continue
            if {"memory", "pids"} <= set(enabled) and _usable(directory):
                return CgroupParent(2, (directory,))
    return None


def _find_v1(mounts: list, own: dict[str, str]) -> CgroupParent | None:
    dirs = []
    for controller in ("memory", "pids"):
        places = [
            directory
            for root, point, fstype, options in mounts
            if fstype == "cgroup" and controller in options and controller in own
            for directory in _candidates(root, point, own[controller])
        ]
        usable = next((d for d in places if _usable(d)), None)
        if usable is None:
            return None
        dirs.append(usable)
    return CgroupParent(1, tuple(dirs))


@functools.cache
def _detect() -> CgroupParent | None:
    try:
        mounts, own = _mounts(), _own_cgroups()
    except OSError:
        return None
    return _find_v2(mounts, own) or _find_v1(mounts, own)


def cgroup_parent() -> CgroupParent | None:
    """Where this machine's sandboxes get their cgroup, or None (rlimits only)."""
    setting = os.environ.get("COURSEKIT_SANDBOX_CGROUP", "").strip()
    if setting.lower() == "off":
        return None
    if setting:
        directory = Path(setting)
        if not (directory / "cgroup.subtree_control").exists() or not _usable(directory):
            raise RuntimeError(f"COURSEKIT_SANDBOX_CGROUP={setting} is not a writable cgroup v2")
        return CgroupParent(2, (directory,))
    return _detect()


def sweep(parent: CgroupParent) -> None:
    """Remove sandboxes' cgroup directories left empty for more than a minute."""
    for directory in parent.dirs:
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(PREFIX) and entry.is_dir(follow_symlinks=False):
                try:
                    if time.time() - entry.stat().st_mtime > STALE_SECONDS:
                        os.rmdir(entry.path)
                except OSError:
                    pass  # still in use, or already gone


def wrap(
    parent: CgroupParent, memory_bytes: int, tasks: int, command: list[str]
) -> tuple[list[str], Callable[[int], list[Path]]]:
    """``command`` run in a fresh cgroup under ``parent``, and the function giving that
    cgroup's directories from the PID of the command's process."""
    sweep(parent)
    name = f"{PREFIX}{uuid.uuid4().hex[:12]}-"
    script = _SETUP_V2 if parent.version == 2 else _SETUP_V1
    argv = ["/bin/sh", "-c", script, "sh", name, *map(str, parent.dirs)]

    def dirs(pid: int) -> list[Path]:
        return [directory / f"{name}{pid}" for directory in parent.dirs]

    return [*argv, str(memory_bytes), str(tasks), *command], dirs


#: A grading worker's own cgroup: the sandboxes' prefix (a stale one is swept with theirs).
WORKER = f"{PREFIX}worker-"


def worker_dirs(pid: int) -> list[Path]:
    """The cgroup directories of the grading worker ``pid`` (:func:`join_own`), [] where no
    cgroup is used; remove them with :func:`remove` once the worker ended."""
    parent = cgroup_parent()
    return [] if parent is None else [parent.dirs[0] / f"{WORKER}{pid}"]


def join_own(memory_bytes: int) -> list[Path]:
    """Move this process into a fresh memory cgroup of its own limited to ``memory_bytes``
    (a grading worker: its kernels and judges go to their own sandboxes' cgroups, so this one
    holds the worker alone); its directories, [] where no cgroup can be made (then the
    worker's ``RLIMIT_AS`` is its only bound)."""
    parent = cgroup_parent()
    if parent is None:
        return []
    directory = worker_dirs(os.getpid())[0]
    limits = {"memory.max": memory_bytes, "memory.swap.max": 0}  # v2
    if parent.version == 1:
        limits = {"memory.limit_in_bytes": memory_bytes}
        limits["memory.memsw.limit_in_bytes"] = memory_bytes
    try:
        directory.mkdir()
        for name, value in limits.items():
            if (directory / name).exists():
                (directory / name).write_text(str(value))
        (directory / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        remove([directory])
        return []
    return [directory]


def _pids(directory: Path) -> list[int]:
    try:
        return [int(p) for p in (directory / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


@functools.cache
def _hierarchies() -> list[tuple[str, Path, str, set[str]]]:
    """The cgroup mounts of this process (read once: they do not change while grading)."""
    try:
        return [mount for mount in _mounts() if mount[2] in ("cgroup", "cgroup2")]
    except OSError:
        return []


def members(pid: int) -> list[int]:
    """The processes of the sandbox cgroup holding ``pid`` (a sandbox's bwrap process), or
    ``[]`` when it is in none (no cgroup is used, or its shell has not moved in yet).

    Read from ``/proc/PID/cgroup`` and the cgroup's ``cgroup.procs``: the sandbox's processes
    as this process sees them (host PIDs), whatever they did to leave its process tree.
    """
    try:
        with open(f"/proc/{pid}/cgroup", encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    for line in lines:
        number, controllers, path = (line.split(":", 2) + ["", ""])[:3]
        if not path.rsplit("/", 1)[-1].startswith(PREFIX):
            continue
        wanted = set(controllers.split(",")) if number != "0" else set()
        for root, point, fstype, options in _hierarchies():
            if (fstype == "cgroup2") == (number == "0") and wanted <= options:
                places = _candidates(root, point, path)
                found = _pids(places[0]) if places else []
                if found:
                    return found
    return []


def remove(dirs: list[Path], seconds: float = 2.0) -> None:
    """Kill whatever is left in the cgroups ``dirs`` and remove them (never raises)."""
    deadline = time.monotonic() + seconds
    for directory in dirs:
        while directory.exists():
            try:
                if (directory / "cgroup.kill").exists():
                    (directory / "cgroup.kill").write_text("1")
                for pid in _pids(directory):
                    os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                directory.rmdir()
            except FileNotFoundError:
                break
            except OSError:
                if time.monotonic() > deadline:
                    break  # the sweep of a later sandbox will remove it
                time.sleep(0.01)


def _status(pid: str) -> dict[str, str]:
    fields = {}
    with open(f"/proc/{pid}/status", encoding="utf-8") as f:
        for line in f:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return fields


def kill_orphans(marker: bytes) -> None:
    """Kill the sandboxes whose bwrap process died before their PID 1 was bound to it.

    bwrap's PID 1 asks to be killed with the bwrap process (``--die-with-parent``) only once
    its set-up is done: a grader killed within those milliseconds leaves a sandbox running
    with no wall-time limit. Such a PID 1 (a namespace's PID 1 whose command line has
    ``marker``) has another parent than a bwrap process with ``marker``: it is killed, and
    with it its namespace.
    """
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return
    for pid in entries:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker not in f.read():
                    continue
            status = _status(pid)
            if not status.get("NSpid", "").endswith("\t1"):
                continue  # not a namespace's PID 1
            with open(f"/proc/{status['PPid']}/cmdline", "rb") as f:
                if marker in f.read():
                    continue  # its bwrap process is alive
            os.kill(int(pid), signal.SIGKILL)
        except (OSError, KeyError, ValueError):
            continue
