"""The answer keys' texts in French: hints, mistakes' hints and case labels, as gettext.

    .venv/bin/python tools/translate_keys.py update [NN ...]   # coursekit/locale/fr/keys/NN_*.po
    .venv/bin/python tools/translate_keys.py check              # which chapters are complete

The answer keys (``solutions/keys/NN_*.py``) write their hints in English, and so do
``checks.json`` and the grader. What a student reads of them in French comes from a catalog
per chapter, ``coursekit/locale/fr/keys/NN_*.po`` (shipped with coursekit: ``check()`` and the
grader read it through :func:`coursekit.i18n.key_text`): one entry per text, its
``msgctxt`` the question and the kind of text (``q4 hint``, ``q4 mistake 1``, ``q10 case``),
its ``msgid`` the English. A text is looked up by its English: a text changed in the key is a new
entry (its former one becomes obsolete), and until it is translated the student reads it in
English, which is said nowhere as an error.

``update`` adds the entries of new texts (empty) and makes obsolete those of texts that are
gone; ``check`` lists each chapter as complete or with how many texts are not translated yet.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from coursekit.grading.build import load_key  # noqa: E402
from coursekit.grading.questions import Function  # noqa: E402
from coursekit.i18n import LOCALE  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
from translate import save_kept  # noqa: E402  (one way of writing a catalog, as translate.py's)

KEYS = ROOT / "solutions" / "keys"
HEADER = {
    "Project-Id-Version": "coursekit keys",
    "Language": "fr",
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=UTF-8",
    "Content-Transfer-Encoding": "8bit",
}


def catalog_path(key: Path, language: str = "fr") -> Path:
    """The catalog of the answer key ``key``'s texts."""
    return LOCALE / language / "keys" / f"{key.stem}.po"


def key_texts(key: Path) -> Iterator[tuple[str, str]]:
    """``(context, English text)`` of every text of ``key`` a student can read."""
    for q in load_key(key):
        if getattr(q, "hint", ""):
            yield f"{q.qid} hint", q.hint
        for j, mistake in enumerate(getattr(q, "mistakes", ()) or ()):
            yield f"{q.qid} mistake {j}", mistake.hint
        if isinstance(q, Function):
            for label, _args in [*q.cases, *q.hidden]:
                yield f"{q.qid} case", label


def update(key: Path) -> dict[str, int]:
    """Bring ``key``'s catalog in step with its texts; the counts of entries by state."""
    path = catalog_path(key)
    po = polib.pofile(str(path), wrapwidth=0) if path.exists() else polib.POFile(wrapwidth=0)
    po.metadata = dict(HEADER)
    old = {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}
    counts = {"new": 0, "same": 0, "obsolete": 0}
    kept = []
    for context, text in key_texts(key):
        if any(e.msgctxt == context and e.msgid == text for e in kept):
            continue  # a label used twice in one question
        entry = old.pop((context, text), None)
        counts["same" if entry else "new"] += 1
        kept.append(entry or polib.POEntry(msgctxt=context, msgid=text, msgstr=""))
    return save_kept(po, path, kept, old.values(), counts)


def missing(key: Path) -> list[str]:
    """The texts of ``key`` its catalog does not translate (all of them without a catalog)."""
    path = catalog_path(key)
    po = polib.pofile(str(path)) if path.exists() else []
    done = {(e.msgctxt, e.msgid) for e in po if e.translated() and not e.obsolete}
    return [text for context, text in key_texts(key) if (context, text) not in done]


def chosen(chapters: Sequence[str]) -> list[Path]:
    keys = sorted(KEYS.glob("[0-9][0-9]_*.py"))
    return [k for k in keys if not chapters or k.stem[:2] in chapters]


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="translate_keys.py", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("update").add_argument("chapters", nargs="*")
    commands.add_parser("check").add_argument("chapters", nargs="*")
    args = parser.parse_args(argv)
    for key in chosen(args.chapters):
        if args.command == "update":
            counts = update(key)
            said = ", ".join(f"{n} {state}" for state, n in counts.items() if n)
            print(f"{catalog_path(key).relative_to(ROOT)}: {said}")
        else:
            left = missing(key)
            said = f"{len(left)} texts not translated yet" if left else "complete"
            print(f"{key.stem}: {said}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
