"""Free-text ("in your words") answers: extracted for the lecturer, marked by hand, merged back.

A free-text question is a markdown cell of the solution notebook (``keys/../NN_topic.ipynb``,
next to the keys folder) holding the question's text then a ``<!-- BEGIN SOLUTION -->`` block;
the exercise notebook shows the text and ``*Write your answer here.*``, which the student
replaces (or follows with cells of their own). Its id is ``text1``, ``text2``... in the
notebook's order. An answer key may declare their points: ``FREE_TEXT = {"text1": 2}``.

A student's answer is found by its cell's id (the exercise's ``cell-NN``, which a translated
exercise keeps, or the solution's own), by the question's text only in a notebook without ids.
The exercises' catalogs (``locale/<language>/exercises/NN_*.po``, which ``tools/translate.py``
builds ``exercises/fr/`` from) give the question's text and the placeholder in every language
the exercises exist in: a French exercise's answer is read as an English one's, and its
untouched ``*Écrivez votre réponse ici.*`` is no answer.

Each run writes ``OUT/free_text.csv`` (:func:`free_text_csv`): a row per student (``id``; the
``submission`` too), chapter and free-text question, with ``question`` (the id), ``text``
(the question's text), ``answer`` (the student's text: the rest of the question's cell and the
markdown cells the student added after it; empty when left as given), an empty ``points``
column, ``max`` (the key's points, else empty) and an empty ``comment``. With a roster, the
submission kept in the gradebook is the one extracted.

``--manual marks.csv`` (that file with ``points`` filled in; ``max`` too where the key has
none; ``comment`` optional) merges the marks (:func:`read_marks`, :func:`apply_marks`): each
marked question becomes a column of grades.csv and gradebook.csv and a line of the feedback
("text1: marked by hand: 1.5 / 2; comment"). A row whose ``points`` is empty is not marked.
Refused, with ``file:line``: points that are not a number, negative or over max, a max that
differs from the key's, an unknown student, chapter or question, a question marked twice.
"""

from __future__ import annotations

import csv
import functools
import io
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import nbformat

from .build import MD_BEGIN, MD_PLACEHOLDER, exercise_notebook
from .intake import parse_notebook, read_submission
from .report import Grade, csv_cell
from .roster import normal_header, table_reader

COLUMNS = ["id", "submission", "chapter", "question", "text", "answer", "points", "max", "comment"]
MAX_ANSWER = 20_000  # characters of an answer kept in free_text.csv


#: The kit's catalogs of the exercises' translations, ``LANGUAGE/exercises/NN_*.po`` (keyed by
#: cell id: tools/translate.py): the questions' texts and the placeholder in other languages.
LOCALE = Path(__file__).resolve().parents[2] / "locale"


def _normal(text: str) -> str:
    return "\n".join(line.rstrip() for line in str(text).strip().splitlines())


def _source(cell: Any) -> str:
    source = cell.get("source", "") if isinstance(cell, dict) else ""
    if isinstance(source, list):
        source = "".join(s for s in source if isinstance(s, str))
    return source if isinstance(source, str) else ""


@functools.cache
def _catalog(path: Path) -> dict[str, tuple[str, str]]:
    """cell id -> (English, translation), normalised, of an exercise catalog's translated
    entries (not fuzzy); {} when it cannot be read."""
    import polib

    try:
        entries = polib.pofile(str(path)).translated_entries()
    except (OSError, ValueError):
        return {}
    return {e.msgctxt: (_normal(e.msgid), _normal(e.msgstr)) for e in entries if e.msgctxt}


def _placeholder_of(english: str, translation: str) -> str | None:
    """The translated placeholder of a free-text question's exercise cell (question, blank
    line, placeholder): the translation's last paragraph; None for another cell."""
    if not english.endswith("\n\n" + MD_PLACEHOLDER):
        return None
    paragraphs = translation.rsplit("\n\n", 1)
    return paragraphs[1] if len(paragraphs) == 2 and paragraphs[1].strip() else None


def _markdown(cell: Any) -> bool:
    return isinstance(cell, dict) and cell.get("cell_type") == "markdown"


class Chapter:
    """The free-text questions of one chapter: ``questions`` (id -> text), ``points`` (id ->
    max from the key's ``FREE_TEXT``), and the exercise's own cells (to tell the student's):
    their ids and their texts in English and, read from the chapter's catalogs under
    ``locale`` when a first answer is looked for, in every language the exercise exists in
    (``placeholders`` too)."""

    def __init__(
        self, solution: Path | None, points: Mapping[str, float], locale: Path = LOCALE
    ) -> None:
        self.questions: dict[str, str] = {}
        self.points = dict(points)
        self.given: set[str] = set()  # the exercise's cells' texts, in every language
        self.ids: set[str] = set()  # the ids of the exercise's (and the solution's) cells
        self.cells: dict[str, set[str]] = {}  # question -> the ids of its cell
        self.texts: dict[str, list[str]] = {}  # question -> its text in every language
        self.placeholders: tuple[str, ...] = (MD_PLACEHOLDER,)
        self._catalogs: list[Path] | None = []  # read (then None) when first needed
        self._exercise: list[tuple[str, str, str | None]] = []  # (id, text, question) a cell
        if solution is None or not solution.is_file():
            return
        notebook = nbformat.read(solution, as_version=4)
        exercise = exercise_notebook(notebook, solution.name)
        for cell, given in zip(notebook.cells, exercise.cells, strict=True):
            ids = {i for i in (cell.get("id"), given.get("id")) if isinstance(i, str) and i}
            self.ids |= ids
            self.given.add(_normal(given.source))
            qid = None
            if cell.cell_type == "markdown" and MD_BEGIN in cell.source:
                qid = f"text{len(self.questions) + 1}"
                self.questions[qid] = _normal(cell.source.split(MD_BEGIN)[0])
                self.cells[qid] = ids
                self.texts[qid] = [self.questions[qid]]
            self._exercise.append((given.id, _normal(given.source), qid))
        self._catalogs = sorted(Path(locale).glob(f"*/exercises/{solution.stem}.po"))

    def _translate(self) -> None:
        """The exercise's texts and placeholder in its catalogs' languages: an entry for the
        English as it is (not for a cell the lecturer's solution changed) is its translation."""
        if self._catalogs is None:
            return
        catalogs, self._catalogs = [_catalog(path) for path in self._catalogs], None
        placeholders = list(self.placeholders)
        for key, english, qid in self._exercise:
            for theirs, translation in (c[key] for c in catalogs if key in c):
                if theirs != english:
                    continue
                self.given.add(translation)
                said = _placeholder_of(theirs, translation) if qid is not None else None
                if qid is None or said is None:
                    continue
                asked = translation[: -len(said)].rstrip()
                if asked and asked not in self.texts[qid]:
                    self.texts[qid].append(asked)
                if said not in placeholders:
                    placeholders.append(said)
        self.placeholders = tuple(placeholders)

    def _at(self, cells: list[Any], qid: str) -> int | None:
        """Where question ``qid``'s cell is in ``cells``: by its id, else (a notebook without
        ids) the first markdown cell starting with its text in some language."""
        for i, cell in enumerate(cells):
            if _markdown(cell) and cell.get("id") in self.cells[qid]:
                return i
        for i, cell in enumerate(cells):
            if _markdown(cell) and _normal(_source(cell)).startswith(tuple(self.texts[qid])):
                return i
        return None

    def _answered(self, text: str) -> str:
        for placeholder in self.placeholders:
            text = text.replace(placeholder, "")
        return text.strip()

    def answers(self, notebook: Mapping[str, Any]) -> dict[str, str]:
        """Each question's answer in a student's notebook (read as JSON), in any language."""
        cells = notebook.get("cells") if isinstance(notebook, Mapping) else None
        cells = cells if isinstance(cells, list) else []
        found: dict[str, str] = {}
        if self.questions:
            self._translate()
        for qid in self.questions:
            at = self._at(cells, qid)
            if at is None:
                found[qid] = ""
                continue
            source = _normal(_source(cells[at]))
            asked = next((t for t in self.texts[qid] if source.startswith(t)), "")
            parts = [source[len(asked) :]]
            for cell in cells[at + 1 :]:
                if not isinstance(cell, dict) or cell.get("cell_type") == "code":
                    break
                source = _normal(_source(cell))
                if source in self.given or cell.get("id") in self.ids:
                    break
                parts.append(source)
            answer = "\n\n".join(self._answered(p) for p in parts)
            found[qid] = answer.strip()[:MAX_ANSWER]
        return found


def declared_points(module: Any, path: Path) -> dict[str, float]:
    """The key module's ``FREE_TEXT`` (``{"text1": 2}``), checked; {} when it has none."""
    declared = getattr(module, "FREE_TEXT", {})
    if not isinstance(declared, Mapping):
        raise ValueError(f"{path}: FREE_TEXT must be a dict such as {{'text1': 2}}")
    for qid, points in declared.items():
        good = isinstance(points, (int, float)) and not isinstance(points, bool)
        if not (isinstance(qid, str) and qid.startswith("text") and qid[4:].isdigit()):
            raise ValueError(f"{path}: FREE_TEXT: {qid!r} is not a free-text id (text1...)")
        if not good or not math.isfinite(points) or points <= 0:
            raise ValueError(f"{path}: FREE_TEXT[{qid!r}] must be a positive number of points")
    return {qid: float(p) for qid, p in declared.items()}


def chapters_of(keys_dir: Path, declared: Mapping[str, Mapping[str, float]]) -> dict:
    """chapter -> :class:`Chapter`, for every chapter of ``declared`` (its key's points)."""
    found = {}
    for chapter, points in declared.items():
        found[chapter] = Chapter(Path(keys_dir).parent / f"{chapter}.ipynb", points)
        unknown = sorted(set(points) - set(found[chapter].questions))
        if unknown and found[chapter].questions:
            raise ValueError(
                f"{Path(keys_dir) / chapter}.py: FREE_TEXT names {', '.join(unknown)}, which "
                f"{chapter}.ipynb does not ask ({len(found[chapter].questions)} free-text)"
            )
    return found


def _cell(text: str) -> str:
    text = str(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def free_text_rows(
    grades: Sequence[Grade], chapters: Mapping[str, Chapter], paths: Mapping[str, Path], cap: int
) -> list[list[str]]:
    """The rows of free_text.csv for ``grades`` (the ones a gradebook keeps, or all)."""
    rows = []
    for grade in grades:
        chapter = chapters.get(grade.chapter)
        if chapter is None or not chapter.questions or grade.submission not in paths:
            continue
        try:
            notebook = parse_notebook(read_submission(paths[grade.submission], cap))
        except ValueError:
            notebook = {}
        for qid, answer in chapter.answers(notebook).items():
            top = chapter.points.get(qid)
            rows.append(
                [
                    csv_cell(grade.owner),
                    csv_cell(grade.submission),
                    csv_cell(grade.chapter),
                    qid,
                    _cell(chapter.questions[qid]),
                    _cell(answer),
                    "",
                    f"{top:g}" if top is not None else "",
                    "",
                ]
            )
    return rows


def free_text_csv(rows: Sequence[Sequence[str]]) -> str:
    """The text of ``free_text.csv``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    return buffer.getvalue()


def _number(text: str, where: str, what: str) -> float:
    try:
        value = float(text.replace(",", ".")) if text else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{where}: {what} {text[:20]!r} is not a number of points (0 or more)")
    return value


Marks = dict[tuple[str, str, str], dict[str, Any]]


def read_marks(
    path: Path, chapters: Mapping[str, Chapter], students: Sequence[str], by_id: bool
) -> Marks:
    """``(student, chapter, question) -> {"points", "max", "comment"}`` of the marks file
    ``path`` (see the module); ``students``: the roster's ids (``by_id``) or the submissions'
    names. A ValueError names ``file:line``."""
    path = Path(path)
    reader = table_reader(path)
    rows, start = [], 1  # (the first line of a row, its cells): a cell may hold line breaks
    for row in reader:
        if any(c.strip() for c in row):
            rows.append((start, row))
        start = reader.line_num + 1
    if not rows:
        raise ValueError(f"{path}: an empty file")
    header = [normal_header(c) for c in rows[0][1]]
    needed = ["id" if by_id else "submission", "chapter", "question", "points"]
    missing = [c for c in needed if c not in header]
    if missing:
        raise ValueError(f"{path}:{rows[0][0]}: no column {', '.join(missing)}")
    marks: Marks = {}
    for line, row in rows[1:]:
        where = f"{path}:{line}"
        cell = {name: (row[i].strip() if i < len(row) else "") for i, name in enumerate(header)}
        if not cell["points"]:
            continue  # not marked
        who, chapter, qid = cell[needed[0]].lstrip("'"), cell["chapter"], cell["question"]
        if who not in students:
            kind = "student id" if by_id else "submission"
            raise ValueError(f"{where}: {who[:64]!r} is not a {kind} of this run")
        if chapter not in chapters or qid not in chapters[chapter].questions:
            raise ValueError(f"{where}: {chapter[:40]}:{qid[:20]} is not a free-text question")
        points = _number(cell["points"], where, "points")
        declared = chapters[chapter].points.get(qid)
        given = _number(cell["max"], where, "max") if cell.get("max") else None
        if declared is not None and given is not None and given != declared:
            raise ValueError(f"{where}: max {given:g} differs from the key's {declared:g}")
        top = declared if declared is not None else given
        if top is None:
            raise ValueError(f"{where}: {qid} has no max in its key: fill its max column")
        if points > top:
            raise ValueError(f"{where}: {points:g} points is over the max of {top:g}")
        if (who, chapter, qid) in marks:
            raise ValueError(f"{where}: {who} {chapter}:{qid} is marked twice")
        comment = cell.get("comment", "")[:300]
        marks[(who, chapter, qid)] = {"points": points, "max": top, "comment": comment}
    return marks


def apply_marks(marks: Marks, grades: Sequence[Grade], by_id: bool) -> list[Grade]:
    """Each mark as a question of its student's grades of its chapter; the grades changed."""
    changed = []
    for grade in grades:
        who = grade.owner if by_id else grade.submission
        for (student, chapter, qid), mark in marks.items():
            if student == who and chapter == grade.chapter and who:
                said = f"{qid}: marked by hand: {mark['points']:g} / {mark['max']:g}"
                message = f"{said}; {mark['comment']}" if mark["comment"] else said
                record = {"points": mark["points"], "max": mark["max"], "message": message}
                grade.questions[qid] = {**record, "manual": True}
                if grade not in changed:
                    changed.append(grade)
    return changed
