"""Graded questions are private: ``python -m coursekit.grade new-assignment CHAPTER --out P/``.

The public ``solutions/NN_topic.ipynb`` computes every variant's answers when its cells are
pasted under a student's own data cell: variants stop copying answers, not copying code. So
graded work needs questions the students have not seen, and ``release`` refuses a chapter
whose answer key is one of the kit's own (:func:`public_questions`) unless told
``--allow-public-questions`` (practice).

The rule: a key is public when its folder resolves to the kit's ``solutions/keys``, or when
its code, read as a syntax tree without comments, layout or docstrings, is that of one of
the kit's keys (any name: a copy, reformatted or re-commented, is caught; a byte comparison
would miss a reformatted copy). A key whose code differs in any way is taken as private: this
guards against an accident, not against a lecturer who wants to fool it.

:func:`new_assignment` starts a private assignment: ``P/NN_topic.ipynb`` (the solution
notebook, the single source: ``release`` strips its solutions as ``build`` does, see
:func:`for_release`) and ``P/keys/NN_topic.py`` (the key, whose ``generate(None)`` now draws a
new example from a fresh seed, ``PRIVATE_SEED``), marked where the lecturer must review (a
``TODO(lecturer)`` line in the key, a note as the notebook's first cell, which ``release``
leaves out) and a ``P/README_NN_topic.md`` with the next steps. Folders 0700, files 0600.
"""

from __future__ import annotations

import argparse
import ast
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .build import BEGIN, MD_BEGIN, exercise_notebook
from .report import write
from .variants import key_generator

#: the kit's own answer keys (next to the package in a checkout of the kit)
KIT_KEYS = Path(__file__).resolve().parents[2] / "solutions" / "keys"
#: the cell metadata role of the lecturer's review note (never released)
NOTE_ROLE = "lecturer-note"
TODO = "TODO(lecturer)"
ALLOW_FLAG = "--allow-public-questions"


def _code_form(source: str) -> str:
    """The syntax tree of ``source`` without docstrings (comments and layout are not in it)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def public_questions(chapter: str, keys_dir: Path, kit_keys: Path = KIT_KEYS) -> str | None:
    """Why the key ``keys_dir/<chapter>.py`` holds the kit's public questions (None: it does
    not). See the module docstring for the rule."""
    keys_dir, kit_keys = Path(keys_dir), Path(kit_keys)
    if kit_keys.is_dir() and keys_dir.resolve() == kit_keys.resolve():
        return f"{keys_dir} is the kit's own keys folder"
    path = keys_dir / f"{chapter}.py"
    if not path.is_file() or not kit_keys.is_dir():
        return None
    form = _code_form(path.read_text(encoding="utf-8"))
    for shipped in sorted(kit_keys.glob("[0-9][0-9]_*.py")):
        if _code_form(shipped.read_text(encoding="utf-8")) == form:
            return f"{path} is a copy of the kit's public key {shipped.name}"
    return None


def refusal(chapter: str, why: str) -> str:
    """What ``release`` says when it refuses the public questions of ``chapter``."""
    return (
        f"{why}: the public solutions in solutions/{chapter}.ipynb answer every variant: start "
        f"a private assignment with `python -m coursekit.grade new-assignment {chapter} --out "
        f"PRIVATE/`, or pass {ALLOW_FLAG} for practice"
    )


def has_solutions(notebook: Any) -> bool:
    """Whether ``notebook`` still holds solution blocks (a solution notebook, not an exercise)."""
    markers = {BEGIN, MD_BEGIN}
    return any(line.strip() in markers for c in notebook.cells for line in c.source.split("\n"))


def is_note(cell: Any) -> bool:
    """Whether ``cell`` is the lecturer's review note of :func:`new_assignment`."""
    return cell.get("metadata", {}).get("coursekit", {}).get("role") == NOTE_ROLE


def for_release(notebook: Any, name: str) -> tuple[Any, bool]:
    """(the notebook to personalise, whether it held the lecturer's review note): the review
    note left out, and the solutions stripped (:func:`~.build.exercise_notebook`) when it is a
    solution notebook, so that a private assignment is released from its single source."""
    noted = any(is_note(c) for c in notebook.cells)
    notebook.cells = [c for c in notebook.cells if not is_note(c)]
    if has_solutions(notebook):
        notebook = exercise_notebook(notebook, name)
    return notebook, noted


def _parameters(source: str) -> list[str]:
    """``NAME = value`` of the key's module-level constants (upper-case names, literal
    values: a derived table is left out), shortened."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        names = target.elts if isinstance(target, ast.Tuple) else [target]
        if not all(isinstance(n, ast.Name) and n.id.isupper() for n in names):
            continue
        if {n.id for n in names} & {"QUESTIONS", "FIXED_OPTIONS"}:
            continue
        try:
            ast.literal_eval(node.value)
        except ValueError:
            continue
        value = " ".join((ast.get_source_segment(source, node) or "").split())
        found.append(value[:67] + "..." if len(value) > 70 else value)
    return found


def _key_tail(chapter: str, seed: int, parameters: list[str]) -> str:
    listed = "".join(f"#   {p}\n" for p in parameters) or "#   (none at module level)\n"
    return f'''

# ---------------------------------------------------------------------------------------------
# A private assignment, started from the kit's public key by
#   python -m coursekit.grade new-assignment {chapter}
# The example's data (generate(None): the data cell of ../{chapter}.ipynb) are drawn
# from PRIVATE_SEED, not the public ones; a student's data come from your secret.
# The questions are still the public chapter's: until you change them (and the notebook's
# text with them), the public solutions/{chapter}.ipynb computes every answer on any data.
# The key's parameters (change one with the text that states it; the public example's
# data among them no longer make the example):
{listed}# {TODO}: change the questions (see ../README_{chapter}.md), then delete this line.

PRIVATE_SEED = {seed}
_public_generate = generate


def generate(rng):
    """(data cell, questions): the private example when ``rng`` is None (drawn from
    PRIVATE_SEED), else a student's, drawn from ``rng`` as the public key draws it."""
    if rng is None:
        import numpy as np

        rng = np.random.default_rng(PRIVATE_SEED)
    return _public_generate(rng)


QUESTIONS = generate(None)[1]
'''


def _note(chapter: str, qids: list[str], parameters: list[str], fixed: Any) -> str:
    listed = "".join(f"  - `{p}`\n" for p in parameters) or "  - (none at module level)\n"
    return (
        f"**Private assignment: review before release.** Started from the public chapter "
        f"`{chapter}` by `python -m coursekit.grade new-assignment`; `release` leaves this "
        f"note out. Its example's data are new; its questions are not yet:\n\n"
        f"- **the questions' wording** ({', '.join(qids)}): as long as they ask what the "
        f"public chapter asks, the public `solutions/{chapter}.ipynb` answers them on any "
        f"data; change what they ask, in this notebook and in `keys/{chapter}.py` together;\n"
        f"- **the parameters** of `keys/{chapter}.py` (change one with the text that states "
        f"it; the public example's data among them no longer make the example):\n{listed}"
        f"- **`FIXED_OPTIONS = {fixed!r}`**: the options that keep their place when a "
        f'student\'s options are shuffled (an option such as "neither", or one naming another '
        f"by its letter).\n\nDelete this cell once reviewed (`release` warns while it is here)."
    )


def _readme(chapter: str, out: Path) -> str:
    return f"""# Private assignment {chapter}

Started by `python -m coursekit.grade new-assignment {chapter} --out {out}` from the kit's
public chapter. Keep this folder private (it holds the solutions): it is readable by you only.

- `{chapter}.ipynb`: the solution notebook, the single source of the assignment (solutions
  between `# BEGIN SOLUTION` and `# END SOLUTION`). `release` strips them, as
  `python -m coursekit.exercises build` does for the kit's chapters: no build step is needed.
- `keys/{chapter}.py`: the answer key, the kit's with a new example (`PRIVATE_SEED`).

## What is done, and what is not

Done: the example's data are drawn afresh (the notebook's data cell is `generate(None)` of the
new key), so the private example differs from the kit's. Not done, and yours to do by hand:
**the questions are still the public chapter's**, so the public `solutions/{chapter}.ipynb`
still computes every answer, on any student's data. Change what the questions ask: other
cut-offs, gain or discount choices, an interpolation rule, counts stated in the text (the key's
parameters are listed in its last comment block and in the notebook's first cell), new
distractors; each change in the notebook's text and in the key's computation together.

## Next steps

1. Edit `{chapter}.ipynb` and `keys/{chapter}.py`; delete the `TODO(lecturer)` line of the key
   and the review note (the notebook's first cell). Running the notebook in Jupyter checks
   answers against the *public* chapter, so its data answers say "not right": expected.
2. Release (no `--allow-public-questions`: these questions are yours):

       python -m coursekit.grade secret SECRET
       python -m coursekit.grade release {chapter} --roster students.csv --secret-file SECRET \\
           --keys {out / "keys"} --exercises {out} --out RELEASE/

3. Grade:

       python -m coursekit.grade SUBMISSIONS/ --out RESULTS/ --keys {out / "keys"} \\
           --secret-file SECRET --roster students.csv
"""


def _chapter_of(chapter: str, solutions: Path) -> str:
    """The full name of ``chapter`` (``01`` or ``01_precision_recall``) among ``solutions``."""
    found = [
        p.stem
        for p in sorted(Path(solutions).glob("[0-9][0-9]_*.ipynb"))
        if chapter in (p.stem, p.stem.split("_", 1)[0])
    ]
    if len(found) != 1:
        raise ValueError(f"no chapter {chapter!r} among the solutions of {solutions}")
    return found[0]


def new_assignment(
    chapter: str, out: Path, solutions: Path = KIT_KEYS.parent, seed: int | None = None
) -> list[Path]:
    """Start a private assignment from ``chapter`` in ``out`` (see the module docstring); the
    paths written. ``seed`` (default: fresh randomness) draws the new example. Refuses an
    ``out`` that already holds the chapter (a private assignment is never overwritten)."""
    import nbformat

    solutions, out = Path(solutions), Path(out)
    chapter = _chapter_of(chapter, solutions)
    targets = [out / f"{chapter}.ipynb", out / "keys" / f"{chapter}.py"]
    targets.append(out / f"README_{chapter}.md")
    if any(t.exists() for t in targets[:2]):
        raise ValueError(f"{out} already holds {chapter}: choose another --out")
    public_key = solutions / "keys" / f"{chapter}.py"
    generator = key_generator(solutions / "keys", chapter)
    if generator is None:
        raise ValueError(f"{public_key}: no generate(rng), so no new example can be drawn")
    seed = secrets.randbits(64) if seed is None else seed
    source = public_key.read_text(encoding="utf-8")
    parameters = _parameters(source)
    key_text = source.rstrip("\n") + "\n" + _key_tail(chapter, seed, parameters)

    import numpy as np

    data, questions = generator.generate(np.random.default_rng(seed))
    public_data = generator.generate(None)[0]
    notebook = nbformat.read(solutions / f"{chapter}.ipynb", as_version=4)
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    found = [c for c in cells if c.source.strip() == public_data.strip()]
    if len(found) != 1:
        raise ValueError(f"{chapter}: no single data cell equal to the key's generate(None)")
    found[0].source = data
    for cell in cells:  # the outputs are the public example's answers
        cell.outputs, cell.execution_count = [], None
    fixed = getattr(generator, "FIXED_OPTIONS", {})
    note = nbformat.v4.new_markdown_cell(
        _note(chapter, [q.qid for q in questions], parameters, fixed),
        metadata={"coursekit": {"role": NOTE_ROLE}},
    )
    note["id"] = "lecturer-note"
    notebook.cells.insert(0, note)
    write(targets[0], nbformat.writes(notebook) + "\n")
    write(targets[1], key_text)
    write(targets[2], _readme(chapter, out))
    return targets


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m coursekit.grade new-assignment CHAPTER --out PRIVATE/``."""
    p = argparse.ArgumentParser(
        prog="python -m coursekit.grade new-assignment",
        description="Start a private assignment from a public chapter: its solution notebook "
        "and answer key copied to OUT (readable by you only) with a new example, marked "
        "where you must change the questions; OUT/README_CHAPTER.md says the next steps.",
    )
    p.add_argument("chapter", help="the chapter, e.g. 01_precision_recall (or 01)")
    p.add_argument("--out", required=True, help="the private folder (e.g. PRIVATE/)")
    p.add_argument(
        "--solutions",
        default=str(KIT_KEYS.parent),
        help="the public solutions (default: the kit's solutions/)",
    )
    args = p.parse_args(argv)
    try:
        written = new_assignment(args.chapter, Path(args.out), Path(args.solutions))
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print("\n".join(f"wrote {path}" for path in written))
    print(f"next: read {written[2]}; change the questions before you release them")
    return 0
