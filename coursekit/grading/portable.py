"""The source of a student's function, made runnable on its own (what the grader judges)."""

from __future__ import annotations

import ast
import dis
import inspect
import math
import textwrap
import types
from collections.abc import Callable
from typing import Any, NamedTuple

# --------------------------------------------------------------------------------------------
# Sources of a student's function (what the grader runs on hidden inputs)


def _names(code: types.CodeType) -> set[str]:
    """The global names a function's code reads (not its attribute names: ``x.mean`` does
    not read a global ``mean``), nested functions and comprehensions included."""
    names = {
        i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")
    }
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _portable(value: Any) -> bool:
    """Whether ``value`` can be written into source as a literal and read back unchanged
    (numbers, strings, None and lists, tuples, dicts and sets of them)."""
    if isinstance(value, float) and not math.isfinite(value):
        return False
    try:
        text = repr(value)
        return len(text) <= 100_000 and ast.literal_eval(text) == value
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False


class _Closure(NamedTuple):
    functions: list[Callable[..., Any]]  # the notebook functions func calls, func first
    modules: dict[str, str]  # alias -> "module" or "module:name"
    constants: dict[str, Any]  # global name -> a value written as a literal
    unportable: dict[str, str]  # global name -> the type of a value that cannot be copied


def _closure(func: Callable[..., Any]) -> _Closure:
    """The notebook functions ``func`` calls (itself first), the modules and the global values
    it uses, and the global values it uses that cannot be copied as literals."""
    functions: list[Callable[..., Any]] = []
    modules: dict[str, str] = {}
    constants: dict[str, Any] = {}
    unportable: dict[str, str] = {}
    todo = [func]
    while todo:
        f = todo.pop()
        if f in functions:
            continue
        functions.append(f)
        for name in sorted(_names(f.__code__)):
            if name not in f.__globals__:
                continue  # a builtin, an attribute name, or a name never defined
            value = f.__globals__[name]
            if isinstance(value, types.ModuleType):
                modules[name] = value.__name__
            elif isinstance(value, types.FunctionType) and value.__module__ == f.__module__:
                todo.append(value)
            elif callable(value) and getattr(value, "__module__", "") and name not in modules:
                modules[name] = f"{value.__module__}:{getattr(value, '__name__', name)}"
            elif _portable(value):
                constants[name] = value
            else:
                unportable[name] = type(value).__name__
    return _Closure(functions, modules, constants, unportable)


def uses_coursekit(func: Callable[..., Any]) -> str:
    """The coursekit module or function ``func`` relies on, or ``''``."""
    if not isinstance(func, types.FunctionType):
        return ""
    for alias, target in sorted(_closure(func).modules.items()):
        if target.split(".")[0].split(":")[0] == "coursekit":
            return f"{alias} from {target.split(':')[0]}"
    return ""


def function_source(func: Callable[..., Any]) -> str:
    """Self-contained source of ``func``: imports, global values and the notebook functions it
    calls, so that the grader can run it in another process.

    Raises ``ValueError`` naming the global variable when ``func`` reads one whose value cannot
    be written as a literal (an array, a DataFrame, ...), and ``OSError`` when the source of a
    function cannot be found (a function made by ``exec``)."""
    closure = _closure(func)
    if closure.unportable:
        name, kind = sorted(closure.unportable.items())[0]
        raise ValueError(
            f"your function reads the global variable {name!r} (a {kind}), which cannot be "
            "copied to the grader: define it inside the function, or as a list or a number"
        )
    lines = []
    for alias, target in sorted(closure.modules.items()):
        module, _, name = target.partition(":")
        if name:
            lines.append(f"from {module} import {name} as {alias}")
        else:
            lines.append(f"import {module} as {alias}")
    lines += [f"{name} = {value!r}" for name, value in sorted(closure.constants.items())]
    for f in reversed(closure.functions):
        lines.append(textwrap.dedent(inspect.getsource(f)))
    return "\n".join(lines) + "\n"


def portable_copy(func: Callable[..., Any]) -> Callable[..., Any]:
    """The function the grader will run: ``func`` rebuilt from :func:`function_source` in a
    fresh namespace. Raises ``ValueError`` (with a sentence for the student) when it cannot be
    rebuilt, so that the self-check fails exactly where the grader would."""
    name = getattr(func, "__name__", "")
    try:
        source = function_source(func)
    except (OSError, TypeError) as error:
        raise ValueError(
            f"the source of your function cannot be read ({type(error).__name__}); define it "
            "with def in a notebook cell"
        ) from None
    namespace: dict[str, Any] = {"__name__": "submission"}
    try:
        exec(compile(source, "<answer>", "exec"), namespace)  # noqa: S102 - the student's own code
    except Exception as error:  # the copy may fail anywhere the student's code does
        raise ValueError(
            f"your function cannot be rebuilt from its source ({type(error).__name__}: "
            f"{str(error)[:80]})"
        ) from None
    copy = namespace.get(name)
    if not callable(copy):
        raise ValueError(
            "your function cannot be found by its name in its source; define it with def "
            "(not with lambda) in a notebook cell"
        )
    return copy
