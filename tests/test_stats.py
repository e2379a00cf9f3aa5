"""Class statistics (coursekit.grading.stats) of a small set of grades, computed here by hand."""

from __future__ import annotations

import base64
import csv
import re
import struct

import pytest

from coursekit.grading import stats
from coursekit.grading.report import Grade


def _q(points: float, top: float, message: str) -> dict:
    return {"points": points, "max": top, "message": message}


DIVIDE = "not right yet: divide by all relevant documents"
GRADES = [
    Grade("a", "01_a", {"q1": _q(2, 2, "q1: passed"), "q2": _q(0, 3, f"q2: {DIVIDE}")}),
    Grade("b", "01_a", {"q1": _q(0, 2, "q1: not answered"), "q2": _q(0, 3, f"q2: {DIVIDE}")}),
    Grade("c", "01_a", {"q1": _q(1, 2, "q1: right to 2 decimals"), "q2": _q(3, 3, "q2: passed")}),
    Grade("d", "01_a", {"q1": _q(0, 2, "q1: not graded (x)"), "q2": _q(0, 3, "q2: not this one")}),
    Grade("e", "02_b", {"q1": _q(4, 4, "q1: passed")}),
    Grade("f", "02_b", {"q1": _q(0, 4, "q1: zeta")}),
    Grade("g", "02_b", {"q1": _q(0, 4, "q1: alpha")}),
    Grade("h", "", error="grader error: no chapter"),  # no chapter: in no statistic
]  # fmt: skip


def _rows(tmp_path) -> dict[tuple[str, str], dict[str, str]]:
    stats.write_stats(GRADES, tmp_path)
    with open(tmp_path / "stats.csv", encoding="utf-8") as f:
        return {(r["chapter"], r["question"]): r for r in csv.DictReader(f)}


def test_per_question_counts_means_and_mistakes(tmp_path):
    rows = _rows(tmp_path)
    assert list(rows) == [
        ("01_a", "q1"), ("01_a", "q2"), ("01_a", "total"), ("02_b", "q1"), ("02_b", "total"),
    ]  # fmt: skip
    q1 = rows[("01_a", "q1")]
    # answered: a and c (b not answered, d not graded); mean (2 + 0 + 1 + 0) / 4; full: a only
    assert (q1["submissions"], q1["answered"], q1["max_points"]) == ("4", "2", "2")
    assert float(q1["mean_points"]) == pytest.approx(0.75)
    assert float(q1["full_marks"]) == pytest.approx(0.25)
    assert (q1["top_mistake"], q1["top_mistake_count"]) == ("right to 2 decimals", "1")
    q2 = rows[("01_a", "q2")]  # answered by all four; 3 points of 12; the hint given twice
    assert q2["answered"] == "4" and float(q2["mean_points"]) == pytest.approx(0.75)
    assert (q2["top_mistake"], q2["top_mistake_count"]) == (DIVIDE, "2")


def test_totals_and_a_tie_between_mistakes(tmp_path):
    rows = _rows(tmp_path)
    total = rows[("01_a", "total")]  # totals 2, 0, 4, 0 of 5
    assert float(total["mean_points"]) == pytest.approx(1.5)
    assert (total["max_points"], total["full_marks"], total["answered"]) == ("5", "0", "4")
    b = rows[("02_b", "q1")]  # "zeta" and "alpha" once each: the first alphabetically
    assert (b["top_mistake"], b["top_mistake_count"]) == ("alpha", "1")
    assert float(b["full_marks"]) == pytest.approx(1 / 3, abs=5e-5)
    assert float(rows[("02_b", "total")]["mean_points"]) == pytest.approx(4 / 3, abs=5e-4)


def test_the_page_has_one_figure_per_chapter_of_a_fixed_size(tmp_path):
    stats.write_stats(GRADES, tmp_path)
    page = (tmp_path / "stats.html").read_text(encoding="utf-8")
    images = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page)
    assert len(images) == 2
    for image in images:
        png = base64.b64decode(image)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk
        assert (width, height) == (9 * 80, 3 * 80)
    assert DIVIDE in page


def test_no_grade_gives_a_header_and_a_page_without_figure(tmp_path):
    stats.write_stats([], tmp_path)
    assert (tmp_path / "stats.csv").read_text(encoding="utf-8").count("\n") == 1
    assert "No graded submission" in (tmp_path / "stats.html").read_text(encoding="utf-8")
