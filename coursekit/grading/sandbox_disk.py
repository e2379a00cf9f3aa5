"""The disk limit of a sandbox: how much its writable folder may hold, checked while it runs.

A sandbox's writable folder is a folder of the host's disk (the kernel's unix sockets must be
seen by the grader, so it cannot be a tmpfs of the sandbox's own), and an unprivileged process
cannot put a quota on it. ``RLIMIT_FSIZE`` caps each file; this module caps the whole folder:
:func:`watch` measures it every ``period`` seconds and calls ``stop`` (which kills the sandbox)
once it holds more than ``max_bytes`` or more than ``max_entries`` files and folders. A writer
can pass the limit by what it writes in one period before it is stopped; the folder is removed
after each submission whatever it holds.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

DEFAULT_MB = 256  # what a writable folder may hold, unless the grader is told otherwise
MAX_ENTRIES = 10_000  # files and folders in a writable folder
PERIOD = 0.25  # seconds between two measures


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


def over(folder: Path, max_bytes: int, max_entries: int = MAX_ENTRIES) -> str | None:
    """Why ``folder`` is over its limit, or None."""
    size, entries = usage(folder, max_entries)
    if entries > max_entries:
        return f"more than {max_entries} files and folders"
    if size > max_bytes:
        return f"more than {max_bytes >> 20} MB"
    return None


async def watch(
    folder: Path,
    max_bytes: int,
    stop: Callable[[str], None],
    max_entries: int = MAX_ENTRIES,
    period: float = PERIOD,
) -> None:
    """Measure ``folder`` every ``period`` s; past a limit call ``stop(reason)`` and return.

    Runs until cancelled (the caller cancels it when the sandbox ends).
    """
    while True:
        reason = await asyncio.to_thread(over, folder, max_bytes, max_entries)
        if reason is not None:
            stop(reason)
            return
        await asyncio.sleep(period)
