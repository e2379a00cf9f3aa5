"""The source of a student's function, made runnable on its own (what the grader judges),
and what it uses: coursekit (:func:`uses_coursekit`), a package its question does not allow
(:func:`refused_library`, the judge's library policy said before grading)."""

from __future__ import annotations

import ast
import dis
import importlib
import inspect
import json
import math
import sys
import textwrap
import types
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .wording import _

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


#: Modules every function may use (the judge's policy, coursekit/grading/judge.py)
STDLIB = frozenset(sys.stdlib_module_names)
#: What a function to write may import besides the standard library, unless its question
#: (:class:`~coursekit.grading.questions.Function`'s ``allowed``) says otherwise
DEFAULT_ALLOWED = ("numpy",)
_NOT_LIBRARIES = {"coursekit", "__main__", "builtins", "submission"}  # coursekit: its own message


def _imports(code: types.CodeType) -> set[str]:
    """The modules a function's code imports in its body (nested code included)."""
    names = {i.argval for i in dis.get_instructions(code) if i.opname == "IMPORT_NAME"}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _imports(const)
    return {str(n) for n in names}


def refused_library(func: Callable[..., Any], allowed: Sequence[str]) -> str:
    """The first top-level package ``func`` uses (a module or function of it read as a global,
    or imported in its body or in a notebook function it calls) that is neither in the
    standard library nor ``allowed``, or ``''``: what the grader's judge would refuse."""
    if not isinstance(func, types.FunctionType):
        return ""
    closure = _closure(func)
    used = [t.split(":")[0] for _, t in sorted(closure.modules.items())]
    for f in closure.functions:
        used += sorted(_imports(f.__code__))
    for module in used:
        top = module.partition(".")[0]
        if top and top not in STDLIB and top not in allowed and top not in _NOT_LIBRARIES:
            return top
    return ""


def allowed_list(allowed: Sequence[str], where: str = "allowed") -> list[str]:
    """``allowed`` sorted, refused (ValueError starting with ``where``) unless it is a list of
    top-level package names other than coursekit (a key's ``Function(allowed=...)``)."""
    if isinstance(allowed, str) or not all(
        isinstance(n, str) and n.isidentifier() and n != "coursekit" for n in allowed
    ):
        raise ValueError(
            f"{where}: allowed must list top-level packages other than coursekit, got "
            f"{allowed!r:.80}"
        )
    return sorted(set(allowed))


def allowed_words(allowed: Sequence[str]) -> str:
    """``allowed`` in words: "the standard library and numpy"."""
    names = sorted(set(allowed) - STDLIB)
    if not names:
        return _("the standard library only")
    return _("the standard library{others} and {last}").format(
        others="".join(f", {n}" for n in names[:-1]), last=names[-1]
    )


def library_message(qid: str, library: str, allowed: Sequence[str]) -> str:
    """What a function using a refused ``library`` is told, by the self-check and the grader."""
    return _("{qid}: write it without {library}: the judge allows {allowed}").format(
        qid=qid, library=library, allowed=allowed_words(allowed)
    )


def reference_function(path: str) -> Callable[..., Any]:
    """The coursekit function named ``"module:function"``."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def call_with_copies(func: Callable[..., Any], args: Sequence[Any]) -> Any:
    """``func`` on a deep copy of the JSON arguments (a function mutating them harms no one):
    its output as plain Python, or ``"raised Error: message"``."""
    try:
        value = func(*json.loads(json.dumps(list(args))))
        if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
            return value.tolist()
        return list(value) if isinstance(value, tuple) else value
    except Exception as error:  # the student's function may raise anything
        return f"raised {type(error).__name__}: {str(error)[:80]}"


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
            _(
                "your function reads the global variable {name} (a {kind}), which cannot be "
                "copied to the grader: define it inside the function, or as a list or a number"
            ).format(name=repr(name), kind=kind)
        )
    lines = []
    for alias, target in sorted(closure.modules.items()):
        module, _colon, name = target.partition(":")
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
            _(
                "the source of your function cannot be read ({error}); define it with def in "
                "a notebook cell"
            ).format(error=type(error).__name__)
        ) from None
    namespace: dict[str, Any] = {"__name__": "submission"}
    try:
        exec(compile(source, "<answer>", "exec"), namespace)  # noqa: S102 - the student's own code
    except Exception as error:  # the copy may fail anywhere the student's code does
        raise ValueError(
            _("your function cannot be rebuilt from its source ({error})").format(
                error=f"{type(error).__name__}: {str(error)[:80]}"
            )
        ) from None
    copy = namespace.get(name)
    if not callable(copy):
        raise ValueError(
            _(
                "your function cannot be found by its name in its source; define it with def "
                "(not with lambda) in a notebook cell"
            )
        )
    return copy
