"""Fixtures shared by the test files."""

from __future__ import annotations

import pytest
from browser_support import CHROMIUM_ARGS, chromium, missing


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
