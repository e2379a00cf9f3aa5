"""``python -m coursekit.grade release CHAPTER --roster R --secret-file S --out RELEASE/``.

Writes ``RELEASE/<student id>/<chapter>.ipynb`` for every student of the roster: the exercise
notebook with the student's own data (drawn by the answer key's ``generate(rng)``, see
:mod:`coursekit.grading.variants`), each multiple-choice question's options in the student's
own order, a check() that checks the format of every answer only (never right or wrong), and
the student id in the notebook's metadata. The
same secret and roster give byte-identical notebooks. Grade the handed-in notebooks with
``python -m coursekit.grade SUBS --out OUT --secret-file S --roster R``.

``python -m coursekit.grade secret S`` makes the secret: 32 random bytes as base64 text, in a
new file of mode 0600. A secret that group or others can read, or a short one, is refused
(whoever reads it can compute every student's answers). The notebooks are written readable by
the lecturer only (folders 0700, files 0600): hand each student their own folder.

Graded questions must be private (:mod:`coursekit.grading.assignment`): the public solutions
answer every variant, so a chapter whose key is the kit's own is refused unless
``--allow-public-questions`` (practice) is given, and then a warning is printed. A private
assignment (``python -m coursekit.grade new-assignment``) is released from its solution
notebook: ``--exercises PRIVATE/`` may hold solution notebooks, whose solutions are stripped as
``build`` strips them (and the lecturer's review note left out).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .assignment import ALLOW_FLAG, TODO, for_release, public_questions, refusal
from .report import write
from .variants import find_generator, personalise, read_roster, read_secret, write_secret


def release(
    chapter: str,
    roster: Path,
    secret_file: Path,
    out: Path,
    exercises: Path,
    variants: Path | None = None,
    keys: Path = Path("solutions/keys"),
    *,
    allow_public_questions: bool = False,
) -> list[Path]:
    """Write one notebook per student of ``roster``; the paths written. The data come from
    the answer key's ``generate(rng)`` (``keys/<chapter>.py``), else from a separate generator
    ``variants/<chapter>.py``. A key with the kit's public questions is refused (a
    ValueError saying why) unless ``allow_public_questions`` (practice: a warning then)."""
    import nbformat

    why = public_questions(chapter, keys)
    if why is not None and not allow_public_questions:
        raise ValueError(refusal(chapter, why))
    if why is not None:
        _warn(
            f"{why}: released with {ALLOW_FLAG}, for practice only (the public solutions "
            f"in solutions/{chapter}.ipynb answer every variant)"
        )
    generator = find_generator(chapter, keys, variants)
    if generator is None:
        raise ValueError(
            f"chapter {chapter} has no variants: its answer key {keys}/{chapter}.py defines "
            "no generate(rng)"
        )
    secret, ids = read_secret(secret_file), read_roster(roster)
    source = Path(exercises) / f"{chapter}.ipynb"
    if not source.is_file():
        raise ValueError(f"no exercise notebook {source}")
    _warn_unreviewed(source, Path(keys) / f"{chapter}.py")
    written = []
    for student in ids:
        notebook, _ = for_release(nbformat.read(source, as_version=4), source.name)
        personalise(notebook, chapter, student, generator, secret)
        path = Path(out) / student / f"{chapter}.ipynb"
        write(path, nbformat.writes(notebook) + "\n")
        written.append(path)
    return written


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def _warn_unreviewed(notebook: Path, key: Path) -> None:
    """Warn when a private assignment still holds its review marks (new-assignment's)."""
    import nbformat

    left = []
    if key.is_file() and TODO in key.read_text(encoding="utf-8"):
        left.append(f"{key} has a {TODO} line")
    if for_release(nbformat.read(notebook, as_version=4), notebook.name)[1]:
        left.append(f"{notebook} has the review note (its first cell)")
    if left:
        _warn(
            f"{' and '.join(left)}: until you change its questions, the public solutions "
            "answer them too"
        )


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m coursekit.grade release", description=__doc__)
    p.add_argument("chapter", help="the chapter, e.g. 01_precision_recall")
    p.add_argument("--roster", required=True, help="CSV of students (an 'id' column)")
    p.add_argument("--secret-file", required=True, help="file holding the lecturer's secret")
    p.add_argument("--out", required=True, help="folder for the students' notebooks")
    p.add_argument("--exercises", default="exercises", help="exercise notebooks (exercises/)")
    p.add_argument("--keys", default="solutions/keys", help="answer keys (solutions/keys)")
    p.add_argument(
        "--variants",
        default="solutions/variants",
        help="separate variant generators, read when a key defines no generate(rng)",
    )
    p.add_argument(
        ALLOW_FLAG,
        action="store_true",
        help="release the kit's public questions (practice only: the public solutions answer "
        "every variant); graded work: `python -m coursekit.grade new-assignment`",
    )
    args = p.parse_args(argv)
    try:
        written = release(
            args.chapter,
            Path(args.roster),
            Path(args.secret_file),
            Path(args.out),
            Path(args.exercises),
            Path(args.variants),
            Path(args.keys),
            allow_public_questions=args.allow_public_questions,
        )
    except (OSError, ValueError) as error:
        print(f"error: {error}")
        return 2
    print(f"{len(written)} notebooks written under {args.out}")
    return 0


def secret_main(argv: Sequence[str] | None = None) -> int:
    """``python -m coursekit.grade secret FILE``: write a new secret (never over a file)."""
    p = argparse.ArgumentParser(
        prog="python -m coursekit.grade secret",
        description="Write a new secret for `release` and the grader: 32 random bytes as base64 "
        "text, in a new file readable by you only (mode 0600). Keep it (it makes every "
        "student's data and answers) and never share it.",
    )
    p.add_argument("file", help="the new file (it must not exist)")
    args = p.parse_args(argv)
    try:
        write_secret(Path(args.file))
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"a new secret in {args.file} (mode 0600): keep it, and a copy somewhere safe")
    return 0
