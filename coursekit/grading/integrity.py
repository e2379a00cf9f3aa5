"""Signs of copying, reported to the lecturer after grading: ``OUT/integrity.csv``.

A copy of a classmate's notebook scores well (choices and functions are right for everyone);
what gives it away is listed here, a row per chapter, pair of students and kind of evidence:

- ``own-data answer of b`` (graded variants, ``--secret-file``): student a's answer to a
  question on their own data (a ``Value`` of a chapter with variants) is wrong for a's data but
  equals, to the decimals graded, the expected value of student b's data (each roster
  student's variant is drawn once per chapter graded);
- ``public data``: the same with the public exercise's data (``student_b`` empty);
- ``function source``: two functions nearly identical once normalised
  (:func:`normalised_tokens`: identifiers renamed in order of appearance, numbers and texts
  replaced by placeholders, docstrings, comments, layout and imports dropped): difflib's
  ratio on the tokens at least :data:`SIMILAR` (0.9). Not compared: functions of fewer than
  :data:`MIN_TOKENS` tokens (every honest ``gain_percent`` looks alike) and functions that
  near the reference solution (the solution notebook's, or coursekit's) as closely: that two
  students both wrote what the reference does is no evidence. Runs with or without variants.

Evidence to weigh, not a verdict: a value that several sets of data give (chapter 01's
answers depend on one count with six possible values) can be reached by an honest slip, and
the row says "weak". The copier's feedback: an own-data answer equal to the expected value of
exactly one other set of data (a classmate's or the public one) gets "this answer is not
computed on your data" instead of a hint about a slip it did not make (points unchanged: it
was already wrong). This is done after all submissions are graded, by writing their feedback
again, not at marking time: the comparison needs every student's variant while a submission
is marked alone (in a worker process), and the function comparison needs every grade anyway;
one place gives the evidence and the messages, which cannot disagree. Nothing of a
submission is run here; sources are only parsed, each at most :data:`MAX_ANSWER_CHARS` long.
"""

from __future__ import annotations

import ast
import builtins
import csv
import inspect
import io
import json
import math
import numbers
import tokenize
from collections.abc import Callable, Mapping, Sequence
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from .build import BEGIN, END
from .judging import as_plain, reference_function
from .questions import Function, Value, digest
from .report import Grade, csv_cell, write, write_feedback

COLUMNS = ["chapter", "student_a", "student_b", "kind", "questions", "evidence"]
OWN, PUBLIC, SOURCE, UNCHECKED = "own-data answer of b", "public data", "function source", "error"
#: difflib ratio from which two normalised functions count as near-identical
SIMILAR = 0.9
#: functions with fewer normalised tokens are not compared (every honest answer is alike)
MIN_TOKENS = 50
#: the longest answer (a function's source, or a value as JSON) a Grade carries
MAX_ANSWER_CHARS = 20_000
COPIED = (
    "{qid}: this answer is not computed on your data: it is the expected answer of other data "
    "(a classmate's or the public exercise's); compute it on the data of your own notebook"
)
_BUILTINS = frozenset(dir(builtins))


def recorded(answers: Mapping[str, Mapping[str, Any]], questions: Sequence[Any]) -> dict[str, Any]:
    """Per question of ``questions``, the answer recorded by ``check()`` (``answers`` as
    :func:`~coursekit.grading.marking.read_answers` gives them): a function's source or the
    value; an answer longer than :data:`MAX_ANSWER_CHARS` (source or JSON) is left out."""
    kept: dict[str, Any] = {}
    for q in questions:
        entry = answers.get(q.qid)
        if not isinstance(entry, Mapping) or "unreadable" in entry:
            continue
        answer = entry.get("source") if isinstance(q, Function) else entry.get("value")
        try:
            size = len(answer) if isinstance(answer, str) else len(json.dumps(answer))
        except (TypeError, ValueError, RecursionError):
            continue
        if answer is not None and size <= MAX_ANSWER_CHARS:
            kept[q.qid] = answer
    return kept


# --------------------------------------------------------------------------------------------
# Own-data answers


def fingerprint(question: Value, value: Any) -> tuple[str, ...] | None:
    """``value`` as the grader compares it with ``question``'s expected value: each number
    rounded to the question's decimals (or significant digits), whole numbers and document ids
    exactly, a text without case; None when it has not the expected value's kind or length.
    Two values are equal to the decimals graded when their fingerprints are."""
    value, like = as_plain(value), question.expected
    if question.kind() in ("floats", "ints", "ids"):
        if not isinstance(value, list) or len(value) != len(like):
            return None
        pairs = list(zip(value, like, strict=True))
    else:
        pairs = [(value, like)]
    try:
        return tuple(_rounded(question, v, e) for v, e in pairs)
    except (TypeError, ValueError, OverflowError):
        return None


def _rounded(question: Value, value: Any, like: Any) -> str:
    if isinstance(like, str):
        if not isinstance(value, str):
            raise TypeError("not a text")
        return digest("", value, 0, exact=question.kind() == "ids")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError("not a number")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError("not finite")
    if isinstance(like, float):
        return digest("", number, question.decimals, question.significant)
    if not number.is_integer():
        raise ValueError("not whole")
    return digest("", int(number), 0)


def own_data_evidence(
    grades: Sequence[Grade],
    key: Sequence[Any],
    variants: Mapping[str, Sequence[Any]],
    who: Callable[[Grade], str],
) -> tuple[list[list[str]], dict[int, set[str]]]:
    """Rows of evidence for the grades of one chapter (``key``: its public questions;
    ``variants``: each roster student's questions) and, by index in ``grades``, the questions
    whose feedback is to say "not computed on your data". Only answers that did not score
    their points count (a right answer is the student's own, whoever else shares it)."""
    public = {q.qid: q for q in key if isinstance(q, Value)}
    if not variants:  # everyone has the public data: a wrong answer equals no expected value
        return [], {}
    publicly = {qid: fingerprint(q, q.expected) for qid, q in public.items()}
    index: dict[str, dict[tuple[str, ...], set[str]]] = {qid: {} for qid in public}
    for student, questions in variants.items():
        for q in questions:
            if q.qid in public and (found := fingerprint(public[q.qid], q.expected)) is not None:
                index[q.qid].setdefault(found, set()).add(student)
    pairs: dict[tuple[str, str], list[tuple[str, int]]] = {}
    flagged: dict[int, set[str]] = {}
    for i, grade in enumerate(grades):
        a = who(grade)
        for qid, q in public.items():
            record = grade.questions.get(qid)
            if record is None or record["points"] >= record["max"] or qid not in grade.answers:
                continue
            found = fingerprint(q, grade.answers[qid])
            if found is None:
                continue
            sources = set(index[qid].get(found, set())) - {a}
            if found == publicly[qid]:
                sources.add("")  # the public data ("" sorts first: student_b empty)
            for b in sources:
                pairs.setdefault((a, b), []).append((qid, len(sources)))
            if len(sources) == 1 and not record["message"].startswith(f"{qid}: not right yet: "):
                flagged.setdefault(i, set()).add(qid)  # (an own slip's hint is kept)
    rows = []
    for (a, b), found in sorted(pairs.items()):
        qids = [qid for qid, _ in found]
        whose = f"{b}'s data" if b else "the public exercise's data"
        text = f"{len(qids)} of {len(public)} own-data answers equal the expected values of {whose}"
        weak = [f"{qid} (a value {n} sources give)" for qid, n in found if n > 1]
        text += f", not {a}'s" + (f"; weak: {', '.join(weak)}" if weak else "")
        rows.append([a, b, OWN if b else PUBLIC, " ".join(qids), text])
    return rows, flagged


# --------------------------------------------------------------------------------------------
# Function sources


class _Placeholders(ast.NodeTransformer):
    """Rename every identifier (not builtins, not attributes or keywords) to ``v0, v1, ...`` in
    order of appearance, numbers to ``NUM``, texts to ``STR``; drop imports and bare strings
    (docstrings)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def _name(self, name: str) -> str:
        return name if name in _BUILTINS else self.names.setdefault(name, f"v{len(self.names)}")

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self._name(node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self._name(node.arg)
        return self.generic_visit(node)

    def visit_FunctionDef(self, node: Any) -> ast.AST:
        node.name = self._name(node.name)
        return self.generic_visit(node)

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Global(self, node: Any) -> ast.AST:
        node.names = [self._name(n) for n in node.names]
        return node

    visit_Nonlocal = visit_Global

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        node.name = self._name(node.name) if node.name else None
        return self.generic_visit(node)

    def visit_MatchAs(self, node: Any) -> ast.AST:  # also MatchStar: a capture's name
        node.name = self._name(node.name) if node.name else None
        return self.generic_visit(node)

    visit_MatchStar = visit_MatchAs

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if node.value is None or node.value is ... or isinstance(node.value, bool):
            return node
        text = isinstance(node.value, (str, bytes))
        return ast.copy_location(ast.Name("STR" if text else "NUM", ast.Load()), node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return ast.copy_location(ast.Name("STR", ast.Load()), node)

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None  # a docstring, or a string used as a comment
        return self.generic_visit(node)

    def visit_Import(self, node: ast.AST) -> None:
        return None  # a tool, not the answer

    visit_ImportFrom = visit_Import


def normalised_tokens(source: str) -> list[str] | None:
    """The tokens of ``source`` once normalised (see :class:`_Placeholders`; comments and
    layout go with the parsing), or None when it does not parse."""
    try:
        tree = _Placeholders().visit(ast.parse(source))
        for node in ast.walk(tree):  # a body left empty by the dropped docstrings
            if isinstance(getattr(node, "body", None), list) and not node.body:
                node.body = [ast.Pass()]
        text = ast.unparse(tree)
        marks = {tokenize.INDENT: "<indent>", tokenize.DEDENT: "<dedent>", tokenize.NEWLINE: ";"}
        skip = {tokenize.NL, tokenize.COMMENT, tokenize.ENCODING, tokenize.ENDMARKER}
        return [
            marks.get(t.type, t.string)
            for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type not in skip
        ]
    except Exception:  # noqa: BLE001 - the student's text: what does not parse is not compared
        return None


def similarity(a: Sequence[str], b: Sequence[str], at_least: float = 0.0) -> float:
    """difflib's ratio of two token lists (1: equal, 0: nothing in common); 0 when cheap
    upper bounds show it is below ``at_least`` (pairs of a whole class are compared)."""
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < at_least or matcher.quick_ratio() < at_least:
        return 0.0
    return matcher.ratio()


def references(question: Function, solutions: Path | None, chapter: str) -> list[list[str]]:
    """The normalised reference functions of ``question``: its solution notebook's
    (``solutions/<chapter>.ipynb``, between the solution markers) and coursekit's own."""
    sources = []
    notebook = solutions / f"{chapter}.ipynb" if solutions is not None else None
    try:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"] if notebook else []
    except (OSError, ValueError, KeyError, TypeError):
        cells = []  # no solution notebook next to the keys (--keys elsewhere): coursekit's only
    for cell in cells:
        text = "".join(cell.get("source", ""))
        if cell.get("cell_type") == "code" and BEGIN in text and f"def {question.name}(" in text:
            sources.append(text.split(BEGIN, 1)[1].split(END, 1)[0])
    try:
        sources.append(inspect.getsource(reference_function(question.reference)))
    except (AttributeError, ImportError, OSError, TypeError, ValueError):
        pass
    return [tokens for s in sources if (tokens := normalised_tokens(s)) is not None]


def function_evidence(
    grades: Sequence[Grade],
    key: Sequence[Any],
    refs: Mapping[str, Sequence[Sequence[str]]],
    who: Callable[[Grade], str],
) -> list[list[str]]:
    """Rows of evidence for the grades of one chapter: pairs of students whose functions are
    near-identical (:data:`SIMILAR`), long enough and not near a reference (``refs`` by qid)."""
    pairs: dict[tuple[str, str], list[tuple[str, float]]] = {}
    for q in (q for q in key if isinstance(q, Function)):
        handed = []
        for grade in grades:
            source = grade.answers.get(q.qid)
            tokens = normalised_tokens(source) if isinstance(source, str) else None
            if tokens is None or len(tokens) < MIN_TOKENS:
                continue
            if any(similarity(tokens, r, SIMILAR) >= SIMILAR for r in refs.get(q.qid, [])):
                continue
            handed.append((who(grade), tokens))
        for i, (a, tokens_a) in enumerate(handed):
            for b, tokens_b in handed[i + 1 :]:
                ratio = similarity(tokens_a, tokens_b, SIMILAR) if a != b else 0.0
                if ratio >= SIMILAR:
                    pair = (a, b) if a < b else (b, a)
                    pairs.setdefault(pair, []).append((q.qid, ratio))
    return [
        [a, b, SOURCE, " ".join(qid for qid, _ in found)]
        + ["; ".join(f"{qid}: {ratio:.2f} alike once normalised" for qid, ratio in found)]
        for (a, b), found in sorted(pairs.items())
    ]


# --------------------------------------------------------------------------------------------
# The report


def variants_of(personal: Any, chapter: str) -> dict[str, list[Any]]:
    """Each roster student's questions of ``chapter`` (drawn once), or {} without variants."""
    from .variants import variant

    generator = personal.generators.get(chapter) if personal is not None else None
    if generator is None:
        return {}
    return {sid: variant(generator, personal.secret, chapter, sid)[1] for sid in personal.roster}


def _who(personal: Any) -> Callable[[Grade], str]:
    """A grade's student: its roster id when the run has a roster and finds it, else its
    submission's name."""

    def who(grade: Grade) -> str:
        try:
            return str(personal.owner(grade.submission))
        except (AttributeError, ValueError):
            return grade.submission

    return who


def integrity_csv(rows: Sequence[Sequence[str]]) -> str:
    """The CSV text of ``rows`` (``COLUMNS``), sorted, every text cell safe in a spreadsheet."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(sorted([csv_cell(c) for c in row] for row in rows))
    return buffer.getvalue()


def write_report(
    grades: Sequence[Grade],
    out: Path,
    keys: Mapping[str, Sequence[Any]],
    personal: Any = None,
    keys_dir: Path | None = None,
) -> list[Grade]:
    """Write ``out/integrity.csv`` for the run's ``grades`` (a header only when nothing is
    found), replace the message of each copied own-data answer and write those submissions'
    feedback again. ``keys``: the public answer keys by chapter; ``personal``: the run's
    :class:`~coursekit.grading.variants.Personal` (None: no variants, functions only);
    ``keys_dir``: the keys' folder, whose parent holds the solution notebooks. A chapter that
    cannot be checked gets an ``error`` row saying why. Returns the grades changed."""
    who, rows, changed = _who(personal), [], []
    solutions = Path(keys_dir).parent if keys_dir is not None else None
    for chapter in sorted({g.chapter for g in grades if g.chapter}):
        these = [g for g in grades if g.chapter == chapter]
        try:
            key = list(keys[chapter])
            refs = {
                q.qid: references(q, solutions, chapter) for q in key if isinstance(q, Function)
            }
            found = function_evidence(these, key, refs, who)
            own, flagged = own_data_evidence(these, key, variants_of(personal, chapter), who)
        except Exception as error:  # noqa: BLE001 - the grades stand; the lecturer is told
            why = f"not checked: {type(error).__name__}: {error}"
            rows.append([chapter, "", "", UNCHECKED, "", why[:300]])
            continue
        rows += [[chapter, *row] for row in [*own, *found]]
        for i, qids in sorted(flagged.items()):
            for qid in sorted(qids):
                these[i].questions[qid]["message"] = COPIED.format(qid=qid)
            changed.append(these[i])
    write(Path(out) / "integrity.csv", integrity_csv(rows))
    for grade in changed:
        write_feedback(grade, Path(out))
    return changed
