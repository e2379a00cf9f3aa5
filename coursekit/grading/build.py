"""Generate the exercise notebooks and the self-check data from the solutions (one source).

``solutions/NN_topic.ipynb`` holds each question, its solution and its ``check(...)`` call;
``solutions/keys/NN_topic.py`` holds the answer key (a list ``QUESTIONS`` of
:class:`~coursekit.exercises.Value`, :class:`~coursekit.exercises.Choice` and
:class:`~coursekit.exercises.Function`, with the grader's hidden inputs). ``build`` writes

- ``exercises/NN_topic.ipynb``: the solution with every block between ``# BEGIN SOLUTION`` and
  ``# END SOLUTION`` (``<!-- BEGIN SOLUTION -->`` / ``<!-- END SOLUTION -->`` in markdown)
  replaced by a placeholder, outputs cleared, each code cell tagged ``nbval-ignore-output``
  (nbval runs it as a student gets it: no cell may fail), each question's markdown cell marked
  in its metadata (``"coursekit": {"role": "question", "qid": "q8"}``: where a release finds
  a choice's options to put in the student's order);
- ``coursekit/data/exercises/checks.json``: the public form of every question (hashes).

Placeholders are derived from the solution: ``name = ...`` for each assignment, the signature
and docstring of each function with ``raise NotImplementedError``; imports are kept.

>>> print(placeholder('''x, (y, z) = [1, (2, 3)]
... def f(a, b=2):
...     "Say hello."
...     return a + b
... '''))
x = ...  # your answer
y = ...  # your answer
z = ...  # your answer
<BLANKLINE>
def f(a, b=2):
    \"\"\"Say hello.\"\"\"
    raise NotImplementedError("write this function")
<BLANKLINE>
<BLANKLINE>
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat

from .executed import EXECUTED, execute_in_place
from .questions import CHECKS_PATH, Choice, Function, Value

BEGIN, END = "# BEGIN SOLUTION", "# END SOLUTION"
MD_BEGIN, MD_END = "<!-- BEGIN SOLUTION -->", "<!-- END SOLUTION -->"
MD_PLACEHOLDER = "*Write your answer here.*"
NBVAL_IGNORE_OUTPUT = "nbval-ignore-output"  # exercises are run by nbval, not compared
CHECK_IMPORT = "from coursekit.grading import check"
SETUP_IMPORT = "from coursekit.grading import check, start"
#: A question's markdown cell starts with its bold id: ``**q8.``, ``**q10 (2 points).**``.
QUESTION = re.compile(r"\*\*(q\d+)\b")


def load_key_module(path: Path) -> ModuleType:
    """The answer-key file ``path`` run as a module (its ``QUESTIONS``, maybe ``generate``)."""
    spec = importlib.util.spec_from_file_location(f"coursekit_key_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_key(path: Path, module: ModuleType | None = None) -> list[Value | Choice | Function]:
    """The ``QUESTIONS`` of an answer-key file, checked for unique ids."""
    module = load_key_module(path) if module is None else module
    questions = list(getattr(module, "QUESTIONS", []))
    if not questions:
        raise ValueError(f"{path}: defines no QUESTIONS")
    seen: set[str] = set()
    for q in questions:
        if not isinstance(q, (Value, Choice, Function)):
            raise TypeError(f"{path}: {q!r} is not a Value, Choice or Function")
        if q.qid in seen:
            raise ValueError(f"{path}: question {q.qid!r} appears twice")
        seen.add(q.qid)
        q.public(path.stem)  # refuses a bad key now: a mistake equal to the expected value...
    return questions


def _import_group(line: str) -> int:
    """0 for the standard library, 1 for any other package (ruff's isort groups)."""
    module = line.split()[1].split(".")[0]
    return 0 if module in sys.stdlib_module_names else 1


def placeholder(block: str) -> str:
    """What replaces a solution block in the exercise notebook (see the module docstring)."""
    tree = ast.parse(block)
    parts = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:  # a, b = ... -> one line per name
                names = (
                    [target]
                    if not isinstance(target, (ast.Tuple, ast.List))
                    else [n for n in ast.walk(target) if isinstance(n, (ast.Name, ast.Attribute))]
                )
                parts += [f"{ast.unparse(n)} = ...  # your answer" for n in names]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            parts.append(ast.unparse(node))  # an import is a tool, not an answer: kept
        elif isinstance(node, ast.FunctionDef):
            returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
            lines = [f"def {node.name}({ast.unparse(node.args)}){returns}:"]
            doc = ast.get_docstring(node, clean=False)
            if doc:
                lines.append(f'    """{doc}"""')
            lines.append('    raise NotImplementedError("write this function")')
            parts.append(("\n" if parts else "") + "\n".join(lines))
    for i in range(1, len(parts)):  # blank lines between import groups and after the imports
        before, here = parts[i - 1].lstrip("\n"), parts[i]
        if before.startswith(("import ", "from ")) and (
            not here.startswith(("import ", "from ", "\n"))
            or _import_group(before) != _import_group(here)
        ):
            parts[i] = "\n" + here
    text = "\n".join(parts) if parts else "# your code here"
    if tree.body and isinstance(tree.body[-1], ast.FunctionDef):
        text += "\n\n"  # two blank lines after a function, as ruff format wants
    return text


def with_check_import(source: str) -> str:
    """``source`` with ``from coursekit.grading import check`` after its leading imports when
    it calls check() without importing it: the cell then works when run before the set-up
    cell or after a kernel restart (check() then says to run the set-up cell). The set-up
    cell's ``from coursekit.grading import check, start`` imports ``start`` only.

    >>> print(with_check_import('import math\\n\\nx = ...\\ncheck("q1", x)'))
    import math
    <BLANKLINE>
    from coursekit.grading import check
    <BLANKLINE>
    x = ...
    check("q1", x)
    """
    if SETUP_IMPORT in source:  # the set-up cell: check is imported where it is used
        return source.replace(SETUP_IMPORT, "from coursekit.grading import start")
    lines = source.split("\n")
    if not any(line.startswith("check(") for line in lines) or re.search(
        r"^(from|import) .*\bcheck\b", source, re.MULTILINE
    ):
        return source
    head = 0  # lines of the leading import block
    for i, line in enumerate(lines):
        if line.startswith(("import ", "from ")):
            head = i + 1
        elif line.strip():
            break
    imports = [line for line in lines[:head] if line.strip()]
    rest = lines[head:]
    while rest and not rest[0].strip():
        rest.pop(0)
    ours = [CHECK_IMPORT]
    if imports and not imports[-1].split()[1].startswith("coursekit"):
        ours.insert(0, "")  # coursekit is first-party: a section of its own, the last
    block = lines[:head] + ours if imports else ours
    gap = ["", ""] if rest and rest[0].startswith(("def ", "class ", "@")) else [""]
    return "\n".join(block + gap + rest)


def _strip(text: str, begin: str, end: str, replace, where: str) -> str:
    out, block, inside = [], [], False
    for number, line in enumerate(text.split("\n"), start=1):
        marker = line.strip()
        if marker == begin:
            if inside:
                raise ValueError(f"{where}, line {number}: {begin} inside another solution")
            inside, block = True, []
        elif marker == end:
            if not inside:
                raise ValueError(f"{where}, line {number}: {end} without {begin}")
            inside = False
            out.append(replace("\n".join(block)))
        elif inside:
            block.append(line)
        else:
            out.append(line)
    if inside:
        raise ValueError(f"{where}: {begin} is never closed by {end}")
    return "\n".join(out)


ROLES = ("setup", "data")  # a code cell's role, in its metadata (coursekit.role)


def role(cell: Any) -> str | None:
    """A cell's role in an exercise (``"setup"``, ``"data"``, ``"question"``), from its
    metadata (``{"coursekit": {"role": ...}}``, as nbgrader marks its cells), else None."""
    metadata = cell.get("metadata") if isinstance(cell, dict) else None
    marked = metadata.get("coursekit") if isinstance(metadata, dict) else None
    found = marked.get("role") if isinstance(marked, dict) else None
    return found if isinstance(found, str) else None


def cells_of(notebook: Any, wanted: str) -> list[Any]:
    """The cells of ``notebook`` whose role is ``wanted``."""
    return [cell for cell in notebook.cells if role(cell) == wanted]


def check_roles(solution: Any, name: str, data_source: str | None) -> None:
    """A solution notebook has one set-up cell (calling ``start``) and, when its key draws
    variants (``data_source``: the public data cell of ``generate(None)``), one data cell whose
    source is that cell: the link a release follows, checked here once, by data."""
    setup = cells_of(solution, "setup")
    if len(setup) != 1 or "start(" not in setup[0].source:
        raise ValueError(
            f"{name}: needs one code cell marked as the set-up cell (metadata "
            '{"coursekit": {"role": "setup"}}) calling start(...)'
        )
    data = cells_of(solution, "data")
    if data_source is None:
        if data:
            raise ValueError(f"{name}: a data cell is marked but its key has no generate(rng)")
        return
    if len(data) != 1:
        raise ValueError(
            f"{name}: its key draws variants: mark its data cell (metadata "
            '{"coursekit": {"role": "data"}}), one cell'
        )
    if data[0].source.strip() != data_source.strip():
        raise ValueError(
            f"{name}: the cell marked as the data cell is not the key's generate(None) data "
            "cell: write one from the other"
        )


def exercise_notebook(solution: nbformat.NotebookNode, name: str) -> nbformat.NotebookNode:
    """The exercise version of a solution notebook: solutions replaced, outputs cleared.

    Each code cell is tagged ``nbval-ignore-output``: nbval runs the exercise notebook as it
    is given to students (every cell must run without error) but has no output to compare."""
    notebook = nbformat.v4.new_notebook(metadata=dict(solution.metadata))
    notebook.metadata.pop("widgets", None)
    notebook.metadata.pop(EXECUTED, None)  # (not executed: no outputs)
    for index, cell in enumerate(solution.cells):
        where = f"{name}, cell {index}"
        if cell.cell_type == "code":
            source = with_check_import(_strip(cell.source, BEGIN, END, placeholder, where))
            source = source.rstrip()
            metadata: dict[str, Any] = {"tags": [NBVAL_IGNORE_OUTPUT]}
            if role(cell) in ROLES:
                metadata["coursekit"] = {"role": role(cell)}
            notebook.cells.append(nbformat.v4.new_code_cell(source, metadata=metadata))
        elif cell.cell_type == "markdown":
            source = _strip(cell.source, MD_BEGIN, MD_END, lambda _: MD_PLACEHOLDER, where)
            asked = QUESTION.match(source)  # a question's text: a release finds its options here
            marked = {"coursekit": {"role": "question", "qid": asked[1]}} if asked else {}
            notebook.cells.append(nbformat.v4.new_markdown_cell(source, metadata=marked))
        else:
            notebook.cells.append(nbformat.v4.new_raw_cell(cell.source))
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{index:02d}"
    return notebook


def checks_data(root: Path, chapters: Sequence[str] | None = None) -> dict[str, Any]:
    """The public form of every question of ``root/solutions/keys`` (what checks.json holds)."""
    data = {}
    for path in sorted((root / "solutions" / "keys").glob("[0-9][0-9]_*.py")):
        if chapters and not _chosen(path.stem, chapters):
            continue
        data[path.stem] = {q.qid: q.public(path.stem).to_json() for q in load_key(path)}
    return data


def public_data_cell(key: Path) -> str | None:
    """The public data cell of the answer key at ``key`` (its ``generate(None)``), or None
    when it draws no variants (or there is no key)."""
    if not key.is_file():
        return None
    module = load_key_module(key)
    generate = getattr(module, "generate", None)
    return generate(None)[0] if callable(generate) else None


def _chosen(stem: str, chapters: Sequence[str]) -> bool:
    """Whether chapter ``stem`` (``01_precision_recall``) is among ``chapters`` (full names or
    numbers: ``01``)."""
    return stem in chapters or stem.split("_", 1)[0] in chapters


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def build(root: Path, execute: bool = True, chapters: Sequence[str] | None = None) -> int:
    """Write checks.json and ``exercises/`` (outputs cleared); execute the solutions when
    asked (their stored outputs are what nbval compares)."""
    root = Path(root)
    CHECKS_PATH.parent.mkdir(parents=True, exist_ok=True)
    CHECKS_PATH.write_text(_dump(checks_data(root)), encoding="utf-8")
    (root / "exercises").mkdir(exist_ok=True)
    for solution_path in sorted((root / "solutions").glob("[0-9][0-9]_*.ipynb")):
        if chapters and not _chosen(solution_path.stem, chapters):
            continue
        solution = nbformat.read(solution_path, as_version=4)
        key = root / "solutions" / "keys" / f"{solution_path.stem}.py"
        check_roles(solution, solution_path.name, public_data_cell(key))
        exercise = exercise_notebook(solution, solution_path.name)
        exercise_path = root / "exercises" / solution_path.name
        nbformat.write(exercise, exercise_path)
        print(f"wrote {exercise_path.relative_to(root)}")
        if execute:
            print(f"{execute_in_place(solution_path):6.1f} s  {solution_path.relative_to(root)}")
    return 0
