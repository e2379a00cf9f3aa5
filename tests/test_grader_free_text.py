"""Free-text answers: extracted to OUT/free_text.csv, marked by hand, merged with --manual."""

from __future__ import annotations

import copy
import csv
import json
import os
import shutil
from pathlib import Path

import pytest
from grader_support import run_grader

from coursekit.grading import freetext
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "01_precision_recall"
FULL = 11  # chapter 01's automatic questions: q1 ... q9 one point each, q10 two
QUESTION = (
    "**Why does accuracy mislead here?** Compare the accuracy of q4's 20 documents with that "
    "of q7's\nempty answer, in two sentences."
)
UNSAFE = (
    ["--unsafe-no-sandbox"]
    if sandbox_available() is not None and os.environ.get("COURSEKIT_REQUIRE_SANDBOX") != "1"
    else []
)


def _course(tmp_path: Path, declared: str = 'FREE_TEXT = {"text1": 2}\n') -> Path:
    """A private course folder: the chapter's solution notebook and keys/ with its key, which
    declares ``declared``."""
    course = tmp_path / "course"
    (course / "keys").mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / f"{CHAPTER}.ipynb", course)
    key = (ROOT / "solutions" / "keys" / f"{CHAPTER}.py").read_text(encoding="utf-8")
    (course / "keys" / f"{CHAPTER}.py").write_text(key + declared, encoding="utf-8")
    return course


def _answered(notebook: dict, answer: str, extra: str | None = None) -> dict:
    """``notebook`` with its free-text cell's solution replaced by ``answer`` (and a markdown
    cell of the student's after it)."""
    notebook = copy.deepcopy(notebook)
    for i, cell in enumerate(notebook["cells"]):
        text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "markdown" and text.startswith(QUESTION):
            cell["source"] = QUESTION + "\n\n" + answer
            if extra is not None:
                added = {"cell_type": "markdown", "metadata": {}, "source": extra}
                notebook["cells"].insert(i + 1, added)
            return notebook
    raise AssertionError("no free-text question in the notebook")


def test_the_answer_is_the_rest_of_the_cell_and_the_cells_added_after_it(tmp_path):
    chapter = freetext.Chapter(ROOT / "solutions" / f"{CHAPTER}.ipynb", {})
    assert list(chapter.questions) == ["text1"] and chapter.questions["text1"] == QUESTION
    exercise = json.loads((ROOT / "exercises" / f"{CHAPTER}.ipynb").read_text(encoding="utf-8"))
    assert chapter.answers(exercise) == {"text1": ""}  # the placeholder left: no answer
    mine = _answered(exercise, "Accuracy counts the true negatives.", "A second paragraph.")
    expected = "Accuracy counts the true negatives.\n\nA second paragraph."
    assert chapter.answers(mine) == {"text1": expected}
    assert chapter.answers({"cells": []}) == {"text1": ""}  # the question deleted


def _marks(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "marks.csv"
    header = "id,submission,chapter,question,text,answer,points,max,comment"
    path.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("s1,,01_precision_recall,text1,,,abc,2,", "points 'abc' is not a number"),
        ("s1,,01_precision_recall,text1,,,2.5,2,", "2.5 points is over the max of 2"),
        ("s1,,01_precision_recall,text1,,,-1,2,", "points '-1' is not a number"),
        ("s9,,01_precision_recall,text1,,,1,2,", "'s9' is not a student id of this run"),
        ("s1,,01_precision_recall,text2,,,1,2,", "01_precision_recall:text2 is not a free-text"),
        ("s1,,02_curves,text1,,,1,2,", "02_curves:text1 is not a free-text question"),
        ("s1,,01_precision_recall,text1,,,1,3,", "max 3 differs from the key's 2"),
    ],
)
def test_bad_marks_are_refused_with_their_line(tmp_path, line, said):
    chapters = {CHAPTER: freetext.Chapter(ROOT / "solutions" / f"{CHAPTER}.ipynb", {"text1": 2})}
    path = _marks(tmp_path, ["s2,,01_precision_recall,text1,,,1,2,", line])
    with pytest.raises(ValueError) as refused:
        freetext.read_marks(path, chapters, ["s1", "s2"], by_id=True)
    assert str(refused.value).startswith(f"{path}:3: ") and said in str(refused.value)


def test_a_mark_without_a_max_anywhere_and_a_question_marked_twice_are_refused(tmp_path):
    chapters = {CHAPTER: freetext.Chapter(ROOT / "solutions" / f"{CHAPTER}.ipynb", {})}
    path = _marks(tmp_path, ["s1,,01_precision_recall,text1,,,1,,"])
    with pytest.raises(ValueError, match=rf"^{path}:2: text1 has no max in its key"):
        freetext.read_marks(path, chapters, ["s1"], by_id=True)
    twice = ["s1,,01_precision_recall,text1,,,1,2,", "s1,,01_precision_recall,text1,,,2,2,"]
    with pytest.raises(ValueError, match=rf"^{path}:3: s1 01_precision_recall:text1 is marked"):
        freetext.read_marks(_marks(tmp_path, twice), chapters, ["s1"], by_id=True)
    unmarked = freetext.read_marks(_marks(tmp_path, ["s1,,01_precision_recall,text1,,,,,"]),
                                   chapters, ["s1"], by_id=True)  # fmt: skip
    assert unmarked == {}


def test_free_text_extracted_then_marks_merged_into_grades_gradebook_and_feedback(tmp_path):
    course = _course(tmp_path)
    subs, out = tmp_path / "subs", tmp_path / "out"
    solution = json.loads((course / f"{CHAPTER}.ipynb").read_text(encoding="utf-8"))
    for sid, notebook in [("s1", solution), ("s2", _answered(solution, "Accuracy counts TN."))]:
        (subs / sid).mkdir(parents=True)
        (subs / sid / f"{CHAPTER}.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    roster = tmp_path / "roster.csv"
    roster.write_text("id\ns1\ns2\n", encoding="utf-8")
    done = run_grader(subs, out, course / "keys", "--roster", str(roster), *UNSAFE)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(out / "free_text.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["id"], r["chapter"], r["question"], r["points"], r["max"]) for r in rows] == [
        ("s1", CHAPTER, "text1", "", "2"),
        ("s2", CHAPTER, "text1", "", "2"),
    ]
    assert rows[1]["answer"] == "Accuracy counts TN." and rows[1]["text"] == QUESTION
    # the lecturer marks: s1 2 of 2, s2 1.5 with a comment
    rows[0]["points"], rows[1]["points"], rows[1]["comment"] = "2", "1.5", "name the TN"
    marks = tmp_path / "marks.csv"
    with open(marks, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    done = run_grader(subs, out, course / "keys", "--roster", str(roster), "--manual", str(marks),
                      *UNSAFE)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    with open(out / "grades.csv", encoding="utf-8") as f:
        grades = {r["id"]: r for r in csv.DictReader(f)}
    assert (grades["s1"]["q10"], grades["s1"]["text1"], grades["s1"]["total"]) == ("2", "2", "13")
    s2 = grades["s2"]
    assert (s2["text1"], s2["total"], s2["max"]) == ("1.5", "12.5", "13")
    with open(out / "gradebook.csv", encoding="utf-8") as f:
        book = {r["id"]: r for r in csv.DictReader(f)}
    assert book["s2"][f"{CHAPTER}:text1"] == "1.5" and book["s2"][f"{CHAPTER}:total"] == "12.5"
    assert book["s1"][f"{CHAPTER}:total"] == str(FULL + 2)  # the honest classmate: full marks
    page = (out / "feedback" / "s2" / f"{CHAPTER}.html").read_text(encoding="utf-8")
    assert "text1: marked by hand: 1.5 / 2; name the TN" in page and "12.5 / 13" in page

    before = (out / "grades.csv").read_bytes()
    rows[1]["points"] = "3"  # over the key's max: refused before anything runs
    with open(marks, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    done = run_grader(subs, out, course / "keys", "--roster", str(roster), "--manual", str(marks),
                      *UNSAFE)  # fmt: skip
    line = 3 + sum(cell.count("\n") for cell in rows[0].values())  # header, s1 (lines), s2
    assert done.returncode == 2 and f"{marks}:{line}: 3 points is over the max of 2" in done.stderr
    assert (out / "grades.csv").read_bytes() == before


def test_a_bad_free_text_declaration_stops_the_run(tmp_path):
    course = _course(tmp_path, 'FREE_TEXT = {"text1": -2}\n')
    subs = tmp_path / "subs"
    (subs / "s1").mkdir(parents=True)
    shutil.copy(course / f"{CHAPTER}.ipynb", subs / "s1")
    done = run_grader(subs, tmp_path / "out", course / "keys", *UNSAFE)
    assert done.returncode == 2
    assert "has a bad FREE_TEXT" in done.stderr and "must be a positive number" in done.stderr
    assert not (tmp_path / "out").exists()
