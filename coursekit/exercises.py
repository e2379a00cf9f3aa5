"""Self-check for the exercise notebooks: ``check("q3", answer)`` prints one line.

The line says *passed*, or what is wrong: not answered yet, wrong type, wrong length, out of
range, right to fewer decimals than asked, wrong on one element or on one edge case. It never
prints the expected value, and the expected values are not stored in clear in what students
install: ``data/exercises/checks.json`` holds, for each question, salted SHA-256 hashes of the
expected value rounded to 2, 3 and 4 decimals (:func:`digest`), and for a function to write,
the inputs it is tried on and the coursekit function it must agree with.

The same judging code serves the batch grader (:mod:`coursekit.grade`), which builds the
public form of each question from the lecturer's answer key (:class:`Value`, :class:`Choice`,
:class:`Function`) and tries functions on hidden inputs as well.

Exercise notebooks are generated from ``solutions/`` by ``python -m coursekit.exercises
build`` (see :mod:`coursekit.exercise_build`).

>>> spec = Value("q1", 2 / 3, low=0, high=1).public("demo")
>>> judge_value(spec, 0.6667)
'q1: passed'
>>> judge_value(spec, 0.67)
'q1: right to 2 decimals only: give at least 4 decimals (do not round before the end)'
>>> judge_value(spec, 1.5)
'q1: 1.5 is out of range: the answer lies between 0 and 1'
>>> judge_value(spec, ...)
'q1: not answered yet: replace ... with your answer'
"""

from __future__ import annotations

import ast
import dis
import hashlib
import importlib
import inspect
import json
import math
import numbers
import os
import textwrap
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

__all__ = [
    "check",
    "digest",
    "Value",
    "Choice",
    "Function",
    "judge_value",
    "compare_outputs",
    "function_source",
    "PASSED",
]

CHECKS_PATH = Path(__file__).parent / "data" / "exercises" / "checks.json"
#: Environment variable naming the file where :func:`check` records answers while grading.
ANSWER_LOG = "COURSEKIT_ANSWER_LOG"
PASSED = "passed"
DECIMALS = (4, 3, 2)
TOLERANCE = 1e-6


# --------------------------------------------------------------------------------------------
# Hashing of rounded values


def _canonical_float(value: float, decimals: int) -> str:
    text = f"{value:.{decimals}f}"
    return "0." + "0" * decimals if float(text) == 0 else text  # -0.0000 is 0.0000


def _canonical(value: Any, decimals: int) -> str:
    if isinstance(value, str):
        return "s:" + value.strip().lower()
    if isinstance(value, numbers.Integral):
        return f"i:{int(value)}"
    return "f:" + _canonical_float(float(value), decimals)


def digest(salt: str, value: Any, decimals: int = 4) -> str:
    """Salted SHA-256 of ``value`` rounded to ``decimals`` (strings: stripped, lower case).

    >>> digest("demo", 0.123449999999) == digest("demo", 0.1234)
    True
    """
    text = f"coursekit:{salt}:{_canonical(value, decimals)}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _matches(salt: str, value: Any, hashes: dict[str, str], decimals: int) -> bool:
    expected = hashes.get(str(decimals))
    if expected is None:
        return False
    if isinstance(value, float) and math.isfinite(value):
        # a value a hair away from a rounding boundary counts as its neighbour too
        near = (value, value - 1e-9, value + 1e-9)
        return any(digest(salt, v, decimals) == expected for v in near)
    return digest(salt, value, decimals) == expected


# --------------------------------------------------------------------------------------------
# Questions of an answer key (lecturer side) and their public form (what students install)


@dataclass
class Value:
    """A question whose answer is a number, a whole number, a list of them, or a list of ids.

    ``expected`` is the value in clear; only :meth:`public` (hashes) is shipped to students.
    """

    qid: str
    expected: Any
    points: float = 1.0
    low: float | None = None
    high: float | None = None
    hint: str = ""
    decimals: int = 4

    def kind(self) -> str:
        e = self.expected
        if isinstance(e, str):
            return "text"
        if isinstance(e, (list, tuple)):
            if all(isinstance(x, str) for x in e):
                return "ids"
            if all(isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in e):
                return "ints"
            return "floats"
        if isinstance(e, numbers.Integral) and not isinstance(e, bool):
            return "int"
        return "float"

    def public(self, chapter: str) -> dict[str, Any]:
        salt = f"{chapter}:{self.qid}"
        kind = self.kind()
        spec: dict[str, Any] = {"qid": self.qid, "kind": kind, "points": self.points,
                                "salt": salt, "hint": self.hint, "decimals": self.decimals}
        if self.low is not None:
            spec["low"] = self.low
        if self.high is not None:
            spec["high"] = self.high
        if kind in ("ids", "ints", "floats"):
            values = list(self.expected)
            spec["length"] = len(values)
            spec["items"] = [self._hashes(f"{salt}:{i}", v) for i, v in enumerate(values)]
        else:
            spec["hashes"] = self._hashes(salt, self.expected)
        return spec

    def _hashes(self, salt: str, value: Any) -> dict[str, str]:
        if isinstance(value, float):
            return {str(d): digest(salt, value, d) for d in DECIMALS if d <= self.decimals}
        return {"0": digest(salt, value, 0)}


@dataclass
class Choice:
    """A multiple-choice question: the answer is one letter among ``options``."""

    qid: str
    expected: str
    options: str = "abcd"
    points: float = 1.0
    hint: str = ""

    def public(self, chapter: str) -> dict[str, Any]:
        salt = f"{chapter}:{self.qid}"
        if self.expected not in self.options:
            raise ValueError(f"{self.qid}: {self.expected!r} is not among {self.options!r}")
        return {"qid": self.qid, "kind": "choice", "points": self.points, "salt": salt,
                "options": list(self.options), "hint": self.hint,
                "hashes": {"0": digest(salt, self.expected, 0)}}


@dataclass
class Function:
    """A function to write without coursekit, judged against ``reference`` on inputs.

    ``reference`` is ``"module:function"`` of coursekit; ``cases`` are ``(label, args)`` pairs
    shipped with the self-check; ``hidden`` are more pairs only the grader uses.
    """

    qid: str
    name: str
    reference: str
    cases: Sequence[tuple[str, Sequence[Any]]]
    hidden: Sequence[tuple[str, Sequence[Any]]] = field(default_factory=list)
    points: float = 2.0
    hint: str = ""

    def public(self, chapter: str) -> dict[str, Any]:
        return {"qid": self.qid, "kind": "function", "points": self.points, "name": self.name,
                "reference": self.reference, "hint": self.hint,
                "cases": [[label, list(args)] for label, args in self.cases]}


Question = Value | Choice | Function


# --------------------------------------------------------------------------------------------
# Judging (shared by check() and the grader)

_KIND_WORDS = {
    "float": "a number",
    "int": "a whole number",
    "text": "a text",
    "choice": "one letter",
    "floats": "a list of numbers",
    "ints": "a list of whole numbers",
    "ids": "a list of document ids (strings)",
}


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _type_error(spec: dict[str, Any], value: Any) -> str | None:
    kind = spec["kind"]
    if kind in ("float", "int") and not _is_number(value):
        return f"expected {_KIND_WORDS[kind]}, got {type(value).__name__}"
    if kind == "int" and _is_number(value) and float(value) != int(float(value)):
        return f"expected a whole number, got {value!r}"
    if kind in ("text", "choice") and not isinstance(value, str):
        return f"expected {_KIND_WORDS[kind]} as a string, got {type(value).__name__}"
    if kind in ("floats", "ints", "ids"):
        if isinstance(value, (str, bytes, dict, set)) or not hasattr(value, "__len__"):
            return f"expected {_KIND_WORDS[kind]}, got {type(value).__name__}"
        item_ok = (lambda x: isinstance(x, str)) if kind == "ids" else _is_number
        for i, item in enumerate(value):
            if not item_ok(item):
                return (f"element {i} should be {'a string' if kind == 'ids' else 'a number'}, "
                        f"got {type(item).__name__}")
    return None


def _range_error(spec: dict[str, Any], value: float) -> str | None:
    low, high = spec.get("low"), spec.get("high")
    if isinstance(value, float) and math.isnan(value):
        return "the answer is nan (not a number): a division by zero somewhere?"
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"between {low:g} and {high:g}" if low is not None and high is not None else (
            f"at least {low:g}" if low is not None else f"at most {high:g}")
        return f"{value!r} is out of range: the answer lies {bounds}"
    return None


def _as_plain(value: Any) -> Any:
    """numpy scalars and arrays as Python numbers and lists (for judging and for JSON)."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        return value.tolist()
    if isinstance(value, tuple):
        return list(value)
    return value


def _judge_scalar(spec: dict[str, Any], salt: str, value: Any, hashes: dict[str, str]) -> str:
    """PASSED, or the number of decimals the value is right to (as text), or ''."""
    if spec["kind"] in ("float", "floats") and "4" in hashes:
        value = float(value)
        for decimals in DECIMALS:
            if _matches(salt, value, hashes, decimals):
                return PASSED if decimals == max(int(d) for d in hashes) else str(decimals)
        return ""
    if spec["kind"] in ("int", "ints") and _is_number(value):
        value = int(value)
    return PASSED if _matches(salt, value, hashes, 0) else ""


def judge_value(spec: dict[str, Any], answer: Any) -> str:
    """Judge ``answer`` against the public form of a :class:`Value` or :class:`Choice`."""
    qid = spec["qid"]
    hint = f" (hint: {spec['hint']})" if spec.get("hint") else ""
    if answer is ... or answer is None:
        return f"{qid}: not answered yet: replace ... with your answer"
    answer = _as_plain(answer)
    problem = _type_error(spec, answer)
    if problem:
        return f"{qid}: {problem}"
    kind = spec["kind"]
    if kind == "choice":
        letter = answer.strip().lower()
        if letter not in spec["options"]:
            options = ", ".join(repr(o) for o in spec["options"])
            return f"{qid}: answer one of {options}, got {answer!r}"
        verdict = _judge_scalar(spec, spec["salt"], letter, spec["hashes"])
        return f"{qid}: {PASSED}" if verdict == PASSED else f"{qid}: not this one{hint}"
    if kind in ("floats", "ints", "ids"):
        if len(answer) != spec["length"]:
            return f"{qid}: expected a list of {spec['length']} elements, got {len(answer)}"
        rounded = []
        for i, (item, hashes) in enumerate(zip(answer, spec["items"], strict=True)):
            if kind != "ids":
                problem = _range_error(spec, item)
                if problem:
                    return f"{qid}: element {i}: {problem}"
            verdict = _judge_scalar(spec, f"{spec['salt']}:{i}", item, hashes)
            if verdict == "":
                return f"{qid}: element {i} ({item!r}) is not right{hint}"
            if verdict != PASSED:
                rounded.append(verdict)
        if rounded:
            return (f"{qid}: right to {min(rounded)} decimals only: give at least "
                    f"{spec['decimals']} decimals (do not round before the end)")
        return f"{qid}: {PASSED}"
    if kind in ("float", "int"):
        problem = _range_error(spec, answer)
        if problem:
            return f"{qid}: {problem}"
    verdict = _judge_scalar(spec, spec["salt"], answer, spec["hashes"])
    if verdict == PASSED:
        return f"{qid}: {PASSED}"
    if verdict:
        return (f"{qid}: right to {verdict} decimals only: give at least {spec['decimals']} "
                "decimals (do not round before the end)")
    return f"{qid}: not right yet{hint}"


def _close(got: Any, expected: Any) -> bool:
    got, expected = _as_plain(got), _as_plain(expected)
    if isinstance(expected, list):
        return (isinstance(got, list) and len(got) == len(expected)
                and all(_close(g, e) for g, e in zip(got, expected, strict=True)))
    if _is_number(expected):
        if not _is_number(got):
            return False
        if math.isnan(expected) or math.isnan(got):
            return math.isnan(expected) and math.isnan(got)
        return math.isclose(got, expected, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    return got == expected


def _short(value: Any) -> str:
    text = repr(_as_plain(value))
    return text if len(text) <= 50 else text[:47] + "..."


def compare_outputs(qid: str, results: Sequence[tuple[str, Any, Any]]) -> str:
    """Judge a function from ``(label, got, expected)`` triples; ``got`` may be an exception
    message (a string starting with ``"raised "``) when the function failed."""
    for label, got, expected in results:
        if isinstance(got, str) and got.startswith("raised NotImplementedError"):
            return f"{qid}: not answered yet: write the function's body"
        if isinstance(got, str) and got.startswith("raised "):
            return f"{qid}: on the case '{label}' your function {got}"
        if not _close(got, expected):
            return (f"{qid}: wrong on the case '{label}': your function returned {_short(got)},"
                    " which is not the expected value")
    return f"{qid}: {PASSED}"


def reference_function(path: str) -> Callable[..., Any]:
    """The coursekit function named ``"module:function"``."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def _call(func: Callable[..., Any], args: Sequence[Any]) -> Any:
    try:
        return _as_plain(func(*_fresh(args)))
    except Exception as error:  # the student's function may raise anything
        return f"raised {type(error).__name__}: {str(error)[:80]}"


def _fresh(args: Sequence[Any]) -> list[Any]:
    """A deep copy of the JSON arguments, so that a function mutating them harms no one."""
    return json.loads(json.dumps(list(args)))


def judge_function_here(spec: dict[str, Any], func: Any,
                        cases: Sequence[tuple[str, Sequence[Any]]] | None = None) -> str:
    """Judge ``func`` in this process on the spec's cases (the self-check does this)."""
    qid = spec["qid"]
    if func is ... or func is None:
        return f"{qid}: not answered yet: write the function"
    if not callable(func):
        return f"{qid}: expected the function {spec['name']} itself, got {type(func).__name__}"
    used = uses_coursekit(func)
    if used:
        return f"{qid}: write it without coursekit (it uses {used})"
    if isinstance(func, types.FunctionType):
        # judge what the grader will run: the function rebuilt from its source
        try:
            func = portable_copy(func)
        except ValueError as error:
            return f"{qid}: {error}"
    reference = reference_function(spec["reference"])
    cases = spec["cases"] if cases is None else cases
    results = [(label, _call(func, args), _call(reference, args)) for label, args in cases]
    return compare_outputs(qid, results)


# --------------------------------------------------------------------------------------------
# Sources of a student's function (what the grader runs on hidden inputs)


def _names(code: types.CodeType) -> set[str]:
    """The global names a function's code reads (not its attribute names: ``x.mean`` does
    not read a global ``mean``), nested functions and comprehensions included."""
    names = {i.argval for i in dis.get_instructions(code)
             if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
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


# --------------------------------------------------------------------------------------------
# check()

_CHECKS: dict[str, Any] = {}


def _checks() -> dict[str, Any]:
    if not _CHECKS:
        _CHECKS.update(json.loads(CHECKS_PATH.read_text(encoding="utf-8")))
    return _CHECKS


def _find(qid: str, chapter: str) -> dict[str, Any]:
    chapters = _checks()
    if chapter not in chapters:
        raise ValueError(f"unknown chapter {chapter!r}; known: {', '.join(sorted(chapters))}")
    questions = chapters[chapter]
    if qid not in questions:
        raise ValueError(f"unknown question {qid!r} in chapter {chapter}; "
                         f"known: {', '.join(questions)}")
    return questions[qid]


_CURRENT = {"chapter": None}


def start(chapter: str) -> None:
    """Say which chapter the following :func:`check` calls belong to (the first cell of each
    exercise notebook calls it)."""
    if chapter not in _checks():
        raise ValueError(f"unknown chapter {chapter!r}; known: {', '.join(sorted(_checks()))}")
    _CURRENT["chapter"] = chapter
    print(f"Exercises of chapter {chapter}: run each check(...) cell after your answer.")


def _chapter_of_caller() -> str:
    if _CURRENT["chapter"] is None:
        raise ValueError("run the first cell of the notebook (it calls exercises.start) first")
    return _CURRENT["chapter"]


def _record(qid: str, chapter: str, answer: Any) -> None:
    path = os.environ.get(ANSWER_LOG)
    if not path:
        return
    entry: dict[str, Any] = {"chapter": chapter, "qid": qid}
    try:
        if isinstance(answer, types.FunctionType):
            entry["source"] = function_source(answer)
            entry["name"] = answer.__name__
            entry["uses_coursekit"] = uses_coursekit(answer)
        else:
            entry["value"] = _as_plain(answer) if answer is not ... else None
        line = json.dumps(entry, allow_nan=True)
    except (TypeError, ValueError, OSError) as error:
        line = json.dumps({"chapter": chapter, "qid": qid,
                           "unreadable": f"{type(error).__name__}: {error}"[:200]})
    with open(path, "a", encoding="utf-8") as log:
        log.write(line + "\n")


def check(qid: str, answer: Any, chapter: str | None = None) -> None:
    """Print one line saying whether ``answer`` to question ``qid`` is right, or what is wrong.

    ``answer`` is a value (number, list, letter) or, for "write a function" questions, the
    function itself. Nothing is returned; the expected value is never shown.
    """
    chapter = chapter or _chapter_of_caller()
    spec = _find(qid, chapter)
    _record(qid, chapter, answer)
    if spec["kind"] == "function":
        print(judge_function_here(spec, answer))
    else:
        print(judge_value(spec, answer))


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m coursekit.exercises")
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="generate exercises/ and checks.json from solutions/")
    build.add_argument("--root", default=".", help="the course's folder (default: here)")
    build.add_argument("--no-execute", action="store_true", help="do not execute the notebooks")
    build.add_argument("chapters", nargs="*", help="chapters to build (default: all)")
    args = parser.parse_args(argv)
    from . import exercise_build

    return exercise_build.build(Path(args.root), execute=not args.no_execute,
                                chapters=args.chapters or None)


if __name__ == "__main__":
    raise SystemExit(main())
