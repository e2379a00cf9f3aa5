"""The French edition's catalogs: the English notebooks' texts and their French, as gettext.

    .venv/bin/python tools/translate.py update            # every chapter's catalog
    .venv/bin/python tools/translate.py update 05 08      # some chapters

The English notebooks (``notebooks/NN_*.ipynb``) are the source of truth. Each has a catalog
``locale/fr/notebooks/NN_*.po`` (read and written with polib): one entry per cell a reader
reads, keyed by the cell's id (``msgctxt``):

- a markdown cell: its whole text (``msgid``) and its French (``msgstr``);
- a code cell with a comment or a string of words: its whole source, translated in its
  comments and in the strings a reader sees (titles, labels, printed sentences) only; the code
  itself stays as it is (the build checks it token by token).

``update`` adds the entries of new cells, marks *fuzzy* an entry whose English changed (the
former English kept as ``#| msgid``, the French kept to be revised) and *obsolete* the entries
of cells that are gone. A fuzzy or empty entry is not used: the cell stays English until a
translator revises it and removes the flag.

    .venv/bin/python tools/translate.py build [NN ...] [--force]   # notebooks/fr/NN_*.ipynb
    .venv/bin/python tools/translate.py check                       # (also: --check)

A chapter is in the French edition when its catalog is *complete*: every cell a reader reads has
its entry, translated, not fuzzy, for the English as it is now. ``build`` writes the French
notebook of each complete chapter (of those named, or of all) and executes it in place (its
outputs are the French figures and readouts): every translated cell gets its French source (a
code cell's translation must have the English code's tokens, comments and strings aside), a cell
``ck.set_language("fr")`` tagged ``coursekit-language`` comes right after the set-up cell (the
one that imports coursekit), and ``metadata.coursekit.language`` says ``"fr"``. A chapter whose
French notebook has the sources the build would give is left as it is (``--force`` executes it
again). ``build --partial NN --out DIR`` previews an incomplete chapter (untranslated cells in
English); such a notebook never goes into ``notebooks/fr/``.

``check`` (``make test`` runs it through ``tests/test_translate.py``) fails, naming the
catalog's ``file:line``, when a chapter in ``notebooks/fr/`` has an entry missing, empty, fuzzy
or out of date with the English, a code translation that changes the code, or a French notebook
whose sources differ from what ``build`` gives (stale); the other chapters are listed as "not
translated yet" (or "complete, not built yet") without failing.
"""

from __future__ import annotations

import argparse
import ast
import copy
import io
import sys
import time
import tokenize
from collections.abc import Iterator, Sequence
from pathlib import Path

import nbformat
import polib

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale" / "fr"
SOURCES = {"notebooks": ROOT / "notebooks"}  # catalog folder -> English notebooks
MARKDOWN = "markdown cell"
CODE = (
    "code cell: translate the comments and the strings a reader sees (titles, labels, "
    "printed sentences); leave the code, names and data as they are"
)
HEADER = {
    "Project-Id-Version": "coursekit course",
    "Language": "fr",
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
}


def has_words(source: str) -> bool:
    """Whether a code cell holds text a reader reads: a comment, or a string with a space."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return False  # IPython syntax (a magic): nothing to translate
    return any(
        t.type == tokenize.COMMENT or (t.type == tokenize.STRING and " " in t.string)
        for t in tokens
    )


def entries(notebook: nbformat.NotebookNode, name: str) -> Iterator[tuple[str, str, str]]:
    """``(cell id, English text, comment)`` of each cell of ``notebook`` a reader reads."""
    seen = set()
    for index, cell in enumerate(notebook.cells):
        key = cell.get("id")
        if not key or key in seen:
            raise ValueError(f"{name}, cell {index}: no id, or the id of another cell")
        seen.add(key)
        if cell.cell_type == "markdown" and cell.source.strip():
            yield key, cell.source, MARKDOWN
        elif cell.cell_type == "code" and has_words(cell.source):
            yield key, cell.source, CODE


def catalog_path(folder: str, notebook: Path) -> Path:
    return LOCALE / folder / f"{notebook.stem}.po"


def update(notebook_path: Path, po_path: Path) -> dict[str, int]:
    """Bring ``po_path`` in step with ``notebook_path``; the counts of entries by state."""
    notebook = nbformat.read(notebook_path, as_version=4)
    po = polib.pofile(str(po_path), wrapwidth=0) if po_path.exists() else polib.POFile(wrapwidth=0)
    po.metadata = {**HEADER, **{k: v for k, v in po.metadata.items() if k not in HEADER}}
    old = {entry.msgctxt: entry for entry in po if not entry.obsolete}
    counts = {"new": 0, "fuzzy": 0, "same": 0, "obsolete": 0}
    kept = []
    for key, text, comment in entries(notebook, notebook_path.name):
        entry = old.pop(key, None)
        if entry is None:
            entry = polib.POEntry(msgctxt=key, msgid=text, msgstr="", comment=comment)
            counts["new"] += 1
        elif entry.msgid != text:
            if entry.msgstr and "fuzzy" not in entry.flags:
                entry.previous_msgid = entry.msgid
                entry.flags.append("fuzzy")
            entry.msgid, entry.comment = text, comment
            counts["fuzzy"] += 1
        else:
            entry.comment = comment
            counts["same"] += 1
        kept.append(entry)
    for entry in old.values():
        entry.obsolete = True
        kept.append(entry)
        counts["obsolete"] += 1
    po[:] = kept
    po_path.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(po_path))
    return counts


def chosen(folder: Path, chapters: Sequence[str]) -> list[Path]:
    """The English notebooks of ``folder`` (``NN_*.ipynb``), those of ``chapters`` if given."""
    paths = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    return [p for p in paths if not chapters or p.stem[:2] in chapters or p.stem in chapters]


