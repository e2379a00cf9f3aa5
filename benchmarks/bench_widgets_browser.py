"""Benchmark in a real browser: from a click on a widget's control to its new readout and figure.

    .venv/bin/python benchmarks/bench_widgets_browser.py [--repeats 5] [--only 05,08]

JupyterLab runs on localhost with a notebook per widget (the widget of every chapter, 01 to
11, with the chapters' data); Debian's headless Chromium (``which chromium``) runs each
notebook, then clicks each control of the widget ``--repeats`` times after two warm-up clicks.
The click is made in the page (``element.click()``, or a ``change`` / key event) and timed there
with ``performance.now()``: *readout* is the time until the readout's text changes, *figure* the
time until the figure's new PNG is decoded (a widget without a figure shows "nan"), *first* the
time of the control's first click (its first use: a menu's clicks always choose another pair,
a number box's a value one higher, never drawn before), each with the machine's load average
(``os.getloadavg``) when that control was timed. A control that leaves the figure as it is
(01's TN slider, the toggler's k, 06's β: their figures do not show TN, k or β) is timed to
its readout only. Between two clicks the benchmark waits for the kernel to be idle. After
each widget is shown, the texts the page cuts (a button or label with an ellipsis, a menu
choice wider than its menu) are listed. The target of the course is at
most 100 ms per control, first use included. Pass ``--pythonpath DIR`` to time another copy of
coursekit (e.g. an older one extracted with ``git archive``): the kernel then imports coursekit
from ``DIR``.

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
from playwright.sync_api import Error as PlaywrightError

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
# Chapter 09's widget as the chapter builds it: a topic of the course collection judged by a
# second, simulated assessor (the chapter's seed and flip probabilities).
ASSESSORS = """import numpy as np
from coursekit import course
collection = course.load_collection()
qrels, runs = collection.qrels, collection.runs
rng = np.random.default_rng(2000)
flip = qrels["relevance"].map({0: 0.10, 1: 0.30, 2: 0.15, 3: 0.05}).fillna(0.05)
flipped = rng.random(len(qrels)) < flip.to_numpy()
relevant_1 = (qrels["relevance"] >= 1).to_numpy()
relevant_2 = np.where(flipped, ~relevant_1, relevant_1)
ranked = {s: {q: g["doc_id"].tolist() for q, g in
              ck.sort_run(r).astype({"query_id": str, "doc_id": str}).groupby("query_id")}
          for s, r in runs.items()}
topics = qrels["query_id"].astype(str).to_numpy()
def disagrees(t):
    one, two = relevant_1[topics == t], relevant_2[topics == t]
    return 6 <= one.size <= 12 and 0 < one.sum() < one.size and 0 < two.sum() < two.size \\
        and bool(np.any(one != two))
topic = next(t for t in sorted(set(topics), key=int) if disagrees(t))
w = widgets.AssessorAgreement(
    first=relevant_1[topics == topic].astype(int), second=relevant_2[topics == topic].astype(int),
    items=qrels.loc[topics == topic, "doc_id"].astype(str).tolist(),
    rankings={s: ranked[s].get(topic, [])[:10] for s in sorted(runs)})
w"""
# Chapter 10's widget as the chapter builds it (600 sessions, position-based users).
ONLINE = """from coursekit import course
collection = course.load_collection()
qrels, runs = collection.qrels, collection.runs
grades = {str(q): dict(zip(g["doc_id"].astype(str), g["relevance"], strict=True))
          for q, g in qrels.groupby("query_id", observed=True)}
pages = {s: {str(q): g["doc_id"].astype(str).tolist()[:10]
             for q, g in ck.sort_run(run).groupby("query_id", observed=True)}
         for s, run in runs.items()}
w = widgets.OnlineExperiment(pages, grades, a="tfidf", b="bm25_stem",
    click_model="position-based", n_sessions=100, max_sessions=600,
    attractiveness=(0.05, 0.3, 0.6, 0.9))
w"""
# Chapter 11's widget as the chapter builds it (the spring query's seven documents, four
# subtopics, alpha 0.5, k 5).
DIVERSITY = """SPRING = {"g1": {"source": 1}, "g2": {"source": 1}, "g3": {"source": 1},
          "c1": {"source": 1, "drinking": 1}, "m1": {"season": 1}, "h1": {"spa": 1}, "x1": {}}
ASPECTS = ["source", "drinking", "season", "spa"]
ranking = ["g1", "g2", "c1", "x1", "m1", "g3", "h1"]
w = widgets.DiversityGrid([[SPRING[d].get(s, 0) for s in ASPECTS] for d in ranking],
    subtopics=ASPECTS, docs=ranking, alpha=0.5, k=5)
w"""
# widget -> (code that shows it as ``w``, [(control, how one click is made: see CLICK)]):
# every control of every chapter's widget.
CASES = {
    "01 SetBasedExplorer": (
        "w = widgets.SetBasedExplorer(tp=4, fp=2, fn=11, tn=81)\nw",
        [
            ("TP slider (one step)", "slider:0"),
            ("FP slider", "slider:1"),
            ("FN slider", "slider:2"),
            ("TN slider (no figure change)", "slider:3:readout"),
            ("β slider", "slider:4"),
        ],
    ),
    "02-04 RelevanceToggler": (
        "w = widgets.RelevanceToggler([1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0,"
        " 0], n_relevant=10, k=10)\nw",
        [
            ("rank button", "toggle:0"),
            ("relevant in total box", "number:0"),
            ("k slider (no figure change)", "slider:0:readout"),
        ],
    ),
    "05 GradedJudgments": (
        "w = widgets.GradedJudgments((3, 2, 3, 0, 0, 1, 2, 2, 3, 0),"
        " ideal=(3, 3, 3, 2, 2, 2, 1, 0, 0, 0, 0), variant='jarvelin')\nw",
        [("grade menu of rank 3", "select:2"), ("DCG formula button", "buttons")],
    ),
    "06 RecallOriented": (
        "w = widgets.RecallOriented()\nw",
        [
            ("preset button", "preset"),
            ("ranks box", "ranks"),
            ("relevant in total box", "number:0"),
            ("N_max box", "number:1"),
            ("β slider (no figure change)", "slider:0:readout"),
        ],
    ),
    "07 RankCorrelation": (
        "w = widgets.RankCorrelation(first=('A', 'B', 'C', 'D', 'E'))\nw",
        [("swap button", "swap")],
    ),
    "08 CompareSystems": (
        COMPARE,
        [
            ("system A menu", "select:0"),
            ("system B menu", "select:1"),
            ("measure menu", "select:2"),
        ],
    ),
    "09 AssessorAgreement": (
        ASSESSORS,
        [("assessor 1 button", "toggle:0"), ("assessor 2 button", "toggle:half")],
    ),
    "10 OnlineExperiment": (
        ONLINE,
        [
            ("system A menu", "select:0"),
            ("system B menu", "select:1"),
            ("click model menu", "select:2"),
            ("sessions slider", "slider:0"),
        ],
    ),
    "11 DiversityGrid": (
        DIVERSITY,
        [
            ("subtopic button", "toggle:0"),
            ("α slider", "slider:0"),
            ("k slider", "slider:1"),
        ],
    ),
}

# One click in the page, timed there. ``how`` names the control; ``i`` counts the clicks.
CLICK = """async ([how, i]) => {
  // the readout: marked by coursekit (older versions: the HTML widget of min-width 14em)
  const readout = document.querySelector('.coursekit-readout') || [
    ...document.querySelectorAll('.widget-html')].find(e => e.style.minWidth === '14em');
  const root = readout.closest('.jp-OutputArea-output');
  // a control that does not change the figure (":readout"): its readout alone is timed
  const img = how.endsWith(':readout') ? null : root.querySelector('img.widget-image');
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
  const nth = (selector, n) => root.querySelectorAll(selector)[Number(n)];
  const [kind, arg] = how.split(':');
  if (kind === 'toggle') {  // one of the first three toggle buttons (of the second half)
    const buttons = root.querySelectorAll('.widget-toggle-button');
    buttons[(arg === 'half' ? buttons.length / 2 : 0) + i % 3].click();
  } else if (how === 'preset' || how === 'swap') {
    const buttons = [...root.querySelectorAll('button')].filter(b =>
      how === 'swap' ? b.innerText.includes('⇄') : b.innerText.startsWith('system'));
    buttons[i % buttons.length].click();
  } else if (how === 'buttons') {
    const buttons = [...root.querySelectorAll('.widget-toggle-buttons button')];
    buttons[(i + 1) % buttons.length].click();
  } else if (kind === 'select') {  // each click another choice (a new pair: a first use)
    const menu = nth('select', arg);
    const values = [...menu.options].map(o => o.value).filter(v => v !== menu.value);
    menu.value = values[i % values.length];
    menu.dispatchEvent(new Event('change', {bubbles: true}));
  } else if (kind === 'number') {  // a value one higher at each click: a frame never drawn
    const box = nth('input[type=number]', arg);
    box.value = String(Number(box.value) + 1);
    box.dispatchEvent(new Event('change', {bubbles: true}));
  } else if (how === 'ranks') {
    const box = root.querySelector('input[type=text]');
    box.value = `1, ${20 + i}`;
    box.dispatchEvent(new Event('change', {bubbles: true}));
  } else if (kind === 'slider') {
    const handle = nth('.noUi-handle', arg);
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


CLIPPED = """() => {
  // texts the page cuts: a button or a label whose text is wider than its box (an ellipsis),
  // a menu choice wider than its menu (the arrow's room left out)
  const root = document.querySelector('.coursekit-readout').closest('.jp-OutputArea-output');
  const cut = [...root.querySelectorAll('button, .widget-label')]
    .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.innerText.trim() || e.title);
  const context = document.createElement('canvas').getContext('2d');
  for (const menu of root.querySelectorAll('select')) {
    const style = getComputedStyle(menu);
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = menu.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    for (const option of menu.options)
      if (context.measureText(option.text).width > room) cut.push(option.text);
  }
  return cut;
}"""


def bench(
    page, url: str, path: str, controls, repeats: int, trace: Path | None = None
) -> tuple[list[tuple], list[str]]:
    """Per control: its name, the median readout and figure times (after two warm-up
    clicks), the time of its first click (figure, or readout without one), the machine's load
    average when its clicks were done, and with ``trace`` (the kernel's event file) the median
    of each step of ``SPLIT``; then the texts the page shows cut (see ``CLIPPED``)."""
    page.goto(url.format(path=path), timeout=90_000)
    run_notebook(page, path)
    clipped = page.evaluate(CLIPPED)
    if trace is not None:
        page.evaluate(HOOK)
    rows = []
    for control, how in controls:
        reads, figures, splits = [], [], []
        first = float("nan")
        for i in range(repeats + 2):
            if trace is not None:
                trace.write_text("")
            try:
                read, figure = page.evaluate(CLICK, [how, i])
            except PlaywrightError as error:  # a click the page did not see: reported, skipped
                print(f"  {control}, click {i}: {str(error).splitlines()[0]}", flush=True)
                page.wait_for_function(IDLE, timeout=60_000)
                continue
            page.wait_for_function(IDLE, timeout=60_000)
            page.wait_for_timeout(150)
            if i == 0:  # the control's first use (a first frame, a first pair)
                first = figure if figure is not None else read
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
                statistics.median(reads) if reads else float("nan"),
                statistics.median(figures) if figures else float("nan"),
                first,
                os.getloadavg()[0],
                split,
            )
        )
    return rows, clipped


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
                    rows, clipped = bench(
                        page, url, f"bench{i}.ipynb", controls, args.repeats, trace
                    )
                    for control, read, figure, first, load, split in rows:
                        results.append((name, control, read, figure, first, load, split))
                        line = (
                            f"{name:24} {control:22} readout {read:4.0f} ms  figure "
                            f"{figure:4.0f} ms  first {first:4.0f} ms  (load {load:.1f})"
                        )
                        if args.split:
                            line += "  (" + ", ".join(f"{k} {split[k]:.0f}" for k in SPLIT) + ")"
                        print(line, flush=True)
                    if clipped:
                        print(f"{name:24} texts cut by the page: {clipped}", flush=True)
                    context.close()
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=20)
    worst = max(max(r, f if f == f else 0) for _, _, r, f, *_ in results)
    first = max(f for *_, f, _, _ in results)
    print(
        f"median of {args.repeats} clicks; target <= {TARGET_MS:.0f} ms; slowest {worst:.0f} ms "
        f"(first uses: slowest {first:.0f} ms)"
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
