"""The committed notebooks (chapters, their French edition, the solutions) executed in place:
:func:`execute_in_place`, used by ``tools/run_notebooks.py``, ``tools/translate.py build`` and
``python -m coursekit.exercises build``. A notebook executed again is the same file unless what
it shows changed, and it records which code made its outputs (:data:`EXECUTED`).
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

# ipykernel's own kernelspec: JupyterLab writes the running kernel's into a notebook it opens,
# which would mark a notebook saved with another display name modified
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def _has_widgets(notebook) -> bool:
    return any(
        _WIDGET_VIEW in output.get("data", {})
        for cell in notebook.cells
        for output in cell.get("outputs", [])
    )


def execute_in_place(path: Path, timeout: int = 300) -> float:
    """Execute ``path`` and write it back with its outputs; return the seconds it took."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
    )
    start = time.perf_counter()
    # the kernel process's own log (a warning about its local TCP transport) is noise here:
    # what the cells print and raise comes back through the notebook's outputs
    client.execute(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if not _has_widgets(notebook):
        notebook.metadata.pop("widgets", None)
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)
    notebook.metadata[EXECUTED] = code_digest(notebook)
    _merge_streams(notebook)
    text = stable_widget_ids(nbformat.writes(notebook), f"{path.parent.name}/{path.name}")
    nbformat.write(nbformat.reads(text, as_version=4), path)  # (the state's keys sorted again)
    return elapsed


#: The notebook metadata that records which code was executed (:func:`code_digest`), so that
#: a test can tell a notebook whose code changed after its outputs were made
#: (``tests/test_notebook_builds.py``): nbval compares printed text, not figures or widgets.
EXECUTED = "coursekit_executed"


def code_digest(notebook) -> str:
    """A digest of a notebook's code cells' sources, in order (SHA-256, 16 hex digits).

    >>> import nbformat
    >>> one = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)")])
    >>> two = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(2)")])
    >>> code_digest(one) == code_digest(one), code_digest(one) == code_digest(two)
    (True, False)
    """
    import hashlib

    digest = hashlib.sha256()
    for cell in notebook.cells:
        if cell.cell_type == "code":
            digest.update(cell.source.encode("utf-8") + b"\0")
    return digest.hexdigest()[:16]


_WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _merge_streams(notebook) -> None:
    """Neighbouring outputs of one stream (stdout, stderr) made one, in each cell: how the
    kernel cut what a cell printed into messages depends on timing (JupyterLab shows them as
    one text either way, and nbval compares them merged)."""
    for cell in notebook.cells:
        merged: list = []
        for output in cell.get("outputs", []):
            previous = merged[-1] if merged else None
            if (
                output.get("output_type") == "stream"
                and previous is not None
                and previous.get("output_type") == "stream"
                and previous.get("name") == output.get("name")
            ):
                previous["text"] += output["text"]
            else:
                merged.append(output)
        if "outputs" in cell:
            cell["outputs"] = merged


def stable_widget_ids(text: str, name: str) -> str:
    """A notebook's text (JSON) with its widgets' model ids, which the kernel draws at random
    (``uuid4``), replaced by ids drawn from ``name`` and the models' order: a chapter executed
    again is the same file unless what it shows changed (no diff in git from the ids alone).

    The models are taken in an order that does not depend on when the kernel sent them: from
    the outputs that show a widget, in the cells' order, each model followed by the models it
    refers to (``IPY_MODEL_...``, in its state's key order); any other after them. Each id (32
    hex digits) is replaced wherever it is written (nbformat then sorts the saved state by the
    new ids).

    >>> import json
    >>> def notebook(a, b):
    ...     state = {a: {"state": {"style": f"IPY_MODEL_{b}"}}, b: {"state": {}}}
    ...     output = {"data": {_WIDGET_VIEW: {"model_id": a}}}
    ...     return json.dumps({"cells": [{"outputs": [output]}],
    ...                        "metadata": {"widgets": {_WIDGET_STATE: {"state": state}}}})
    >>> stable_widget_ids(notebook("ab" * 16, "cd" * 16), "05.ipynb") == stable_widget_ids(
    ...     notebook("12" * 16, "34" * 16), "05.ipynb")
    True
    """
    import json
    import uuid

    notebook = json.loads(text)
    saved = notebook.get("metadata", {}).get("widgets", {}).get(_WIDGET_STATE, {})
    state = saved.get("state", {})
    if not state:
        return text
    shown = [
        output["data"][_WIDGET_VIEW].get("model_id")
        for cell in notebook.get("cells", [])
        for output in cell.get("outputs", [])
        if _WIDGET_VIEW in output.get("data", {})
    ]
    order: dict[str, None] = {}
    _walk(state, [i for i in shown if i in state], order)
    # models no output shows (a widget made and changed by a cell, not displayed): from
    # those that no other refers to, in the order of what they hold (ids left out)
    rest = [i for i in state if i not in order]
    referred = set(_REFERENCE.findall(json.dumps([state[i] for i in rest])))
    _walk(state, sorted((i for i in rest if i not in referred), key=_content(state)), order)
    _walk(state, sorted((i for i in state if i not in order), key=_content(state)), order)
    stable = {old: uuid.uuid5(uuid.NAMESPACE_URL, f"{name}#{i}").hex for i, old in enumerate(order)}
    return _ID.sub(lambda m: stable.get(m.group(), m.group()), text)


def _walk(state: dict, start: list[str], order: dict[str, None]) -> None:
    """Adds to ``order`` the models of ``start`` and those they refer to, depth first."""
    import json

    pending = list(reversed(start))
    while pending:
        model = pending.pop()
        if model in order:
            continue
        order[model] = None
        refers = _REFERENCE.findall(json.dumps(state[model], sort_keys=True))
        pending += [i for i in reversed(refers) if i in state and i not in order]


def _content(state: dict):
    """A model's state as text, its references to other models left out: a sort key."""
    import json

    return lambda model: _REFERENCE.sub("", json.dumps(state[model], sort_keys=True))


_REFERENCE = re.compile("IPY_MODEL_([0-9a-f]{32})")
_ID = re.compile("[0-9a-f]{32}")
