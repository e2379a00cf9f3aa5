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
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from coursekit.grading.executed import execute_in_place

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
    if not check:
        total = 0.0
        for path in paths:
            elapsed = execute_in_place(path)
            total += elapsed
            print(f"{elapsed:6.1f} s  {path}")
        print(f"{total:6.1f} s  in all")
        return 0
    # --check: two at a time (a kernel each: the two cores), in the order given
    start, failed = time.perf_counter(), []
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        for path, outcome in zip(paths, pool.map(_checked, paths), strict=True):
            if isinstance(outcome, float):
                print(f"{outcome:6.1f} s  {path}")
            else:
                print(f"FAIL    {path}\n{outcome}")
                said = str(outcome).strip().splitlines()
                failed.append(f"{path}: {type(outcome).__name__}: {said[-1] if said else ''}")
    print(f"{time.perf_counter() - start:6.1f} s  in all ({JOBS} at a time)")
    for line in failed:
        print(f"FAIL {line}")
    return 1 if failed else 0


JOBS = 2


def _checked(path: Path) -> float | Exception:
    try:
        return run_copy(path)
    except Exception as error:  # noqa: BLE001 - nbclient's CellExecutionError and others
        return error


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
