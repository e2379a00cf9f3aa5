"""The static HTML book (``make book``), read in a real browser.

The book is built from the committed notebooks into a temporary folder with ``book/build.py``
(Sphinx + myst-nb, nothing executed, warnings are errors), or taken from
``COURSEKIT_BOOK_HTML`` (an existing ``build/book/html``) when that is set. Python's
``http.server`` serves it on 127.0.0.1 and Debian's headless Chromium, driven by Playwright,
opens the index, chapters 02 and 08, an exercise page and the search page. Every request the
pages make must stay on 127.0.0.1 and succeed (no CDN, no missing image or script).

Like tests/test_browser.py, the test is skipped when chromium or the book's packages
(``pip install -e ".[book]"``) are missing, unless ``COURSEKIT_REQUIRE_BROWSER=1``, which makes
that a failure. A screenshot of chapter 02 goes to ``test-artifacts/book_chapter02.png``.
tests/test_book_fr.py reads the French edition (``make book-fr``) with the same pieces.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import importlib.util
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from browser_support import missing

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
BOOK_PACKAGES = ("sphinx", "myst_nb", "sphinx_book_theme", "sphinx-mathjax-offline")
# text that must never show on a page of the book: a traceback or error of a stored output, a
# widget that could not render, a warning that Sphinx or myst-nb wrote into the page
BAD_TEXT = (
    "Traceback (most recent call last)",
    "Loading widget",
    "widget-view+json",
    "Error displaying widget",
    "[mystnb",
    "WARNING:",
    "Could not render",
)
CHAPTERS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
EXERCISES = sorted(p.stem for p in (ROOT / "exercises").glob("*.ipynb"))


def _outputs(notebook: str, predicate, folder: Path = ROOT / "notebooks") -> list[dict]:
    """The outputs of a committed notebook (``folder/notebook.ipynb``) that satisfy
    ``predicate(output)``, in order."""
    cells = json.loads((folder / f"{notebook}.ipynb").read_text("utf-8"))["cells"]
    return [o for c in cells for o in c.get("outputs", []) if predicate(o)]


def _stored(notebook: str, predicate, folder: Path = ROOT / "notebooks") -> int:
    """How many outputs of a committed notebook satisfy ``predicate(output)``."""
    return len(_outputs(notebook, predicate, folder))


def _is_erratum(output) -> bool:
    text = output.get("data", {}).get("text/plain", "")
    return "".join(text).startswith("ERRATUM")


def _is_png(output) -> bool:
    return "image/png" in output.get("data", {})


def _is_widget(output) -> bool:
    return "application/vnd.jupyter.widget-view+json" in output.get("data", {})


def built_book(tmp_path_factory, variable: str, *options: str) -> Path:
    """A book's html folder: the existing build that the environment variable ``variable``
    names, or a fresh one from the committed notebooks (``book/build.py *options``)."""
    existing = os.environ.get(variable)
    if existing:
        html = Path(existing)
        assert (html / "index.html").is_file(), f"{variable}={existing}: no index.html"
        return html
    absent = [name for name in BOOK_PACKAGES if importlib.util.find_spec(name) is None]
    if absent:
        missing(
            f"the book's packages are not installed ({', '.join(absent)}): "
            'pip install -e ".[book]"'
        )
    out = tmp_path_factory.mktemp("book")
    result = subprocess.run(
        [sys.executable, str(ROOT / "book" / "build.py"), *options, str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert result.returncode == 0, f"the book does not build:\n{result.stdout}\n{result.stderr}"
    return out / "html"


@contextlib.contextmanager
def served(html: Path) -> Iterator[str]:
    """A book's html folder on http://127.0.0.1:<free port>, served by Python's http.server."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # no line per request on stderr
            pass

    handler = functools.partial(Quiet, directory=str(html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    """The book's html folder: an existing build, or a fresh one from the committed notebooks."""
    return built_book(tmp_path_factory, "COURSEKIT_BOOK_HTML")


@pytest.fixture(scope="module")
def site(book):
    """The book on http://127.0.0.1:<free port>."""
    with served(book) as base:
        yield base


class Reader:
    """A browser tab on the book that records what went wrong while pages load: requests that
    leave 127.0.0.1 (blocked), failed or 4xx/5xx responses, uncaught script errors."""

    def __init__(self, browser, base: str):
        self.base = base
        self.problems: list[str] = []
        self.context = browser.new_context(viewport={"width": 1400, "height": 1000})
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.problems.append(f"script error: {e}"))
        self.page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url}"))
        self.page.on(
            "response",
            lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"),
        )

    def _route(self, route):
        url = route.request.url
        host = urlparse(url).hostname
        if url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            route.continue_()
        else:
            self.problems.append(f"request outside the book: {url}")
            route.abort()

    def open(self, path: str):
        self.page.goto(f"{self.base}/{path}", wait_until="load", timeout=60_000)
        return self.page

    def check_clean(self, what: str) -> None:
        text = self.page.locator("body").inner_text()
        shown = [bad for bad in BAD_TEXT if bad in text]
        assert not shown, f"{what} shows {shown}"
        assert self.page.locator(".output.traceback, .output.error, .system-message").count() == 0
        assert not self.problems, f"{what}: {self.problems}"

    def check_figures(self, what: str, at_least: int) -> None:
        images = self.page.locator("article img")
        widths = images.evaluate_all(
            "imgs => imgs.map(i => { i.scrollIntoView(); return i.complete ? i.naturalWidth : 0 })"
        )
        assert len(widths) >= at_least, f"{what}: {len(widths)} figures, {at_least} stored"
        assert all(w > 0 for w in widths), f"{what}: an image did not load ({widths})"

    def search_results(self) -> list[str]:
        """The links of the search page's results, once Sphinx has finished its search."""
        self.page.locator("#search-results ul.search li").first.wait_for(timeout=30_000)
        # Sphinx adds results as it finds them, and writes its summary (in the book's language)
        # only when it has finished: read them then
        self.page.wait_for_function(
            "() => (document.querySelector('#search-results .search-summary')?.textContent || '')"
            ".trim() !== ''",
            timeout=30_000,
        )
        results = self.page.locator("#search-results ul.search li a")
        return results.evaluate_all("as => as.map(a => a.getAttribute('href'))")

    def toc(self, chapters: list[str], exercises: list[str]):
        """The index's table of contents, checked to list ``chapters`` then ``exercises``
        (the open page's): its links and its locator."""
        toc = self.page.locator("article .toctree-wrapper a.reference.internal")
        links = toc.evaluate_all("as => as.map(a => a.getAttribute('href'))")
        assert [h for h in links if h.startswith("notebooks/")] == [
            f"notebooks/{c}.html" for c in chapters
        ]
        assert [h for h in links if h.startswith("exercises/")] == [
            f"exercises/{e}.html" for e in exercises
        ]
        return links, toc

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def reader(browser, site):
    reader = Reader(browser, site)
    yield reader
    reader.close()


def test_index_lists_every_chapter_and_exercise(reader):
    page = reader.open("index.html")
    reader.check_clean("the index")
    _, toc = reader.toc(CHAPTERS, EXERCISES)
    # each chapter's entry carries the title of its notebook ("02 · Precision-recall ...")
    titles = toc.all_inner_texts()
    for chapter in CHAPTERS:
        assert any(t.startswith(f"{chapter[:2]} · ") for t in titles), chapter
    # the sidebar of the theme lists them too
    assert page.locator("nav.bd-links a[href='notebooks/02_curves_interpolation.html']").count()


def test_chapter_02_shows_its_figures_errata_and_static_widget_view(reader):
    chapter = "02_curves_interpolation"
    page = reader.open(f"notebooks/{chapter}.html")
    assert "02 · Precision-recall curves" in page.locator("article h1").first.inner_text()
    reader.check_figures(chapter, _stored(chapter, _is_png))
    boxes = page.locator("article div.coursekit-erratum")
    assert boxes.count() == _stored(chapter, _is_erratum) > 0
    box = boxes.first
    box.scroll_into_view_if_needed()
    assert box.is_visible()
    assert "Erratum" in box.inner_text() and "recomputed" in box.inner_text()
    # the live widget is replaced by a note; its static view (a figure) is on the page
    note = page.locator("article div.coursekit-widget")
    assert note.count() == 1 and "Interactive widget" in note.inner_text()
    assert page.locator("script[type='application/vnd.jupyter.widget-view+json']").count() == 0
    reader.check_clean(chapter)
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollBy(0, -120)")
    page.screenshot(path=str(ARTIFACTS / "book_chapter02.png"))


def test_chapter_08_shows_figures_math_and_no_live_widget(reader):
    chapter = "08_comparing_systems"
    page = reader.open(f"notebooks/{chapter}.html")
    assert "08 · Comparing systems" in page.locator("article h1").first.inner_text()
    reader.check_figures(chapter, _stored(chapter, _is_png))
    # MathJax comes with the book (no CDN): the formulas are typeset
    page.locator("mjx-container").first.wait_for(timeout=30_000)
    assert page.locator("article div.coursekit-widget").count() == 1
    assert page.locator("article table.dataframe").count() > 0
    reader.check_clean(chapter)


def test_an_exercise_page(reader):
    exercise = EXERCISES[0]
    page = reader.open(f"exercises/{exercise}.html")
    assert page.locator("article h1").first.inner_text().startswith("Exercises ")
    # the exercise's code cells are shown (with the answers left to write)
    assert page.locator("article div.cell_input").count() > 3
    assert "check(" in page.locator("article").inner_text()
    reader.check_clean(exercise)


def test_search_finds_precision(reader):
    page = reader.open("search.html")
    field = page.locator(".bd-search-container input[name=q]")
    field.fill("precision")
    field.press("Enter")
    hrefs = reader.search_results()
    assert "found" in page.locator("#search-results .search-summary").inner_text()
    assert any("notebooks/01_precision_recall" in h for h in hrefs), hrefs
    assert any(h.startswith("exercises/") for h in hrefs), hrefs
    reader.check_clean("the search page")
