"""Execute notebooks in place, as they are committed: in order, in a fresh kernel, no timing.

    .venv/bin/python tools/run_notebooks.py notebooks/02_curves_interpolation.ipynb
    .venv/bin/python tools/run_notebooks.py            # every notebook of notebooks/

nbval (in ``make test``) re-executes each committed notebook and compares its outputs with the
stored ones, so a notebook must be re-run with this script after any change to it or to a
coursekit function it calls. Prints each notebook's execution time. (Solutions and exercises
are executed by ``python -m coursekit.exercises build``.)
"""

from __future__ import annotations

import sys
from pathlib import Path

from coursekit.grading.notebooks import execute_in_place

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted((ROOT / "notebooks").glob("*.ipynb"))
    total = 0.0
    for path in paths:
        elapsed = execute_in_place(path)
        total += elapsed
        print(f"{elapsed:6.1f} s  {path}")
    print(f"{total:6.1f} s  in all")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
