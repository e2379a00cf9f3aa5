"""Exercises and their grading: questions, self-check, the build of ``exercises/``, the grader.

Students use :func:`check` and :func:`start` (``from coursekit.grading import check, start``),
and :func:`progress` to list each question's state and their points so far;
lecturers write answer keys with :class:`Value`, :class:`Choice` and :class:`Function` and grade
a folder with ``python -m coursekit.grade``. Nothing here is imported by ``import coursekit``.
"""

from __future__ import annotations

from .judging import compare_outputs, judge_value
from .portable import function_source
from .questions import (
    PASSED,
    Choice,
    Function,
    Mistake,
    Value,
    digest,
    distinct_mistakes,
    without_harmless_mistakes,
)
from .selfcheck import check, progress, start

__all__ = [
    "PASSED",
    "Choice",
    "Function",
    "Mistake",
    "Value",
    "check",
    "compare_outputs",
    "digest",
    "distinct_mistakes",
    "function_source",
    "judge_value",
    "progress",
    "start",
    "without_harmless_mistakes",
]
