"""Live widgets in the lecture deck: the chapters shown as reveal.js slides by Voila
(``make slides NB=02``, that is ``python tools/slides.py --present 02``), in Debian's headless
Chromium driven by Playwright.

jupyterlab-rise's slide view loads no widget manager (jupyterlab-contrib/rise#119): there the
chapters' widgets show only their text. Voila's reveal template runs the notebook in a kernel and
renders its outputs with the widget manager; ``tools/slides.py`` serves it with the course's own
template (``tools/deck/voila/templates/coursekit-deck/``: the sizes of a lecture slide). One Voila
server is started as ``make slides`` starts it, but for the whole course folder
(``/voila/render/notebooks/NN_....ipynb``), and three tests use it:

* chapter 02: go to the slide of the relevance toggler, click a rank and read the new AP, which
  must be the value coursekit gives; at 1280 x 720 and 1920 x 1080 the rank buttons and the AP
  readout are inside the slide and the window;
* every chapter's widget (01-11), on its slide: change one control (a button, else a menu, else
  a slider's handle by the keyboard) and wait for the widget's readout to change;
* every chapter (00-11): every (sub)slide is shown in turn (the URL's ``#/h/v``, which reveal.js
  follows: Voila's bundle does not expose its ``Reveal`` object) at 1280 x 720, then, in the same
  page, at 1920 x 1080; and again at 1280 x 720 in copies of the chapters that call
  ``ck.views.lecture_mode()`` after importing coursekit (figures at 144 dpi, larger fonts).
  Measured: reveal.js's ``.slides`` box (the 1280 x 720 slide, scaled to fill the window with a
  4 % margin), and the bounding box of everything the present slide shows, the contents of a
  scrolling box counting as that box. Asserted: ``.slides`` is in the window, at reveal.js's
  scale; no slide's content is above, below or beside ``.slides``; no slide is taller than the
  slide (the template's ``coursekit-fit.js`` puts a figure beside its code, then lets a long
  table or long code scroll in its own box); on a widget's slide, the widget's controls, figure
  and readout are all in view, neither below the slide nor scrolled away in a box; no widget's
  description or button text is cut short with an ellipsis (French labels are longer). What was laid
  out how, and the time each chapter takes to run in Voila, are written to
  ``test-artifacts/voila-slides.json`` (lecture mode: ``voila-slides-lecture.json``).

Not measured: whether the text is readable from the back of a room (the template's sizes are
chosen for that; see its CSS), and the figures inside the outputs (they are pictures).

Skipped without chromium, Voila or sphinx-revealjs (reveal.js's style sheets, served by Voila so
that no network is needed), unless ``COURSEKIT_REQUIRE_BROWSER=1``: then they are failures.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import IO

import nbformat
import pytest
from browser_support import free_port, missing, stop

import coursekit as ck

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("slides", ROOT / "tools" / "slides.py")
slides = importlib.util.module_from_spec(_spec)  # voila_command: what make slides runs
_spec.loader.exec_module(slides)
NOTEBOOK = ROOT / "notebooks" / "02_curves_interpolation.ipynb"
CHAPTERS = slides.CHAPTERS
SIZES = ((1280, 720), (1920, 1080))
ARTIFACTS = ROOT / "test-artifacts"
SLIDE = slides.VOILA_REVEAL  # the slide's own size, before reveal.js scales it

#: The location (#/h/v) of the (sub)slide that holds the first element matching a selector.
SLIDE_OF = """(selector) => {
    const el = document.querySelector(selector);
    const tops = [...document.querySelectorAll('.reveal .slides > section')];
    const h = tops.findIndex(s => s.contains(el));
    const v = [...tops[h].querySelectorAll(':scope > section')].findIndex(s => s.contains(el));
    return `#/${h}/${Math.max(v, 0)}`;
}"""

#: Where reveal.js's .slides and the present slide's content are, in the window's pixels.
MEASURE = """() => {
    const box = (r) => [r.left, r.top, r.right, r.bottom];
    const slides = document.querySelector('.reveal .slides');
    const present = [...slides.querySelectorAll('section.present')].pop();  // the innermost
    let [l, t, r, b] = box(present.getBoundingClientRect());
    for (const e of present.querySelectorAll('*')) {  // anything that overflows the section
        const x = e.getBoundingClientRect();
        if (x.width && x.height) {
            l = Math.min(l, x.left); t = Math.min(t, x.top);
            r = Math.max(r, x.right); b = Math.max(b, x.bottom);
        }
    }
    return {window: [innerWidth, innerHeight], slides: box(slides.getBoundingClientRect()),
            content: [l, t, r, b], transform: slides.style.transform};
}"""


#: The deck is ready: Voila has run the notebook and shown its cells, reveal.js has started, and
#: the widget manager has drawn what it draws (nothing changes in the page for 400 ms).
READY = """async () => {
    while (document.getElementById('loading')
           || !document.querySelector('.reveal .slides section.present')) {
        await new Promise(r => setTimeout(r, 100));
    }
    await new Promise(done => {
        let timer = setTimeout(finish, 400);
        const observer = new MutationObserver(() => {
            clearTimeout(timer);
            timer = setTimeout(finish, 400);
        });
        observer.observe(document.body, {childList: true, subtree: true, attributes: true});
        function finish() { observer.disconnect(); done(); }
        setTimeout(finish, 15000);
    });
}"""

#: Change one control of the chapter's widget on its slide and wait for its readout to change:
#: a button not pressed (a rank, a subtopic, a formula, a swap), else the next choice of a menu,
#: else a slider's handle one step to the right (the keyboard's arrow). Up to three controls are
#: tried, 10 s each; null for a chapter without a widget.
LIVE = """async () => {
    const readout = document.querySelector('.coursekit-readout');
    if (!readout) return null;
    const tops = [...document.querySelectorAll('.reveal .slides > section')];
    const h = tops.findIndex(s => s.contains(readout));
    const v = [...tops[h].querySelectorAll(':scope > section')].findIndex(s => s.contains(readout));
    location.hash = `#/${h}/${Math.max(v, 0)}`;
    await new Promise(r => setTimeout(r, 300));
    const widget = readout.closest('.jp-OutputArea-output');
    const changes = [
        ...[...widget.querySelectorAll('button:not(.mod-active)')].map(
            b => ['button', () => b.click()]),
        ...[...widget.querySelectorAll('select')].map(m => ['menu', () => {
            m.selectedIndex = (m.selectedIndex + 1) % m.options.length;
            m.dispatchEvent(new Event('change', {bubbles: true}));
        }]),
        ...[...widget.querySelectorAll('.noUi-handle')].map(x => ['slider', () => x.dispatchEvent(
            new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}))]),
    ].slice(0, 3);
    for (const [kind, change] of changes) {
        const before = readout.innerHTML;
        change();
        for (let t = 0; t < 100; t++) {
            await new Promise(r => setTimeout(r, 100));
            if (readout.innerHTML !== before) return {changed: kind, at: location.hash};
        }
    }
    return {changed: false, tried: changes.map(c => c[0]), at: location.hash};
}"""

#: What a lecturer uses in a widget: its controls, its figure and its readout.
WIDGET_PARTS = ", ".join(
    f".jupyter-widgets {x}"
    for x in (
        "button",
        "select",
        "input",
        ".widget-slider .slider-container",
        ".coursekit-figure",
        ".coursekit-readout",
    )
)

#: Show every (sub)slide in turn (reveal.js follows the URL's #/h/v) and measure it: reveal.js's
#: .slides box, and the box of everything the slide shows (the contents of a box that scrolls
#: count as that box), in the window's pixels; how much the slide scrolls, in slide pixels.
WALK = """async () => {
    const WIDGET_PARTS = WIDGET_PARTS_JSON;
    const reveal = document.querySelector('.reveal');
    const slides = reveal.querySelector('.slides');
    const where = [];
    [...slides.querySelectorAll(':scope > section')].forEach((s, h) => {
        const n = s.querySelectorAll(':scope > section').length;
        for (let v = 0; v < Math.max(n, 1); v++) where.push([h, v]);
    });
    const box = (r) => [r.left, r.top, r.right, r.bottom].map(x => Math.round(x * 10) / 10);
    const result = [];
    for (const [h, v] of where) {
        const hash = `#/${h}/${v}`;
        if (location.hash !== hash && !(h === 0 && v === 0 && !location.hash)) {
            const changed = new Promise(
                r => reveal.addEventListener('slidechanged', r, {once: true}));
            location.hash = hash;
            await Promise.race([changed, new Promise(r => setTimeout(r, 2000))]);
        }
        // the deck's coursekit-fit.js lays a slide out again when it is shown or changes size
        // (three frames; a page in the background draws no frame: then 100 ms each)
        for (let i = 0; i < 3; i++) {
            await Promise.race([new Promise(r => requestAnimationFrame(r)),
                                new Promise(r => setTimeout(r, 100))]);
        }
        const present = [...slides.querySelectorAll('section.present')].pop();
        const all = [present, ...present.querySelectorAll('*')];
        const clips = all.filter(e => {
            const style = getComputedStyle(e);
            return style.overflowX !== 'visible' || style.overflowY !== 'visible';
        });
        let [l, t, r, b] = [Infinity, Infinity, -Infinity, -Infinity];
        for (const e of all) {
            if (clips.some(c => c !== e && c.contains(e))) continue;  // inside a box that scrolls
            const x = e.getBoundingClientRect();
            if (x.width && x.height) {
                l = Math.min(l, x.left); t = Math.min(t, x.top);
                r = Math.max(r, x.right); b = Math.max(b, x.bottom);
            }
        }
        result.push({
            at: hash.slice(2),
            cells: [...present.children].filter(c => c.getBoundingClientRect().height > 0).length,
            widget: !!present.querySelector('.jupyter-widgets'),
            content: box({left: l, top: t, right: r, bottom: b}),
            // a slide that scrolls is as high as the slide (its clientHeight): in slide px
            scrolls: Math.round(
                (present.scrollHeight / present.clientHeight - 1) * slides.offsetHeight),
            text: present.innerText.trim().slice(0, 50),
            // a widget's controls, figure and readout that are not in view (below the slide
            // or scrolled away in a box)
            hidden: [...present.querySelectorAll(WIDGET_PARTS)].filter(e => {
                const x = e.getBoundingClientRect();
                if (!x.height) return false;
                return [present, ...clips.filter(c => c !== present && c.contains(e))].some(c => {
                    const y = c.getBoundingClientRect();
                    return x.top < y.top - 1 || x.bottom > y.bottom + 1;
                });
            }).map(e => e.className.split(' ').filter(c => c.startsWith('widget-')
                || c.startsWith('coursekit-'))[0] || e.tagName),
            boxes: [...present.querySelectorAll('.ck-scroll')].map(
                b => Math.round(b.scrollHeight - b.clientHeight)),
            side: present.querySelectorAll('.ck-side').length,
            // a widget's description or button text cut short (shown with an ellipsis)
            labels: [...present.querySelectorAll(LABELS)].filter(
                e => e.getBoundingClientRect().width && e.textContent.trim()).length,
            cut: [...present.querySelectorAll(LABELS)].filter(
                e => e.getBoundingClientRect().width && e.scrollWidth > e.clientWidth + 1)
                .map(e => e.textContent.trim()),
        });
    }
    return {window: [innerWidth, innerHeight], slides: box(slides.getBoundingClientRect()),
            slide: [slides.offsetWidth, slides.offsetHeight], result};
}"""
#: A widget's description (ipywidgets' label) and its buttons' text: ellipsised when too long.
LABELS = ".widget-label, .widget-button, .widget-toggle-button"
WALK = WALK.replace("WIDGET_PARTS_JSON", json.dumps(WIDGET_PARTS)).replace(
    "LABELS", json.dumps(LABELS)
)


def start_voila(
    *extra: str, log_name: str = "voila.log", notebook: Path | None = None
) -> tuple[subprocess.Popen, str, IO]:
    """Voila serving the chapters as reveal.js decks on 127.0.0.1, started as make slides does
    (for the course folder, or with ``notebook`` for that chapter alone, as ``make slides NB=05``;
    ``extra``: options after make slides' own), once it answers: the process, the base URL and
    its log (in ``test-artifacts``)."""
    for module, what in (("voila", "Voila"), ("sphinx_revealjs", "sphinx-revealjs")):
        if importlib.util.find_spec(module) is None:
            missing(f"{what} is not installed (pip install -e '.[lab]')")
    css = slides.reveal_css_dir()
    if css is None or not css.is_relative_to(ROOT):
        missing(f"reveal.js's style sheets are not under the course folder ({css})")
    port = free_port()
    command = slides.voila_command(
        notebook,
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={port}",
        "--port_retries=0",
        *extra,
    )
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / log_name
    log = open(log_path, "w")  # noqa: SIM115 - closed by the caller
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=slides.voila_env()
    )
    base = f"http://127.0.0.1:{port}"
    # reveal.js's style sheet, served by Voila: the server is up (asking for the deck itself
    # would run the notebook once more)
    css_url = f"{base}/voila/files/{css.relative_to(ROOT).as_posix()}/dist/reveal.css"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(css_url, timeout=2) as answer:
                assert answer.status == 200
                return process, base, log
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                stop(process)
                log.close()
                raise RuntimeError("Voila did not start:\n" + log_path.read_text()) from None
            time.sleep(0.3)


@pytest.fixture(scope="module")
def deck():
    """Voila serving the chapters, as make slides starts it (:func:`start_voila`)."""
    process, base, log = start_voila()
    yield base
    stop(process)
    log.close()


def url(base: str, notebook: Path) -> str:
    return f"{base}/voila/render/{notebook.relative_to(ROOT).as_posix()}"


def _number(text: str) -> float:
    match = re.search(r"-?\d+(?:\.\d+)?", text)
    assert match, f"no number in {text!r}"
    return float(match[0])


def test_widget_is_live_in_the_deck_and_the_slide_fills_the_screen(deck, browser):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    measured = {}
    try:
        page.goto(url(deck, NOTEBOOK), timeout=120_000)  # Voila answers once it has run
        toggler = page.locator(".widget-vbox", has=page.locator(".widget-toggle-button")).first
        toggler.wait_for(state="attached", timeout=60_000)  # the widget manager drew it
        page.evaluate(
            "(h) => { location.hash = h; }", page.evaluate(SLIDE_OF, ".widget-toggle-button")
        )
        buttons = toggler.locator(".widget-toggle-button")
        expect(buttons.first).to_be_visible(timeout=30_000)
        ap_cell = toggler.locator("td", has_text=re.compile(r"^AP$")).first.locator(
            "xpath=following-sibling::td[1]"
        )
        ap_cell.wait_for(timeout=30_000)
        pressed = buttons.evaluate_all("bs => bs.map(b => b.classList.contains('mod-active'))")
        rels = [int(p) for p in pressed]
        n_relevant = int(toggler.locator("input[type=number]").first.input_value())
        before = ap_cell.inner_text()
        rank = next((i for i, r in enumerate(rels, 1) if r == 0), 1)
        buttons.nth(rank - 1).click()
        expect(ap_cell).not_to_have_text(before, timeout=30_000)  # the kernel answered
        after = _number(ap_cell.inner_text())
        for width, height in ((1280, 720), (1920, 1080)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(800)  # reveal.js lays the deck out again on resize
            measured[width, height] = m = page.evaluate(MEASURE)
            m["used"] = [  # the first and last rank buttons, the AP readout
                list(box.values())
                for box in (b.bounding_box() for b in (buttons.first, buttons.last, ap_cell))
            ]
            page.screenshot(path=str(ARTIFACTS / f"voila-slide-{width}x{height}.png"))
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "voila-slide-failed.png"))
        raise
    finally:
        context.close()
    after_rels = [r if i != rank else 1 - r for i, r in enumerate(rels, 1)]
    expected = ck.average_precision(after_rels, max(n_relevant, sum(after_rels)))
    assert after == pytest.approx(round(expected, 4), abs=5e-5)
    assert _number(before) != after
    report = {}
    for (width, height), m in measured.items():
        left, top, right, bottom = m["slides"]
        scale = (right - left) / SLIDE["width"]
        cl, ct, cr, cb = m["content"]
        report[f"{width}x{height}"] = {
            **m,
            "scale": round(scale, 4),
            "content below the slide (slide px)": round(max(0, cb - bottom) / scale),
        }
        assert m["window"] == [width, height]
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, (width, m)
        assert (bottom - top) == pytest.approx(SLIDE["height"] * scale, abs=1)
        assert cl >= 0 and ct >= top - 1 and cr <= width, f"content cut at the sides: {m}"
        for x, y, w, h in m["used"]:
            assert left <= x and x + w <= right and top <= y and y + h <= bottom, (width, m)
        if (width, height) == (1920, 1080):
            assert scale > 1, f"the slide is not scaled up on a 1920 x 1080 screen: {m}"
    (ARTIFACTS / "voila-slide-02.json").write_text(json.dumps(report, indent=1))
    # Voila's reveal.js script calls MathJax 2's MathJax.Hub at each change of slide, and Voila
    # 0.5 loads no MathJax 2: a harmless error of its own, left out
    assert [e for e in errors if "'Hub'" not in e] == []


def reveal_scale(width: int, height: int) -> float:
    """reveal.js's scale of the slides in a window: as large as fits, 4 % margin, at most 2."""
    return min(width * 0.96 / SLIDE["width"], height * 0.96 / SLIDE["height"], 2.0)


def walk_chapters(deck, browser, notebooks, sizes, live=None) -> tuple[dict, dict, float]:
    """Every (sub)slide of each notebook at each size: WALK's measures by notebook and size,
    the time each notebook took to run in Voila and to be measured, and the seconds in all;
    with a dict ``live``, each notebook's widget is also changed once (LIVE) after the first
    size, and what changed is put there."""
    context = browser.new_context(viewport={"width": sizes[0][0], "height": sizes[0][1]})
    measured, timing, pages = {}, {}, {}
    started = time.monotonic()

    def start(notebook: Path) -> None:  # Voila runs two chapters at once: the run is the cost
        page = context.new_page()
        page.goto(url(deck, notebook), wait_until="commit", timeout=180_000)
        pages[notebook] = (page, time.monotonic())

    try:
        for i, notebook in enumerate(notebooks):
            if notebook not in pages:
                start(notebook)
            if i + 1 < len(notebooks):
                start(notebooks[i + 1])
            page, opened = pages.pop(notebook)
            page.bring_to_front()  # a page in the background draws no frame
            page.evaluate(READY)
            ready = time.monotonic()
            measured[notebook.stem] = chapter = {}
            for width, height in sizes:
                if page.viewport_size != {"width": width, "height": height}:
                    page.set_viewport_size({"width": width, "height": height})
                    expected = SLIDE["width"] * reveal_scale(width, height)
                    page.wait_for_function(  # reveal.js lays the deck out again on resize
                        "(w) => Math.abs(document.querySelector('.reveal .slides')"
                        ".getBoundingClientRect().width - w) < 1",
                        arg=expected,
                        timeout=10_000,
                    )
                chapter[f"{width}x{height}"] = page.evaluate(WALK)
                if live is not None and notebook.stem not in live:
                    live[notebook.stem] = page.evaluate(LIVE)
            timing[notebook.stem] = {
                "ready (s)": round(ready - opened, 1),
                "measured (s)": round(time.monotonic() - ready, 1),
            }
            page.close(run_before_unload=True)  # Voila's page asks to shut its kernel down
    finally:
        context.close()
    return measured, timing, round(time.monotonic() - started, 1)


def slide_problems(measured: dict) -> tuple[list[str], dict]:
    """What does not fit (a slide that scrolls, content beside or below the slide, a widget's
    control, figure or readout out of view), and the report of each notebook and size."""
    problems, report = [], {}
    for name, chapter in measured.items():
        report[name] = entry = {}
        for size, m in chapter.items():
            width, height = m["window"]
            left, top, right, bottom = m["slides"]
            scale = (right - left) / SLIDE["width"]
            assert m["slide"] == [SLIDE["width"], SLIDE["height"]], (name, size, m["slide"])
            assert scale == pytest.approx(reveal_scale(width, height), abs=1e-3), (name, size)
            assert left >= 0 and top >= 0 and right <= width and bottom <= height, (name, size)
            out, boxes, side = [], [], []
            for s in m["result"]:
                cl, ct, cr, cb = s["content"]
                beyond = [round(x / scale) for x in (left - cl, ct - top, cr - right, cb - bottom)]
                if max(beyond) > 1:
                    out.append({"slide": s["at"], "beyond (left, top, right, bottom)": beyond})
                if s["scrolls"] > 1:
                    problems.append(
                        f"{name} {size}: slide {s['at']} ({s['text'][:30]!r}) is taller than "
                        f"the slide by {s['scrolls']} px and scrolls (split it)"
                    )
                if s["hidden"]:
                    problems.append(
                        f"{name} {size}: slide {s['at']}: the widget's {sorted(set(s['hidden']))}"
                        " are not in view"
                    )
                if s["cut"]:
                    problems.append(
                        f"{name} {size}: slide {s['at']}: widget labels cut short (an "
                        f"ellipsis): {s['cut']} (a shorter text, or a wider description)"
                    )
                if s["boxes"]:
                    boxes.append({k: s[k] for k in ("at", "widget", "boxes", "text")})
                if s["side"]:
                    side.append(s["at"])
            entry[size] = {
                "scale": round(scale, 4),
                "slides": len(m["result"]),
                "content beyond the slide": out,
                "boxes that scroll (slide, hidden px of each)": boxes,
                "figures beside their code": side,
            }
            problems += [f"{name} {size}: {x}" for x in out]
    return problems, report


def test_every_slide_of_every_chapter_fits_the_screen(deck, browser):
    """Every (sub)slide of every chapter, at 1280 x 720 and 1920 x 1080: nothing beside or below
    the slide, no slide taller than the slide, every widget's controls, figure and readout in
    view (see the module's docstring)."""
    live = {}
    measured, timing, seconds = walk_chapters(deck, browser, CHAPTERS, SIZES, live)
    problems, chapters = slide_problems(measured)
    report = {"seconds": seconds, "timing": timing, "widget changed": live, "chapters": chapters}
    (ARTIFACTS / "voila-slides.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    # every chapter from 01 on has a widget, live in the deck: a change reaches its readout
    assert live.pop("00_introduction") is None
    assert {k: bool(v and v["changed"]) for k, v in live.items()} == dict.fromkeys(live, True), live
    assert problems == [], "\n".join(map(str, problems))


def lecture_copy(notebook: Path, folder: Path) -> Path:
    """A copy of ``notebook`` in ``folder`` that calls ``ck.views.lecture_mode()`` right after
    its cell importing coursekit, as the README tells a lecturer to (the cell is a set-up cell:
    tools/slides.py skips it in the deck)."""
    nb = nbformat.read(notebook, as_version=4)
    at = next(
        i
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and "import coursekit as ck" in c.source
    )
    cell = nbformat.v4.new_code_cell("ck.views.lecture_mode()")
    cell.metadata["slideshow"] = {"slide_type": "skip"}
    nb.cells.insert(at + 1, cell)
    for c in nb.cells:
        if c.cell_type == "code":
            c.outputs, c.execution_count = [], None
    path = folder / notebook.name
    nbformat.write(nb, path)
    return path


def test_every_slide_of_the_french_edition_fits_the_screen(deck, browser):
    """The French chapters (``make slides NB=05 FR=1``), whose text is longer than the English,
    at 1280 x 720: every slide fits as in English, and every widget is live."""
    french = [ROOT / "notebooks" / "fr" / chapter.name for chapter in CHAPTERS]
    live = {}
    measured, timing, seconds = walk_chapters(deck, browser, french, SIZES[:1], live)
    problems, chapters = slide_problems(measured)
    report = {"seconds": seconds, "timing": timing, "widget changed": live, "chapters": chapters}
    (ARTIFACTS / "voila-slides-fr.json").write_text(
        json.dumps(report, indent=1, ensure_ascii=False)
    )
    assert problems == [], "\n".join(problems)
    assert live.pop("00_introduction") is None
    assert {k: bool(v and v["changed"]) for k, v in live.items()} == dict.fromkeys(live, True), live


def test_every_slide_fits_the_screen_in_lecture_mode(deck, browser):
    """The same at 1280 x 720 with ``ck.views.lecture_mode()`` (figures drawn at 144 dpi,
    larger fonts and readouts): every chapter, every slide."""
    folder = ARTIFACTS / "lecture-deck"
    folder.mkdir(parents=True, exist_ok=True)
    copies = [lecture_copy(notebook, folder) for notebook in CHAPTERS]
    assert "lecture_mode()" in copies[0].read_text()
    measured, timing, seconds = walk_chapters(deck, browser, copies, SIZES[:1])
    problems, chapters = slide_problems(measured)
    report = {"seconds": seconds, "timing": timing, "chapters": chapters}
    (ARTIFACTS / "voila-slides-lecture.json").write_text(
        json.dumps(report, indent=1, ensure_ascii=False)
    )
    assert problems == [], "\n".join(map(str, problems))


def _kernels(process: subprocess.Popen) -> list:
    """The kernels Voila runs: its child processes that are ipykernel's."""
    import psutil

    children = psutil.Process(process.pid).children(recursive=True)
    found = []
    for child in children:
        try:
            if any("ipykernel" in part for part in child.cmdline()):
                found.append(child)
        except psutil.NoSuchProcess:  # (gone since listed)
            continue
    return found


def test_a_closed_deck_frees_its_kernel_and_an_open_one_keeps_it(browser):
    """make slides' kernel culling (``tools/slides.py``'s ``KERNEL_CULLING``), with 3 s for
    its 20 minutes: a deck left open and idle keeps its kernel (its widgets stay live); once
    its page is closed, the kernel is shut down (Voila's own request to do so is refused:
    voila-dashboards/voila#1458)."""
    made = slides.voila_command(None)  # make slides' command: culls, a connected kernel never
    assert set(slides.KERNEL_CULLING) <= set(made)
    assert "--MappingKernelManager.cull_connected=False" in made
    timeout = 3
    process, base, log = start_voila(
        f"--MappingKernelManager.cull_idle_timeout={timeout}",
        "--MappingKernelManager.cull_interval=1",
        log_name="voila-culling.log",
    )
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(url(base, CHAPTERS[0]), timeout=120_000)
        page.evaluate(READY)
        assert len(_kernels(process)) == 1
        time.sleep(3 * timeout)  # idle three times the timeout, the page open: kept
        assert len(_kernels(process)) == 1, "the kernel of an open deck was shut down"
        assert page.locator(".reveal .slides section.present").count() >= 1
        page.close(run_before_unload=True)  # (Voila's page asks, and is refused)
        deadline = time.monotonic() + 30
        while _kernels(process) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not _kernels(process), "the kernel of a closed deck is still running after 30 s"
    finally:
        context.close()
        stop(process)
        log.close()


def test_a_chapters_deck_reloads_from_a_preheated_kernel_with_its_widget_live(browser):
    """make slides NB=05 (``tools/slides.py``'s ``PREHEAT``): Voila runs the chapter in a kernel
    before any page asks; each page that opens the deck takes that kernel, its widget live, and
    another is started for the next. The kernel a closed page leaves is culled (3 s for 20
    minutes); the one waiting in the pool is not. (How much sooner a reload shows the deck is
    measured in ``benchmarks/bench_deck.py``, not here.)"""
    chapter = slides.chapter("05")
    assert "--preheat_kernel=True" in slides.voila_command(chapter)
    assert "--preheat_kernel=True" not in slides.voila_command(None)  # (one for every notebook)
    process, base, log = start_voila(
        "--MappingKernelManager.cull_idle_timeout=3",
        "--MappingKernelManager.cull_interval=1",
        log_name="voila-preheat.log",
        notebook=chapter,
    )
    log_path = ARTIFACTS / "voila-preheat.log"

    def said(text: str) -> int:
        log.flush()
        return log_path.read_text().count(text)

    def wait_for(condition, what: str, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < deadline, f"{what} after {seconds} s"
            time.sleep(0.3)

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        wait_for(lambda: said("is filled with 1 kernel") >= 1, "no kernel preheated")
        for opened in (1, 2):
            page = context.new_page()
            page.goto(f"{base}/", timeout=120_000)
            page.evaluate(READY)
            assert said("Using pre-heated kernel") == opened
            assert page.evaluate(LIVE) is not None, "the preheated deck's widget is not live"
            # the next kernel for the next page, ready: this page's and the pool's
            wait_for(
                lambda n=opened + 1: said("is filled with 1 kernel") >= n, "no kernel refilled"
            )
            page.close(run_before_unload=True)
            # the closed page's kernel is culled; the pool's kernel stays
            wait_for(lambda: len(_kernels(process)) == 1, "the closed deck's kernel still runs", 30)
            time.sleep(3)  # idle past the timeout, no page connected: kept all the same
            assert len(_kernels(process)) == 1, "the preheated kernel was culled"
    finally:
        context.close()
        stop(process)
        log.close()
