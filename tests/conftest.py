"""Fixtures shared by the test files."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest
from browser_support import CHROMIUM_ARGS, chromium, missing

# The self-check keeps the wrong letters a student tried in the user's cache folder
# (coursekit/attempts.json): a test run (this process and every kernel it starts, nbval's
# included) gets a fresh one, so that it neither reads nor changes the developer's own.
_CACHE = tempfile.mkdtemp(prefix="coursekit-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium driven by Playwright (skipped, or failed in CI, without it)."""
    executable = chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright package is not installed")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()
