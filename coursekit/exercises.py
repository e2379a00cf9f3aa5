"""The exercise notebooks' self-check, kept at its first address.

Exercise notebooks written before :mod:`coursekit.grading` existed import ``check`` and
``start`` (and may import ``progress``) from here; ``python -m coursekit.exercises build``
regenerates ``exercises/``.
"""

from __future__ import annotations

from .grading import (
    PASSED,
    Choice,
    Function,
    Value,
    check,
    digest,
    judge_value,
    progress,
    start,
)
from .grading.cli import main

__all__ = [
    "PASSED",
    "Choice",
    "Function",
    "Value",
    "check",
    "digest",
    "judge_value",
    "progress",
    "start",
]

if __name__ == "__main__":
    raise SystemExit(main())
