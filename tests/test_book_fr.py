"""The French edition of the static HTML book (``make book-fr``), read in a real browser.

The same pieces as tests/test_book.py: the book is built once for the module, from
``notebooks/fr/`` and ``exercises/fr/`` (``book/build.py --lang fr`` into a temporary folder), or
taken from ``COURSEKIT_BOOK_FR_HTML`` (an existing ``build/book-fr/html``); http.server serves it
on 127.0.0.1 and one Chromium context (a :class:`test_book.Reader`) opens the index, chapter 02
and the search page, failing on any request that leaves 127.0.0.1 or fails, any script error and
any bad text. Skipped without chromium or the book's packages, unless
``COURSEKIT_REQUIRE_BROWSER=1``. A screenshot of chapter 02 goes to
``test-artifacts/book_fr_chapter02.png``.

What the French edition must show in French is checked against the repository, not against the
page: the titles are the first heading of each French notebook, the erratum boxes the French
HTML stored in chapter 02's outputs. The theme's own words are those of Sphinx's French catalog
(sphinx/locale/fr/LC_MESSAGES/sphinx.po): "next" and "previous" are « suivant » and « précédent »,
"Search" is « Recherche » (the search field's placeholder, which book/conf.py takes from it),
"Search Results" is « Résultats de la recherche ».
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from test_book import (
    ARTIFACTS,
    ROOT,
    Reader,
    _is_erratum,
    _is_png,
    _is_widget,
    _outputs,
    _stored,
    built_book,
    served,
)

pytestmark = pytest.mark.browser

FRENCH = ROOT / "notebooks" / "fr"
FRENCH_EXERCISES = ROOT / "exercises" / "fr"
CHAPTERS = sorted(p.stem for p in FRENCH.glob("[0-9][0-9]_*.ipynb"))
EXERCISES = sorted(p.stem for p in FRENCH_EXERCISES.glob("*.ipynb"))
# the theme's words, from Sphinx's French catalog
NEXT, PREVIOUS = "suivant", "précédent"
SEARCH, SEARCH_RESULTS = "Recherche", "Résultats de la recherche"


def _words(text: str) -> str:
    """``text`` with its runs of spaces (no-break ones included) made one space, and its
    apostrophes straight (Sphinx's smartquotes curl those of the notebooks' markdown)."""
    return " ".join(text.replace("\u2019", "'").split())


def _title(notebook: Path) -> str:
    """The first markdown heading of a notebook, as its page shows it."""
    for cell in json.loads(notebook.read_text("utf-8"))["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return _words(line[2:])
    raise AssertionError(f"{notebook}: no heading")


class _Text(HTMLParser):
    """The text of an HTML fragment, a line break (``<br>``) read as a space."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "br":
            self.parts.append(" ")

    def handle_data(self, data):
        self.parts.append(data)


def _html_text(output) -> str:
    parser = _Text()
    parser.feed("".join(output["data"]["text/html"]))
    parser.close()
    return _words("".join(parser.parts))


def _labels(page) -> list[str]:
    """The theme's "previous"/"next" labels at the foot of a page, as written (the theme's CSS
    shows them capitalised)."""
    labels = page.locator(".prev-next-area .prev-next-subtitle")
    return [_words(t) for t in labels.all_text_contents()]


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """The French book's html folder: an existing build, or a fresh one."""
    return built_book(tmp_path_factory, "COURSEKIT_BOOK_FR_HTML", "--lang", "fr")


@pytest.fixture(scope="module")
def site(book):
    with served(book) as base:
        yield base


@pytest.fixture(scope="module")
def tab(browser, site):
    """One browser context for the module's pages."""
    reader = Reader(browser, site)
    yield reader
    reader.close()


@pytest.fixture
def reader(tab):
    """The module's tab, with what went wrong on an earlier test's pages forgotten."""
    tab.problems.clear()
    return tab


def test_french_index_lists_every_french_chapter_and_exercise(reader):
    assert CHAPTERS, "no French chapter in notebooks/fr/"
    page = reader.open("index.html")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert _words(page.locator("article h1").first.inner_text()).startswith("Évaluer")
    reader.check_clean("the French index")
    links, toc = reader.toc(CHAPTERS, EXERCISES)
    # each entry carries the French title of its notebook
    titles = dict(zip(links, map(_words, toc.all_inner_texts()), strict=True))
    for chapter in CHAPTERS:
        assert titles[f"notebooks/{chapter}.html"] == _title(FRENCH / f"{chapter}.ipynb")
    for exercise in EXERCISES:
        expected = _title(FRENCH_EXERCISES / f"{exercise}.ipynb")
        assert titles[f"exercises/{exercise}.html"] == expected
    captions = page.locator("article .toctree-wrapper p.caption").all_inner_texts()
    assert [_words(c) for c in captions] == ["Chapitres"] + (["Exercices"] if EXERCISES else [])
    # the sidebar of the theme lists them too, and its search field speaks French
    assert page.locator("nav.bd-links a[href='notebooks/02_curves_interpolation.html']").count()
    button = page.locator("button.search-button-field .search-button__default-text")
    assert _words(button.first.text_content()) == SEARCH
    field = page.locator("#pst-search-dialog form.bd-search input[name=q]")  # what it opens
    assert field.get_attribute("placeholder") == f"{SEARCH}..."
    assert _labels(page) == [NEXT]


def test_french_chapter_02_figures_errata_and_widget_note(reader):
    chapter = "02_curves_interpolation"
    page = reader.open(f"notebooks/{chapter}.html")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert _words(page.locator("article h1").first.inner_text()) == _title(
        FRENCH / f"{chapter}.ipynb"
    )
    reader.check_figures(chapter, _stored(chapter, _is_png, FRENCH))
    # the erratum boxes as the French notebook stores them (its HTML), not the English text
    errata = _outputs(chapter, _is_erratum, FRENCH)
    boxes = page.locator("article div.coursekit-erratum")
    assert boxes.count() == len(errata) > 0
    for box, erratum in zip(boxes.all(), errata, strict=True):
        box.scroll_into_view_if_needed()
        assert box.is_visible()
        text = _words(box.inner_text())
        assert text == _html_text(erratum)
        assert "Erratum" in text and "printed" not in text and "recomputed" not in text
    # the live widget is replaced by a note in French; its static view follows
    note = page.locator("article div.coursekit-widget")
    assert note.count() == _stored(chapter, _is_widget, FRENCH) == 1
    assert "Widget interactif" in note.inner_text() and "Interactive" not in note.inner_text()
    assert page.locator("script[type='application/vnd.jupyter.widget-view+json']").count() == 0
    assert _labels(page) == [PREVIOUS, NEXT]
    reader.check_clean(chapter)
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollBy(0, -120)")
    page.screenshot(path=str(ARTIFACTS / "book_fr_chapter02.png"))


def test_french_search_finds_rappel(reader):
    # « rappels » is written only in chapter 02: chapter 01 is found through the stemmer, which
    # makes it « rappel »
    page = reader.open("search.html?q=rappels")
    hrefs = reader.search_results()
    pages = {h.split("#")[0].split("?")[0] for h in hrefs}
    assert "notebooks/01_precision_recall.html" in pages, hrefs
    french = {"index.html"} | {f"notebooks/{c}.html" for c in CHAPTERS}
    french |= {f"exercises/{e}.html" for e in EXERCISES}
    assert pages <= french, pages - french
    assert _words(page.locator("#search-results h2").inner_text()) == SEARCH_RESULTS
    # the stemmer is the French one: the English one keeps évaluée and évaluation apart
    assert page.evaluate(
        "() => { const s = new Stemmer(); "
        "return [s.stemWord('rappels'), s.stemWord('évaluée'), s.stemWord('évaluation')] }"
    ) == ["rappel", "évalu", "évalu"]
    reader.check_clean("the French search page")
