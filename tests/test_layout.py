"""The package's layout, as ARCHITECTURE.md describes it: layers whose imports point down only,
no import cycle, no private name imported from another subpackage, no module over 400 lines."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "coursekit"

#: Each part of the package and the parts it may import (besides itself).
BELOW = {"validation", "i18n", "measures", "engine", "trec", "registry"}
LAYERS = {
    "validation": set(),
    "i18n": {"validation"},  #: the language shown (registry, evaluation and the layers above)
    "measures": {"validation"},
    "engine": set(),  #: numpy, pandas, pyarrow only: under both trec and evaluation
    "trec": {"engine", "validation"},
    "registry": {"measures", "validation", "i18n"},  #: (the measures' descriptions)
    "evaluation": {"measures", "engine", "trec", "registry", "validation", "i18n"},
    "course": BELOW | {"evaluation"},
    "views": BELOW | {"evaluation", "course"},
    "grading": BELOW | {"evaluation", "course", "views"},
}
#: Entry points kept at their first address (they only re-export, see their docstrings).
FACADES = {"coursekit", "coursekit.exercises", "coursekit.grade"}
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> list[tuple[str, list[str], int]]:
    """(imported module, imported names, line) for every import of module ``name``, at any depth
    (imports inside functions count: a cycle through a lazy import is still a cycle)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [alias.name for alias in node.names]
            if target.startswith("coursekit"):
                # "from . import plots" imports the submodule coursekit.views.plots
                subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES]
                found += [(s, [], node.lineno) for s in subs]
                if len(subs) < len(names):
                    found.append(
                        (target, [n for n in names if f"{target}.{n}" not in MODULES], node.lineno)
                    )
        elif isinstance(node, ast.Import):
            found += [
                (a.name, [], node.lineno) for a in node.names if a.name.startswith("coursekit")
            ]
    return found


def part_of(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_evaluation_uses_trec_through_its_public_api_only():
    """``evaluation/`` imports ``coursekit.trec`` itself, never one of its modules."""
    wrong = [
        f"{MODULES[name].name}:{line} imports {target}"
        for name in MODULES
        if part_of(name) == "evaluation"
        for target, _, line in imports_of(name)
        if target.startswith("coursekit.trec.")
    ]
    assert wrong == [], wrong


def test_the_engine_imports_neither_trec_nor_evaluation():
    """The engine (ids as integers, order, counting, addressing, matching) sits below the
    readers and ``evaluate``: it imports no other part of the package."""
    engine = [name for name in MODULES if part_of(name) == "engine"]
    assert "coursekit.engine.matching" in engine
    wrong = [
        f"{MODULES[name].name}:{line} imports {target}"
        for name in engine
        for target, _, line in imports_of(name)
        if part_of(target) not in (None, "engine") or target == "coursekit"
    ]
    assert wrong == [], wrong


def test_every_module_belongs_to_a_layer_or_is_a_facade():
    strays = [m for m in MODULES if part_of(m) is None and m not in FACADES]
    assert strays == [], f"modules outside the layers of ARCHITECTURE.md: {strays}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down(name):
    here = part_of(name)
    if here is None:
        return
    wrong = [
        f"{MODULES[name].name}:{line} imports {target}"
        for target, _, line in imports_of(name)
        if (there := part_of(target)) is not None
        and there != here
        and there not in LAYERS[here]
        or target == "coursekit"
    ]
    assert wrong == [], f"{name} ({here}) may import only {sorted(LAYERS[here])}: {wrong}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_private_name_from_another_subpackage(name):
    here = part_of(name)
    wrong = [
        f"{MODULES[name].name}:{line} imports {n} from {target}"
        for target, names, line in imports_of(name)
        for n in names
        # (``_`` is gettext's name for "translate", coursekit.i18n's public function)
        if n.startswith("_") and n not in ("__version__", "_") and part_of(target) != here
    ]
    assert wrong == []


def test_no_import_cycle():
    graph = {m: {t for t, _, _ in imports_of(m) if t in MODULES and t != m} for m in MODULES}
    # a package's __init__ importing its own submodules is how packages work; a submodule
    # importing its package's __init__ back is the cycle to find
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == [], "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle(tmp_path, monkeypatch):
    """The check above can fail: two modules importing each other are reported."""
    for name, other in (("a", "b"), ("b", "a")):
        (tmp_path / f"{name}.py").write_text(f"from . import {other}\n")
    (tmp_path / "__init__.py").write_text("")
    fake = {
        "coursekit.validation.a": tmp_path / "a.py",
        "coursekit.validation.b": tmp_path / "b.py",
    }
    monkeypatch.setattr(sys.modules[__name__], "MODULES", fake)
    with pytest.raises(AssertionError, match="import cycles"):
        test_no_import_cycle()


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_over_400_lines(name):
    lines = len(MODULES[name].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{MODULES[name]} has {lines} lines: split it by what it holds"
