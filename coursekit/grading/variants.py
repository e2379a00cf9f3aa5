"""Per-student variants of an exercise: each student's own data, drawn from the lecturer's secret.

A chapter has variants when its answer key ``solutions/keys/NN_topic.py`` defines
``generate(rng)``: given a numpy Generator it returns the source of the exercise's data cell
and the questions computed on those data; given None, the public data cell and questions (the
key's ``QUESTIONS = generate(None)[1]``). The data cell to replace in the exercise notebook is
the one whose source is the public data cell (or, if the key defines ``DATA_CELL``, the one
starting with that text). A student's generator is seeded with HMAC-SHA256(secret, chapter and
student id) (:func:`seed`): the lecturer can recompute every student's expected answers from the
secret and the roster; a student cannot compute another's. A separate generator module in
``solutions/variants/NN_topic.py`` (the former layout) is still read when the key has none.

In a variant notebook, the set-up cell calls ``start(chapter, own_data=[...])`` with every
:class:`Value` question: ``check()`` then says whether an answer to one of them has the right
*format* (type, length, range) and records it; it never says whether it is right (only the
grader knows the expected values). Choices and functions are checked as usual.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from .build import load_key_module
from .judging import judge_format
from .questions import Choice, Function, Value

ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
MIN_SECRET_BYTES = 16


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
    """A separate variant generator ``variants_dir/<chapter>.py`` (the former layout), or None."""
    path = Path(variants_dir) / f"{chapter}.py"
    if not path.is_file():
        return None
    module = load_key_module(path)
    if not callable(getattr(module, "generate", None)) or not getattr(module, "DATA_CELL", ""):
        raise ValueError(f"{path}: defines no generate(rng) and DATA_CELL")
    return module


def key_generator(keys_dir: Path, chapter: str) -> ModuleType | None:
    """The answer key of ``chapter`` when it defines ``generate(rng)`` (else None)."""
    path = Path(keys_dir) / f"{chapter}.py"
    if not path.is_file():
        return None
    module = load_key_module(path)
    return module if callable(getattr(module, "generate", None)) else None


def find_generator(
    chapter: str, keys_dir: Path | None = None, variants_dir: Path | None = None
) -> ModuleType | None:
    """The generator of ``chapter``: its answer key's ``generate``, else a separate module of
    ``variants_dir``; None when the chapter has no variants."""
    found = key_generator(keys_dir, chapter) if keys_dir is not None else None
    if found is None and variants_dir is not None:
        found = load_generator(variants_dir, chapter)
    return found


def redraw(
    rng: Any,
    draw: Callable[[Any], Any],
    facts: Callable[[Any], Any],
    unsuitable: type[Exception] = ValueError,
    tries: int = 1000,
) -> tuple[Any, Any]:
    """``(data, facts(data))`` for the first ``data = draw(rng)`` that fits the exercise's text
    (``facts`` raises ``unsuitable`` for data that do not): the draw loop of a key's
    ``generate(rng)``. A RuntimeError after ``tries`` draws, rather than a grader that hangs.

    >>> draws = iter([3, 5, 8, 9])
    >>> def half(n):
    ...     if n % 2:
    ...         raise ValueError("odd: the text needs an even number")
    ...     return n // 2
    >>> redraw(None, lambda rng: next(draws), half)
    (8, 4)
    """
    for _ in range(tries):
        data = draw(rng)
        try:
            return data, facts(data)
        except unsuitable:
            continue
    raise RuntimeError(f"no suitable data in {tries} draws: the draw and the text disagree")


def variant(generator: ModuleType, secret: bytes, chapter: str, student: str):
    """(data cell source, questions) of ``student``'s variant."""
    import numpy as np

    rng = np.random.default_rng(seed(secret, chapter, student))
    source, questions = generator.generate(rng)
    if not isinstance(source, str) or not source.strip():
        raise ValueError(f"{chapter}: generate(rng) gives no data cell, so no variants")
    return source, list(questions)


def own_data(questions: Sequence[Value | Choice | Function]) -> list[str]:
    """The questions of a variant whose answer check() judges by its format only: its values."""
    return [q.qid for q in questions if isinstance(q, Value)]


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
    qids = own_data(questions)
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    prefix = getattr(generator, "DATA_CELL", "")
    if prefix:
        data = [c for c in cells if c.source.startswith(prefix)]
    else:
        public = generator.generate(None)[0]
        data = [c for c in cells if public and c.source.strip() == public.strip()]
    if len(data) != 1:
        raise ValueError(
            f"{chapter}: no single data cell to replace in the notebook (none whose source is "
            "the key's generate(None) data cell)"
        )
    data[0].source = source
    call = f'start("{chapter}")'
    setup = [c for c in cells if call in c.source]
    if len(setup) != 1:
        raise ValueError(f"{chapter}: no single set-up cell calling {call}")
    own = ", ".join(f'"{q}"' for q in qids)
    setup[0].source = setup[0].source.replace(
        call,
        "# your own data: for these questions check() looks at the format of the answer only\n"
        f'start("{chapter}", own_data=[{own}])',
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
        print(judge_format(spec, answer))

    check.__doc__ = variant_check.__doc__
    return check


#: What a variant's self-check says (kept at its first address).
format_message = judge_format


class Personal:
    """What the grader needs to grade variants: the secret, the roster, the generators."""

    def __init__(self, secret: bytes, roster: Sequence[str], generators: dict[str, ModuleType]):
        self.secret, self.roster, self.generators = secret, list(roster), generators

    @classmethod
    def load(
        cls,
        secret_file: Path,
        roster: Path,
        variants_dir: Path | None,
        chapters: Sequence[str],
        keys_dir: Path | None = None,
    ) -> Personal:
        """The generators of ``chapters``: the keys' ``generate``, else ``variants_dir``'s."""
        generators = {
            c: g for c in chapters if (g := find_generator(c, keys_dir, variants_dir)) is not None
        }
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
