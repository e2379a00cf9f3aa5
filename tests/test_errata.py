"""docs/errata.md is generated from the notebooks' erratum boxes and must be up to date."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_errata_page_is_up_to_date():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "collect_errata.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_errata_page_lists_boxes_of_the_chapters():
    text = (ROOT / "docs" / "errata.md").read_text(encoding="utf-8")
    assert "## `notebooks/06_recall_oriented.ipynb`" in text
    assert "printed" in text and "recomputed" in text
