"""Packaging checks: the two dependency lists agree, ``import coursekit`` stays light, and the
public measure functions are documented with a doctest and typed."""

from __future__ import annotations

import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import coursekit

ROOT = Path(__file__).resolve().parent.parent
MEASURE_MODULES = [
    "measures.setbased",
    "measures.ranked",
    "measures.interpolation",
    "measures.graded",
    "measures.recall_oriented",
    "measures.correlation",
    "measures.significance",
    "measures.paired",
    "measures.agreement",
    "measures.incomplete",
    "measures.user",
    "measures.clicks",
    "measures.interleaving",
    "measures.online",
    "measures.power",
    "measures.simulation",
    "measures.diversity",
    "measures.intent_aware",
]
# Entries of environment.yml that are not dependencies of the package.
NOT_DEPENDENCIES = {"python", "pip"}

try:  # Python >= 3.11
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the tomli backport, if installed
    try:
        import tomli as tomllib
    except ModuleNotFoundError:
        tomllib = None


# --- pyproject.toml and environment.yml list the same dependencies ---------------------------

_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(.*)$")


def parse_requirement(text: str) -> tuple[str, str | None]:
    """(normalised name, lower bound or None) of a requirement such as ``pyyaml>=6.0``."""
    text = text.split("#", 1)[0].split(";", 1)[0].strip()
    match = _REQUIREMENT.match(text)
    assert match, f"cannot parse the requirement {text!r}"
    name = match[1].lower().replace("_", "-")
    lower = re.search(r">=\s*([0-9][^,\s]*)", match[2])
    return name, lower[1] if lower else None


def requirements(items: list[str], where: str) -> dict[str, str | None]:
    result: dict[str, str | None] = {}
    for item in items:
        name, lower = parse_requirement(item)
        assert name not in result, f"{name} is listed twice in {where}"
        result[name] = lower
    return result


def pyproject_dependencies() -> dict[str, str | None]:
    if tomllib is None:
        pytest.skip("reading pyproject.toml needs tomllib (Python >= 3.11) or the tomli package")
    with open(ROOT / "pyproject.toml", "rb") as handle:
        project = tomllib.load(handle)["project"]
    extras = project.get("optional-dependencies", {})
    merged = requirements(project["dependencies"], "pyproject.toml [dependencies]")
    for extra in ("test", "lab"):
        # an extra may repeat a package of another extra (the browser test needs jupyterlab),
        # with the same lower bound
        for name, lower in requirements(extras.get(extra, []), f"pyproject.toml [{extra}]").items():
            assert merged.get(name, lower) == lower, f"{name}: different lower bounds in extras"
            merged[name] = lower
    return merged


def environment_dependencies() -> dict[str, str | None]:
    yaml = pytest.importorskip("yaml", reason="reading environment.yml needs pyyaml")
    environment = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    items: list[str] = []
    for entry in environment["dependencies"]:
        if isinstance(entry, dict):
            assert set(entry) == {"pip"}, f"unexpected entry in environment.yml: {entry}"
            items += [e for e in entry["pip"] if not re.match(r"^-e\s+\.$", e.strip())]
        else:
            items.append(str(entry))
    found = requirements(items, "environment.yml")
    return {name: lower for name, lower in found.items() if name not in NOT_DEPENDENCIES}


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("numpy>=1.24", ("numpy", "1.24")),
        ("PyYAML >= 6.0", ("pyyaml", "6.0")),
        ("pytrec_eval-terrier>=0.5.6  # test", ("pytrec-eval-terrier", "0.5.6")),
        ("jupyterlab[extra]>=4.0,<5", ("jupyterlab", "4.0")),
        ("pip", ("pip", None)),
        ("ruff<1", ("ruff", None)),
    ],
)
def test_parse_requirement(text, parsed):
    assert parse_requirement(text) == parsed


def test_environment_yml_and_pyproject_list_the_same_packages():
    in_pyproject, in_environment = pyproject_dependencies(), environment_dependencies()
    assert in_pyproject, "no dependency found in pyproject.toml"
    only_pyproject = sorted(set(in_pyproject) - set(in_environment))
    only_environment = sorted(set(in_environment) - set(in_pyproject))
    assert not (only_pyproject or only_environment), (
        f"only in pyproject.toml: {only_pyproject}; only in environment.yml: {only_environment}"
    )


def test_environment_yml_and_pyproject_give_the_same_lower_bounds():
    in_pyproject, in_environment = pyproject_dependencies(), environment_dependencies()
    differ = {
        name: (in_pyproject[name], in_environment[name])
        for name in set(in_pyproject) & set(in_environment)
        if in_pyproject[name]
        and in_environment[name]
        and in_pyproject[name] != in_environment[name]
    }
    assert not differ, f"lower bounds (pyproject.toml, environment.yml) differ: {differ}"


def test_environment_yml_installs_coursekit_itself():
    yaml = pytest.importorskip("yaml", reason="reading environment.yml needs pyyaml")
    environment = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    pip = [entry["pip"] for entry in environment["dependencies"] if isinstance(entry, dict)]
    assert any(re.match(r"^-e\s+\.$", e.strip()) for e in sum(pip, [])), "no '-e .' pip line"


# --- import coursekit stays light ------------------------------------------------------------


HEAVY = ("matplotlib", "ipywidgets", "pandas", "pyarrow", "scipy", "nbformat")


def test_import_coursekit_imports_numpy_only():
    """The measures need numpy alone: pandas and pyarrow (runs and qrels, evaluate), matplotlib
    and ipywidgets (views), scipy (tests), nbformat (grading) are loaded on first use."""
    code = f"import coursekit, sys; print(*[m in sys.modules for m in {HEAVY!r}])"
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert completed.returncode == 0, completed.stderr
    loaded = [m for m, flag in zip(HEAVY, completed.stdout.split(), strict=True) if flag == "True"]
    assert loaded == [], f"import coursekit loaded {loaded}"


def test_a_lazy_name_is_loaded_on_first_use():
    code = (
        "import sys, coursekit as ck; before = 'pandas' in sys.modules; run = ck.read_run; "
        "from coursekit import evaluate; print(before, 'pandas' in sys.modules, "
        "run.__module__, 'read_run' in dir(ck))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split() == ["False", "True", "coursekit.trec.read", "True"]


# --- the public API ----------------------------------------------------------------------------


def test_every_name_in_all_exists():
    missing = [name for name in coursekit.__all__ if not hasattr(coursekit, name)]
    assert not missing
    assert len(set(coursekit.__all__)) == len(coursekit.__all__)


def public_functions() -> list[tuple[str, str]]:
    found = []
    for module_name in MEASURE_MODULES:
        module = importlib.import_module(f"coursekit.{module_name}")
        names = getattr(module, "__all__", None) or [n for n in vars(module) if n[0] != "_"]
        for name in names:
            value = getattr(module, name)
            if inspect.isfunction(value) and value.__module__ == module.__name__:
                found.append((module_name, name))
    return found


PUBLIC_FUNCTIONS = public_functions()


def test_the_measure_modules_have_public_functions():
    assert {module for module, _ in PUBLIC_FUNCTIONS} == set(MEASURE_MODULES)


@pytest.mark.parametrize(("module", "name"), PUBLIC_FUNCTIONS, ids=lambda v: v)
def test_public_function_has_a_doctest_and_type_hints(module, name):
    function = getattr(importlib.import_module(f"coursekit.{module}"), name)
    assert function.__doc__ and ">>>" in function.__doc__, f"{module}.{name}: no doctest"
    signature = inspect.signature(function)
    untyped = [
        p.name
        for p in signature.parameters.values()
        if p.annotation is inspect.Parameter.empty or p.annotation == ""
    ]
    assert not untyped, f"{module}.{name}: parameters without a type hint: {untyped}"
    assert signature.return_annotation not in (inspect.Signature.empty, ""), (
        f"{module}.{name}: no return type hint"
    )


# --- the grader's container installs what the grader imports --------------------------------


def test_the_grader_container_installs_every_package_the_grader_imports():
    # the image ran `pip install /src` (no extra): nbformat, nbclient and ipykernel were
    # missing, and the grader failed on import inside the container
    import ast
    import importlib.metadata

    if tomllib is None:
        pytest.skip("reading pyproject.toml needs tomllib (Python >= 3.11) or the tomli package")
    install = re.search(r'pip install[^\n]*"/src\[(\w+)\]"', (ROOT / "Containerfile").read_text())
    assert install, "the Containerfile installs coursekit without the extra the grader needs"
    with open(ROOT / "pyproject.toml", "rb") as handle:
        project = tomllib.load(handle)["project"]
    installed = {
        parse_requirement(r)[0]
        for r in project["dependencies"] + project["optional-dependencies"][install[1]]
    }
    modules = set()
    for path in (ROOT / "coursekit" / "grading").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    owners = importlib.metadata.packages_distributions()
    third_party = {m for m in modules if m in owners and m != "coursekit"}
    needed = {m: owners[m][0].lower().replace("_", "-") for m in third_party}
    # jupyter_client comes with nbclient and ipykernel; every other one is listed
    missing = {m: d for m, d in needed.items() if d not in installed | {"jupyter-client"}}
    assert not missing, f"the grader imports {missing}, which the container does not install"


def _notebook_imports(path: Path) -> set[str]:
    """Top-level names of the modules a notebook's code cells import (magics skipped)."""
    import ast

    import nbformat

    found: set[str] = set()
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        source = "\n".join(
            line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!"))
        )
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                found |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    + sorted((ROOT / "exercises").glob("[0-9][0-9]_*.ipynb"))
    + sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb")),
    ids=lambda p: f"{p.parent.name}/{p.stem}",
)
def test_make_lab_installs_every_package_a_notebook_imports(path):
    # chapter 09 imported scikit-learn, which only the test extra installed: after `make lab`
    # its Run All stopped on a ModuleNotFoundError with 22 cells unrun
    import importlib.metadata

    if tomllib is None:
        pytest.skip("reading pyproject.toml needs tomllib (Python >= 3.11) or the tomli package")
    with open(ROOT / "pyproject.toml", "rb") as handle:
        project = tomllib.load(handle)["project"]
    lab = {
        parse_requirement(r)[0]
        for r in project["dependencies"] + project["optional-dependencies"]["lab"]
    }
    owners = importlib.metadata.packages_distributions()
    stdlib = set(sys.stdlib_module_names)
    imported = _notebook_imports(path) - stdlib - {"coursekit"}
    unknown = {m for m in imported if m not in owners}
    assert not unknown, f"{path.name} imports {unknown}, which no installed package provides"
    needed = {m: owners[m][0].lower().replace("_", "-") for m in imported}
    missing = {m: d for m, d in needed.items() if d not in lab}
    assert not missing, f"{path.name} imports {missing}, which `make lab` (the lab extra) lacks"
