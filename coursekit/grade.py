"""``python -m coursekit.grade SUBMISSIONS --out OUT``: the batch grader's command line.

``python -m coursekit.grade secret S`` writes a new secret (mode 0600) and ``python -m
coursekit.grade release CHAPTER --roster R --secret-file S --out RELEASE/`` per-student variants
(:mod:`coursekit.grading.release`); ``python -m coursekit.grade new-assignment CHAPTER --out
PRIVATE/`` starts a private assignment from a public chapter (graded questions must be private:
:mod:`coursekit.grading.assignment`); ``python -m coursekit.grade export OUT --format
moodle|canvas --roster R --out F`` writes a run's gradebook for an LMS's grade import
(:mod:`coursekit.grading.export`). The grader itself is :mod:`coursekit.grading.grader`. (A
folder of submissions named ``release``, ``secret``, ``export`` or ``new-assignment`` is given
as ``./release``.)
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .grading.worker import SKIPPED_MODULES

# the grader's own start skips what its workers skip (1.1 s of an optional module of
# jsonschema's that no notebook schema uses: see SKIPPED_MODULES)
for _name in SKIPPED_MODULES:
    sys.modules.setdefault(_name, None)  # type: ignore[arg-type]

from .grading.grade_cli import main as grade_main  # noqa: E402
from .grading.grade_cli import parser  # noqa: E402
from .grading.grader import grade_folder  # noqa: E402

__all__ = ["grade_folder", "main", "parser"]


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["release"]:
        from .grading.release import main as release_main

        return release_main(argv[1:])
    if argv[:1] == ["secret"]:
        from .grading.release import secret_main

        return secret_main(argv[1:])
    if argv[:1] == ["export"]:
        from .grading.export import main as export_main

        return export_main(argv[1:])
    if argv[:1] == ["new-assignment"]:
        from .grading.assignment import main as assignment_main

        return assignment_main(argv[1:])
    return grade_main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
