"""The French edition's catalogs: the English notebooks' texts and their French, as gettext.

    .venv/bin/python tools/translate.py update            # every chapter's catalog
    .venv/bin/python tools/translate.py update 05 08      # some chapters

The English notebooks (``notebooks/NN_*.ipynb``, and the exercises ``exercises/NN_*.ipynb``)
are the source of truth. Each has a catalog ``locale/fr/notebooks/NN_*.po`` (an exercise:
``locale/fr/exercises/NN_*.po``), read and written with polib: one entry per cell a reader
reads, keyed by the cell's id (``msgctxt``):

- a markdown cell: its whole text (``msgid``) and its French (``msgstr``);
- a code cell with a comment or a string of words: its whole source, translated in its
  comments and in the strings a reader sees (titles, labels, printed sentences) only; the code
  itself stays as it is (the build checks it token by token).

``update`` adds the entries of new cells, marks *fuzzy* an entry whose English changed (the
former English kept as ``#| msgid``, the French kept to be revised) and *obsolete* the entries
of cells that are gone. A fuzzy or empty entry is not used: the cell stays English until a
translator revises it and removes the flag.

    .venv/bin/python tools/translate.py build [NN ...] [--force]   # notebooks/fr/, exercises/fr/
    .venv/bin/python tools/translate.py check                       # (also: --check)

A chapter is in the French edition when its catalog is *complete*: every cell a reader reads has
its entry, translated, not fuzzy, for the English as it is now. ``build`` writes the French
notebook of each complete chapter (of those named, or of all) and executes it in place (its
outputs are the French figures and readouts): every translated cell gets its French source (a
code cell's translation must have the English code's tokens, comments and strings aside; it is
formatted with ``ruff format``; a French sentence may make a line longer than the English one:
pyproject.toml lets notebooks/fr/ and exercises/fr/ pass ruff's line length), a cell
``ck.set_language("fr")`` tagged ``coursekit-language`` comes right after the set-up cell (the
one that imports coursekit), and ``metadata.coursekit.language`` says ``"fr"``. A chapter whose
French notebook has the sources the build would give is left as it is (``--force`` executes it
again). ``build --partial NN --out DIR`` previews an incomplete chapter (untranslated cells in
English); such a notebook never goes into ``notebooks/fr/``.

The exercises are a second edition (:data:`EDITIONS`): ``build NN`` writes
``exercises/fr/NN_*.ipynb`` too, the same way but *not executed* (exercises are committed without
outputs; nbval runs them as given to students), the language cell (``import coursekit as ck``
and ``ck.set_language("fr")``) BEFORE the cell marked ``{"coursekit": {"role": "setup"}}``
(the one calling ``start(...)``, whose banner is then printed in French); every cell keeps its id
and metadata (roles, ``qid``), so the grader reads a French exercise as it reads the English one.
A French exercise's ``check()`` calls and answer names are the English ones: only comments,
the strings a reader sees and the markdown are translated (a choice's options stay
``- a) ...``: a release shuffles them by that form).

``check`` (``make test`` runs it through ``tests/test_translate.py``) fails, naming the
catalog's ``file:line``, when a chapter in ``notebooks/fr/`` has an entry missing, empty, fuzzy
or out of date with the English, a code translation that changes the code, or a French notebook
whose sources differ from what ``build`` gives (stale), for the chapters and the exercises; the
others are listed as "not translated yet" (or "complete, not built yet") without failing.

    .venv/bin/python tools/translate.py messages     # coursekit/locale/fr/LC_MESSAGES/coursekit.po

``messages`` brings coursekit's own catalog (what ``ck.views`` draws, marked ``_("...")`` or
``N_("...")``) in step with the code: new texts get empty entries, gone ones become obsolete.
"""

from __future__ import annotations

import argparse
import ast
import copy
import io
import subprocess
import sys
import time
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import nbformat
import polib

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale" / "fr"
SOURCES = {
    "notebooks": ROOT / "notebooks",
    "exercises": ROOT / "exercises",
}  # catalog folder -> English notebooks
MARKDOWN = "markdown cell"
CODE = (
    "code cell: translate the comments and the strings a reader sees (titles, labels, "
    "printed sentences); leave the code, names and data as they are"
)
HEADER = {
    "Project-Id-Version": "coursekit course",
    "Language": "fr",
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
}


def has_words(source: str) -> bool:
    """Whether a code cell holds text a reader reads: a comment, or a string with a space."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return False  # IPython syntax (a magic): nothing to translate
    return any(
        t.type == tokenize.COMMENT or (t.type == tokenize.STRING and " " in t.string)
        for t in tokens
    )


def entries(notebook: nbformat.NotebookNode, name: str) -> Iterator[tuple[str, str, str]]:
    """``(cell id, English text, comment)`` of each cell of ``notebook`` a reader reads."""
    seen = set()
    for index, cell in enumerate(notebook.cells):
        key = cell.get("id")
        if not key or key in seen:
            raise ValueError(f"{name}, cell {index}: no id, or the id of another cell")
        seen.add(key)
        if cell.cell_type == "markdown" and cell.source.strip():
            yield key, cell.source, MARKDOWN
        elif cell.cell_type == "code" and has_words(cell.source):
            yield key, cell.source, CODE


def catalog_path(folder: str, notebook: Path) -> Path:
    return LOCALE / folder / f"{notebook.stem}.po"


def save_kept(
    po: polib.POFile,
    po_path: Path,
    kept: list[polib.POEntry],
    gone: Iterable[polib.POEntry],
    counts: dict[str, int],
) -> dict[str, int]:
    """Write ``po`` with the entries ``kept``, then those ``gone`` marked obsolete (counted)."""
    for entry in gone:
        entry.obsolete = True
        kept.append(entry)
        counts["obsolete"] += 1
    po[:] = kept
    po_path.parent.mkdir(parents=True, exist_ok=True)
    po.save(str(po_path))
    return counts


def update(notebook_path: Path, po_path: Path) -> dict[str, int]:
    """Bring ``po_path`` in step with ``notebook_path``; the counts of entries by state."""
    notebook = nbformat.read(notebook_path, as_version=4)
    po = polib.pofile(str(po_path), wrapwidth=0) if po_path.exists() else polib.POFile(wrapwidth=0)
    po.metadata = {**HEADER, **{k: v for k, v in po.metadata.items() if k not in HEADER}}
    old = {entry.msgctxt: entry for entry in po if not entry.obsolete}
    counts = {"new": 0, "fuzzy": 0, "same": 0, "obsolete": 0}
    kept = []
    for key, text, comment in entries(notebook, notebook_path.name):
        entry = old.pop(key, None)
        if entry is None:
            entry = polib.POEntry(msgctxt=key, msgid=text, msgstr="", comment=comment)
            counts["new"] += 1
        elif entry.msgid != text:
            if entry.msgstr and "fuzzy" not in entry.flags:
                entry.previous_msgid = entry.msgid
                entry.flags.append("fuzzy")
            entry.msgid, entry.comment = text, comment
            counts["fuzzy"] += 1
        else:
            entry.comment = comment
            counts["same"] += 1
        kept.append(entry)
    return save_kept(po, po_path, kept, old.values(), counts)


def chosen(folder: Path, chapters: Sequence[str]) -> list[Path]:
    """The English notebooks of ``folder`` (``NN_*.ipynb``), those of ``chapters`` if given."""
    paths = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    return [p for p in paths if not chapters or p.stem[:2] in chapters or p.stem in chapters]


# --- the French notebooks: build and check ----------------------------------------------------

#: The cell ``build`` puts after a chapter's set-up cell: figures and widgets drawn in French.
LANGUAGE_CELL = 'ck.set_language("fr")'
LANGUAGE_TAG = "coursekit-language"
SETUP = "import coursekit as ck"
#: An exercise's language cell, put BEFORE its set-up cell (whose ``start(...)`` prints a
#: banner in the language in use): it imports coursekit itself. It has no coursekit metadata
#: (no role: not a graded cell), so the grader, a release and ``check_roles`` read the French
#: exercise as they read the English one.
EXERCISE_LANGUAGE_CELL = f"{SETUP}\n\n{LANGUAGE_CELL}"
_LAYOUT = {tokenize.NL, tokenize.COMMENT, tokenize.ENCODING}
_SHAPE_ONLY = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
_FSTRING = (getattr(tokenize, "FSTRING_START", None), getattr(tokenize, "FSTRING_END", None))


@dataclass(frozen=True)
class Edition:
    """English notebooks, their catalogs, and where their French notebooks go."""

    english: Path
    catalogs: Path
    french: Path
    #: whether ``build`` executes the French notebook (the chapters: their outputs are the French
    #: figures); the exercises are committed unexecuted, as the English ones are
    execute: bool = True

    def catalog(self, notebook: Path) -> Path:
        return self.catalogs / f"{notebook.stem}.po"


EDITIONS = [
    Edition(ROOT / "notebooks", LOCALE / "notebooks", ROOT / "notebooks" / "fr"),
    Edition(ROOT / "exercises", LOCALE / "exercises", ROOT / "exercises" / "fr", execute=False),
]


class CatalogError(ValueError):
    """A chapter that cannot be built: ``missing`` entries (absent, empty, fuzzy, out of date)
    and ``wrong`` ones (a code cell whose translation changes the code), as ``file:line: ...``."""

    def __init__(self, missing: list[str], wrong: list[str], total: int) -> None:
        super().__init__("\n".join(wrong + missing))
        self.missing, self.wrong, self.total = missing, wrong, total


def shown(path: Path) -> str:
    """``path`` relative to the repository (as the messages name files)."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def _span(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    if start[0] == end[0]:
        return lines[start[0] - 1][start[1] : end[1]]
    middle = lines[start[0] : end[0] - 1]
    return "".join([lines[start[0] - 1][start[1] :], *middle, lines[end[0] - 1][: end[1]]])


def code_tokens(source: str) -> list[tuple[int, str, int]]:
    """``(type, text, line)`` of the tokens of ``source`` that make its code: comments and line
    breaks inside brackets left out, an f-string one STRING token (as Python 3.11 reads it)."""
    lines = source.splitlines(keepends=True)
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    found, i = [], 0
    while i < len(tokens):
        token = tokens[i]
        if _FSTRING[0] is not None and token.type == _FSTRING[0]:  # Python >= 3.12
            depth, j = 0, i
            while True:
                depth += {_FSTRING[0]: 1, _FSTRING[1]: -1}.get(tokens[j].type, 0)
                if depth == 0:
                    break
                j += 1
            text = _span(lines, token.start, tokens[j].end)
            found.append((tokenize.STRING, text, token.start[0]))
            i = j + 1
            continue
        if token.type in _SHAPE_ONLY:
            found.append((token.type, "", token.start[0]))
        elif token.type not in _LAYOUT:
            found.append((token.type, token.string, token.start[0]))
        i += 1
    return found


def _string_shape(text: str) -> tuple[str, list[str] | None]:
    """What a translation must keep of a string literal: its prefix (f, r, b) and, for an
    f-string, the values it formats (in any order) with their formats."""
    prefix = "".join(sorted(text[: len(text) - len(text.lstrip("rRbBfFuU"))].lower()))
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return prefix, None
    return prefix, sorted(ast.dump(v) for v in ast.walk(node) if isinstance(v, ast.FormattedValue))


def code_change(english: str, french: str) -> str | None:
    """Why ``french`` is not ``english`` with only its comments and strings translated (None
    when it is): the first token that differs, by its line in the French."""
    try:
        ours = code_tokens(french)
    except (tokenize.TokenError, IndentationError, SyntaxError) as error:
        return f"the French does not read as Python: {error}"
    theirs = code_tokens(english)
    for a, b in zip(theirs, ours, strict=False):
        if a[0] != b[0] or (a[0] != tokenize.STRING and a[1] != b[1]):
            return (
                f"line {b[2]} of the French has `{b[1] or tokenize.tok_name[b[0]]}` where the "
                f"English (line {a[2]}) has `{a[1] or tokenize.tok_name[a[0]]}`: only comments "
                "and strings may change"
            )
        if a[0] == tokenize.STRING and _string_shape(a[1]) != _string_shape(b[1]):
            return (
                f"line {b[2]} of the French: the string {b[1][:60]!r} has another prefix or "
                f"formats other values than the English {a[1][:60]!r}"
            )
    if len(theirs) != len(ours):
        more = "fewer" if len(ours) < len(theirs) else "more"
        return f"the French has {more} code than the English: only comments and strings may change"
    return None


def formatted(source: str) -> str:
    """``source`` as ``ruff format`` writes it (as it is if ruff cannot read it: a magic)."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(ROOT / "cell.py"), "-"],
        input=source,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode != 0:
        return source
    # a notebook cell keeps no final line break (as ruff writes notebooks)
    return done.stdout[:-1] if done.stdout.endswith("\n") else done.stdout


def translations(notebook, po_path: Path, name: str) -> tuple[dict[str, str], CatalogError]:
    """The French source of each translated cell of ``notebook`` (by cell id), and what keeps
    the chapter from being complete (a :class:`CatalogError`, empty when it is complete)."""
    po = polib.pofile(str(po_path), wrapwidth=0) if po_path.exists() else []
    by_key = {entry.msgctxt: entry for entry in po if not entry.obsolete}
    french, missing, wrong, total = {}, [], [], 0
    for key, text, comment in entries(notebook, name):
        total += 1
        entry = by_key.get(key)
        if entry is None:
            missing.append(f"{shown(po_path)}: no entry for cell {key}: run translate.py update")
            continue
        where = f"{shown(po_path)}:{entry.linenum}: cell {key}"
        if entry.msgid != text:
            missing.append(f"{where}: the English changed since: run translate.py update")
        elif "fuzzy" in entry.flags:
            missing.append(f"{where}: fuzzy: revise the French, then remove the fuzzy flag")
        elif not entry.msgstr.strip():
            missing.append(f"{where}: not translated")
        elif comment == CODE and (why := code_change(text, entry.msgstr)):
            wrong.append(f"{where}: {why}")
        elif comment == CODE:
            french[key] = formatted(entry.msgstr)
        else:
            french[key] = entry.msgstr
    return french, CatalogError(missing, wrong, total)


def _language_cell(setup, source: str = LANGUAGE_CELL) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(source)
    cell.id = LANGUAGE_TAG
    # an exercise's code cells are all tagged nbval-ignore-output (coursekit.grading.build)
    nbval = [t for t in setup.metadata.get("tags", []) if t.startswith("nbval-")]
    cell.metadata = {"tags": [LANGUAGE_TAG, *nbval]}
    if "slideshow" in setup.metadata:  # shown (or skipped) in the slides as the set-up cell is
        cell.metadata["slideshow"] = copy.deepcopy(setup.metadata["slideshow"])
    return cell


def is_exercise_setup(cell) -> bool:
    """Whether ``cell`` is an exercise's set-up cell (marked ``{"coursekit": {"role":
    "setup"}}``: it calls ``start(...)``, which prints its banner in the language in use)."""
    marked = cell.metadata.get("coursekit")
    return isinstance(marked, dict) and marked.get("role") == "setup"


def setup_cell(notebook) -> int | None:
    """The index of the set-up cell: the code cell marked so (an exercise's
    ``{"coursekit": {"role": "setup"}}``), else the first one that imports coursekit."""
    code = [(i, c) for i, c in enumerate(notebook.cells) if c.cell_type == "code"]
    for i, cell in code:
        marked = cell.metadata.get("coursekit")
        if isinstance(marked, dict) and marked.get("role") == "setup":
            return i
    return next((i for i, cell in code if SETUP in cell.source), None)


def french_notebook(english: Path, po_path: Path, partial: bool = False):
    """The French notebook of ``english`` from its catalog, in memory (the English outputs
    kept: ``build`` executes it). Raises :class:`CatalogError` when the chapter is not complete
    (with ``partial``, only when a code translation changes the code: the cells not translated
    stay English)."""
    notebook = nbformat.read(english, as_version=4)
    french, problems = translations(notebook, po_path, english.name)
    if problems.wrong or (problems.missing and not partial):
        raise problems
    for cell in notebook.cells:
        if cell.id in french:
            cell.source = french[cell.id]
    setup = setup_cell(notebook)
    if setup is None:
        raise CatalogError([], [f"{shown(english)}: no set-up cell (`{SETUP}`)"], problems.total)
    cell = notebook.cells[setup]
    if is_exercise_setup(cell):  # its start() prints: the language is chosen before it runs
        notebook.cells.insert(setup, _language_cell(cell, EXERCISE_LANGUAGE_CELL))
    else:
        notebook.cells.insert(setup + 1, _language_cell(cell))
    notebook.metadata["coursekit"] = {
        **notebook.metadata.get("coursekit", {}),
        "language": "fr",
        "source": shown(english),
    }
    return notebook


def _sources(notebook) -> list[tuple]:
    return [(c.get("id"), c.cell_type, c.source, c.metadata) for c in notebook.cells]


def difference(built, written, po_path: Path) -> str | None:
    """Where the French notebook ``written`` differs from ``built`` (None if nowhere): the
    catalog entry of the first cell that differs, or the metadata."""
    if built.metadata.get("coursekit") != written.metadata.get("coursekit"):
        return "its metadata.coursekit"
    ours, theirs = _sources(built), _sources(written)
    for a, b in zip(ours, theirs, strict=False):
        if a != b:
            lines = {}
            if po_path.exists():
                lines = {e.msgctxt: e.linenum for e in polib.pofile(str(po_path), wrapwidth=0)}
            at = f" ({shown(po_path)}:{lines[a[0]]})" if a[0] in lines else ""
            return f"cell {a[0]}{at}"
    return None if len(ours) == len(theirs) else "its number of cells"


def build(edition: Edition, chapters: Sequence[str] = (), force: bool = False) -> int:
    """Write (and execute, if the edition does) the French notebook of each complete chapter
    (of ``chapters``, or all); a chapter named but not complete is an error."""
    from coursekit.grading.executed import execute_in_place

    execute = execute_in_place if edition.execute else None
    status = 0
    for english in chosen(edition.english, chapters):
        target = edition.french / english.name
        try:
            notebook = french_notebook(english, edition.catalog(english))
        except CatalogError as problems:
            if chapters or problems.wrong:
                print(f"{english.stem}: not built:\n  " + "\n  ".join(str(problems).splitlines()))
                status = 1
            else:
                todo = len(problems.missing)
                print(f"{english.stem}: not translated yet ({todo} of {problems.total} to do)")
            continue
        if not force and target.exists():
            po_path = edition.catalog(english)
            if difference(notebook, nbformat.read(target, as_version=4), po_path) is None:
                print(f"{shown(target)}: up to date")
                continue
        write_executed(notebook, target, execute)
    return status


def write_executed(notebook, target: Path, execute) -> None:
    """Write ``notebook`` to ``target`` without outputs, then ``execute`` it there (if not
    None: an exercise is written unexecuted)."""
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, target)
    if execute is None:
        print(f"{shown(target)}: built (not executed)")
        return
    start = time.perf_counter()
    execute(target)
    print(f"{shown(target)}: built and executed in {time.perf_counter() - start:.1f} s")


def check(edition: Edition) -> tuple[list[str], list[str]]:
    """``(failures, notes)``: what is wrong with the French notebooks (see the module's doc),
    and the chapters not in the French edition yet."""
    failures, notes = [], []
    english = chosen(edition.english, [])
    names = {p.name for p in english}
    for stray in sorted(edition.french.glob("*.ipynb")):
        if stray.name not in names:
            failures.append(f"{shown(stray)}: no English notebook {stray.name}: remove it")
    for path in english:
        target, po_path = edition.french / path.name, edition.catalog(path)
        try:
            notebook = french_notebook(path, po_path)
        except CatalogError as problems:
            if target.exists():
                failures += [*problems.wrong, *problems.missing]
            else:
                todo = len(problems.missing) + len(problems.wrong)
                notes.append(f"{path.stem}: not translated yet ({todo} of {problems.total} to do)")
                notes += [f"  {why}" for why in problems.wrong]  # what a translator must fix
            continue
        if not target.exists():
            notes.append(
                f"{path.stem}: complete, not built yet: translate.py build {path.stem[:2]}"
            )
        elif where := difference(notebook, nbformat.read(target, as_version=4), po_path):
            failures.append(
                f"{shown(target)} is stale (differs at {where}): translate.py build {path.stem[:2]}"
            )
    return failures, notes


# --- coursekit's own messages (what ck.views draws) ---------------------------------------------

PACKAGE = ROOT / "coursekit"
MESSAGES = PACKAGE / "locale" / "fr" / "LC_MESSAGES" / "coursekit.po"
MARKS = ("_", "N_")  # coursekit.i18n: translated where drawn, or only marked


def marked_messages(package: Path = PACKAGE) -> dict[str, list[str]]:
    """Every text of ``package`` marked ``_("...")`` or ``N_("...")`` -> where (``file:line``);
    a mark around anything but one literal string is an error (it could not be translated)."""
    found: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if (
                node.func.id not in MARKS
                or node.args
                and not isinstance(node.args[0], ast.Constant)
            ):
                continue  # _(title): a text marked where it was named
            where = f"{shown(path)}:{node.lineno}"
            if len(node.args) != 1 or not isinstance(node.args[0].value, str) or node.keywords:
                raise ValueError(f"{where}: {node.func.id}() takes one literal string")
            found.setdefault(node.args[0].value, []).append(where)
    return found


def update_messages(po_path: Path = MESSAGES) -> dict[str, int]:
    """Bring coursekit's catalog in step with the marked texts: new ones added (empty), gone
    ones made obsolete; a text changed in the code is a new entry (translate it again)."""
    po = polib.pofile(str(po_path), wrapwidth=0) if po_path.exists() else polib.POFile(wrapwidth=0)
    po.metadata = {**HEADER, "Project-Id-Version": "coursekit"}
    old = {entry.msgid: entry for entry in po if not entry.obsolete}
    counts = {"new": 0, "same": 0, "obsolete": 0}
    kept = []
    for text, places in marked_messages().items():
        entry = old.pop(text, None)
        counts["same" if entry else "new"] += 1
        entry = entry or polib.POEntry(msgid=text, msgstr="")
        entry.occurrences = sorted({(where.rsplit(":", 1)[0], "") for where in places})
        kept.append(entry)
    return save_kept(po, po_path, kept, old.values(), counts)


def main(argv: Sequence[str]) -> int:
    if argv and argv[0] == "--check":
        argv = ["check", *argv[1:]]
    parser = argparse.ArgumentParser(prog="translate.py", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("update").add_argument("chapters", nargs="*")
    building = commands.add_parser("build")
    building.add_argument("chapters", nargs="*")
    building.add_argument("--force", action="store_true", help="execute even if up to date")
    building.add_argument("--partial", action="store_true", help="untranslated cells in English")
    building.add_argument("--out", type=Path, help="with --partial: the folder to write to")
    commands.add_parser("check")
    commands.add_parser("messages", help="update coursekit/locale/fr/LC_MESSAGES/coursekit.po")
    args = parser.parse_args(argv)
    if args.command == "messages":
        counts = update_messages()
        said = ", ".join(f"{n} {state}" for state, n in counts.items() if n)
        print(f"{shown(MESSAGES)}: {said}")
        return 0
    if args.command == "update":
        for folder, source in SOURCES.items():
            for path in chosen(source, args.chapters):
                counts = update(path, catalog_path(folder, path))
                said = ", ".join(f"{n} {state}" for state, n in counts.items() if n)
                print(f"{catalog_path(folder, path).relative_to(ROOT)}: {said}")
        return 0
    if args.command == "build":
        if args.partial:
            return preview(args.chapters, args.out)
        return max([build(edition, args.chapters, args.force) for edition in EDITIONS])
    status = 0
    for edition in EDITIONS:
        failures, notes = check(edition)
        for note in notes:
            print(note)
        for failure in failures:
            print(f"FAIL {failure}")
        status = status or bool(failures)
    return int(status)


def preview(chapters: Sequence[str], out: Path | None) -> int:
    """An incomplete chapter in French as far as it goes, into ``out`` (never notebooks/fr/ nor
    exercises/fr/): a chapter as ``out/NN_*.ipynb``, its exercise as ``out/exercises/NN_*.ipynb``
    (not executed, as exercises are)."""
    from coursekit.grading.executed import execute_in_place

    if out is None or not chapters:
        print("build --partial needs chapters and --out DIR (outside notebooks/fr/, exercises/fr/)")
        return 2
    for edition in EDITIONS:
        if out.resolve() in (edition.french.resolve(), *edition.french.resolve().parents):
            print(f"build --partial never writes to {shown(edition.french)}")
            return 2
    for edition in EDITIONS:
        folder = out if edition is EDITIONS[0] else out / edition.english.name
        for english in chosen(edition.english, chapters):
            try:
                notebook = french_notebook(english, edition.catalog(english), partial=True)
            except CatalogError as problems:
                print(f"{english.stem}: not built:\n  " + "\n  ".join(str(problems).splitlines()))
                return 1
            execute = execute_in_place if edition.execute else None
            write_executed(notebook, folder / english.name, execute)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
