"""Small files for the reader tests: written as given (text as UTF-8, or bytes), and the start
of every error a reader gives about one of their lines."""

from __future__ import annotations

import re
from pathlib import Path


def write_file(folder: Path, name: str, data: bytes | str) -> Path:
    """``data`` written to ``folder / name`` (text as UTF-8, bytes as they are)."""
    path = folder / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def at_line(path: Path, line: int) -> str:
    """The start of every file error, as a regex: the file name and the line number."""
    return re.escape(f"{path}, line {line}: ")
