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


def collection_ap_by_topic(systems) -> tuple[list[str], dict[str, dict[str, float]]]:
    """The course collection's topics (those of its qrels, in number order) and each run of
    ``systems``' AP by topic from pytrec_eval (the reference: a topic a run does not answer is
    absent from its dict). Skips the test without pytrec_eval."""
    import pytest

    pytrec_eval = pytest.importorskip("pytrec_eval")
    from coursekit import course

    collection = course.load_collection()
    qrels: dict[str, dict[str, int]] = {}
    for q, d, g in collection.qrels[["query_id", "doc_id", "relevance"]].itertuples(index=False):
        qrels.setdefault(str(q), {})[str(d)] = int(g)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map"})
    out = {}
    for name in systems:
        run: dict[str, dict[str, float]] = {}
        frame = collection.runs[name][["query_id", "doc_id", "score"]]
        for q, d, s in frame.itertuples(index=False):
            run.setdefault(str(q), {})[str(d)] = float(s)
        out[name] = {q: v["map"] for q, v in evaluator.evaluate(run).items()}
    return sorted(qrels, key=int), out
