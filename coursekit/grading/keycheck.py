"""Every answer key of a run checked before the first notebook runs.

:func:`check_keys` loads each ``NN_topic.py`` of the keys folder: compiled (a syntax error),
run (an exception, in ``generate(None)`` or anywhere), its ``QUESTIONS`` checked
(:func:`.build.load_key`: kinds, unique ids, each question's public form), its
``generate(rng)`` drawn once on a fixed seed when it has one (a draw that fails, or questions
other than the key's), and its ``FREE_TEXT`` points (:mod:`.freetext`). The first problem is
a :class:`KeyProblem` (a ValueError) naming ``file:line`` where a line is known: the grader
then stops before writing anything (exit code 2), rather than grading a class against a key
that fails. The grader checks them in a process of its own (:func:`check_keys_apart`): the
keys import scipy, pandas and every measure, and run their draws, which would otherwise stay
in the memory of the process that holds the class's grades (measured: 155 MB of 259).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

from .build import load_key, load_key_module
from .freetext import declared_points

DRAW_SEED = 20_261_215  # generate(rng) is drawn once on this seed


class KeyProblem(ValueError):
    """An answer key that cannot grade (the message names its file and line)."""


def _line(error: BaseException, path: Path, source: str) -> int | None:
    """The line of ``path`` where ``error`` arose: its syntax error's, the innermost frame of
    the key in its traceback, else the first line naming the question the message names."""
    if isinstance(error, SyntaxError) and error.filename == str(path):
        return error.lineno
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == str(path)]
    if frames:
        return frames[-1].lineno
    named = re.search(r"\b(q\d+|text\d+)\b", str(error))
    if named:
        for number, line in enumerate(source.splitlines(), start=1):
            if re.search(rf"""["']{named[1]}["']""", line):
                return number
    return None


def _where(error: BaseException, path: Path, source: str) -> str:
    line = _line(error, path, source)
    return f"{path}:{line}" if line else str(path)


def check_key(path: Path) -> tuple[list[Any], dict[str, float]]:
    """The questions and free-text points of the key ``path``, checked (see the module)."""
    path = Path(path)
    source = path.read_text(encoding="utf-8", errors="replace")
    step = "does not compile"
    try:
        compile(source, str(path), "exec")
        step = "fails when run"
        module = load_key_module(path)
        step = "has a bad question"
        questions = load_key(path, module)
        generate = getattr(module, "generate", None)
        if callable(generate):
            step = "fails in generate(rng)"
            _draw(generate, questions)
        step = "has a bad FREE_TEXT"
        points = declared_points(module, path)
    except Exception as error:  # noqa: BLE001 - any failure of a key stops the run
        said = str(error).removeprefix(f"{path}: ")
        raise KeyProblem(
            f"the answer key {_where(error, path, source)} {step}: {type(error).__name__}: "
            f"{said[:300]}"
        ) from None
    return questions, points


def _draw(generate: Any, questions: list[Any]) -> None:
    import numpy as np

    drawn = generate(np.random.default_rng(DRAW_SEED))
    if not (isinstance(drawn, tuple) and len(drawn) == 2 and isinstance(drawn[0], str)):
        raise ValueError("generate(rng) must give (data cell source, questions)")
    ids, own = [q.qid for q in questions], [getattr(q, "qid", None) for q in drawn[1]]
    if sorted(map(str, own)) != sorted(ids):
        raise ValueError(f"generate(rng) gives the questions {own}, the key {ids}")


def check_keys(keys_dir: Path) -> tuple[dict[str, list[Any]], dict[str, dict[str, float]]]:
    """Every key of ``keys_dir`` checked: its questions and its free-text points by chapter."""
    loaded, points = {}, {}
    for path in sorted(Path(keys_dir).glob("[0-9][0-9]_*.py")):
        loaded[path.stem], points[path.stem] = check_key(path)
    return loaded, points


_APART = (
    "import json, sys\n"
    "from coursekit.grading.worker import SKIPPED_MODULES\n"
    "for name in SKIPPED_MODULES:\n"
    "    sys.modules.setdefault(name, None)\n"
    "from coursekit.grading.keycheck import KeyProblem, check_keys\n"
    "try:\n"
    "    _, points = check_keys(sys.argv[1])\n"
    "except KeyProblem as problem:\n"
    "    print(json.dumps({'problem': str(problem)}))\n"
    "else:\n"
    "    print(json.dumps({'points': points}))\n"
)


def check_keys_apart(keys_dir: Path) -> dict[str, dict[str, float]]:
    """:func:`check_keys` in a child process: the free-text points by chapter, or the
    :class:`KeyProblem` the child found (raised here)."""
    done = subprocess.run(
        [sys.executable, "-c", _APART, str(Path(keys_dir).resolve())],
        capture_output=True,
        text=True,
    )
    try:
        said = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise KeyProblem(f"the answer keys of {keys_dir} could not be checked: {tail}") from None
    if "problem" in said:
        raise KeyProblem(said["problem"])
    return said["points"]
