"""A chapter executed twice is the same file (coursekit.grading.notebooks.execute_in_place):
its widgets' model ids do not come from the kernel's random draws, and what a cell printed is
one text however the kernel cut it into messages. And every committed executed notebook was
executed with the code it holds (nbval compares printed text, not figures or widgets)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from coursekit.grading.executed import (
    EXECUTED,
    code_digest,
    execute_in_place,
    stable_widget_ids,
)

pytest.importorskip("ipywidgets")

STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"

CELLS = [
    # two widgets shown, one inside a box; one made and changed but never shown
    "import ipywidgets as w\n"
    "box = w.VBox([w.IntSlider(value=3, description='k'), w.HTML('<b>readout</b>')])\n"
    "box",
    "hidden = w.Dropdown(options=['a', 'b'], value='a')\nhidden.value = 'b'\nprint(hidden.value)",
    # printed in several messages (ipykernel sends what was printed within 0.2 s as one)
    "import sys, time\n"
    "for i in range(3):\n"
    "    print('line', i)\n"
    "    sys.stdout.flush()\n"
    "    time.sleep(0.25)",
]


def _notebook(path):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    for i, cell in enumerate(notebook.cells):
        cell.id = f"cell-{i}"
    nbformat.write(notebook, path)


def test_a_notebook_executed_twice_is_the_same_file(tmp_path):
    path = tmp_path / "05_chapter.ipynb"
    texts = []
    for _ in range(2):
        _notebook(path)
        execute_in_place(path)
        texts.append(path.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]
    notebook = nbformat.reads(texts[0], as_version=4)
    nbformat.validate(notebook)
    state = notebook.metadata["widgets"][STATE]["state"]
    assert len(state) >= 8  # two sliders' and boxes' models, their layouts and styles
    # every reference and every shown widget names a model of the saved state
    referred = set(re.findall("IPY_MODEL_([0-9a-f]{32})", json.dumps(state)))
    shown = {
        output.data[VIEW]["model_id"]
        for cell in notebook.cells
        for output in cell.outputs
        if VIEW in output.get("data", {})
    }
    assert shown and referred and (shown | referred) <= set(state)
    # the widget never shown (the dropdown changed to "b") is kept, once
    dropdowns = [m for m in state.values() if m["model_name"] == "DropdownModel"]
    assert len(dropdowns) == 1 and dropdowns[0]["state"]["index"] == 1
    # the three printed lines: one output
    printed = notebook.cells[2].outputs
    assert [o.output_type for o in printed] == ["stream"]
    assert printed[0].text == "line 0\nline 1\nline 2\n"


def test_ids_follow_the_models_not_the_order_the_kernel_sent_them():
    def text(ids, order):
        a, b, c = ids
        state = {
            a: {"model_name": "VBoxModel", "state": {"children": [f"IPY_MODEL_{b}"]}},
            b: {"model_name": "HTMLModel", "state": {"value": "x"}},
            c: {"model_name": "DropdownModel", "state": {"index": 1}},  # (not shown)
        }
        state = {i: state[i] for i in order}
        output = {"output_type": "display_data", "data": {VIEW: {"model_id": a}}}
        return json.dumps(
            {"cells": [{"outputs": [output]}], "metadata": {"widgets": {STATE: {"state": state}}}}
        )

    first = ("1" * 32, "2" * 32, "3" * 32)
    second = ("a" * 32, "b" * 32, "c" * 32)
    one = stable_widget_ids(text(first, first), "05.ipynb")
    other = stable_widget_ids(text(second, second[::-1]), "05.ipynb")
    assert json.loads(one) == json.loads(other)
    # the ids depend on the notebook's name: two chapters do not share ids
    assert stable_widget_ids(text(first, first), "06.ipynb") != one
    # a notebook without widgets is left as it is
    assert stable_widget_ids('{"cells": []}', "05.ipynb") == '{"cells": []}'


ROOT = Path(__file__).resolve().parents[1]
EXECUTED_NOTEBOOKS = sorted(
    path.relative_to(ROOT)
    for folder in ("notebooks", "notebooks/fr", "solutions")
    for path in (ROOT / folder).glob("[0-9][0-9]_*.ipynb")
)


def test_every_executed_notebook_is_found():
    assert len(EXECUTED_NOTEBOOKS) == 12 + 12 + 11


@pytest.mark.parametrize("path", EXECUTED_NOTEBOOKS, ids=str)
def test_the_committed_outputs_come_from_the_code_committed(path):
    notebook = nbformat.read(ROOT / path, as_version=4)
    assert notebook.metadata.get(EXECUTED) == code_digest(notebook), (
        f"{path}: its code cells changed after it was executed, so its figures and widgets "
        "may show the old code's (nbval compares printed text only): run "
        + (
            "python -m coursekit.exercises build"
            if path.parts[0] == "solutions"
            else "tools/translate.py build --force NN"
            if "fr" in path.parts
            else "tools/run_notebooks.py " + str(path)
        )
    )


def test_the_record_follows_the_code(tmp_path):
    path = tmp_path / "05_chapter.ipynb"
    _notebook(path)
    execute_in_place(path)
    notebook = nbformat.read(path, as_version=4)
    assert notebook.metadata[EXECUTED] == code_digest(notebook)
    notebook.cells[1].source = notebook.cells[1].source.replace("'b'", "'a'", 1)
    assert notebook.metadata[EXECUTED] != code_digest(notebook)
    # a markdown cell is not code: editing it needs no new run
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_markdown_cell("a note"))
    assert notebook.metadata[EXECUTED] == code_digest(notebook)
