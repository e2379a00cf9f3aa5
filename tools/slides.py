"""Write the slide metadata of the chapter notebooks (live slides with jupyterlab-rise).

    python tools/slides.py            # write the metadata of every chapter
    python tools/slides.py --check    # fail (exit 1) if a notebook's metadata is out of date
    python tools/slides.py --summary  # slides and subslides per chapter
    python tools/slides.py --present 05 [--no-browser]  # chapter 05 as a live deck (Voila)
    python tools/slides.py --present 05 --french        # the French edition's chapter 05

Only ``metadata.slideshow.slide_type`` of each cell and ``metadata.rise`` of the notebook are
written; sources and outputs are left as they are, and a second run changes nothing. The rules:

* the title cell (``#``) and each ``##`` heading start a slide, each ``###`` a subslide;
* code cells that only set things up (imports, ``pd.set_option`` ...) are skipped, and so are the
  static views of the widgets (``w.show_static()`` and the markdown that introduces it), which
  repeat the live widget for readers without a kernel;
* a widget cell starts a subslide, and the next cell shown starts another one (in Voila's live
  deck a widget and its code fill the slide);
* a cell that would make its slide taller than a 1280 x 720 screen at the lecture font size
  starts a subslide (heights are estimated from the source and the stored outputs);
* every other cell continues the current slide (``-``).

``--present`` (``make slides NB=05``) shows a chapter as a live deck with Voila's reveal.js
template: the notebook runs in a kernel and its widgets are live, which jupyterlab-rise's slide
view cannot do (it loads no widget manager: jupyterlab-contrib/rise#119). The course's template
(``tools/deck/voila/templates/coursekit-deck/``) gives it the sizes of a lecture slide: text 20 px,
tables 18, code 17, widgets 16; slides start at the top, and a slide taller than the slide is
laid out again to fit (``static/coursekit-fit.js``: a figure beside its code, then a long table
or code in a box that scrolls; tests/test_slides_voila.py measures every slide of every chapter,
with and without ``ck.views.lecture_mode()``). A markdown cell that is taller than a slide
cannot be split here: it is split in the notebook (a heading starts a cell).
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import struct
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
#: The chapters with a deck (add a new chapter here once it is written).
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
#: The notebook's RISE settings: a 1280 x 720 deck; a single cell taller than the screen scrolls.
RISE = {"width": 1280, "height": 720, "scroll": True, "enable_chalkboard": False}
#: Height available for a slide's cells, in pixels at the lecture font size (720 minus margins).
BUDGET = 640
#: Estimated sizes at the lecture font size (20 px text, 18 px code, 1280 px wide).
TEXT_LINE, CODE_LINE, TEXT_CHARS, CODE_CHARS, GAP = 30, 24, 105, 100, 14
WIDGET_HEIGHT = 560
SAFETY = 1.25

_SETUP = re.compile(
    r"^(import |from \S+ import |pd\.set_option\(|np\.set_printoptions\(|warnings\.|"
    r"plt\.rcParams|%matplotlib|ck\.views\.lecture_mode\()"
)
_WIDGET = re.compile(
    r"(widgets\.\w+\(|\b(SetBasedExplorer|RelevanceToggler|GradedJudgments|"
    r"RecallOriented|RankCorrelation|CompareSystems)\()"
)


def is_setup(cell) -> bool:
    """A code cell that only imports and sets options (continuation lines of a call included)."""
    if cell.cell_type != "code":
        return False
    lines = [x for x in cell.source.splitlines() if x.strip() and not x.lstrip().startswith("#")]
    if not lines:
        return False
    depth = 0
    for line in lines:
        if depth == 0 and not _SETUP.match(line):
            return False
        depth += line.count("(") - line.count(")")
    return True


def is_static_view(cell) -> bool:
    source = cell.source.strip()
    if cell.cell_type == "markdown":
        return source.startswith("*Static view.*")
    return cell.cell_type == "code" and bool(re.fullmatch(r"\w+\.show_static\(\)", source))


def is_widget(cell) -> bool:
    """A code cell that makes a widget and shows it (its last line is a bare name)."""
    if cell.cell_type != "code" or not _WIDGET.search(cell.source):
        return False
    last = cell.source.strip().splitlines()[-1].strip()
    return bool(re.fullmatch(r"[A-Za-z_]\w*", last))


def _png_height(data: str) -> int:
    raw = base64.b64decode(data[:64])
    return struct.unpack(">I", raw[20:24])[0] if raw[1:4] == b"PNG" else 300


def _wrapped(text: str, width: int) -> int:
    return sum(max(1, -(-len(line) // width)) for line in text.splitlines())


def estimate_height(cell) -> int:
    """The height of a cell in pixels at the lecture font size, estimated on the safe side
    (measured in JupyterLab, most cells are within 20 % of the raw estimate: it is scaled up)."""
    return round(SAFETY * _raw_height(cell))


def _raw_height(cell) -> int:
    if cell.cell_type == "markdown":
        height = GAP
        for line in cell.source.splitlines():
            if line.startswith("#"):
                height += 2 * TEXT_LINE
            elif line.startswith("|"):
                height += TEXT_LINE + 6  # a table row
            elif line.strip():
                height += TEXT_LINE * _wrapped(line, TEXT_CHARS)
            else:
                height += TEXT_LINE // 2
        return height
    height = GAP + 12 + CODE_LINE * _wrapped(cell.source, CODE_CHARS)
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        if "application/vnd.jupyter.widget-view+json" in data:
            height += WIDGET_HEIGHT
        elif "image/png" in data:
            height += _png_height(data["image/png"]) + GAP
        elif "text/html" in data:
            html = "".join(data["text/html"])
            height += GAP + max(2, html.count("<tr") + html.count("<br") + html.count("<div")) * 32
        elif "text/plain" in data or output.get("output_type") == "stream":
            text = output.get("text") or "".join(data.get("text/plain", ""))
            height += GAP + CODE_LINE * _wrapped(text, CODE_CHARS)
    return height


def slide_types(nb) -> list[str]:
    """The slide type of each cell of ``nb``, by the rules of this module."""
    types: list[str] = []
    used = 0  # the height of the current (sub)slide so far
    after_widget = False  # the previous cell shown was a widget: it fills its (sub)slide
    for i, cell in enumerate(nb.cells):
        source = cell.source.lstrip()
        height = estimate_height(cell)
        if i == 0 or (cell.cell_type == "markdown" and re.match(r"#{1,2} ", source)):
            kind = "slide"
        elif cell.cell_type == "markdown" and source.startswith("### "):
            kind = "subslide"
        elif is_setup(cell) or is_static_view(cell):
            types.append("skip")
            continue
        elif is_widget(cell):
            kind = "subslide"
        elif after_widget or used + height > BUDGET:
            kind = "subslide"
        else:
            kind = "-"
        used = height if kind in ("slide", "subslide") else used + height
        after_widget = is_widget(cell)
        types.append(kind)
    return types


def apply(nb) -> bool:
    """Write the slide types and RISE settings into ``nb``; True if anything changed."""
    changed = False
    for cell, kind in zip(nb.cells, slide_types(nb), strict=True):
        if cell.metadata.get("slideshow", {}).get("slide_type") != kind:
            cell.metadata["slideshow"] = {"slide_type": kind}
            changed = True
    if nb.metadata.get("rise") != RISE:
        nb.metadata["rise"] = dict(RISE)
        changed = True
    return changed


def up_to_date(nb) -> bool:
    """True if the notebook's metadata are exactly what :func:`apply` writes."""
    types = [c.metadata.get("slideshow", {}).get("slide_type") for c in nb.cells]
    return types == slide_types(nb) and nb.metadata.get("rise") == RISE


def summary(nb) -> dict[str, int]:
    types = slide_types(nb)
    return {kind: types.count(kind) for kind in ("slide", "subslide", "skip")}


# --- measuring the slides in JupyterLab (tests/test_browser.py) --------------------------------

#: The lecture font size of the measurement (JupyterLab's CSS variables).
LECTURE_FONTS = {"--jp-content-font-size1": "20px", "--jp-code-font-size": "18px"}
SCREEN = {"width": 1280, "height": 720}

MEASURE_JS = """async (path) => {
    const app = window.jupyterapp;
    let panel;
    while (!(panel = [...app.shell.widgets('main')].find(
        w => w.context && w.context.path === path))) {
        await new Promise(r => setTimeout(r, 100));
    }
    await panel.context.ready;
    app.shell.collapseLeft(); app.shell.collapseRight();
    await new Promise(r => setTimeout(r, 1500));  // rendering at the new width and fonts
    return panel.content.widgets.map(cell => [
        cell.model.getMetadata('slideshow')?.slide_type ?? '-',
        cell.node.getBoundingClientRect().height,
    ]);
}"""


def measure(page, path: str) -> list[list[float]]:
    """The heights of the cells of each slide of the notebook ``path``, open in JupyterLab in
    the Playwright ``page``, at the lecture font size and the page's width."""
    page.wait_for_function("() => window.jupyterapp !== undefined", timeout=90_000)
    for name, value in LECTURE_FONTS.items():
        page.evaluate("([n, v]) => document.body.style.setProperty(n, v)", [name, value])
    return group_heights(page.evaluate(MEASURE_JS, path))


def measure_chapters(page, base: str, token: str, served: Path, artifacts: Path) -> dict:
    """Measure every chapter's deck (served by JupyterLab at ``base`` from ``served``) in the
    Playwright ``page``; screenshot one slide of chapter 02 in RISE into ``artifacts``. Returns,
    per chapter, the number of (sub)slides, their heights, the slides of several cells taller
    than the screen ("too tall": (slide, px)) and those of a single such cell."""
    report = {}
    for path in sorted((served / "notebooks").glob("0[0-8]_*.ipynb")):
        notebook = path.relative_to(served).as_posix()
        page.goto(f"{base}/lab/tree/{notebook}?token={token}", timeout=90_000)
        decks = measure(page, notebook)
        heights = [round(sum(d)) for d in decks]
        over = [(i, len(d)) for i, d in enumerate(decks, 1) if heights[i - 1] > SCREEN["height"]]
        report[path.name] = {
            "slides": len(decks),
            "heights": heights,
            "too tall": [(i, heights[i - 1]) for i, n in over if n > 1],
            "single cells taller than the screen": [i for i, n in over if n == 1],
        }
    page.goto(f"{base}/rise/notebooks/02_curves_interpolation.ipynb?token={token}")
    page.locator(".reveal .slides section").first.wait_for(timeout=90_000)
    page.wait_for_timeout(2000)
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(1500)
    artifacts.mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / "slide-02.png"))
    return report


def group_heights(cells: list[list]) -> list[list[float]]:
    """Heights of the cells of each (sub)slide, in order; skipped cells and notes left out."""
    slides: list[list[float]] = []
    for kind, height in cells:
        if kind in ("skip", "notes"):
            continue
        if kind in ("slide", "subslide") or not slides:
            slides.append([])
        slides[-1].append(height)
    return slides


# --- presenting with live widgets: Voila's reveal.js template -----------------------------------

#: reveal.js settings of the live deck. The slides are RISE's 1280 x 720 (what the slide metadata
#: are sized for); reveal.js scales them to the screen, keeping a 4 % margin: 0.96 on a 1280 x 720
#: screen, 1.44 on a 1920 x 1080 projector, never cut. Voila's template gives reveal.js no other
#: setting (its maxScale stays 2). Its own ``scroll`` needs jQuery from a CDN: off.
VOILA_REVEAL = {
    "width": 1280,
    "height": 720,
    "transition": "fade",
    "number": "c/t",
    "scroll": False,
}


#: The course's Voila template: Voila's reveal.js template with the sizes of a lecture slide
#: (``tools/deck/voila/templates/coursekit-deck/static/coursekit-deck.css``).
DECK_TEMPLATE = "coursekit-deck"
DECK_TEMPLATE_ROOT = ROOT / "tools" / "deck"


def reveal_css_dir() -> Path | None:
    """reveal.js's style sheets (``dist/reveal.css``, ``dist/theme/``) shipped by the
    sphinx-revealjs package, or None if it is not installed."""
    try:
        import sphinx_revealjs
    except ImportError:
        return None
    path = Path(sphinx_revealjs.__file__).parent / "_static" / "revealjs"
    return path if (path / "dist" / "reveal.css").is_file() else None


def chapter(name: str, french: bool = False) -> Path:
    """The chapter notebook named by its number (``05``) or its path; ``french``: the French
    edition's (``notebooks/fr/``), which has the same slides."""
    path = Path(name)
    if path.suffix == ".ipynb":
        return path.resolve()
    folder = Path("notebooks", "fr") if french else Path("notebooks")
    found = sorted((ROOT / folder).glob(f"{int(name):02d}_*.ipynb"))
    if not found:
        raise SystemExit(f"no chapter {folder.as_posix()}/{int(name):02d}_*.ipynb")
    return found[0]


#: A deck's kernel shut down once its page is closed: Voila's page asks for it when it closes,
#: but without the XSRF token the server wants, and is refused (voila-dashboards/voila#1458):
#: every deck opened, and every reload, would keep a kernel (100-150 MB) until Voila stops. So
#: a kernel that no page is connected to and that has been idle 20 minutes is shut down, checked
#: every minute; a kernel with a page open is never shut down, however long the page is idle
#: (the lecturer talking). A deck left 20 minutes with its page closed, or its connection lost
#: (a laptop asleep), is reloaded to run again.
KERNEL_CULLING = (
    "--MappingKernelManager.cull_idle_timeout=1200",
    "--MappingKernelManager.cull_interval=60",
    "--MappingKernelManager.cull_connected=False",
    # (a kernel Voila preheated is culled only once out of its pool for 20 minutes too)
    "--VoilaConfiguration.multi_kernel_manager_class=tools.deck.kernels.DeckKernelManager",
)

#: A chapter's deck (``make slides NB=05``) is served by a kernel that has already run the
#: chapter: Voila keeps one such kernel ready (preheated), gives it to the next page that opens
#: the deck and starts another. A reload (after a laptop's sleep, or to start a widget afresh)
#: then shows the deck in about a second instead of the chapter's run (3.5-8.5 s:
#: ``benchmarks/bench_deck.py``), for the memory of one more kernel (100-150 MB). Voila never
#: culls a kernel waiting in its pool, and ``tools/deck/kernels.py`` none just out of it (its
#: page about to connect). Not for the course folder (``notebook`` None): Voila
#: would preheat a kernel for every notebook under it.
PREHEAT = ("--preheat_kernel=True",)


def voila_command(notebook: Path | None, *extra: str) -> list[str]:
    """The command that serves ``notebook`` as a live reveal.js deck with Voila (run it from
    :data:`ROOT` with the environment :func:`voila_env`); with ``None``, Voila serves every
    notebook of the course folder, ``/voila/render/notebooks/05_....ipynb``. Voila serves the
    course folder's files, so reveal.js's style sheets are taken from the sphinx-revealjs package
    when it is installed under it (the ``.venv`` of ``make``): the deck then needs no network.
    Otherwise Voila's default, a CDN, is used. Kernels of closed decks are shut down
    (:data:`KERNEL_CULLING`), and a chapter's next page is served by a preheated kernel
    (:data:`PREHEAT`); each unless ``extra`` sets the same option (traitlets takes one value)."""
    given = {option.split("=")[0] for option in extra}
    defaults = KERNEL_CULLING + (PREHEAT if notebook is not None else ())
    reveal = dict(VOILA_REVEAL)
    resources = {"reveal": reveal}
    allow = [r".*\.(png|jpg|gif|svg)"]
    css = reveal_css_dir()
    if css is not None and css.is_relative_to(ROOT):
        reveal["url_prefix"] = "/voila/files/" + css.relative_to(ROOT).as_posix()
        allow.append(r".*/revealjs/dist/.*\.(css|woff2?|ttf|eot)")
    return [
        sys.executable,
        "-m",
        "voila",
        f"--template={DECK_TEMPLATE}",
        "--strip_sources=False",  # the code is shown, as in RISE
        f"--Voila.root_dir={ROOT}",
        # a dict on the command line: traitlets prints a DeprecationWarning, harmless
        f"--VoilaConfiguration.resources={resources!r}",
        *(f"--VoilaConfiguration.file_allowlist={pattern}" for pattern in allow),
        *(option for option in defaults if option.split("=")[0] not in given),
        *extra,
        *([os.path.relpath(notebook, ROOT)] if notebook is not None else []),
    ]


def voila_env() -> dict[str, str]:
    """The environment of :func:`voila_command`: this one, with the course's Voila template
    (:data:`DECK_TEMPLATE`, under ``tools/deck/``) on Jupyter's data path."""
    env = dict(os.environ)
    env["JUPYTER_PATH"] = os.pathsep.join(
        x for x in (str(DECK_TEMPLATE_ROOT), env.get("JUPYTER_PATH", "")) if x
    )
    return env


def present(name: str, extra: list[str], french: bool = False) -> None:
    """Serve the chapter ``name`` (``05`` or a path; ``french``: the French edition's) as a live
    deck, until interrupted."""
    command = voila_command(chapter(name, french), *extra)
    css = reveal_css_dir()
    if css is None or not css.is_relative_to(ROOT):
        print("no sphinx-revealjs under the course folder: reveal.js's style sheets from a CDN")
    os.chdir(ROOT)
    os.execve(command[0], command, voila_env())  # Voila in this process: Ctrl+C stops it


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, default=CHAPTERS)
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    parser.add_argument("--summary", action="store_true", help="print the decks' sizes")
    parser.add_argument(
        "--present", metavar="NB", help="show chapter NB (05, or a path) as a live deck (Voila)"
    )
    parser.add_argument("--french", action="store_true", help="with --present: notebooks/fr/")
    args, extra = parser.parse_known_args(argv)
    if args.present:
        present(args.present, extra, args.french)
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    stale = []
    for path in args.notebooks:
        nb = nbformat.read(path, as_version=4)
        if args.summary:
            counts = summary(nb)
            print(
                f"{path.name}: {counts['slide']} slides, {counts['subslide']} subslides, "
                f"{counts['skip']} cells skipped"
            )
        if args.check:
            if not up_to_date(nb):
                stale.append(path.name)
        elif apply(nb):
            nbformat.write(nb, path)
            print(f"wrote the slide metadata of {path.name}")
    if stale:
        print("slide metadata out of date (run python tools/slides.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
