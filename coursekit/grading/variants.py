"""Per-student variants of an exercise: each student's own data, drawn from the lecturer's secret.

A chapter has variants when ``solutions/variants/NN_topic.py`` defines ``generate(rng)``
(the source of the exercise's data cell and the questions whose expected values depend on
those data) and ``DATA_CELL`` (how that cell starts). A student's generator is seeded with
HMAC-SHA256(secret, chapter and student id) (:func:`seed`): the lecturer can recompute every
student's expected answers from the secret and the roster; a student cannot compute another's.

In a variant notebook, ``check()`` (:func:`variant_check`) says whether an answer to a question
of the student's own data has the right *format* (type, length, range) and records it; it
never says whether it is right (only the grader knows the expected values). Other questions
(choices, functions) are checked as usual.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import importlib.util
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from .judging import _range_error, _type_error, judge_function_here
from .questions import Choice, Function, Value

ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
MIN_SECRET_BYTES = 16
CHECK_IMPORT = "from coursekit.grading import check, start"


def read_secret(path: Path) -> bytes:
    """The lecturer's secret (the file's bytes, stripped); at least 16 bytes."""
    secret = Path(path).read_bytes().strip()
    if len(secret) < MIN_SECRET_BYTES:
        raise ValueError(f"{path}: the secret must have at least {MIN_SECRET_BYTES} bytes")
    return secret


def read_roster(path: Path) -> list[str]:
    """The student ids of a roster CSV: its ``id`` column (else its first column)."""
    with open(path, encoding="utf-8", newline="") as f:
        rows = [row for row in csv.reader(f) if row and any(cell.strip() for cell in row)]
    if not rows:
        raise ValueError(f"{path}: an empty roster")
    header = [cell.strip().lower() for cell in rows[0]]
    column = header.index("id") if "id" in header else 0
    body = rows[1:] if "id" in header else rows
    ids = [row[column].strip() for row in body if len(row) > column]
    for sid in ids:
        if not ID_PATTERN.fullmatch(sid):
            raise ValueError(f"{path}: {sid!r} is not a student id (letters, digits, ._-)")
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: a student id appears twice")
    return ids


def seed(secret: bytes, chapter: str, student: str) -> int:
    """The seed of ``student``'s variant of ``chapter``: HMAC-SHA256 of the secret."""
    message = f"coursekit-variant:{chapter}:{student}".encode()
    return int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest(), "big")


def load_generator(variants_dir: Path, chapter: str) -> ModuleType | None:
    """The variant generator of ``chapter`` (None if the chapter has none)."""
    path = Path(variants_dir) / f"{chapter}.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"coursekit_variant_{chapter}", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not callable(getattr(module, "generate", None)) or not getattr(module, "DATA_CELL", ""):
        raise ValueError(f"{path}: defines no generate(rng) and DATA_CELL")
    return module


def variant(generator: ModuleType, secret: bytes, chapter: str, student: str):
    """(data cell source, questions) of ``student``'s variant."""
    import numpy as np

    rng = np.random.default_rng(seed(secret, chapter, student))
    source, questions = generator.generate(rng)
    return source, list(questions)


def variant_key(
    key: Sequence[Value | Choice | Function], questions: Sequence[Value | Choice | Function]
) -> list[Value | Choice | Function]:
    """The public key with the variant's questions in place of those of the same id."""
    own = {q.qid: q for q in questions}
    return [own.get(q.qid, q) for q in key]


def personalise(
    notebook: Any, chapter: str, student: str, generator: ModuleType, secret: bytes
) -> Any:
    """``notebook`` (an nbformat notebook) with ``student``'s data cell, a format-only check()
    for the questions of those data and the student id in its metadata."""
    source, questions = variant(generator, secret, chapter, student)
    qids = [q.qid for q in questions]
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    data = [c for c in cells if c.source.startswith(generator.DATA_CELL)]
    if len(data) != 1:
        raise ValueError(f"{chapter}: no single data cell to replace in the notebook")
    data[0].source = source
    setup = [c for c in cells if CHECK_IMPORT in c.source]
    if len(setup) != 1:
        raise ValueError(f"{chapter}: no set-up cell importing check")
    setup[0].source = setup[0].source.replace(
        CHECK_IMPORT,
        "from coursekit.grading import start\n"
        "from coursekit.grading.variants import variant_check\n\n"
        f"check = variant_check({chapter!r}, {qids!r})  # your own data: the format is checked",
    )
    metadata = notebook.metadata.setdefault("coursekit", {})
    metadata.update({"chapter": chapter, "student": student, "variant": True})
    return notebook


def owner(name: str, roster: Sequence[str]) -> str | None:
    """The roster id a submission's path names (a folder, or a token of its file name)."""
    found = [
        sid
        for sid in roster
        if re.search(rf"(?<![A-Za-z0-9]){re.escape(sid)}(?![A-Za-z0-9])", name) is not None
    ]
    return max(found, key=len) if found else None


def variant_check(chapter: str, qids: Sequence[str]) -> Callable[..., None]:
    """The ``check`` of a variant notebook: for the questions ``qids`` (computed on the
    student's own data) the answer's format only; the others as :func:`check` does."""
    from . import selfcheck

    own = set(qids)

    def check(qid: str, answer: Any) -> None:
        if qid not in own:
            selfcheck.check(qid, answer, chapter)
            return
        spec = selfcheck._find(qid, chapter)
        selfcheck._record(qid, chapter, answer)
        print(format_message(spec, answer))

    check.__doc__ = variant_check.__doc__
    return check


def format_message(spec: dict[str, Any], answer: Any) -> str:
    """What a variant's self-check says: the problem of format, or that it was recorded."""
    qid = spec["qid"]
    if spec["kind"] == "function":
        return judge_function_here(spec, answer)
    if answer is ... or answer is None:
        return f"{qid}: not answered yet: replace ... with your answer"
    from .judging import as_plain

    value = as_plain(answer)
    problem = _type_error(spec, value)
    if problem is None and spec["kind"] in ("floats", "ints", "ids"):
        if len(value) != spec["length"]:
            problem = f"expected a list of {spec['length']} elements, got {len(value)}"
        elif spec["kind"] != "ids":
            problem = next(filter(None, (_range_error(spec, v) for v in value)), None)
    elif problem is None and spec["kind"] in ("float", "int"):
        problem = _range_error(spec, value)
    if problem:
        return f"{qid}: {problem}"
    return f"{qid}: recorded (the format is right; your own data's answer is judged when graded)"


class Personal:
    """What the grader needs to grade variants: the secret, the roster, the generators."""

    def __init__(self, secret: bytes, roster: Sequence[str], generators: dict[str, ModuleType]):
        self.secret, self.roster, self.generators = secret, list(roster), generators

    @classmethod
    def load(cls, secret_file: Path, roster: Path, variants_dir: Path, chapters: Sequence[str]):
        generators = {c: g for c in chapters if (g := load_generator(variants_dir, c))}
        return cls(read_secret(secret_file), read_roster(roster), generators)

    def key_for(
        self, notebook: dict[str, Any], name: str, chapter: str, key: Sequence[Any]
    ) -> tuple[list[Any], list[str]]:
        """The questions to grade a submission on, and notes (a mismatch of ids). Raises a
        ValueError when the submission belongs to no student of the roster."""
        generator = self.generators.get(chapter)
        if generator is None:
            return list(key), []
        metadata = notebook.get("metadata")
        own = metadata.get("coursekit") if isinstance(metadata, dict) else None
        named = own.get("student") if isinstance(own, dict) else None
        named = named if isinstance(named, str) else None
        handed = owner(name, self.roster)
        student = handed or (named if named in self.roster else None)
        if student is None:
            raise ValueError(
                "not graded: no student id of the roster in its file name or its metadata"
            )
        notes = []
        if named is None:
            notes.append(
                f"id mismatch: not a released variant (no student id in its metadata); "
                f"graded on {student!r}'s data"
            )
        elif named != student:
            notes.append(
                f"id mismatch: the notebook is the variant of {str(named)[:64]!r} but was "
                f"handed in as {student!r}'s; graded on {student!r}'s data"
            )
        elif handed is None:
            notes.append(f"no roster id in the file name; graded as {student!r}'s (metadata)")
        _, questions = variant(generator, self.secret, chapter, student)
        return variant_key(key, questions), notes
