"""Taking in submissions: which files are submissions, and reading them without trusting them.

A submission folder is the students' work: any of its entries may be a symbolic link (to the
lecturer's solution, to ``/dev/zero``), a FIFO (blocks whoever opens it), a device, a folder
named ``x.ipynb`` or a file of hundreds of megabytes. :func:`find_submissions` lists every entry
named ``*.ipynb`` without following links (links to folders are not entered), and
:func:`read_submission` opens only a regular file (``O_NOFOLLOW | O_NONBLOCK``, then ``fstat``)
of at most ``max_bytes``; anything else is refused with a message for the grades.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from ..i18n import LANGUAGES

MAX_NOTEBOOK_MB = 20
PYTHON_KERNELS = {"python3", "python", "python3.10", "python3.11", "python3.12", "python3.13"}


def display_name(name: str) -> str:
    """A file name as text that can always be written (undecodable bytes replaced)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def find_submissions(folder: Path) -> list[tuple[Path, str]]:
    """Every entry named ``*.ipynb`` under ``folder`` (links not followed, checkpoints
    skipped) as ``(path, name)``, ``name`` being the relative path without ``.ipynb``."""
    found = []
    for top, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d != ".ipynb_checkpoints")
        # a link or a folder named x.ipynb is listed (and refused), never entered
        entries = [*files, *(d for d in dirs if d.endswith(".ipynb"))]
        dirs[:] = [d for d in dirs if not d.endswith(".ipynb")]
        for entry in entries:
            if entry.endswith(".ipynb"):
                path = Path(top) / entry
                name = str(path.relative_to(folder))[: -len(".ipynb")]
                found.append((path, display_name(name)))
    return sorted(found, key=lambda item: item[1])


def read_submission(path: Path, max_bytes: int) -> bytes:
    """The bytes of ``path`` if it is a regular file (not a link, FIFO, device or folder) of
    at most ``max_bytes``; else a ValueError saying why it is refused."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if os.path.islink(path):
            raise ValueError("refused: a symbolic link, not a file (submit the notebook)") from None
        raise ValueError(f"could not open the file ({error.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("refused: not a regular file (a folder, a FIFO or a device)")
        if info.st_size > max_bytes:
            raise ValueError(
                f"refused: the file has {info.st_size / 2**20:.1f} MB, over the limit of "
                f"{max_bytes / 2**20:g} MB (clear the outputs before submitting)"
            )
        chunks, left = [], max_bytes + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > max_bytes:
            raise ValueError(f"refused: the file grew over the limit of {max_bytes >> 20} MB")
        return data
    finally:
        os.close(fd)


def parse_notebook(data: bytes) -> dict[str, Any]:
    """The notebook in ``data`` as a dict, or a ValueError saying why it is not one."""
    try:
        notebook = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise ValueError(f"not a notebook: not UTF-8 text ({error.reason})") from None
    except json.JSONDecodeError as error:
        raise ValueError(
            f"not a notebook: invalid JSON at line {error.lineno}, column "
            f"{error.colno} ({error.msg})"
        ) from None
    except (ValueError, RecursionError) as error:
        raise ValueError(f"not a notebook: {type(error).__name__}: {str(error)[:100]}") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise ValueError("not a notebook: no list of cells")
    metadata = notebook.get("metadata")
    kernelspec = metadata.get("kernelspec") if isinstance(metadata, dict) else None
    kernelspec = kernelspec if isinstance(kernelspec, dict) else {}
    name = kernelspec.get("name", "python3")
    if name not in PYTHON_KERNELS and kernelspec.get("language") != "python":
        raise ValueError(f"unknown kernel {str(name)[:40]!r}: the exercises run on Python 3")
    return notebook


def chapter_of(notebook: dict[str, Any], name: str, keys: dict[str, Any]) -> str:
    """The chapter of a submission: its metadata's, else the one its file name starts with."""
    metadata = notebook.get("metadata")
    own = metadata.get("coursekit") if isinstance(metadata, dict) else None
    chapter = own.get("chapter") if isinstance(own, dict) else None
    if isinstance(chapter, str) and chapter in keys:
        return chapter
    for key in sorted(keys, key=len, reverse=True):
        if key in name or key[:2] == Path(name).name[:2]:
            return key
    raise ValueError(
        "cannot tell which chapter this is (no coursekit chapter in its metadata "
        "and no chapter number at the start of its file name)"
    )


def feedback_language(notebook: Any, forced: str | None = None) -> str:
    """The language of a submission's feedback: ``forced`` (``--lang``), else the notebook's
    ``metadata.coursekit.language`` when it is one coursekit speaks, else English."""
    if forced:
        return forced
    metadata = notebook.get("metadata") if isinstance(notebook, dict) else None
    own = metadata.get("coursekit") if isinstance(metadata, dict) else None
    said = own.get("language") if isinstance(own, dict) else None
    return said if isinstance(said, str) and said in LANGUAGES else "en"
