"""Write docs/errata.md from the erratum boxes of the executed chapter notebooks.

    .venv/bin/python tools/collect_errata.py          # rewrite docs/errata.md
    .venv/bin/python tools/collect_errata.py --check  # exit 1 if docs/errata.md is out of date

Every erratum of the course is computed in a notebook cell (``coursekit.display.erratum``) and
checked there by nbval; this page only gathers their text outputs, chapter by chapter, so that a
lecturer finds all the errors of the course material in one place. tests/test_errata.py runs
the ``--check`` form.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "errata.md"
HEADER = """# Errata of the course material

The course material (the French lecture slides, the G8 Innovation talk, V. Labatut's M2 slides,
the MOR paper of Audeh, Beaune & Beigbeder, and the Italian course notes; full references in
chapter 00 and in `coursekit.course.SOURCES`) prints some values that its own data contradict.
Each chapter recomputes every worked example with `coursekit` and shows, in a marked box, the
printed value beside the recomputed one and the cause. Each box below is labelled with a short
citation (author, title, year) and the place in the source. This page gathers those boxes; it
is generated from the executed notebooks by `tools/collect_errata.py` (do not edit by hand) and
a test fails when it is out of date.
"""


def errata(path: Path) -> list[str]:
    """The text of every erratum box in an executed notebook, in order."""
    notebook = nbformat.read(path, as_version=4)
    found = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            text = output.get("data", {}).get("text/plain", "")
            if isinstance(text, list):
                text = "".join(text)
            if text.startswith("ERRATUM"):
                found.append(" ".join(text.split()))
    return found


def render() -> str:
    parts = [HEADER]
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        boxes = errata(path)
        if not boxes:
            continue
        parts.append(f"\n## `{path.relative_to(ROOT).as_posix()}`\n")
        parts.extend(f"- {box.removeprefix('ERRATUM ')}" for box in boxes)
    return "\n".join(parts) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run tools/collect_errata.py")
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
