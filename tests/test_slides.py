"""The chapters' slide decks (jupyterlab-rise): every chapter has one, and its metadata are
exactly what ``tools/slides.py`` writes (run ``python tools/slides.py`` after editing a chapter).

How tall each slide is in a browser is measured by ``tests/test_browser.py``.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("slides", ROOT / "tools" / "slides.py")
slides = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(slides)

CHAPTERS = slides.CHAPTERS


def test_every_chapter_is_there():
    assert [p.name[:2] for p in CHAPTERS] == [f"{i:02d}" for i in range(12)]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_the_french_chapter_has_the_english_chapters_slides(path):
    """make slides NB=05 FR=1 shows the French edition's chapter: the same slides (the French
    notebook's own cell, the language's, skipped)."""
    french = slides.chapter(path.name[:2], french=True)
    assert french == slides.ROOT / "notebooks" / "fr" / path.name

    def kinds(notebook):
        cells = nbformat.read(notebook, as_version=4).cells
        shown = [c for c in cells if "coursekit-language" not in c.metadata.get("tags", [])]
        return [(c.id, c.metadata.get("slideshow", {}).get("slide_type")) for c in shown]

    assert kinds(french) == kinds(path)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_every_chapter_has_a_deck_of_at_least_five_slides(path):
    nb = nbformat.read(path, as_version=4)
    types = [c.metadata.get("slideshow", {}).get("slide_type") for c in nb.cells]
    assert types.count("slide") >= 5, f"{path.name}: {types.count('slide')} slides"
    assert types[0] == "slide"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_slide_metadata_are_what_the_tool_writes(path):
    nb = nbformat.read(path, as_version=4)
    assert slides.up_to_date(nb), f"run python tools/slides.py ({path.name} is out of date)"


def _cell(cell_type: str, source: str, **extra):
    make = nbformat.v4.new_markdown_cell if cell_type == "markdown" else nbformat.v4.new_code_cell
    return make(source, **extra)


def inner_headings(text: str) -> list[str]:
    """The markdown headings (``#`` to ``###``) of ``text`` after its first line, code blocks
    aside."""
    found, in_code = [], False
    for i, line in enumerate(text.splitlines()):
        if line.startswith("```"):
            in_code = not in_code
        elif i and not in_code and line[: line.find(" ") + 1] in ("# ", "## ", "### "):
            found.append(line)
    return found


def test_inner_headings_are_found():
    text = "## 1 · A\ntext\n### B\n```\n# a comment\n```\n#### small\n## C"
    assert inner_headings(text) == ["### B", "## C"]
    assert inner_headings("## 1 · A\ntext") == []


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name[:2])
def test_a_heading_starts_its_cell(path):
    """The deck starts a slide or subslide at a cell whose first line is a heading: a heading
    inside a cell would be shown in the middle of the slide before it (and make it too tall)."""
    nb = nbformat.read(path, as_version=4)
    inside = {
        c.id: h for c in nb.cells if c.cell_type == "markdown" and (h := inner_headings(c.source))
    }
    assert inside == {}, f"{path.name}: split these cells at their headings: {inside}"


def test_the_rules():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        _cell("markdown", "# 00 · Title"),
        _cell("code", 'import numpy as np\n\npd.set_option(\n    "display.precision", 4\n)'),
        _cell("markdown", "## 1 · A section"),
        _cell("code", "x = 1"),
        _cell("markdown", "### A subsection"),
        _cell("code", "w = ck.widgets.RelevanceToggler([1, 0])\nw"),
        _cell("markdown", "*Static view.* Without a kernel ..."),
        _cell("code", "w.show_static()"),
        _cell("markdown", "What the widget shows."),  # a subslide: the widget fills its own
        _cell("markdown", "Text " * 2000),  # far taller than a screen: a subslide of its own
        _cell("code", "y = 2"),
    ]
    assert slides.slide_types(nb) == [
        "slide",
        "skip",
        "slide",
        "-",
        "subslide",
        "subslide",
        "skip",
        "skip",
        "subslide",
        "subslide",
        "subslide",
    ]
    assert slides.apply(nb) is True
    assert slides.apply(nb) is False  # idempotent
    assert slides.up_to_date(nb)
    nb.cells[3].metadata["slideshow"]["slide_type"] = "fragment"
    assert not slides.up_to_date(nb)


def test_check_mode_fails_on_stale_metadata(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [_cell("markdown", f"## Section {i}") for i in range(5)]
    path = tmp_path / "00_x.ipynb"
    nbformat.write(nb, path)
    tool = [sys.executable, str(ROOT / "tools" / "slides.py")]
    assert subprocess.run([*tool, "--check", str(path)], capture_output=True).returncode == 1
    assert subprocess.run([*tool, str(path)], capture_output=True).returncode == 0
    assert subprocess.run([*tool, "--check", str(path)], capture_output=True).returncode == 0
    before = path.read_bytes()
    subprocess.run([*tool, str(path)], check=True, capture_output=True)
    assert path.read_bytes() == before
