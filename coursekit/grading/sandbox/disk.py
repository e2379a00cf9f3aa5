"""The disk limit of a sandbox: how much its writable folder may hold, checked while it runs.

A sandbox's writable folder is a folder of the host's disk (the kernel's unix sockets must be
seen by the grader, so it cannot be a tmpfs of the sandbox's own), and an unprivileged process
cannot put a quota on it. ``RLIMIT_FSIZE`` caps each file; this module caps the whole folder:
:func:`watch` measures it every ``period`` seconds and calls ``stop`` (which kills the sandbox)
once it holds more than ``max_bytes`` or more than ``max_entries`` files and folders. A writer
can pass the limit by what it writes in one period before it is stopped; the folder is removed
after each submission whatever it holds.

What counts is what the disk really holds for the sandbox: the folder's files and, given the
sandbox's bwrap process (``root``), the files its processes deleted but still hold open or
mapped (:func:`held`): such a file has no name left in the folder, yet keeps its blocks until
its last descriptor closes (a notebook that unlinks each file it writes held 1.2 GB under a
256 MB limit before they were counted). The sandbox's processes are those of its cgroup
(:func:`.cgroup.members`), else ``root`` and its descendants. Not seen: descriptors
in flight over a unix socket (``SCM_RIGHTS``, at most ``RLIMIT_NOFILE`` of them, a limit the
sandbox keeps low: :data:`.sandbox.OPEN_FILES`) and files registered in an ``io_uring``.

Before each submission the grader checks that the disk has room for one more sandbox
(:func:`free_space_problem`), so that a nearly full disk stops the run cleanly instead of
giving the classmates "No space left on device".
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from . import cgroup as sandbox_cgroup

DEFAULT_MB = 256  # what a writable folder may hold, unless the grader is told otherwise
MAX_ENTRIES = 10_000  # files and folders in a writable folder
PERIOD = 0.25  # seconds between two measures
# free space wanted besides a submission's limit: what a writer adds in one period past it
# (about 1 GB/s into the page cache) and the grader's own files (feedback, font cache copies)
MARGIN_MB = 256
DELETED = " (deleted)"  # what the kernel appends to the target of a link to a deleted file
FULL_DISK = "the disk holding the grader's temporary folder"  # how free_space_problem starts


def usage(folder: Path, max_entries: int = MAX_ENTRIES) -> tuple[int, int]:
    """(bytes, entries) in ``folder``, following no link; counting stops past ``max_entries``.

    Bytes are allocated blocks (``st_blocks``), so a sparse file counts for what it uses.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "a").write_bytes(b"x" * 10_000)
    ...     (Path(d) / "sub").mkdir()
    ...     size, entries = usage(Path(d))
    >>> size >= 10_000, entries
    (True, 2)
    """
    total, entries, stack = 0, 0, [str(folder)]
    while stack and entries <= max_entries:
        try:
            scan = os.scandir(stack.pop())
        except OSError:  # removed or made unreadable meanwhile: count what can be read
            continue
        with scan:
            for entry in scan:
                entries += 1
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                total += info.st_blocks * 512
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                if entries > max_entries:
                    break
    return total, entries


def processes(root: int) -> list[int]:
    """The processes of the sandbox whose bwrap process is ``root``: its cgroup's (a process
    cannot leave it), else ``root`` and its descendants found in ``/proc`` (an orphan of the
    sandbox is adopted by bwrap's PID 1, a descendant)."""
    members = sandbox_cgroup.members(root)
    if members:
        return members
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    data = f.read()
                parent = int(data[data.rfind(b")") + 2 :].split(None, 2)[1])
            except (OSError, ValueError, IndexError):
                continue  # ended meanwhile
            children.setdefault(parent, []).append(int(entry))
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack.extend(children.get(pid, ()))
    return found


def _filesystem(path: str) -> tuple[int, ...] | None:
    """What tells one mounted file system from another (``f_fsid`` alone is 0 on some)."""
    try:
        info = os.statvfs(path)
    except OSError:
        return None
    return (info.f_fsid, info.f_blocks, info.f_frsize, info.f_files)


def _deleted_links(pid: int) -> Iterable[str]:
    """Links of ``/proc`` to the files process ``pid`` holds after deleting them: its
    threads' descriptors (a thread can have a table of its own) and its mapped files."""
    try:
        tables = [f"/proc/{pid}/task/{tid}/fd" for tid in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        tables = [f"/proc/{pid}/fd"]
    for table in tables:
        try:
            names = os.listdir(table)
        except OSError:
            continue
        for name in names:
            try:
                if os.readlink(f"{table}/{name}").endswith(DELETED):
                    yield f"{table}/{name}"
            except OSError:
                continue
    try:
        with open(f"/proc/{pid}/maps", "rb") as f:
            maps = f.read()
    except OSError:
        return
    for line in maps.splitlines():
        if line.endswith(DELETED.encode()):  # map_files' names have no leading zeros
            start, _, end = line.split(None, 1)[0].partition(b"-")
            yield f"/proc/{pid}/map_files/{int(start, 16):x}-{int(end, 16):x}"


def held(pids: Iterable[int], folder: Path) -> int:
    """Bytes (allocated blocks) of the files of ``folder``'s file system that the processes
    ``pids`` hold open or mapped after deleting them, each file once.

    A file with a name left (another hard link) is not counted here but where its name is:
    the sandbox can make names only in its folder. Deleted files of other file systems (the
    sandbox's ``/tmp``, ``memfd``, shared memory) are memory, limited as such, not counted.
    ``map_files`` can be read as root only: elsewhere mapped files are not counted.
    """
    disk = _filesystem(str(folder))
    seen: set[tuple[int, int]] = set()
    total = 0
    for pid in pids:
        for link in _deleted_links(pid):
            try:
                info = os.stat(link)
            except OSError:
                continue  # closed meanwhile, or not ours to see
            key = (info.st_dev, info.st_ino)
            if info.st_nlink or key in seen or _filesystem(link) != disk:
                continue
            seen.add(key)
            total += info.st_blocks * 512
    return total


def over(
    folder: Path, max_bytes: int, max_entries: int = MAX_ENTRIES, root: int | None = None
) -> str | None:
    """Why ``folder`` is over its limit, or None; with ``root`` (the sandbox's bwrap process)
    the files its processes deleted but still hold count too."""
    size, entries = usage(folder, max_entries)
    if entries > max_entries:
        return f"more than {max_entries} files and folders"
    hidden = held(processes(root), folder) if root is not None and size <= max_bytes else 0
    if size + hidden > max_bytes:
        deleted = f" ({hidden >> 20} MB of it in files deleted but held open)" if hidden else ""
        return f"more than {max_bytes >> 20} MB{deleted}"
    return None


def free_space_problem(folder: Path, need_bytes: int) -> str | None:
    """Why another sandbox should not run with its writable folder in ``folder``: the disk
    holding it has less than ``need_bytes`` free (for unprivileged users); None if it has.

    >>> free_space_problem(Path("."), 0) is None
    True
    """
    if isinstance(need_bytes, bool) or not isinstance(need_bytes, int):
        raise TypeError(f"need_bytes must be an int, got {type(need_bytes).__name__}")
    if need_bytes < 0:
        raise ValueError(f"need_bytes must be at least 0, got {need_bytes}")
    info = os.statvfs(folder)
    free = info.f_bavail * info.f_frsize
    if free >= need_bytes:
        return None
    return (
        f"{FULL_DISK} ({folder}) has only {free >> 20} MB free; a submission needs "
        f"{-(-need_bytes >> 20)} MB (its disk limit and {MARGIN_MB} MB more): free some space, "
        "or set TMPDIR to a folder of a larger disk"
    )


def space_needed(disk_mb: int) -> int:
    """Bytes a disk must have free to grade one more submission of ``disk_mb`` MB at most."""
    return (disk_mb + MARGIN_MB) << 20


async def watch(
    folder: Path,
    max_bytes: int,
    stop: Callable[[str], None],
    max_entries: int = MAX_ENTRIES,
    period: float = PERIOD,
    *,
    root: int | Callable[[], int | None] | None = None,
) -> None:
    """Measure ``folder`` every ``period`` s; past a limit call ``stop(reason)`` and return.

    ``root`` is the sandbox's bwrap process (its PID, or a function giving it, None until it
    has started, called at each measure: a kernel starts after the watch, and may restart):
    the files its processes deleted but hold count too. Runs until cancelled (the caller
    cancels it when the sandbox ends).
    """
    while True:
        pid = root() if callable(root) else root
        reason = await asyncio.to_thread(over, folder, max_bytes, max_entries, pid)
        if reason is not None:
            stop(reason)
            return
        await asyncio.sleep(period)
