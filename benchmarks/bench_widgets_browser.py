"""Benchmark in a real browser: from a click on a widget's control to its new readout and figure.

    .venv/bin/python benchmarks/bench_widgets_browser.py [--repeats 5] [--only 05,08]

JupyterLab runs on localhost with a notebook per widget (the widget of chapters 01, 02-04, 05,
06, 07 and 08, with the chapters' sizes of data); Debian's headless Chromium (``which chromium``)
runs each notebook, then clicks each control ``--repeats`` times after two warm-up clicks. The
click is made in the page (``element.click()``, or a ``change`` / key event) and timed there with
``performance.now()``: *readout* is the time until the readout's text changes, *figure* the time
until the figure's new PNG is decoded (a widget without a figure shows "-"). Between two clicks
the benchmark waits for the kernel to be idle. The target of the course is a median of at most
100 ms per control. Pass ``--pythonpath DIR`` to time another copy of coursekit (e.g. an older
one extracted with ``git archive``): the kernel then imports coursekit from ``DIR``.

``--split`` also says where the figure's time goes, as medians from the click (the kernel's
``time.time()`` and the page's clock are the same machine's clock): *in* when the kernel starts
handling the click's message, *drawn* when the widget's new PNG is made (``Widget._render``
returns), *out* when the kernel has handled the message (tests and readouts included), *arrives*
when the page receives the PNG. So ``in`` is the way to the kernel, ``drawn - in`` the Python
side, ``arrives - drawn`` the way back, ``figure - arrives`` the browser's decoding and display.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from browser_support import CHROMIUM_ARGS, start_lab  # noqa: E402

TARGET_MS = 100.0
SETUP = "import coursekit as ck\nfrom coursekit.views import widgets\n"
COMPARE = """from coursekit import course
collection = course.load_collection()
w = widgets.CompareSystems.from_evaluations(
    {s: ck.evaluate(r, collection.qrels, ["AP", "nDCG@10", "P@5"], missing_as_zero=True)
     for s, r in collection.runs.items()}, a="bm25", b="bm25_stem")
w"""
# widget -> (code that shows it as ``w``, [(control, JS that makes one click, given ``root``)])
CASES = {
    "01 SetBasedExplorer": (
        "w = widgets.SetBasedExplorer(tp=4, fp=2, fn=11, tn=81)\nw",
        [("TP slider (one step)", "slider")],
    ),
    "02-04 RelevanceToggler": (
        "w = widgets.RelevanceToggler([1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0,"
        " 0], n_relevant=10, k=10)\nw",
        [("rank button", "toggle")],
    ),
    "05 GradedJudgments": (
        "w = widgets.GradedJudgments((3, 2, 3, 0, 0, 1, 2, 2, 3, 0),"
        " ideal=(3, 3, 3, 2, 2, 2, 1, 0, 0, 0, 0), variant='jarvelin')\nw",
        [("grade menu of rank 3", "select:0"), ("DCG formula button", "buttons")],
    ),
    "06 RecallOriented": ("w = widgets.RecallOriented()\nw", [("preset button", "preset")]),
    "07 RankCorrelation": (
        "w = widgets.RankCorrelation(first=('A', 'B', 'C', 'D', 'E'))\nw",
        [("swap button", "swap")],
    ),
    "08 CompareSystems": (COMPARE, [("system B menu", "select:1"), ("measure menu", "select:2")]),
}

# One click in the page, timed there. ``how`` names the control; ``i`` counts the clicks.
CLICK = """async ([how, i]) => {
  // the readout: marked by coursekit (older versions: the HTML widget of min-width 14em)
  const readout = document.querySelector('.coursekit-readout') || [
    ...document.querySelectorAll('.widget-html')].find(e => e.style.minWidth === '14em');
  const root = readout.closest('.jp-OutputArea-output');
  const img = root.querySelector('img.widget-image');
  const before = readout.innerText, src = img ? img.src : null;
  let t0 = 0, tRead = null, tFig = null;
  const result = new Promise((resolve, reject) => {
    const check = async () => {
      if (tRead === null && readout.innerText !== before) tRead = performance.now() - t0;
      if (img && tFig === null && img.src !== src) {
        const t = performance.now();
        await img.decode().catch(() => {});
        tFig = t - t0 + (performance.now() - t);
      }
      if (tRead !== null && (!img || tFig !== null)) { obs.disconnect(); resolve([tRead, tFig]); }
    };
    const obs = new MutationObserver(check);
    obs.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
    setTimeout(() => { obs.disconnect(); reject(new Error('no change after 10 s: ' + how)); },
               10000);
  });
  t0 = performance.now();
  window.coursekitClick = performance.timeOrigin + t0;
  window.coursekitArrivals = [];
  if (how === 'toggle') {
    root.querySelectorAll('.widget-toggle-button')[i % 3].click();
  } else if (how === 'preset' || how === 'swap') {
    const buttons = [...root.querySelectorAll('button')].filter(b =>
      how === 'swap' ? b.innerText.includes('⇄') : b.innerText.startsWith('system'));
    buttons[i % buttons.length].click();
  } else if (how === 'buttons') {
    const buttons = [...root.querySelectorAll('.widget-toggle-buttons button')];
    buttons[(i + 1) % buttons.length].click();
  } else if (how.startsWith('select:')) {
    const menu = root.querySelectorAll('select')[Number(how.slice(7))];
    const values = [...menu.options].map(o => o.value).filter(v => v !== menu.value);
    menu.value = values[i % values.length];
    menu.dispatchEvent(new Event('change', {bubbles: true}));
  } else if (how === 'slider') {
    const handle = root.querySelector('.noUi-handle');
    const key = i % 2 ? 'ArrowLeft' : 'ArrowRight';
    handle.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
  }
  return await result;
}"""
# --split: the kernel writes [event, time in ms] lines to a file, the page logs PNG arrivals.
TRACE = """import json as _json, time as _time
from comm.base_comm import BaseComm as _BaseComm
from coursekit.views.widgets import base as _base
_trace = open({path!r}, "a")
def _event(name):
    _trace.write(_json.dumps([name, _time.time() * 1000]) + "\\n"); _trace.flush()
def _traced(method, before, after):
    def traced(*args, **kwargs):
        _event(before); result = method(*args, **kwargs); _event(after); return result
    return traced
_BaseComm.handle_msg = _traced(_BaseComm.handle_msg, "in", "out")  # a message from the page
_base.Widget._render = _traced(_base.Widget._render, "render", "drawn")
"""
HOOK = """() => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  window.coursekitArrivals = [];
  kernel.iopubMessage.connect((_, msg) => {
    if (msg.header.msg_type === 'comm_msg' && (msg.buffers || []).length)
      window.coursekitArrivals.push(performance.timeOrigin + performance.now());
  });
}"""
IDLE = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel && panel.sessionContext.session?.kernel;
  return kernel && kernel.status === 'idle';
}"""


def start(root: Path, pythonpath: str | None) -> tuple[subprocess.Popen, str]:
    """JupyterLab on ``root`` (tests/browser_support.py), the kernel importing coursekit from
    ``pythonpath`` if given; returns the process and the URL pattern of a notebook."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + os.pathsep + env.get("PYTHONPATH", "")
    process, base, token = start_lab(root, env=env)
    return process, f"{base}/lab/tree/{{path}}?token={token}"


def run_notebook(page, path: str) -> None:
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=90_000)
    page.locator(".jp-Notebook:visible").first.wait_for(timeout=90_000)
    page.evaluate(
        """async (path) => {
            const app = window.jupyterapp;
            let panel;
            while (!(panel = [...app.shell.widgets('main')].find(
                w => w.context && w.context.path === path))) {
                await new Promise(r => setTimeout(r, 100));
            }
            await panel.sessionContext.ready;
            await app.commands.execute('notebook:run-all-cells');
        }""",
        path,
    )
    page.locator(".widget-html table").first.wait_for(timeout=120_000)
    page.wait_for_function(IDLE, timeout=120_000)


SPLIT = ("in", "drawn", "out", "arrives")


def split_times(page, trace: Path) -> dict[str, float]:
    """The times of one click's steps (see ``--split``), in ms from the click."""
    t0 = page.evaluate("() => window.coursekitClick")
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    firsts: dict[str, float] = {}
    for name, t in events:
        if name != "out":  # the first message handled, the first PNG drawn
            firsts.setdefault(name, t - t0)
    outs = [t - t0 for name, t in events if name == "out"]
    arrivals = page.evaluate("() => window.coursekitArrivals")
    nan = float("nan")
    return {
        "in": firsts.get("in", nan),
        "drawn": firsts.get("drawn", nan),
        "out": max(outs, default=nan),  # the last message handled
        "arrives": arrivals[0] - t0 if arrivals else nan,
    }


def bench(
    page, url: str, path: str, controls, repeats: int, trace: Path | None = None
) -> list[tuple[str, float, float, dict[str, float]]]:
    """Per control: its name, the median readout and figure times, and with ``trace`` (the
    kernel's event file) the median of each step of ``SPLIT``."""
    page.goto(url.format(path=path), timeout=90_000)
    run_notebook(page, path)
    if trace is not None:
        page.evaluate(HOOK)
    rows = []
    for control, how in controls:
        reads, figures, splits = [], [], []
        for i in range(repeats + 2):
            if trace is not None:
                trace.write_text("")
            read, figure = page.evaluate(CLICK, [how, i])
            page.wait_for_function(IDLE, timeout=60_000)
            page.wait_for_timeout(150)
            if i >= 2:  # two warm-up clicks
                reads.append(read)
                if figure is not None:
                    figures.append(figure)
                if trace is not None:
                    splits.append(split_times(page, trace))
        split = {
            step: statistics.median(s[step] for s in splits) if splits else float("nan")
            for step in SPLIT
        }
        rows.append(
            (
                control,
                statistics.median(reads),
                statistics.median(figures) if figures else float("nan"),
                split,
            )
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", default="", help="widgets by chapter, e.g. 05,08")
    parser.add_argument("--pythonpath", default=None, help="import coursekit from this folder")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    parser.add_argument(
        "--split", action="store_true", help="also time the kernel's side and the transfer"
    )
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("Debian's chromium is not installed (apt-get install chromium)")
        return 2
    from playwright.sync_api import sync_playwright

    cases = {
        name: case
        for name, case in CASES.items()
        if not args.only or any(name.startswith(c) for c in args.only.split(","))
    }
    results = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for i, (code, _) in enumerate(cases.values()):
            nb = nbformat.v4.new_notebook()
            nb.cells = [nbformat.v4.new_code_cell(SETUP), nbformat.v4.new_code_cell(code)]
            if args.split:
                trace = root / f"trace{i}.jsonl"
                nb.cells.append(nbformat.v4.new_code_cell(TRACE.format(path=str(trace))))
            nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
            nbformat.write(nb, root / f"bench{i}.ipynb")
        process, url = start(root, args.pythonpath)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium, headless=True, args=CHROMIUM_ARGS
                )
                for i, (name, (_, controls)) in enumerate(cases.items()):
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    page = context.new_page()
                    trace = root / f"trace{i}.jsonl" if args.split else None
                    for control, read, figure, split in bench(
                        page, url, f"bench{i}.ipynb", controls, args.repeats, trace
                    ):
                        results.append((name, control, read, figure, split))
                        line = (
                            f"{name:24} {control:22} readout {read:6.0f} ms  figure "
                            f"{figure:6.0f} ms"
                        )
                        if args.split:
                            line += "  (" + ", ".join(f"{k} {split[k]:.0f}" for k in SPLIT) + ")"
                        print(line, flush=True)
                    context.close()
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=20)
    worst = max(max(r, f if f == f else 0) for _, _, r, f, _ in results)
    print(f"median of {args.repeats} clicks; target <= {TARGET_MS:.0f} ms; slowest {worst:.0f} ms")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
