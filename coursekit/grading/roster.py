"""The roster: who the students are, read from the CSV a lecturer has (an LMS's, a spreadsheet's).

:func:`read` gives a :class:`Roster`: the student ids, the name of the id column and the rest of
each row (name, email, section...), kept for the gradebook and the exports. What it accepts:

- UTF-8, with or without a byte order mark (Excel's "CSV UTF-8");
- ``,``, ``;`` or tab between cells: the one found most often in the first line, outside
  quotes (a tie: tab, then ``;``, then ``,``);
- an id column among, in this order of priority, ``id``, ``student_id``, ``ID number``
  (Moodle's), ``username`` and ``email`` (``Email address``): case, spaces, ``_`` and ``-``
  aside. With several of them the first in that order is the id (a Moodle export's
  ``ID number`` and ``Email address``: the ID number); two columns of one name (``ID`` and
  ``id``) are refused: which one?
- no header: one column of ids (a first line of several cells, none of them an id header, is
  refused naming the columns it saw, and so is a lone first cell that is a usual header word
  such as ``name`` or ``student``: it is not a student).

An id is letters, digits and ``._-`` (at most 64), or an email address in an email column.
Every problem is a ValueError naming ``file:line``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .ownership import ID_PATTERN, IdRule

#: the id columns, highest priority first (names normalised by :func:`normal_header`)
ID_HEADERS = ("id", "student id", "id number", "username", "email")
ALIASES = {
    "studentid": "student id",
    "idnumber": "id number",
    "email address": "email",
    "e mail": "email",
}
#: a lone first cell that is one of these is a header without an id column, not a student
HEADER_WORDS = {
    "name", "names", "student", "students", "user", "login", "matricule", "number",
    "first name", "last name", "surname", "section", "group", "mail", "identifier",
}  # fmt: skip
EMAIL_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+")
SEPARATORS = ("\t", ";", ",")


def normal_header(text: str) -> str:
    """A header cell as compared: lower case, ``_``, ``-`` and runs of spaces as one space
    (``Student_ID`` -> ``student id``); the usual spellings of one column as one name."""
    name = re.sub(r"[\s_-]+", " ", str(text).strip().lower())
    return ALIASES.get(name, name)


def separator(line: str) -> str:
    """The cell separator of a roster's first line: the most frequent of tab, ``;`` and ``,``
    outside double quotes (``,`` when there is none)."""
    outside = re.sub(r'"[^"]*"', "", line)
    counts = {sep: outside.count(sep) for sep in SEPARATORS}
    best = max(SEPARATORS, key=lambda sep: counts[sep])  # max keeps the first of a tie
    return best if counts[best] else ","


@dataclass(frozen=True)
class Roster:
    """The students of a roster: ``ids`` in the file's order, the name of the id column
    (``id`` for a roster without a header), the other ``columns`` (their headers as written)
    and ``rows``: for each student, those columns' values (``rows[i]`` is ``ids[i]``'s)."""

    path: Path
    ids: tuple[str, ...]
    id_column: str = "id"
    columns: tuple[str, ...] = ()
    rows: tuple[dict[str, str], ...] = field(default=())

    def row(self, sid: str) -> dict[str, str]:
        """The other columns of student ``sid`` (a KeyError for an id not on the roster)."""
        if sid not in self.ids:
            raise KeyError(sid)
        return self.rows[self.ids.index(sid)]

    def column(self, *names: str) -> str | None:
        """The first column (its header as written; the id column too) whose normalised name
        is one of ``names`` (normalised as well), in the order of ``names``; else None."""
        wanted = [normal_header(n) for n in names]
        every = (self.id_column, *self.columns)
        for name in wanted:
            for header in every:
                if normal_header(header) == name:
                    return header
        return None

    def value(self, sid: str, header: str) -> str:
        """Student ``sid``'s cell of column ``header`` (the id column gives the id)."""
        return sid if header == self.id_column else self.row(sid).get(header, "")

    def owners(self, id_from: str | None = None) -> Owners:
        """Who owns a submission, by the rule of ``--id-from`` (None: the top folder)."""
        return Owners(self.ids, IdRule.parse(id_from))


class Owners:
    """The owner of a submission among a roster's ids (:meth:`.IdRule.owner`), for a run
    with ``--roster`` and no ``--secret-file`` (with it, :class:`.variants.Personal`)."""

    def __init__(self, ids: Sequence[str], rule: IdRule) -> None:
        self.roster, self.rule = list(ids), rule
        rule.check(self.roster)

    def owner(self, name: str) -> str:
        """The roster id owning the submission ``name``; a ValueError says why there is none."""
        return self.rule.owner(name, self.roster)


def table_reader(path: Path) -> Any:
    """A csv reader of the table ``path``: UTF-8 (a BOM allowed, as Excel's "CSV UTF-8"
    writes), its separator (``,``, ``;`` or tab) found on its first line; a ValueError naming
    the file when it is not UTF-8. The roster, the LMS times and the hand marks are read so."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text ({error.reason}): save it as CSV UTF-8") from None
    first = next((line for line in text.splitlines() if line.strip()), "")
    return csv.reader(io.StringIO(text, newline=""), delimiter=separator(first))


def table_rows(path: Path) -> list[tuple[int, list[str]]]:
    """``(line, cells)`` of every non-blank row of the table ``path`` (cells stripped)."""
    reader = table_reader(path)
    found = []
    for row in reader:
        cells = [cell.strip() for cell in row]
        if any(cells):
            found.append((reader.line_num, cells))
    return found


def _id_column(path: Path, line: int, header: list[str]) -> int | None:
    """The index of the id column of the first row, or None when that row is data."""
    names = [normal_header(cell) for cell in header]
    for wanted in ID_HEADERS:
        at = [i for i, name in enumerate(names) if name == wanted]
        if len(at) > 1:
            same = ", ".join(repr(header[i]) for i in at)
            raise ValueError(f"{path}:{line}: two id columns {same}: which one? Rename one")
        if at:
            return at[0]
    if len(header) > 1 or names[0] in HEADER_WORDS:
        seen = ", ".join(repr(cell) for cell in header)
        raise ValueError(
            f"{path}:{line}: no id column among {seen}: name one of "
            f"{', '.join(ID_HEADERS)} (or give one column of ids, without a header)"
        )
    return None


def _check_id(path: Path, line: int, sid: str, email: bool) -> None:
    if ID_PATTERN.fullmatch(sid) or (email and EMAIL_PATTERN.fullmatch(sid)):
        return
    what = "letters, digits, ._-" + (", or an email address" if email else "")
    raise ValueError(f"{path}:{line}: {sid[:64]!r} is not a student id ({what})")


def read(path: Path | str) -> Roster:
    """The :class:`Roster` of the CSV file ``path`` (see the module for what it accepts)."""
    path = Path(path)
    rows = table_rows(path)
    if not rows:
        raise ValueError(f"{path}: an empty roster")
    line, header = rows[0]
    column = _id_column(path, line, header)
    if column is None:  # one column of ids
        header, body, column, id_name = [], rows, 0, "id"
    else:
        body, id_name = rows[1:], header[column]
    others = [(i, name) for i, name in enumerate(header) if i != column]
    email = normal_header(id_name) == "email"
    ids: list[str] = []
    values: list[dict[str, str]] = []
    seen: dict[str, int] = {}
    for line, cells in body:
        sid = cells[column] if len(cells) > column else ""
        if not sid:
            raise ValueError(f"{path}:{line}: no student id in column {id_name!r}")
        _check_id(path, line, sid, email)
        if sid in seen:
            raise ValueError(
                f"{path}:{line}: the student id {sid!r} appears twice (line {seen[sid]})"
            )
        seen[sid] = line
        ids.append(sid)
        values.append({name: cells[i] if i < len(cells) else "" for i, name in others})
    if not ids:
        raise ValueError(f"{path}: a roster without students (a header only)")
    return Roster(path, tuple(ids), id_name, tuple(name for _, name in others), tuple(values))


def read_ids(path: Path | str) -> list[str]:
    """The student ids of the roster ``path`` (:func:`read`), in its order."""
    return list(read(path).ids)


def as_roster(roster: Any) -> Roster:
    """``roster`` itself, or the roster read from the path it is."""
    return roster if isinstance(roster, Roster) else read(roster)
