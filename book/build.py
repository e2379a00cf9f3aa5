"""Build the static HTML book of the course from the committed, executed notebooks.

    .venv/bin/python book/build.py [OUTDIR]      # default OUTDIR: build/book

Nothing is executed: myst-nb reads the outputs stored in ``notebooks/NN_*.ipynb`` (every
chapter there, so a new ``09_*.ipynb`` joins the book by itself) and shows the exercise
notebooks ``exercises/*.ipynb`` as they are (their outputs are cleared). The pages are put
together under ``OUTDIR/src`` (only files that changed are copied, so a second build is
incremental), Sphinx reads them with the configuration in ``book/conf.py`` and writes
``OUTDIR/html``. Warnings are errors (``-W --keep-going``, ``nitpicky``): a broken
cross-reference or a missing image fails the build.
"""

from __future__ import annotations

import filecmp
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"


def sources() -> dict[str, Path]:
    """Page path in the book -> file in the repository."""
    pages = {p.name: p for p in sorted(BOOK.glob("*.md"))}
    pages.update(
        {f"notebooks/{p.name}": p for p in sorted(ROOT.glob("notebooks/[0-9][0-9]_*.ipynb"))}
    )
    pages.update({f"exercises/{p.name}": p for p in sorted(ROOT.glob("exercises/*.ipynb"))})
    errata = ROOT / "docs" / "errata.md"
    if errata.exists():
        pages["errata.md"] = errata
    return pages


def stage(src: Path) -> None:
    """Make ``src`` hold exactly the book's pages (a removed chapter disappears too)."""
    wanted = sources()
    src.mkdir(parents=True, exist_ok=True)
    for old in [p for p in src.rglob("*") if p.is_file()]:
        if old.relative_to(src).as_posix() not in wanted:
            old.unlink()
    for name, original in wanted.items():
        target = src / name
        if target.exists() and filecmp.cmp(original, target, shallow=False):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(original, target)


def build(out: Path, *extra: str) -> int:
    from sphinx.cmd.build import build_main

    out = out.resolve()
    stage(out / "src")
    args = ["-b", "html", "-W", "--keep-going", "-q", "-c", str(BOOK)]
    args += ["-d", str(out / "doctrees"), *extra, str(out / "src"), str(out / "html")]
    return build_main(args)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "build" / "book"
    status = build(out, *argv[1:])
    if status == 0:
        print(f"book: {out / 'html' / 'index.html'}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
