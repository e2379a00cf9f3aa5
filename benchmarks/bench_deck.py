"""Benchmark in a real browser: how long a chapter's live deck takes to show, opened and reloaded.

    .venv/bin/python benchmarks/bench_deck.py [--chapters 05,09,11] [--reloads 5]

For each chapter, Voila serves its deck as ``make slides NB=05`` does (``tools/slides.py``'s
command, on localhost), once with a kernel preheated (``make slides``' way) and once without
(``--preheat_kernel=False``). Debian's headless Chromium (``which chromium``) opens the deck,
then reloads it ``--reloads`` times, 15 s apart (the time Voila takes to run the chapter in the
next preheated kernel, or the lecturer's talk between two reloads). Each figure is the time from
asking for the page until the deck is ready as the tests define it (``tests/test_slides_voila.py``'s
``READY``: Voila's cells shown, reveal.js started, nothing changing in the page for 400 ms, so
each figure includes those 400 ms); the reloads' figure is their median. After each reload the
chapter's widget is changed once, to check that it is live (``LIVE``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from browser_support import CHROMIUM_ARGS, stop  # noqa: E402
from test_slides_voila import LIVE, READY, slides, start_voila  # noqa: E402

GAP_S = 15.0  #: between two opens of a deck


def time_deck(browser, chapter: Path, preheat: bool, reloads: int) -> tuple[float, list[float]]:
    """The first open's time and each reload's, in seconds, for one way of serving the deck."""
    process, base, log = start_voila(
        f"--preheat_kernel={preheat}", log_name="voila-bench.log", notebook=chapter
    )
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    times = []
    try:
        for _ in range(reloads + 1):
            started = time.perf_counter()
            page.goto(f"{base}/", timeout=120_000)
            page.evaluate(READY)
            times.append(time.perf_counter() - started)
            if page.evaluate(LIVE) is None:
                raise SystemExit(f"{chapter.name}: the deck's widget is not live")
            time.sleep(GAP_S)
    finally:
        page.close()
        stop(process)
        log.close()
    return times[0], times[1:]


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapters", default="05,09,11")
    parser.add_argument("--reloads", type=int, default=5)
    args = parser.parse_args(argv)
    chapters = [slides.chapter(name) for name in args.chapters.split(",")]
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium"), headless=True, args=CHROMIUM_ARGS
        )
        try:
            for chapter in chapters:
                for preheat in (True, False):
                    first, again = time_deck(browser, chapter, preheat, args.reloads)
                    rows.append((chapter.stem, preheat, first, again))
                    print(f"  {chapter.stem}, preheated {preheat}: done", flush=True)
        finally:
            browser.close()
    print(f"\n{'chapter':28} {'preheated':>9} {'first open s':>13} {'reload s (median)':>18}")
    for name, preheat, first, again in rows:
        spread = f"{min(again):.1f}-{max(again):.1f}"
        print(f"{name:28} {preheat!s:>9} {first:13.1f} {statistics.median(again):8.1f} ({spread})")
    print(f"load average: {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
