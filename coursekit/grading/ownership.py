"""Whose a submission is: the student id of the roster it belongs to, from where it lies.

Graded variants (:mod:`coursekit.grading.variants`) are judged on their owner's data, so the
owner must come from something the lecturer controls, never from the notebook (its metadata is
the student's to edit) nor from any id that happens to appear in its path. ``--id-from`` says
how the grader tells it, from the submission's path under SUBMISSIONS (:class:`IdRule`):

``folder`` (default)
    the top folder: ``SUBMISSIONS/<id>/...``, the layout ``release`` writes;
``name:REGEX``
    the one group of REGEX, searched in the path under SUBMISSIONS written with ``/`` and
    ending in ``.ipynb`` (``name:_(s\\d{4})\\.ipynb$``, or ``name:^[^/]*_(\\d+)_assignsubmission``
    for an LMS's folder per student);
``map:FILE.csv``
    an LMS export's mapping: two columns, a submission (its path under SUBMISSIONS, or its file
    name, with or without ``.ipynb``) and a student id; a header row naming an ``id`` (or
    ``student``) column is allowed.

Whatever the rule, a path that names another roster id than its owner's (``s1002/01 s1001``) is
refused: which of the two is it? And two files of one student for one chapter are both graded
and flagged in both rows (:func:`flag_duplicates`), with the one to keep (the last modified).
What a notebook says of itself is read here too (:func:`is_variant`, :func:`code_cells`): the
grader checks that a variant's data cell is the one released to its owner.
"""

from __future__ import annotations

import ast
import csv
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path, PurePath
from typing import Any

from ..i18n import N_, speaking
from .wording import Fixed

RULES = ("folder", "name:REGEX", "map:FILE.csv")
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
SUBMISSION_COLUMNS = ("submission", "path", "file", "filename", "file name")


def _posix(name: str) -> str:
    """A submission's path under SUBMISSIONS with ``/`` between its parts."""
    return PurePath(name).as_posix()


def named_ids(name: str, roster: Iterable[str]) -> list[str]:
    """The roster ids a submission's path names: each a whole folder or a token of a name (not
    inside a longer id also named there: ``alice`` in ``alice.b/`` is ``alice.b``'s)."""
    spans = {}
    for sid in roster:
        found = [
            m.span() for m in re.finditer(rf"(?<![A-Za-z0-9]){re.escape(sid)}(?![A-Za-z0-9])", name)
        ]
        if found:
            spans[sid] = found

    def inside_longer(sid: str, span: tuple[int, int]) -> bool:
        return any(
            len(other) > len(sid) and o[0] <= span[0] and span[1] <= o[1]
            for other, others in spans.items()
            for o in others
        )

    return sorted(
        sid for sid, found in spans.items() if not all(inside_longer(sid, s) for s in found)
    )


def _read_map(path: Path) -> dict[str, str]:
    """``submission -> student id`` of a mapping CSV (see the module's docstring)."""
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = [
            [cell.strip() for cell in row]
            for row in csv.reader(f)
            if row and any(cell.strip() for cell in row)
        ]
    if not rows:
        raise ValueError(f"--id-from map:{path}: an empty file")
    header = [cell.lower() for cell in rows[0]]
    if "id" in header or "student" in header:
        sid_col = header.index("id") if "id" in header else header.index("student")
        names = [c for c in SUBMISSION_COLUMNS if c in header]
        if names:
            sub_col = header.index(names[0])
        elif len(header) == 2:
            sub_col = 1 - sid_col
        else:
            raise ValueError(
                f"--id-from map:{path}: no submission column (one of "
                f"{', '.join(SUBMISSION_COLUMNS)}) next to its id column"
            )
        body, first = rows[1:], 2
    else:
        sub_col, sid_col, body, first = 0, 1, rows, 1
    mapping: dict[str, str] = {}
    for line, row in enumerate(body, start=first):
        if len(row) <= max(sub_col, sid_col) or not row[sub_col] or not row[sid_col]:
            raise ValueError(f"--id-from map:{path}, line {line}: a submission and an id needed")
        key, sid = _map_key(row[sub_col]), row[sid_col]
        if not ID_PATTERN.fullmatch(sid):
            raise ValueError(
                f"--id-from map:{path}, line {line}: {sid!r} is not a student id "
                "(letters, digits, ._-)"
            )
        if mapping.setdefault(key, sid) != sid:
            raise ValueError(
                f"--id-from map:{path}, line {line}: {row[sub_col]!r} is mapped to "
                f"{mapping[key]!r} and to {sid!r}"
            )
    if not mapping:
        raise ValueError(f"--id-from map:{path}: no submission mapped")
    return mapping


def _map_key(text: str) -> str:
    key = _posix(text.strip().replace("\\", "/"))
    return key[: -len(".ipynb")] if key.endswith(".ipynb") else key


def _source(cell: Any) -> str | None:
    """A code cell's source as one text (a notebook read as JSON may hold a list of lines)."""
    if not isinstance(cell, dict) or cell.get("cell_type") != "code":
        return None
    source = cell.get("source")
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        source = "".join(source)
    return source if isinstance(source, str) else None


def normal_source(source: str) -> str:
    """A cell's source without the differences an editor makes (line ends, trailing blanks)."""
    return "\n".join(line.rstrip() for line in source.strip().splitlines())


def code_form(source: str) -> str:
    """A code cell's code: its parsed form (``ast.dump``), which its comments and layout do not
    change (a translated exercise's data cell is the English one's), else (IPython syntax, a
    magic) its :func:`normal_source`.

    >>> code_form("x = [1, 2]  # the data") == code_form("x = [1,  2,]  # les données")
    True
    >>> code_form("x = [1, 2]") == code_form("x = [1, 3]")
    False
    """
    try:
        return ast.dump(ast.parse(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return normal_source(source)


def code_cells(notebook: dict[str, Any]) -> set[str]:
    """The code of a notebook's code cells (a notebook read as JSON): :func:`code_form`."""
    cells = notebook.get("cells")
    sources = (_source(c) for c in cells) if isinstance(cells, list) else ()
    return {code_form(s) for s in sources if s is not None}


def is_variant(notebook: dict[str, Any]) -> bool:
    """Whether the notebook's metadata says it is a personal variant (``release`` wrote it)."""
    metadata = notebook.get("metadata")
    own = metadata.get("coursekit") if isinstance(metadata, dict) else None
    return isinstance(own, dict) and own.get("variant") is True


class IdRule:
    """How the grader tells a submission's owner from its path under SUBMISSIONS (see the
    module's docstring); :meth:`parse` reads the text of ``--id-from``."""

    def __init__(
        self,
        kind: str = "folder",
        pattern: re.Pattern[str] | None = None,
        mapping: dict[str, str] | None = None,
        text: str = "folder",
    ) -> None:
        if kind not in ("folder", "name", "map"):
            raise ValueError(f"--id-from: unknown rule {kind!r}: one of {', '.join(RULES)}")
        self.kind, self.pattern, self.mapping, self.text = kind, pattern, mapping or {}, text

    def __repr__(self) -> str:
        return f"IdRule({self.text!r})"

    @classmethod
    def parse(cls, text: str | None) -> IdRule:
        """The rule ``text`` names: ``folder``, ``name:REGEX`` (one group) or ``map:FILE.csv``;
        None is ``folder``. A ValueError names what is wrong."""
        if text is None or text == "folder":
            return cls()
        if not isinstance(text, str):
            raise TypeError(f"--id-from must be text, not {type(text).__name__}")
        kind, _, rest = text.partition(":")
        if kind == "name" and rest:
            try:
                pattern = re.compile(rest)
            except re.error as error:
                raise ValueError(
                    f"--id-from name:{rest}: not a regular expression ({error})"
                ) from None
            if pattern.groups != 1:
                raise ValueError(
                    f"--id-from name:{rest}: the pattern needs exactly one group (the id), "
                    f"not {pattern.groups}"
                )
            return cls("name", pattern=pattern, text=text)
        if kind == "map" and rest:
            return cls("map", mapping=_read_map(Path(rest)), text=text)
        raise ValueError(f"--id-from {text!r}: one of {', '.join(RULES)}")

    def check(self, roster: Sequence[str]) -> None:
        """Refuse a map whose ids are not all on the roster (before grading anything)."""
        unknown = sorted(set(self.mapping.values()) - set(roster))
        if unknown:
            raise ValueError(
                f"--id-from {self.text}: ids not on the roster: {', '.join(unknown[:5])}"
                + (" ..." if len(unknown) > 5 else "")
            )

    def _claimed(self, name: str) -> str:
        """The id the rule reads in ``name`` (a submission's path without ``.ipynb``)."""
        path = _posix(name)
        if self.kind == "folder":
            parts = PurePath(path).parts
            if len(parts) < 2:
                raise ValueError(
                    "not graded: not in a student's folder (SUBMISSIONS/<id>/...; or tell the "
                    "grader where the id is with --id-from name:REGEX or map:FILE.csv)"
                )
            return parts[0]
        if self.kind == "name":
            assert self.pattern is not None
            found = self.pattern.search(path + ".ipynb")
            if found is None or not found.group(1):
                raise ValueError(f"not graded: its path does not match --id-from {self.text}")
            return found.group(1)
        for key in (path, PurePath(path).name):
            if key in self.mapping:
                return self.mapping[key]
        raise ValueError(f"not graded: not in the --id-from {self.text} mapping")

    def owner(self, name: str, roster: Sequence[str]) -> str:
        """The roster id owning the submission ``name`` (its path under SUBMISSIONS, without
        ``.ipynb``); a ValueError (the row's error) when the rule finds none on the roster or
        the path names another roster id too."""
        sid = self._claimed(name)
        if sid not in roster:
            raise ValueError(
                f"not graded: {sid[:64]!r} (--id-from {self.text}) is not an id of the roster"
            )
        others = [other for other in named_ids(name, roster) if other != sid]
        if others:
            ids = ", ".join([sid, *others][:5])
            raise ValueError(
                f"not graded: its path names several student ids ({ids}): whose is it? "
                f"Keep each student's notebooks under their own folder only"
            )
        return sid


def flag_duplicates(
    grades: Sequence[Any], found: Sequence[tuple[Path, str]], personal: Any
) -> list:
    """Flag every group of submissions of one student for one chapter: each of its rows gets
    "N submissions for ID, ch NN: ...; keep ..." in its error and notes (all of them are
    graded: the lecturer picks). The one to keep is the one modified last. ``grades`` are
    the run's :class:`~coursekit.grading.report.Grade` objects, ``found`` the ``(path,
    name)`` pairs of :func:`~coursekit.grading.intake.find_submissions`, ``personal`` the
    run's :class:`~coursekit.grading.variants.Personal` (None: no roster, nothing to do).
    Returns the grades changed (their feedback is to be written again)."""
    if personal is None:
        return []
    paths = {name: path for path, name in found}
    groups: dict[tuple[str, str], list[Any]] = {}
    for grade in grades:
        if not grade.chapter:
            continue
        try:
            sid = personal.owner(grade.submission)
        except ValueError:
            continue  # refused already, with the reason in its row
        groups.setdefault((sid, grade.chapter), []).append(grade)

    def modified(grade: Any) -> float:
        try:
            return os.lstat(paths[grade.submission]).st_mtime
        except (KeyError, OSError):
            return float("-inf")

    changed = []
    for (sid, chapter), group in sorted(groups.items()):
        if len(group) < 2:
            continue
        latest = max(group, key=lambda g: (modified(g), g.submission))
        message = Fixed(
            N_(
                "{count} submissions for {sid}, ch {chapter}: {names}; all graded, keep one: the "
                "last modified is {latest}"
            ),
            count=len(group),
            sid=sid,
            chapter=chapter[:2],
            names=", ".join(g.submission for g in group),
            latest=latest.submission,
        )
        for grade in group:  # the note in the feedback's language, the error column in English
            with speaking(grade.language):
                grade.notes.append(message.said())
                if grade.language != "en":
                    grade.error_said = "; ".join(
                        filter(None, [message.said(), grade.error_said or grade.error])
                    )
            grade.error = "; ".join(filter(None, [message, grade.error]))
            changed.append(grade)
    return changed
