"""What the exercise tests share: an answer key loaded from solutions/keys, a question's public
form (as students install it), and the hint the self-check prints for a mistaken answer."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from coursekit.grading import judge_value, questions
from coursekit.grading.spec import QuestionSpec, from_json

ROOT = Path(__file__).resolve().parents[1]
#: every chapter with exercises, by the stem of its answer key
CHAPTERS = sorted(p.stem for p in (ROOT / "solutions" / "keys").glob("[0-9][0-9]_*.py"))
SECRET = b"a lecturer's secret of more than sixteen bytes"


def load_key(chapter: str) -> ModuleType:
    """The answer key ``solutions/keys/<chapter>.py``, freshly executed."""
    path = ROOT / "solutions" / "keys" / f"{chapter}.py"
    spec = importlib.util.spec_from_file_location(f"key_{chapter}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def public_spec(chapter: str, qid: str) -> QuestionSpec:
    """The public form of a question, as students install it (checks.json), typed."""
    return from_json(json.loads(questions.CHECKS_PATH.read_text(encoding="utf-8"))[chapter][qid])


def hint(chapter: str, qid: str, words: str) -> str:
    """The hint of the mistake of ``qid`` whose text contains ``words`` (exactly one)."""
    hints = [m.hint for m in public_spec(chapter, qid).mistakes]
    found = [h for h in hints if words in h]
    assert len(found) == 1, (words, hints)
    return found[0]


def says(chapter: str, qid: str, answer, words: str) -> bool:
    """Whether the self-check answers ``answer`` with the hint of the mistake named by
    ``words``."""
    expected = f"{qid}: not right yet: " + hint(chapter, qid, words)
    return judge_value(public_spec(chapter, qid), answer) == expected
