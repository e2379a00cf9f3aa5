"""Build the static HTML book of the course from the committed, executed notebooks.

    .venv/bin/python book/build.py [OUTDIR]      # default OUTDIR: build/book
    .venv/bin/python book/build.py --lang fr [OUTDIR]   # the French edition: build/book-fr

Nothing is executed: myst-nb reads the outputs stored in ``notebooks/NN_*.ipynb`` (every
chapter there, so a new ``09_*.ipynb`` joins the book by itself) and shows the exercise
notebooks ``exercises/*.ipynb`` as they are (their outputs are cleared). The pages are put
together under ``OUTDIR/src`` (only files that changed are copied, so a second build is
incremental), Sphinx reads them with the configuration in ``book/conf.py`` and writes
``OUTDIR/html``. Warnings are errors (``-W --keep-going``, ``nitpicky``): a broken
cross-reference or a missing image fails the build.

``--lang fr`` (``make book-fr``) builds the French edition: the chapters of ``notebooks/fr/``
and the exercises of ``exercises/fr/`` (both written by ``tools/translate.py build``), the index
``book/fr/index.md`` with their lists, Sphinx's ``language = "fr"`` (its own texts and the search
in French). The errata (docs/errata.md) are not translated yet, so they are not in it.
"""

from __future__ import annotations

import filecmp
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"


FRENCH_TOC = """

```{toctree}
:caption: Chapitres
:maxdepth: 1
:glob:

notebooks/*
```
"""

FRENCH_EXERCISES = """
Les exercices sont montrés tels qu'ils sont distribués, les réponses restant à écrire : faites-les
dans JupyterLab, où `check(...)` dit si une réponse est juste.

```{toctree}
:caption: Exercices
:maxdepth: 1
:glob:

exercises/*
```
"""


def french_sources() -> dict[str, Path | str]:
    """The French edition's pages: its chapters, its exercises and an index listing them (a
    text), each list left out while nothing of it is translated (an empty glob would be a
    warning, so an error)."""
    chapters = sorted(ROOT.glob("notebooks/fr/[0-9][0-9]_*.ipynb"))
    exercises = sorted(ROOT.glob("exercises/fr/*.ipynb"))
    index = (BOOK / "fr" / "index.md").read_text(encoding="utf-8")
    if not chapters:
        index += "\nAucun chapitre n'est encore traduit.\n"
    index += (FRENCH_TOC if chapters else "") + (FRENCH_EXERCISES if exercises else "")
    pages: dict[str, Path | str] = {"index.md": index}
    pages.update({f"notebooks/{p.name}": p for p in chapters})
    pages.update({f"exercises/{p.name}": p for p in exercises})
    return pages


def sources(language: str = "en") -> dict[str, Path | str]:
    """Page path in the book -> file in the repository (or the page's text)."""
    if language == "fr":
        return french_sources()
    pages = {p.name: p for p in sorted(BOOK.glob("*.md"))}
    pages.update(
        {f"notebooks/{p.name}": p for p in sorted(ROOT.glob("notebooks/[0-9][0-9]_*.ipynb"))}
    )
    pages.update({f"exercises/{p.name}": p for p in sorted(ROOT.glob("exercises/*.ipynb"))})
    errata = ROOT / "docs" / "errata.md"
    if errata.exists():
        pages["errata.md"] = errata
    return pages


def stage(src: Path, language: str = "en") -> None:
    """Make ``src`` hold exactly the book's pages (a removed chapter disappears too)."""
    wanted = sources(language)
    src.mkdir(parents=True, exist_ok=True)
    for old in [p for p in src.rglob("*") if p.is_file()]:
        if old.relative_to(src).as_posix() not in wanted:
            old.unlink()
    for name, original in wanted.items():
        target = src / name
        if isinstance(original, str):  # a page written here
            if not target.exists() or target.read_text(encoding="utf-8") != original:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(original, encoding="utf-8")
            continue
        if target.exists() and filecmp.cmp(original, target, shallow=False):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(original, target)


#: Sphinx settings of the French edition (the rest is book/conf.py's).
FRENCH = {
    "language": "fr",
    "html_search_language": "fr",
    "html_title": "coursekit · évaluer la recherche d'information",
    "project": "coursekit : évaluer la recherche d'information",
}


def build(out: Path, *extra: str, language: str = "en") -> int:
    from sphinx.cmd.build import build_main

    out = out.resolve()
    stage(out / "src", language)
    args = ["-b", "html", "-W", "--keep-going", "-q", "-c", str(BOOK)]
    if language == "fr":
        args += [option for key, value in FRENCH.items() for option in ("-D", f"{key}={value}")]
    args += ["-d", str(out / "doctrees"), *extra, str(out / "src"), str(out / "html")]
    return build_main(args)


def main(argv: list[str]) -> int:
    language = "en"
    if argv[:1] == ["--lang"]:
        language, argv = argv[1], argv[2:]
        if language not in ("en", "fr"):
            print(f"--lang must be en or fr, got {language!r}")
            return 2
    default = ROOT / "build" / ("book" if language == "en" else f"book-{language}")
    out = Path(argv[0]) if argv else default
    status = build(out, *argv[1:], language=language)
    if status == 0:
        print(f"book: {out / 'html' / 'index.html'}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
