"""A real browser: chapter 11's diversity grid in JupyterLab (Debian's headless Chromium, as in
``tests/test_browser.py``, whose server fixture and notebook runner this module reuses).

The test opens ``notebooks/11_diversity_novelty.ipynb``, runs all cells, ticks one subtopic box
of the widget's grid (document x1 at rank 4 now covers "spa") and reads the new alpha-nDCG@5 and
S-recall@5 from the page's readout; both must be the values derived by hand below.
"""

from __future__ import annotations

import math
import re
import shutil

import pytest
import test_browser
from test_browser import _number, _run_all, readout, screenshot

pytestmark = pytest.mark.browser
jupyter_server = test_browser.jupyter_server  # the same server fixture (its own server here)

NOTEBOOK = "notebooks/11_diversity_novelty.ipynb"
#: The chapter's grid (its SPRING judgments, in its ranking), alpha 0.5 and k 5.
RANKING = ["g1", "g2", "c1", "x1", "m1", "g3", "h1"]
COVERS = {
    "g1": {"source"},
    "g2": {"source"},
    "c1": {"source", "drinking"},
    "x1": set(),
    "m1": {"season"},
    "g3": {"source"},
    "h1": {"spa"},
}
SUBTOPICS = 4


def test_ticking_a_subtopic_updates_alpha_ndcg_and_s_recall_in_the_page(jupyter_server, browser):
    from playwright.sync_api import expect

    base, token, served = jupyter_server
    original = served / NOTEBOOK
    copy = original.with_name(f"browser-diversity-{original.name}")
    shutil.copyfile(original, copy)
    notebook = copy.relative_to(served).as_posix()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(f"{base}/lab/tree/{notebook}?token={token}", timeout=90_000)
        _run_all(page, notebook)
        page.evaluate(  # JupyterLab renders only the cells in view: bring the widget's cell
            """async (path) => {
                const panel = [...window.jupyterapp.shell.widgets('main')]
                    .find(w => w.context && w.context.path === path);
                const cell = panel.content.widgets.find(
                    c => c.model.sharedModel.getSource().includes('DiversityGrid('));
                if (!cell) throw new Error('no cell makes the DiversityGrid widget');
                await panel.content.scrollToCell(cell, 'start');
            }""",
            notebook,
        )
        widget = page.locator(".widget-vbox", has_text="Diversity grid").first

        def cell(name: str):
            return readout(widget, name)

        cell("S-recall@5").wait_for(timeout=60_000)
        before = _number(cell("S-recall@5").inner_text())
        box = widget.locator('button[title="rank 4, x1: covers spa?"]')
        expect(box).not_to_have_class(re.compile("mod-active"))
        box.click()
        expect(box).to_have_class(re.compile("mod-active"), timeout=30_000)
        expect(cell("S-recall@5")).not_to_have_text(f"{before:.4f}", timeout=30_000)
        ndcg, recall = (
            _number(cell("alpha-nDCG@5").inner_text()),
            _number(cell("S-recall@5").inner_text()),
        )
        screenshot(page, "browser-diversity", full_page=False)
    except Exception:
        screenshot(page, "browser-diversity-failed")
        raise
    finally:
        context.close()
    # By hand, x1 now covering spa, alpha = 0.5 (a subtopic seen c times before gains 0.5^c):
    # the ranking's gains g1 1, g2 0.5 (source seen once), c1 0.25 + 1 (source twice, drinking
    # new), x1 1 (spa), m1 1 (season). The greedy ideal: c1 (2), then x1, m1, h1 at 1 each
    # (x1: the id that sorts last), m1 (1; h1 is now worth 0.5, spa seen), then 0.5 (h1 or a g).
    dcg = sum(g / math.log2(r + 1) for r, g in enumerate([1, 0.5, 1.25, 1, 1], start=1))
    ideal = sum(g / math.log2(r + 1) for r, g in enumerate([2, 1, 1, 0.5, 0.5], start=1))
    assert before == 0.75  # spa was found only at rank 7 (h1)
    assert ndcg == pytest.approx(round(dcg / ideal, 4), abs=5e-5)
    covered = set().union(*(COVERS[d] for d in RANKING[:5]), {"spa"})
    assert recall == len(covered) / SUBTOPICS == 1.0
