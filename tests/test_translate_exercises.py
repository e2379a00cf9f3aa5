"""The French exercises (``exercises/fr/``, built by tools/translate.py from
``locale/fr/exercises/``): each keeps the English exercise's cells, roles and code, and the grader
marks it as it marks the English one.

The grading test fills each French exercise's answer cells with the matching solution notebook's
cells (``solutions/NN_*.ipynb``: the exercise's cell ``cell-NN`` is the solution's cell ``NN``)
and expects full marks: the sum of the answer key's points, not a number from the grader.
"""

from __future__ import annotations

import csv
import importlib.util
import os
import sys
import tokenize
from pathlib import Path

import nbformat
import pytest
from grader_support import run_grader

from coursekit.grading import grader as grade
from coursekit.grading.build import role, with_check_import
from coursekit.grading.choices import split_options
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("translate", ROOT / "tools" / "translate.py")
translate = sys.modules.setdefault("translate", importlib.util.module_from_spec(_spec))
if not hasattr(translate, "EDITIONS"):
    _spec.loader.exec_module(translate)

EXERCISES = next(e for e in translate.EDITIONS if e.english == ROOT / "exercises")
FRENCH = sorted(EXERCISES.french.glob("[0-9][0-9]_*.ipynb"))
KEYS = ROOT / "solutions" / "keys"
# as tests/test_grader.py: the sandbox where it runs, else the same grading without it
UNSAFE = (
    ["--unsafe-no-sandbox"]
    if sandbox_available() is not None and os.environ.get("COURSEKIT_REQUIRE_SANDBOX") != "1"
    else []
)


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def test_the_exercises_are_an_edition_built_without_execution():
    assert EXERCISES.catalogs == ROOT / "locale" / "fr" / "exercises"
    assert EXERCISES.french == ROOT / "exercises" / "fr"
    assert EXERCISES.execute is False
    chapters = next(e for e in translate.EDITIONS if e.english == ROOT / "notebooks")
    assert chapters.execute is True
    failures, notes = translate.check(EXERCISES)
    print("\n".join(notes))
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("path", FRENCH, ids=[p.stem for p in FRENCH])
def test_a_french_exercise_keeps_every_cell_role_and_code_token(path):
    english, french = read(ROOT / "exercises" / path.name), read(path)
    ids = [c.id for c in french.cells]
    setup = next(i for i, c in enumerate(english.cells) if role(c) == "setup")
    # one cell more: the language cell, right before the set-up cell (start() prints its
    # banner in the language chosen), importing coursekit itself
    assert ids == [*[c.id for c in english.cells[:setup]], translate.LANGUAGE_TAG] + [
        c.id for c in english.cells[setup:]
    ]
    assert french.cells[setup].source == translate.EXERCISE_LANGUAGE_CELL
    assert french.cells[setup].source.startswith("import coursekit as ck\n")
    assert "coursekit" not in french.cells[setup].metadata  # no role: not a graded cell
    assert not any(c.cell_type == "code" for c in french.cells[:setup])  # nothing runs before
    by_id = {c.id: c for c in french.cells}
    for cell in english.cells:
        ours = by_id[cell.id]
        assert ours.cell_type == cell.cell_type
        assert ours.metadata == cell.metadata, cell.id  # roles, qids, nbval tags
        if cell.cell_type == "code":
            assert same_code(cell.source, ours.source), cell.id
            assert not ours.outputs and ours.execution_count is None  # committed unexecuted
        elif (qid := cell.metadata.get("coursekit", {}).get("qid")) is not None:
            assert ours.source.startswith(f"**{qid}")  # the bold label a release looks for
            # a choice's options as a release finds and shuffles them (- a) ..., - b) ...)
            assert split_options(ours.source)[1] != [] or not split_options(cell.source)[1]
            letters = [letter for letter, _ in split_options(cell.source)[1]]
            assert [letter for letter, _ in split_options(ours.source)[1]] == letters, cell.id
    assert french.metadata["coursekit"] == {
        **english.metadata["coursekit"],
        "language": "fr",
        "source": f"exercises/{path.name}",
    }


def same_code(english: str, french: str) -> bool:
    """Whether ``french`` is ``english`` with only comments and strings changed, but for the
    trailing commas ``ruff format`` adds when a longer French comment makes it split a line."""
    if translate.code_change(english, french) is None:
        return True

    def code(source: str) -> list[tuple[int, str]]:
        shape = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
        tokens = [(t[0], t[1]) for t in translate.code_tokens(source) if t[0] not in shape]
        ends = [*tokens[1:], (0, "")]
        kept = [t for t, after in zip(tokens, ends, strict=True) if not trailing(t, after)]
        return [t if t[0] != tokenize.STRING else (t[0], "") for t in kept]

    return code(english) == code(french)


def trailing(token: tuple[int, str], after: tuple[int, str]) -> bool:
    return token[1] == "," and after[1] in (")", "]", "}")


def answered(french: nbformat.NotebookNode, solution: nbformat.NotebookNode):
    """``french`` with each answer cell (one calling ``check(``) replaced by the solution's (with
    the import of ``check`` an exercise's cell has: the solution's set-up cell imports it)."""
    notebook = nbformat.from_dict(french)
    for cell in notebook.cells:
        if cell.cell_type == "code" and "check(" in cell.source:
            number = int(cell.id.removeprefix("cell-"))
            theirs = solution.cells[number].source
            # the same question: the solution's cell checks what the exercise's checks
            assert cell.source.split("check(")[-1] == theirs.split("check(")[-1], cell.id
            cell.source = with_check_import(theirs)
    return notebook


@pytest.mark.skipif(not FRENCH, reason="no French exercise built yet")
def test_a_french_exercise_is_graded_as_the_english_one(tmp_path):
    """The first and the last French exercise built, answered with their solution's answers,
    get full marks; the first one as given, unanswered, gets 0 (as the English exercises do).
    (Two chapters: each graded notebook runs in a kernel of its own.)"""
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    graded = sorted({FRENCH[0], FRENCH[-1]})
    for path in graded:
        solution = read(ROOT / "solutions" / path.name)
        nbformat.write(answered(read(path), solution), submissions / f"fr-{path.name}")
    nbformat.write(read(FRENCH[0]), submissions / f"blank-{FRENCH[0].name}")
    done = run_grader(submissions, tmp_path / "out", KEYS, *UNSAFE, cell_timeout=30)
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    keys = grade.load_keys(KEYS)
    for path in graded:
        row = rows[f"fr-{path.stem}"]
        full = sum(q.points for q in keys[path.stem])
        assert row["error"] == "", (path.stem, row["error"])
        assert float(row["max"]) == full > 0
        assert float(row["total"]) == full, (path.stem, row)
    blank = rows[f"blank-{FRENCH[0].stem}"]
    assert float(blank["total"]) == 0 and float(blank["max"]) > 0
