"""Execute notebooks in place, as they are committed: in order, in a fresh kernel, no timing.

    .venv/bin/python tools/run_notebooks.py notebooks/02_curves_interpolation.ipynb
    .venv/bin/python tools/run_notebooks.py            # every notebook of notebooks/
    .venv/bin/python tools/run_notebooks.py --check    # run them, write nothing (make lab-check)

nbval (in ``make test``) re-executes each committed notebook and compares its outputs with the
stored ones, so a notebook must be re-run with this script after any change to it or to a
coursekit function it calls. Prints each notebook's execution time. (Solutions and exercises
are executed by ``python -m coursekit.exercises build``.)

``--check`` executes copies and writes nothing: ``make lab-check`` (CI, before ``make test``)
runs it in an environment made from the ``lab`` extra alone, so a chapter importing a package
that ``make lab`` does not install fails there, naming the chapter, its cell and the error.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from coursekit.grading.notebooks import execute_in_place

ROOT = Path(__file__).resolve().parents[1]


def run_copy(path: Path) -> float:
    """Execute a copy of ``path`` (beside it: its data files are found as in the original)."""
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".check-") as folder:
        copy = Path(folder) / path.name
        shutil.copyfile(path, copy)
        return execute_in_place(copy)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    argv = [a for a in argv if a != "--check"]
    paths = [Path(a) for a in argv] or sorted((ROOT / "notebooks").glob("*.ipynb"))
    total, failed = 0.0, []
    for path in paths:
        try:
            elapsed = run_copy(path) if check else execute_in_place(path)
        except Exception as error:  # noqa: BLE001 - nbclient's CellExecutionError and others
            if not check:
                raise
            said = str(error).strip().splitlines()
            failed.append(f"{path}: {type(error).__name__}: {said[-1] if said else ''}")
            print(f"FAIL    {path}\n{error}")
            continue
        total += elapsed
        print(f"{elapsed:6.1f} s  {path}")
    print(f"{total:6.1f} s  in all")
    for line in failed:
        print(f"FAIL {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
