"""Live widgets in the lecture deck: a chapter shown as reveal.js slides by Voila
(``make slides NB=02``, that is ``python tools/slides.py --present 02``), in Debian's headless
Chromium driven by Playwright.

jupyterlab-rise's slide view loads no widget manager (jupyterlab-contrib/rise#119): there the
chapters' widgets show only their text. Voila's reveal template runs the notebook in a kernel and
renders its outputs with the widget manager. The test starts Voila exactly as ``make slides``
does, waits for the deck, goes to the slide of chapter 02's relevance toggler, clicks a rank and
reads the new AP, which must be the value coursekit gives; then it measures the slide at
1280 x 720 and 1920 x 1080: reveal.js's ``.slides`` fits in the window, the 1280 x 720 slide is
scaled up (> 1) on the 1920 x 1080 screen, and what the lecturer uses (the rank buttons, the AP
readout) is inside the slide and the window, as is the content's width. How far the content
goes below the slide is written to ``test-artifacts/voila-slides.json``, not asserted: Voila's
template shows the widgets at 20 px (JupyterLab's lecture size leaves them at 13 px), which makes
a widget slide taller than the 720 px that ``tools/slides.py`` plans for, and reveal.js shows no
more than the slide (RISE scrolls; Voila's own ``scroll`` needs jQuery from a CDN and does not
allow for the scale). Screenshots and Voila's log go to ``test-artifacts/``.

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

import pytest
from browser_support import free_port, missing, stop

import coursekit as ck

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("slides", ROOT / "tools" / "slides.py")
slides = importlib.util.module_from_spec(_spec)  # voila_command: what make slides runs
_spec.loader.exec_module(slides)
NOTEBOOK = ROOT / "notebooks" / "02_curves_interpolation.ipynb"
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


@pytest.fixture(scope="module")
def deck():
    """Voila serving chapter 02 as a reveal.js deck on 127.0.0.1, started as make slides does."""
    for module, what in (("voila", "Voila"), ("sphinx_revealjs", "sphinx-revealjs")):
        if importlib.util.find_spec(module) is None:
            missing(f"{what} is not installed (pip install -e '.[lab]')")
    css = slides.reveal_css_dir()
    if css is None or not css.is_relative_to(ROOT):
        missing(f"reveal.js's style sheets are not under the course folder ({css})")
    port = free_port()
    command = slides.voila_command(
        NOTEBOOK, "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}", "--port_retries=0"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / "voila.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed at teardown
    process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    # reveal.js's style sheet, served by Voila: the server is up (asking for the deck itself
    # would run the notebook once more)
    css_url = f"{base}/voila/files/{css.relative_to(ROOT).as_posix()}/dist/reveal.css"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(css_url, timeout=2) as answer:
                assert answer.status == 200
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                stop(process)
                log.close()
                raise RuntimeError("Voila did not start:\n" + log_path.read_text()) from None
            time.sleep(0.3)
    yield base
    stop(process)
    log.close()


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
        page.goto(f"{deck}/", timeout=120_000)  # Voila answers once the notebook has run
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
    (ARTIFACTS / "voila-slides.json").write_text(json.dumps(report, indent=1))
    # Voila's reveal.js script calls MathJax 2's MathJax.Hub at each change of slide, and Voila
    # 0.5 loads no MathJax 2: a harmless error of its own, left out
    assert [e for e in errors if "'Hub'" not in e] == []
