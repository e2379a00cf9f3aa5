"""A real browser: JupyterLab (and Jupyter Notebook 7) on localhost, driven by Playwright in
Debian's headless Chromium.

The test opens ``notebooks/02_curves_interpolation.ipynb``, runs all cells, reads the state of the
relevance toggler from the page (which ranks are pressed, how many relevant documents in all),
clicks one rank, and checks that the AP readout in the page changes to the value coursekit gives
for the new judgments. A second test opens ``notebooks/08_comparing_systems.ipynb`` in
JupyterLab, chooses another system B in the comparison widget's menu and checks the readout's
mean of B and difference of means against coursekit. A third test checks the contrast of
an erratum box and a readout in the dark theme; a fourth, that no slide (``tools/slides.py``) is
taller than a 1280 x 720 screen. Screenshots go to ``test-artifacts/``.

Chromium is Debian's package (``apt-get install chromium``; Playwright downloads no browser).
Without it the test is skipped, unless ``COURSEKIT_REQUIRE_BROWSER=1`` (as ``.ci/run`` sets),
in which case a missing browser is a failure: in CI this test must really run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from browser_support import missing, start_lab, stop

import coursekit as ck

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("slides", ROOT / "tools" / "slides.py")
slides = importlib.util.module_from_spec(_spec)  # the slide rules and their measurement
_spec.loader.exec_module(slides)
NOTEBOOK = os.environ.get("COURSEKIT_BROWSER_NOTEBOOK", "notebooks/02_curves_interpolation.ipynb")
ARTIFACTS = ROOT / "test-artifacts"


def readout(widget, name: str):
    """The value cell of the readout row ``name`` of a widget's table."""
    return widget.locator("td", has_text=re.compile(f"^{re.escape(name)}$")).first.locator(
        "xpath=following-sibling::td[1]"
    )


def screenshot(page, name: str, **options) -> None:
    """``test-artifacts/<name>.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), **options)


@pytest.fixture(scope="module")
def jupyter_server(tmp_path_factory):
    """JupyterLab on 127.0.0.1 with a random token, serving a copy of the repository's
    notebooks (so that the committed files are never modified by a save)."""
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        missing("jupyterlab is not installed")
    root = tmp_path_factory.mktemp("served")
    shutil.copytree(ROOT / "notebooks", root / "notebooks")
    # every cell rendered, in view or not (the slide measurement reads each cell's height)
    tracker = root / "settings" / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    log = open(root / "jupyter.log", "w")  # noqa: SIM115 - closed at teardown
    try:
        process, base, token = start_lab(root, log)
    except RuntimeError:
        log.close()
        raise RuntimeError(
            "JupyterLab did not start:\n" + (root / "jupyter.log").read_text()
        ) from None
    yield base, token, root
    stop(process)
    log.close()


def _number(text: str) -> float:
    match = re.search(r"-?\d+(?:\.\d+)?", text)
    assert match, f"no number in {text!r}"
    return float(match[0])


def _run_all(page, path: str) -> None:
    """Wait for the notebook ``path`` (relative to the server's root), make it the current tab
    (JupyterLab may restore other tabs of an earlier page), run all its cells, and wait until
    the kernel is idle again."""
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=90_000)
    page.locator(".jp-Notebook:visible").first.wait_for(timeout=90_000)
    find = """(path) => [...window.jupyterapp.shell.widgets('main')]
        .find(w => w.context && w.context.path === path)"""
    page.wait_for_function(f"(path) => ({find})(path) !== undefined", arg=path, timeout=90_000)
    # Run every cell with the application's own command and wait until the kernel is done:
    # the committed outputs (with their saved widget state) are replaced by live widgets.
    page.evaluate(
        f"""async (path) => {{
            const app = window.jupyterapp;
            const panel = ({find})(path);
            app.shell.activateById(panel.id);
            await panel.sessionContext.ready;
            await app.commands.execute('notebook:run-all-cells');
        }}""",
        path,
    )
    page.wait_for_function(
        """() => {
            const panel = window.jupyterapp.shell.currentWidget;
            const kernel = panel.sessionContext.session?.kernel;
            const busy = [...document.querySelectorAll('.jp-InputArea-prompt')]
                .some(p => p.innerText.includes('*'));
            return kernel && kernel.status === 'idle' && !busy;
        }""",
        timeout=180_000,
    )


def _run_and_toggle(page, interface: str, path: str) -> tuple[float, float, list[int], int]:
    """Run all cells, click one rank; return (AP before, AP after, judgments after, n)."""
    from playwright.sync_api import expect

    _run_all(page, path)
    # Locators are looked up afresh at each use, so they always point at the live outputs.
    toggler = page.locator(".widget-vbox", has=page.locator(".widget-toggle-button")).first
    buttons = toggler.locator(".widget-toggle-button")
    ap_cell = toggler.locator("td", has_text=re.compile(r"^AP$")).first.locator(
        "xpath=following-sibling::td[1]"
    )
    ap_cell.wait_for(timeout=60_000)

    def state() -> tuple[list[int], int]:
        pressed = buttons.evaluate_all("bs => bs.map(b => b.classList.contains('mod-active'))")
        total = int(toggler.locator("input[type=number]").first.input_value())
        return [int(p) for p in pressed], total

    before_text = ap_cell.inner_text()
    rels, n_relevant = state()
    # click the first rank that is not relevant (a relevant document appears), if any
    rank = next((i for i, r in enumerate(rels, 1) if r == 0), 1)
    buttons.nth(rank - 1).click()
    expect(ap_cell).not_to_have_text(before_text, timeout=30_000)
    after_rels, after_n = state()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"browser-{interface}.png"), full_page=False)
    assert after_rels == [r if i != rank else 1 - r for i, r in enumerate(rels, 1)]
    assert after_n == max(n_relevant, sum(after_rels))
    return _number(before_text), _number(ap_cell.inner_text()), after_rels, after_n


@pytest.mark.parametrize(
    "interface, path",
    [("jupyterlab", "lab/tree/{nb}"), ("notebook7", "notebooks/{nb}")],
)
def test_toggling_a_rank_updates_ap_in_the_page(jupyter_server, browser, interface, path):
    if not (ROOT / NOTEBOOK).exists():
        pytest.fail(f"{NOTEBOOK} is missing")
    base, token, served = jupyter_server
    # each interface opens its own copy, next to the original (relative paths keep working),
    # so that an autosave by one cannot show its clicked state to the other
    original = served / NOTEBOOK
    copy = original.with_name(f"browser-{interface}-{original.name}")
    shutil.copyfile(original, copy)
    notebook = copy.relative_to(served).as_posix()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(f"{base}/{path.format(nb=notebook)}?token={token}", timeout=90_000)
        before, after, rels, n_relevant = _run_and_toggle(page, interface, notebook)
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"browser-{interface}-failed.png"))
        raise
    finally:
        context.close()
    expected = ck.average_precision(rels, n_relevant)
    assert after == pytest.approx(round(expected, 4), abs=5e-5)
    assert after != before


COMPARE_NOTEBOOK = "notebooks/08_comparing_systems.ipynb"


def test_choosing_system_b_updates_the_comparison_in_the_page(jupyter_server, browser):
    """Chapter 08 in JupyterLab: choose another system B in the widget's menu; the readout's
    "mean B" and "difference of means" become the values coursekit gives for that system."""
    from playwright.sync_api import expect

    base, token, served = jupyter_server
    original = served / COMPARE_NOTEBOOK
    copy = original.with_name(f"browser-compare-{original.name}")
    shutil.copyfile(original, copy)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        notebook = copy.relative_to(served).as_posix()
        page.goto(f"{base}/lab/tree/{notebook}?token={token}", timeout=90_000)
        _run_all(page, notebook)
        # JupyterLab renders only the cells in view: bring the widget's cell into view
        page.evaluate(
            """async (path) => {
                const panel = [...window.jupyterapp.shell.widgets('main')]
                    .find(w => w.context && w.context.path === path);
                const cell = panel.content.widgets.find(
                    c => c.model.sharedModel.getSource().includes('CompareSystems('));
                if (!cell) throw new Error('no cell makes the CompareSystems widget');
                await panel.content.scrollToCell(cell, 'start');
            }""",
            notebook,
        )
        widget = page.locator(".widget-vbox", has_text="Comparing two systems").first
        menus = widget.locator(".widget-dropdown select")
        expect(menus).to_have_count(3, timeout=60_000)

        def cell(name: str):
            return readout(widget, name)

        cell("mean B").wait_for(timeout=60_000)
        a, measure = menus.nth(0).input_value(), menus.nth(2).input_value()
        b = next(
            o
            for o in menus.nth(1).evaluate("s => [...s.options].map(o => o.value)")
            if o not in (a, menus.nth(1).input_value())
        )
        before = cell("mean B").inner_text()
        menus.nth(1).select_option(b)
        expect(cell("mean B")).not_to_have_text(before, timeout=30_000)
        mean_b, difference = (
            _number(cell("mean B").inner_text()),
            _number(cell("difference of means (B − A)").inner_text()),
        )
        screenshot(page, "browser-compare", full_page=False)
    except Exception:
        screenshot(page, "browser-compare-failed")
        raise
    finally:
        context.close()
    # the same numbers from coursekit, independently of the widget: every topic counts
    collection = ck.course.load_collection()
    means = {
        s: ck.evaluate(collection.runs[s], collection.qrels, [measure], missing_as_zero=True).mean[
            measure
        ]
        for s in (a, b)
    }
    assert mean_b == pytest.approx(round(means[b], 4), abs=5e-5)
    assert difference == pytest.approx(round(means[b] - means[a], 4), abs=1.5e-4)


# --- the dark theme ------------------------------------------------------------------------------

CONTRAST = """(selector) => {  // the lowest WCAG contrast of the element's text on its background
    const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
    const f = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    const lum = ([r, g, b]) => 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    const el = [...document.querySelectorAll(selector)].find(e => e.offsetParent);  // shown
    let bg = el, back = [0, 0, 0];
    for (; bg; bg = bg.parentElement) {  // the first opaque background behind the element
        const c = rgb(getComputedStyle(bg).backgroundColor);
        if (c.length === 3 || c[3] > 0.5) { back = c; break; }
    }
    return Math.min(...[...el.querySelectorAll('*'), el].map(e => {
        const [a, b] = [lum(rgb(getComputedStyle(e).color)), lum(back)].sort((x, y) => y - x);
        return (a + 0.05) / (b + 0.05);
    }));
}"""


def test_erratum_box_and_readout_are_readable_in_the_dark_theme(jupyter_server, browser):
    """JupyterLab Dark: an erratum box and a widget's readout, as coursekit draws them now, keep a
    text/background contrast ratio of at least 4.5."""
    import nbformat

    base, token, served = jupyter_server
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": ""}})
    cells = [
        'import coursekit as ck\nck.display.erratum("s", "M", 1, 0, "c")',
        "ck.widgets.RelevanceToggler([1])",
    ]
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nbformat.write(nb, served / "dark.ipynb")
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(f"{base}/lab/tree/dark.ipynb?token={token}", timeout=90_000)
        page.wait_for_function("() => window.jupyterapp !== undefined", timeout=90_000)
        page.wait_for_function("() => jupyterapp.commands.hasCommand('apputils:change-theme')")
        page.evaluate(
            "() => jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})"
        )
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'")
        _run_all(page, "dark.ipynb")
        page.locator(".coursekit-erratum:visible").first.wait_for(timeout=60_000)
        page.locator(".coursekit-readout table:visible").first.wait_for(timeout=60_000)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "browser-dark-theme.png"))
        erratum_ratio = page.evaluate(CONTRAST, ".coursekit-erratum")
        readout_ratio = page.evaluate(CONTRAST, ".coursekit-readout table")
    finally:
        context.close()
    assert erratum_ratio >= 4.5, f"erratum box: contrast {erratum_ratio:.2f}"
    assert readout_ratio >= 4.5, f"widget readout: contrast {readout_ratio:.2f}"


# --- the slides --------------------------------------------------------------------------------


def test_no_slide_is_taller_than_a_1280x720_screen(jupyter_server, browser):
    """Every chapter's deck, measured in JupyterLab at 1280 px wide with the lecture font size:
    the cells of a (sub)slide must add up to at most 720 px. A single cell taller than the screen
    cannot be split by slide metadata: it scrolls (``rise.scroll``) and is listed in
    ``test-artifacts/slides.json`` with the other measurements. One slide is screenshot in RISE."""
    base, token, served = jupyter_server
    context = browser.new_context(viewport=slides.SCREEN)
    try:
        report = slides.measure_chapters(context.new_page(), base, token, served, ARTIFACTS)
    finally:
        context.close()
    (ARTIFACTS / "slides.json").write_text(json.dumps(report, indent=1))
    too_tall = {name: r["too tall"] for name, r in report.items() if r["too tall"]}
    assert not too_tall, f"slides taller than 720 px (chapter: [(slide, px)]): {too_tall}"


def test_no_notebook_opens_marked_modified(jupyter_server, browser):
    """Each chapter opened in JupyterLab, its kernel started: the document is not dirty (the
    kernel's kernelspec and language_info, which JupyterLab writes into the notebook's
    metadata on connection, are those the notebook was saved with)."""
    base, token, served = jupyter_server
    dirty = {}
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        # JupyterLab loaded once; each chapter opened in it, read, then closed with its kernel
        page = context.new_page()
        page.goto(f"{base}/lab?token={token}", timeout=90_000)
        page.wait_for_function("() => window.jupyterapp !== undefined", timeout=90_000)
        page.wait_for_function(
            "() => window.jupyterapp.commands.hasCommand('docmanager:open')", timeout=90_000
        )
        page.evaluate("async () => { await window.jupyterapp.restored; }")
        for original in sorted((served / "notebooks").glob("[0-9][0-9]_*.ipynb")):
            copy = original.with_name(f"browser-open-{original.name}")
            shutil.copyfile(original, copy)
            path = copy.relative_to(served).as_posix()
            found = page.evaluate(
                """async (path) => {
                    const app = window.jupyterapp;
                    const panel = await app.commands.execute(
                        'docmanager:open', {path, factory: 'Notebook'});
                    await panel.context.ready;
                    await panel.sessionContext.ready;
                    const kernel = panel.sessionContext.session.kernel;
                    await kernel.info;  // what JupyterLab writes into the metadata
                    await new Promise(r => setTimeout(r, 1000));
                    const model = panel.context.model;
                    const said = {dirty: model.dirty,
                                  metadata: JSON.stringify(model.sharedModel.getMetadata())};
                    await panel.sessionContext.shutdown();
                    panel.dispose();
                    return said;
                }""",
                path,
            )
            if found["dirty"]:
                saved = json.loads(original.read_text(encoding="utf-8"))["metadata"]
                now = json.loads(found["metadata"])
                dirty[original.name] = sorted(
                    k for k in {*saved, *now} if saved.get(k) != now.get(k)
                )
    finally:
        context.close()
    assert dirty == {}, f"opened marked modified (metadata keys that changed): {dirty}"
