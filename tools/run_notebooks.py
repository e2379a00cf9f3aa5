"""Execute notebooks in place, as they are committed: in order, in a fresh kernel, no timing.

    .venv/bin/python tools/run_notebooks.py notebooks/02_curves_interpolation.ipynb
    .venv/bin/python tools/run_notebooks.py            # every notebook of notebooks/ and solutions/

nbval (in ``make test``) re-executes each committed notebook and compares its outputs with the
stored ones, so a notebook must be re-run with this script after any change to it or to a
coursekit function it calls. Prints each notebook's execution time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def run(path: Path, timeout: int = 300) -> float:
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
    )
    start = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - start
    notebook.metadata.pop("widgets", None) if not _has_widgets(notebook) else None
    notebook.metadata["kernelspec"] = {
        "display_name": "Python 3",
        "language": "python",
        "name": "python3",
    }
    nbformat.write(notebook, path)
    return elapsed


def _has_widgets(notebook: nbformat.NotebookNode) -> bool:
    return any(
        "application/vnd.jupyter.widget-view+json" in output.get("data", {})
        for cell in notebook.cells
        for output in cell.get("outputs", [])
    )


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted(
        p for folder in ("notebooks", "solutions") for p in (ROOT / folder).glob("*.ipynb")
    )
    total = 0.0
    for path in paths:
        elapsed = run(path)
        total += elapsed
        print(f"{elapsed:6.1f} s  {path}")
    print(f"{total:6.1f} s  in all")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
