"""The parts of an exercise are linked by data, not by matching text (issue 33, item 6).

A solution notebook marks its set-up cell and, when its key draws variants, its data cell in
the cell's metadata (``{"coursekit": {"role": "setup" | "data"}}``, as nbgrader marks its
cells); the build checks the data cell against the key's ``generate(None)`` once and copies
the marks into the exercise; a release replaces the marked cell, whatever else the notebook
holds.
"""

from __future__ import annotations

import copy
import hashlib
import hmac

import nbformat
import numpy as np
import pytest
from exercise_support import CHAPTERS, ROOT, SECRET, load_key

from coursekit.grading import build, variants


def _marked(notebook, role: str) -> list:
    return [
        c for c in notebook.cells if c.get("metadata", {}).get("coursekit", {}).get("role") == role
    ]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_solution_and_exercise_mark_their_set_up_and_data_cells(chapter):
    public_data = load_key(chapter).generate(None)[0]
    for folder in ("solutions", "exercises"):
        notebook = nbformat.read(ROOT / folder / f"{chapter}.ipynb", as_version=4)
        setup, data = _marked(notebook, "setup"), _marked(notebook, "data")
        assert len(setup) == 1 and f'start("{chapter}")' in setup[0].source, folder
        assert len(data) == 1 and data[0].source.strip() == public_data.strip(), folder
        assert notebook.cells.index(setup[0]) < notebook.cells.index(data[0])


CHAPTER = "01_precision_recall"


def _solution():
    return nbformat.read(ROOT / "solutions" / f"{CHAPTER}.ipynb", as_version=4)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda nb: _marked(nb, "setup")[0].metadata.pop("coursekit"), "set-up cell"),
        (lambda nb: _marked(nb, "data")[0].metadata.pop("coursekit"), "mark its data cell"),
        (lambda nb: setattr(_marked(nb, "data")[0], "source", "n_docs = 41"), "not the key's"),
    ],
)
def test_the_build_refuses_a_solution_whose_roles_are_wrong(edit, message):
    notebook = _solution()
    edit(notebook)
    data = load_key(CHAPTER).generate(None)[0]
    with pytest.raises(ValueError, match=message):
        build.check_roles(notebook, f"{CHAPTER}.ipynb", data)


def test_a_release_replaces_the_marked_cell_only():
    exercise = nbformat.read(ROOT / "exercises" / f"{CHAPTER}.ipynb", as_version=4)
    data = _marked(exercise, "data")[0]
    # a cell further down with the same text as the public data (a student's copy, say)
    twin = nbformat.v4.new_code_cell(data.source)
    exercise.cells.append(twin)
    generator = load_key(CHAPTER)
    own = variants.personalise(copy.deepcopy(exercise), CHAPTER, "s1001", generator, SECRET)
    message = f"coursekit-variant:{CHAPTER}:s1001".encode()  # the documented seed, by hand
    seed = int.from_bytes(hmac.new(SECRET, message, hashlib.sha256).digest(), "big")
    expected = generator.generate(np.random.default_rng(seed))[0]
    assert _marked(own, "data")[0].source == expected != data.source
    assert own.cells[-1].source == data.source  # the unmarked twin is left as it was


def test_a_notebook_without_marks_is_refused_with_the_way_to_mark_it():
    exercise = nbformat.read(ROOT / "exercises" / f"{CHAPTER}.ipynb", as_version=4)
    for cell in exercise.cells:
        cell.get("metadata", {}).pop("coursekit", None)
    with pytest.raises(ValueError, match="role"):
        variants.personalise(exercise, CHAPTER, "s1001", load_key(CHAPTER), SECRET)


def test_a_release_finds_the_set_up_cell_by_its_mark():
    exercise = nbformat.read(ROOT / "exercises" / f"{CHAPTER}.ipynb", as_version=4)
    _marked(exercise, "setup")[0].metadata.pop("coursekit")
    with pytest.raises(ValueError, match="set-up cell"):
        variants.personalise(exercise, CHAPTER, "s1001", load_key(CHAPTER), SECRET)
