"""Run students' functions on inputs, in a separate limited process: the grader's judge.

    python -I judge.py < REQUEST > RESULT

REQUEST, read whole from stdin before any student code runs (so that no file of the judge's
folder holds it: the folder holds only this script), is ``{"memory_mb", "seconds",
"allowed": [top-level packages], "functions": [{"qid", "name", "source", "cases": [[label,
args], ...]}]}``. RESULT, written to the original stdout once every function has run (what the
functions print goes to /dev/null), is ``{"outputs": {qid: [output, ...]}, "refused": {qid:
[package, ...]}}`` where an output is the function's return value as plain JSON, or ``"raised Error:
message"``, and ``refused`` lists the packages a function imported against the policy (at
most 10, the one it asked for first).

The library policy: a function may import the standard library (``sys.stdlib_module_names``)
and the ``allowed`` packages (numpy by default: the exercise is to write the measure, not to
call scipy's). An import hook refuses any other top-level package the student's code asks
for (a ``ModuleNotFoundError``), while an allowed package may import what it needs; a module
that appears anyway (the hook removed) is found in ``sys.modules`` after the function ran.
coursekit itself is refused by :class:`_NoCoursekit`, and is not in the sandbox at all.

This script imports nothing from coursekit, so that what judges cannot be changed by what is
judged, and the comparison with coursekit's values happens in the grader's process. Code run
here can undo anything done here (it runs in this process): what it gains is bounded by what
the grader does with the result. A function that writes a result itself only says what it
could have returned; the grader runs the public cases and the hidden ones in two different
judges (a judge of public cases never holds a hidden input) and shows nothing of a hidden
case but its label, so echoing the request gets the student nothing.
"""

import importlib.abc
import json
import os
import resource
import signal
import sys

STDLIB = frozenset(sys.stdlib_module_names)


class TimeLimit(BaseException):
    """Raised in the student's function when one case runs too long."""


class _NoCoursekit(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "coursekit" or name.startswith("coursekit."):
            raise ImportError("coursekit cannot be used in this exercise")
        return None


def _requester():
    """The top-level package of the innermost frame outside the standard library (the code
    asking for an import), or '' (no such frame)."""
    frame = sys._getframe(2)
    while frame is not None:
        module = frame.f_globals.get("__name__")
        top = module.partition(".")[0] if isinstance(module, str) else ""
        if top not in STDLIB:
            return top
        frame = frame.f_back
    return ""


class Library(importlib.abc.MetaPathFinder):
    """The import hook of the library policy: the standard library and ``allowed`` only, for
    the student's code; ``refused`` lists what was refused, ``granted`` what an allowed
    package imported for itself."""

    def __init__(self, allowed):
        self.allowed = frozenset(allowed)
        self.refused = []
        self.granted = set()

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in STDLIB or top in self.allowed or top == "coursekit":
            return None  # coursekit: _NoCoursekit's message
        if top.startswith("_sysconfigdata"):  # the interpreter's own (sysconfig loads it)
            return None
        requester = _requester()
        if requester in self.allowed or requester in self.granted:  # a dependency's dependency
            self.granted.add(top)
            return None
        self.refused.append(top)
        allowed = ", ".join(sorted(self.allowed)) or "nothing else"
        raise ModuleNotFoundError(
            f"{top} is not allowed in this exercise (the standard library and {allowed} are)",
            name=name,
        )


def _packages():
    """The top-level packages imported (``sys.modules``' real modules, in the order they came:
    a package before the dependencies it imports; aliases such as ``__mp_main__`` and
    modules made in memory, such as Cython's ``_cython_3_x``, left out)."""
    tops = {}
    for name, module in list(sys.modules.items()):
        top = name.partition(".")[0]
        spec = getattr(module, "__spec__", None)
        if top not in tops and getattr(spec, "name", "").partition(".")[0] == top:
            tops[top] = None
    return list(tops)


def _plain(value):
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 1000:
        return "raised OverflowError: returned a whole number too large to compare"
    if isinstance(value, str) and len(value) > 10_000:
        return "raised ValueError: returned a text of over 10,000 characters"
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return f"raised TypeError: returned a {type(value).__name__}"


def _alarm(signum, frame):
    raise TimeLimit()


def _outputs(item, seconds):
    """The function's outputs on its cases (its source run first in a fresh namespace)."""
    namespace = {"__name__": "submission"}
    try:
        exec(compile(item["source"], f"<{item['qid']}>", "exec"), namespace)
        func = namespace[item["name"]]
    except BaseException as error:  # noqa: BLE001 - anything the student's code raises
        return [f"raised {type(error).__name__}: {str(error)[:80]}"] * len(item["cases"])
    outputs = []
    for _label, args in item["cases"]:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            value = _plain(func(*json.loads(json.dumps(args))))
        except TimeLimit:
            value = f"raised TimeoutError: ran longer than {seconds} s"
        except BaseException as error:  # noqa: BLE001
            value = f"raised {type(error).__name__}: {str(error)[:80]}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        outputs.append(value)
    return outputs


def run(request, hooks):
    """Every function's outputs, and the packages each one used against the policy (those
    the hook refused, then those that appeared in ``sys.modules`` without it)."""
    library = hooks[-1]
    outputs, refused = {}, {}
    known = set(_packages())
    for item in request["functions"]:
        # a function before may have removed the hooks: every function meets them first
        sys.meta_path[:] = [*hooks, *[f for f in sys.meta_path if f not in hooks]]
        library.refused.clear()
        outputs[item["qid"]] = _outputs(item, request["seconds"])
        expected = known | STDLIB | library.allowed | library.granted
        sneaked = [t for t in _packages() if t not in expected and not t.startswith("_sysconfig")]
        # unloaded again, so that the next function's import of them meets the hook
        for name in [n for n in list(sys.modules) if n.partition(".")[0] in sneaked]:
            sys.modules.pop(name, None)
        names = [*dict.fromkeys(library.refused), *sneaked][:10]
        if names:
            refused[item["qid"]] = names
        known |= set(_packages())
    return {"outputs": outputs, "refused": refused}


def main():
    request = json.loads(sys.stdin.buffer.read())  # whole, before any student code runs
    result = os.dup(1)  # not inheritable: a program a function starts does not get it
    quiet = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(quiet, fd)
    sys.stdin = sys.stdout = sys.stderr = open(quiet, "r+", closefd=False)
    memory = request["memory_mb"] << 20
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    signal.signal(signal.SIGALRM, _alarm)
    hooks = [_NoCoursekit(), Library(request.get("allowed", ["numpy"]))]
    data = json.dumps(run(request, hooks)).encode()
    with os.fdopen(result, "wb", closefd=False) as out:
        out.write(data)
    os._exit(0)  # no atexit handler or thread of a function writes after the result


if __name__ == "__main__":
    main()
