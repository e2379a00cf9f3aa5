"""``python -m coursekit.grade SUBMISSIONS --out OUT``: the batch grader's command line.

The grader itself is :mod:`coursekit.grading.grader`.
"""

from __future__ import annotations

from .grading.grader import grade_folder, main, parser

__all__ = ["grade_folder", "main", "parser"]

if __name__ == "__main__":
    raise SystemExit(main())
