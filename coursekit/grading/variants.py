"""Per-student variants of an exercise: each student's own data, drawn from the lecturer's secret.

A chapter has variants when its answer key ``solutions/keys/NN_topic.py`` defines
``generate(rng)``: given a numpy Generator it returns the source of the exercise's data cell
and the questions computed on those data; given None, the public data cell and questions (the
key's ``QUESTIONS = generate(None)[1]``). The data cell to replace in the exercise notebook is
the one marked so in its metadata (``{"coursekit": {"role": "data"}}``, copied from the solution
notebook by the build, which checks that its source is the public data cell:
:func:`.build.check_roles`; a separate generator of the former layout, with ``DATA_CELL``, finds
the one starting with that text). A student's generator is seeded with HMAC-SHA256(secret,
chapter and student id) (:func:`seed`): the lecturer can recompute every student's expected
answers from the secret and the roster; a student cannot compute another's. A separate
generator module in ``solutions/variants/NN_topic.py`` (the former layout) is still read when
the key has none.

A variant's multiple-choice options are in the student's own order (:mod:`.choices`, a
generator of its own), and its cells take ``start`` and ``check`` from :mod:`.variantcheck`:
the set-up cell holds the format of every answer (no hash), and ``check()`` says whether an
answer has that format and records it, never whether it is right, for any question.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from ..i18n import N_
from .build import cells_of, load_key_module
from .choices import orders_for, relettered, shuffle_options
from .judging import judge_format
from .ownership import IdRule, code_cells, code_form, is_variant
from .questions import Choice, Function, Value
from .roster import read_ids
from .spec import AnswerFormat
from .variantcheck import answer_format, format_check, use_variant_check
from .wording import Fixed

MIN_SECRET_BYTES = 32
MIN_SECRET_SYMBOLS = 8
MAKE_SECRET = "python -m coursekit.grade secret FILE"


def write_secret(path: Path) -> None:
    """Write a new secret to ``path``: 32 random bytes (``os.urandom``) as base64 text, in a
    file created with mode 0600 (only its owner can read it: the secret makes every student's
    expected answers). Refuses to overwrite a file (a lost secret means lost variants)."""
    path = Path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except FileExistsError:
        raise ValueError(
            f"{path} exists: a secret is never overwritten (choose another name)"
        ) from None
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
        os.write(fd, base64.b64encode(os.urandom(32)) + b"\n")
    finally:
        os.close(fd)


def read_secret(path: Path) -> bytes:
    """The lecturer's secret (the file's bytes, stripped). Refused, with how to make a good
    one, when group or others have any access to the file (anyone who reads it can compute
    every student's answers), when it is shorter than :data:`MIN_SECRET_BYTES` or when it
    has fewer than :data:`MIN_SECRET_SYMBOLS` distinct bytes (``aaaa...``)."""
    path = Path(path)
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"--secret-file {path}: not a regular file")
    if os.name == "posix" and info.st_mode & 0o077:
        raise ValueError(
            f"--secret-file {path}: group or others can access it (mode "
            f"{stat.S_IMODE(info.st_mode):04o}), so they can compute every student's answers: "
            f"chmod 600 {path}"
        )
    secret = path.read_bytes().strip()
    if len(secret) < MIN_SECRET_BYTES or len(set(secret)) < MIN_SECRET_SYMBOLS:
        raise ValueError(
            f"--secret-file {path}: a weak secret ({len(secret)} bytes, {len(set(secret))} "
            f"distinct; at least {MIN_SECRET_BYTES} bytes and {MIN_SECRET_SYMBOLS} distinct "
            f"ones needed): make one with `{MAKE_SECRET}`"
        )
    return secret


def read_roster(path: Path) -> list[str]:
    """The student ids of a roster CSV, in its order (:func:`.roster.read` says what it
    accepts: its id column, else one column of ids)."""
    return read_ids(path)


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
    """(data cell source, questions) of ``student``'s variant: the data drawn with the seed of
    :func:`seed`, each choice's letter that of its option in the student's own order
    (:func:`~coursekit.grading.choices.orders_for`)."""
    import numpy as np

    rng = np.random.default_rng(seed(secret, chapter, student))
    source, questions = generator.generate(rng)
    if not isinstance(source, str) or not source.strip():
        raise ValueError(f"{chapter}: generate(rng) gives no data cell, so no variants")
    return source, relettered(questions, orders_for(generator, questions, secret, chapter, student))


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
    """``notebook`` (an nbformat notebook) with ``student``'s data cell, each choice's options
    in the student's order, a check() of the answers' format only (for every question) and the
    student id in its metadata."""
    source, questions = variant(generator, secret, chapter, student)
    data = [c for c in cells_of(notebook, "data") if c.cell_type == "code"]
    prefix = getattr(generator, "DATA_CELL", "")
    if prefix and not data:  # a separate generator of the former layout: found by its text
        data = [c for c in notebook.cells if c.cell_type == "code" and c.source.startswith(prefix)]
    if len(data) != 1:
        raise ValueError(
            f"{chapter}: no single cell marked as the data cell (metadata "
            '{"coursekit": {"role": "data"}}, which `python -m coursekit.exercises build` '
            "copies from the solution notebook)"
        )
    data[0].source = source
    options = {q.qid: q.options for q in questions if isinstance(q, Choice)}
    shuffle_options(notebook, options, orders_for(generator, questions, secret, chapter, student))
    use_variant_check(notebook, chapter, questions)
    metadata = notebook.metadata.setdefault("coursekit", {})
    metadata.update({"chapter": chapter, "student": student, "variant": True})
    return notebook


def variant_check(
    chapter: str,
    formats: dict[str, AnswerFormat | dict[str, Any]] | Sequence[Value | Choice | Function],
) -> Callable[..., None]:
    """The ``check`` of a variant notebook: the format of every answer only (``formats``:
    :func:`~coursekit.grading.variantcheck.answer_format` by question id, or the variant's
    questions), never whether it is right, and no hash of ``checks.json`` read."""
    if not isinstance(formats, dict):
        formats = {q.qid: answer_format(q) for q in formats}
    return format_check(chapter, formats)


#: What a variant's self-check says (kept at its first address).
format_message = judge_format


VARIANT_NEEDS_SECRET = "a personal variant: grade it with --secret-file and --roster"


def questions_for(
    personal: Personal | None, notebook: dict[str, Any], name: str, chapter: str, key: Sequence[Any]
) -> tuple[list[Any], list[str]]:
    """The questions to grade a submission on and notes about it (a note starting with "id
    mismatch" goes to the row's error). Without the secret and roster (``personal`` None) a
    personal variant is refused (a ValueError: the row is not graded): judged on the public
    key, its own-data answers would score a plausible, wrong total."""
    if personal is not None:
        return personal.key_for(notebook, name, chapter, key)
    if is_variant(notebook):
        raise ValueError(VARIANT_NEEDS_SECRET)
    return list(key), []


class Personal:
    """What the grader needs to grade variants: the secret, the roster, the generators, and
    the rule telling whose a submission is (:class:`~coursekit.grading.ownership.IdRule`)."""

    def __init__(
        self,
        secret: bytes,
        roster: Sequence[str],
        generators: dict[str, ModuleType],
        rule: IdRule | None = None,
    ):
        self.secret, self.roster, self.generators = secret, list(roster), generators
        self.rule = rule if rule is not None else IdRule()
        self.rule.check(self.roster)
        self._sources: tuple[Any, ...] | None = None  # to load the generators again
        self._cells: dict[str, dict[str, str]] = {}  # chapter -> data cell -> student

    def __getstate__(self) -> dict[str, Any]:
        """Picklable (for a worker process) when made by :meth:`load`: the generators are
        modules, loaded again on the other side."""
        state = dict(self.__dict__, _cells={})
        if self._sources is not None:
            state["generators"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.generators is None:
            keys_dir, variants_dir, chapters = self._sources
            self.generators = _generators(chapters, keys_dir, variants_dir)

    @classmethod
    def load(
        cls,
        secret_file: Path,
        roster: Path,
        variants_dir: Path | None,
        chapters: Sequence[str],
        keys_dir: Path | None = None,
        id_from: str | None = None,
    ) -> Personal:
        """The generators of ``chapters``: the keys' ``generate``, else ``variants_dir``'s;
        ``id_from`` is the text of ``--id-from`` (None: the top folder)."""
        secret, ids, rule = read_secret(secret_file), read_roster(roster), IdRule.parse(id_from)
        personal = cls(secret, ids, _generators(chapters, keys_dir, variants_dir), rule)
        personal._sources = (keys_dir, variants_dir, list(chapters))
        return personal

    def owner(self, name: str) -> str:
        """The roster id owning the submission ``name`` (:meth:`IdRule.owner`)."""
        return self.rule.owner(name, self.roster)

    def _data_owner(self, chapter: str, sources: set[str]) -> str | None:
        """The student whose released data cell of ``chapter`` is among ``sources`` ("" for
        the public exercise's), or None. Every student's cell is drawn once, when first
        needed (only for a submission whose data cell is not its owner's)."""
        if chapter not in self._cells:
            generator = self.generators[chapter]
            cells = {code_form(generator.generate(None)[0]): ""}
            for sid in self.roster:
                cells[code_form(variant(generator, self.secret, chapter, sid)[0])] = sid
            self._cells[chapter] = cells
        found = sorted({self._cells[chapter][s] for s in sources if s in self._cells[chapter]})
        return found[0] if found else None

    def key_for(
        self, notebook: dict[str, Any], name: str, chapter: str, key: Sequence[Any]
    ) -> tuple[list[Any], list[str]]:
        """The questions to grade a submission on (its owner's variant), and notes: a
        metadata id or a data cell that is not the owner's ("id mismatch"). Raises a
        ValueError (the row is not graded) when the submission has no owner on the roster."""
        student = self.owner(name)
        generator = self.generators.get(chapter)
        if generator is None:
            if is_variant(notebook):
                raise ValueError(
                    f"a personal variant of {chapter}, whose answer key has no generate(rng)"
                )
            return list(key), []
        metadata = notebook.get("metadata")
        own = metadata.get("coursekit") if isinstance(metadata, dict) else None
        named = own.get("student") if isinstance(own, dict) else None
        notes = []
        if not isinstance(named, str):
            said = N_(
                "id mismatch: not a released variant (no student id in its metadata); graded on "
                "{student}'s data"
            )
            notes.append(Fixed(said, student=repr(student)))
        elif named != student:
            said = N_(
                "id mismatch: the notebook is the variant of {named} but was handed in as "
                "{student}'s; graded on {student}'s data"
            )
            notes.append(Fixed(said, named=repr(named[:64]), student=repr(student)))
        source, questions = variant(generator, self.secret, chapter, student)
        cells = code_cells(notebook)
        if code_form(source) not in cells:
            other = self._data_owner(chapter, cells)
            if other == "":
                said = N_(
                    "id mismatch: the data cell is not the one released to {student}: it is the "
                    "public exercise's; graded on {student}'s data"
                )
            elif other is not None:
                said = N_(
                    "id mismatch: the data cell is not the one released to {student}: it is the "
                    "one released to {other} (a classmate's data); graded on {student}'s data"
                )
            else:
                said = N_(
                    "id mismatch: the data cell is not the one released to {student}: wrong "
                    "--secret-file, or edited data; graded on {student}'s data"
                )
            notes.append(Fixed(said, student=repr(student), other=repr(other)))
        return variant_key(key, questions), notes


def _generators(
    chapters: Sequence[str], keys_dir: Path | None, variants_dir: Path | None
) -> dict[str, ModuleType]:
    return {c: g for c in chapters if (g := find_generator(c, keys_dir, variants_dir)) is not None}
