"""Benchmark: how long one change of each widget takes (recompute every readout and redraw).

    .venv/bin/python benchmarks/bench_widgets.py [--repeats 21]

A change is what one click does: toggling the relevance of one rank, choosing one grade,
loading a preset, swapping two neighbours, moving a slider, choosing two systems to compare
online (chapter 10: the first choice of a pair simulates its sessions, a later one reads them
back). Building the chapter 10 widget is timed too, in a process where matplotlib is already
loaded. Each figure is the median over
``--repeats`` changes, after two warm-up changes, with 20 documents (or 20 items) per widget,
in one process. The target of the course is at most 50 ms per change. The widget is built
without a front end: the time covers the Python side (measures, HTML, the Agg figure and its
PNG), which is what the kernel does before the browser receives the new state.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import platform
import statistics
import sys
import time
from collections.abc import Callable

import coursekit as ck
from coursekit import course
from coursekit.views import widgets
from coursekit.views.widgets.online import OnlineExperiment

N_DOCS = 20
TARGET_MS = 50.0


def median_ms(change: Callable[[], None], repeats: int) -> float:
    for _ in range(2):  # warm-up: first draw, font cache, ...
        change()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        change()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _toggler() -> Callable[[], None]:
    toggler = widgets.RelevanceToggler(
        rels=[1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], n_relevant=10
    )
    ranks = itertools.cycle(range(1, N_DOCS + 1))
    return lambda: toggler.toggle(next(ranks))


def _graded() -> Callable[[], None]:
    graded = widgets.GradedJudgments(gains=[3, 2, 0, 1, 0, 2, 3, 0, 0, 1] * 2)
    grades = itertools.cycle([(r, g) for r in range(1, N_DOCS + 1) for g in (0, 3)])
    return lambda: graded.set_grade(*next(grades))


def _recall() -> Callable[[], None]:
    recall = widgets.RecallOriented()
    presets = itertools.cycle(widgets.RecallOriented.PRESETS)
    return lambda: recall.load(next(presets))


def _correlation() -> Callable[[], None]:
    items = [f"s{i:02d}" for i in range(N_DOCS)]
    correlation = widgets.RankCorrelation(items, items[::-1])
    positions = itertools.cycle(range(1, N_DOCS))
    return lambda: correlation.swap(0, next(positions))


def _explorer() -> Callable[[], None]:
    explorer = widgets.SetBasedExplorer()
    counts = itertools.cycle(range(1, 40))
    return lambda: explorer.set_counts(tp=next(counts))


def _compare() -> Callable[[], None]:
    # chapter 08: the course collection's 5 systems x 12 topics, 3 measures; B cycles through
    # the systems other than A (each change: means, gain, 3 paired tests, the bars)
    collection = course.load_collection()
    compare = widgets.CompareSystems.from_evaluations(
        {
            s: ck.evaluate(run, collection.qrels, ["AP", "nDCG@10", "P@5"], missing_as_zero=True)
            for s, run in collection.runs.items()
        },
        a="bm25",
    )
    others = itertools.cycle([s for s in compare.systems if s != "bm25"])
    return lambda: compare.select(b=next(others))


def _online_inputs() -> tuple[dict, dict]:
    # chapter 10: the course collection's 5 systems, ten documents per topic, 54 topics
    collection = course.load_collection()
    grades = {
        str(q): dict(zip(g["doc_id"].astype(str), g["relevance"], strict=True))
        for q, g in collection.qrels.groupby("query_id", observed=True)
    }
    pages = {
        s: {
            str(q): g["doc_id"].astype(str).tolist()[:10]
            for q, g in ck.sort_run(run).groupby("query_id", observed=True)
        }
        for s, run in collection.runs.items()
    }
    return pages, grades


def _online(**kwargs) -> OnlineExperiment:
    pages, grades = _online_inputs()
    options = {"a": "tfidf", "b": "bm25_stem", "click_model": "position-based"}
    return OnlineExperiment(pages, grades, max_sessions=600, **(options | kwargs))


def _online_build() -> Callable[[], None]:
    pages, grades = _online_inputs()
    options = {"a": "tfidf", "b": "bm25_stem", "click_model": "position-based"}
    return lambda: OnlineExperiment(pages, grades, max_sessions=600, **options)


def _online_new_pair() -> Callable[[], None]:
    online = _online()
    others = itertools.cycle([s for s in online.systems if s != "tfidf"])

    def change() -> None:
        online._cache.clear()  # every choice is a first one: its sessions are simulated
        online.select(b=next(others))

    return change


def _online_known_pair() -> Callable[[], None]:
    online = _online()
    others = itertools.cycle([s for s in online.systems if s != "tfidf"])
    return lambda: online.select(b=next(others))


def _online_slider() -> Callable[[], None]:
    online = _online()
    sessions = itertools.cycle(range(20, 600, 37))
    return lambda: online.set_sessions(next(sessions))


# Each widget is built just before it is timed and dropped after, so that one widget's objects
# do not slow the next one's garbage collection.
CASES: dict[str, Callable[[], Callable[[], None]]] = {
    "RelevanceToggler: toggle one rank": _toggler,
    "GradedJudgments: set one grade": _graded,
    "RecallOriented: load a preset": _recall,
    "RankCorrelation: swap neighbours": _correlation,
    "SetBasedExplorer: move a slider": _explorer,
    "CompareSystems: choose system B": _compare,
    "OnlineExperiment: choose B (first time)": _online_new_pair,
    "OnlineExperiment: choose B (seen before)": _online_known_pair,
    "OnlineExperiment: move the slider": _online_slider,
}
# Building a widget is not a change: timed apart, with no target (the first full draw of its
# figure is most of it).
BUILDS: dict[str, Callable[[], Callable[[], None]]] = {"OnlineExperiment: build": _online_build}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}, {N_DOCS} documents")
    print(f"{'widget: change':44} {'median ms':>10}")
    worst = 0.0
    for name, build in CASES.items():
        ms = median_ms(build(), args.repeats)
        gc.collect()
        worst = max(worst, ms)
        flag = "" if ms <= TARGET_MS else "  (above target)"
        print(f"{name:44} {ms:10.1f}{flag}")
    print(f"target: <= {TARGET_MS:.0f} ms per change; slowest: {worst:.1f} ms")
    for name, build in BUILDS.items():
        print(f"{name:44} {median_ms(build(), max(3, args.repeats // 3)):10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
