"""The French edition uses the glossary's French terms (issue 37, item 4).

A term of ``coursekit/data/glossary.csv`` is introduced in the chapter its row names; where the
English chapter's text uses the term, its French chapter (``notebooks/fr/``) uses one of the
glossary's French forms (the words in brackets aside), so that a student who meets
« rappel » in the course meets it in the glossary too.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = list(
    csv.DictReader(open(ROOT / "coursekit" / "data" / "glossary.csv", encoding="utf-8"))
)
FRENCH = sorted((ROOT / "notebooks" / "fr").glob("[0-9][0-9]_*.ipynb"))


def _prose(path: Path) -> str:
    notebook = nbformat.read(path, as_version=4)
    text = " ".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    return re.sub(r"\s+", " ", text.lower())


def _forms(french: str) -> list[str]:
    """The French forms of a glossary row: « rappel, taux de rappel (recall) » gives both."""
    parts = re.split(r"[,;]", french.lower())
    return [re.sub(r"\s*\(.*?\)", "", part).strip() for part in parts if part.strip()]


def terms_missing(english_text: str, french_text: str, chapter: str) -> list[str]:
    """The glossary terms of ``chapter`` its English text uses and its French text does not."""
    missing = []
    for row in GLOSSARY:
        term = re.sub(r"\s+", " ", row["English"].lower())
        if row["chapter"].strip() != chapter:
            continue
        if not re.search(r"\b" + re.escape(term) + r"\b", english_text):
            continue
        if not any(form and form in french_text for form in _forms(row["French"])):
            missing.append(f"{row['English']} -> {row['French']}")
    return missing


@pytest.mark.parametrize("french", FRENCH, ids=lambda p: p.name[:2])
def test_each_chapter_uses_the_glossarys_french_terms(french):
    english = ROOT / "notebooks" / french.name
    missing = terms_missing(_prose(english), _prose(french), french.name[:2])
    assert missing == [], f"{french.name}: terms not in their glossary form: {missing}"


def test_the_check_finds_a_term_said_otherwise():
    row = next(r for r in GLOSSARY if r["English"].lower() == "recall")
    chapter = row["chapter"].strip()
    english = "precision and recall of a system"
    assert terms_missing(english, "la précision et le rappel d'un système", chapter) == []
    assert terms_missing(english, "la précision et la couverture d'un système", chapter) != []
