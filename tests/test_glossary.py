"""One spelling per term: every French and Italian gloss in the chapters is the glossary's.

The chapters gloss a term where they introduce it, as ``(FR *terme*, IT *termine*)``; the
glossary (``coursekit/data/glossary.csv``, read by ``coursekit.course.glossary``) is the one
place where those spellings are decided. A gloss is accepted when it is one of the glossary's
spellings of some term: a cell may list synonyms separated by ", ", and a trailing
parenthesis (an abbreviation such as "(MAP)") is not part of the spelling.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from coursekit.course import glossary

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
GLOSS = re.compile(r"FR \*([^*]+)\*[^*]{0,40}?IT \*([^*]+)\*")


def _bare(term: str) -> str:
    return re.sub(r"\s*\([^)]*\)$", "", " ".join(term.split())).strip()


def _spellings(column: str) -> set[str]:
    found = set()
    for cell in glossary()[column]:
        found.add(_bare(cell))
        found.update(_bare(part) for part in cell.split(", "))
    return found


def _glosses(path: Path) -> list[tuple[int, str, str]]:
    notebook = nbformat.read(path, as_version=4)
    return [
        (index, match.group(1), match.group(2))
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "markdown"
        for match in GLOSS.finditer(" ".join(cell.source.split()))
    ]


def test_the_pattern_reads_a_gloss_split_over_lines():
    text = "a **rank\ncorrelation** (FR *corrélation\nde rangs*, IT *correlazione di rango*) $C$"
    assert GLOSS.findall(" ".join(text.split())) == [
        ("corrélation de rangs", "correlazione di rango")
    ]


def test_the_glossary_has_one_row_per_english_term():
    table = glossary()
    assert not table.index.duplicated().any()
    assert (table[["French", "Italian"]] != "").all().all()


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_every_gloss_of_a_chapter_is_spelled_as_in_the_glossary(path):
    french, italian = _spellings("French"), _spellings("Italian")
    glosses = _glosses(path)
    assert glosses, f"{path.name} glosses no term in French and Italian"
    wrong = [
        f"cell {index}: FR {fr!r}" if _bare(fr) not in french else f"cell {index}: IT {it!r}"
        for index, fr, it in glosses
        if _bare(fr) not in french or _bare(it) not in italian
    ]
    assert not wrong, f"{path.name}: glosses not in coursekit/data/glossary.csv: {wrong}"
