"""Per-student variants of every chapter's exercises (``generate(rng)`` in the answer keys).

For each chapter: the notebooks show the key's public data; two students get different data
(their multiple-choice letters are drawn too, see tests/test_variant_space.py);
every variant's questions pass the key checks (no mistake equal to the right answer); a drawn
data cell is written as ruff formats it (so that the release can find the cell again); a
variant's own solution, executed, passes every question, and the public answers fail on it;
no hint shows an expected value.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from exercise_support import CHAPTERS, ROOT, SECRET, load_key
from nbclient import NotebookClient

from coursekit.grading import Choice, Value, judge_value, questions, variants
from coursekit.grading.spec import ChoiceSpec, from_json

KEYS = {chapter: load_key(chapter) for chapter in CHAPTERS}


def test_every_chapter_has_variants():
    assert [c[:2] for c in CHAPTERS] == [f"{i:02d}" for i in range(1, 12)]
    assert all(hasattr(KEYS[c], "generate") for c in CHAPTERS)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_notebooks_show_the_keys_public_data(chapter):
    source, public = KEYS[chapter].generate(None)
    for folder in ("solutions", "exercises"):
        cells = nbformat.read(ROOT / folder / f"{chapter}.ipynb", as_version=4).cells
        assert [c.source for c in cells].count(source) == 1, folder
    assert [q.public(chapter) for q in public] == [
        q.public(chapter) for q in KEYS[chapter].QUESTIONS
    ]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_hints_never_show_an_expected_value(chapter):
    specs = json.loads(questions.CHECKS_PATH.read_text(encoding="utf-8"))[chapter]
    for q in KEYS[chapter].QUESTIONS:
        expected = getattr(q, "expected", None)
        items = expected if isinstance(expected, list) else [expected]
        texts = [f"{v:.{d}f}" for v in items if isinstance(v, float) for d in (2, 3, 4)]
        texts += [repr(v) for v in items if isinstance(v, int) and v > 9]
        spec = from_json(specs[q.qid])
        for mistake in () if isinstance(spec, ChoiceSpec) else spec.mistakes:
            assert not any(t in mistake.hint for t in texts), (q.qid, mistake.hint)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_two_seeds_give_two_variants(chapter):
    key = KEYS[chapter]
    (source_1, first), (source_2, second) = (
        key.generate(np.random.default_rng(seed)) for seed in (1, 2)
    )
    assert source_1 != source_2 != key.generate(None)[0]
    values = [[q.expected for q in qs if isinstance(q, Value)] for qs in (first, second)]
    assert values[0] != values[1]

    for qs in (first, second):
        assert all(q.expected in q.options for q in qs if isinstance(q, Choice))
        for q in qs:
            q.public(chapter)  # refuses a mistake equal to its expected value


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_variant_data_cell_is_as_ruff_formats_it(chapter):
    ruff = Path(sys.executable).with_name("ruff")
    for seed in range(4):
        source = KEYS[chapter].generate(np.random.default_rng(seed))[0] + "\n"
        done = subprocess.run(
            [str(ruff), "format", "-"], input=source, capture_output=True, text=True, cwd=ROOT
        )
        assert done.returncode == 0 and done.stdout == source, done.stdout


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_variants_own_solution_passes_every_question(chapter, tmp_path, monkeypatch):
    key = KEYS[chapter]
    solution = nbformat.read(ROOT / "solutions" / f"{chapter}.ipynb", as_version=4)
    notebook = variants.personalise(solution, chapter, "alice", key, SECRET)
    _, own = variants.variant(key, SECRET, chapter, "alice")
    log = tmp_path / "answers.jsonl"
    monkeypatch.setenv("COURSEKIT_ANSWER_LOG", str(log))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # no attempts file of the user's
    NotebookClient(
        notebook, timeout=300, resources={"metadata": {"path": str(ROOT / "solutions")}}
    ).execute()
    answers = {e["qid"]: e for e in map(json.loads, log.read_text().splitlines())}
    public = {q.qid: q for q in key.QUESTIONS}
    for q in own:
        if isinstance(q, (Value, Choice)):
            given = answers[q.qid]["value"]
            assert judge_value(q.public(chapter), given) == f"{q.qid}: passed", q.qid
        if isinstance(q, Value) and q.expected != public[q.qid].expected:
            # the public answer is wrong on the student's data
            assert judge_value(public[q.qid].public(chapter), given) != f"{q.qid}: passed"


def test_redraw_stops_when_no_draw_fits():
    """A draw that never fits the text is an error after ``tries`` draws, not a hung grader."""
    from coursekit.grading.variants import redraw

    calls = []

    def never(data):
        calls.append(data)
        raise ValueError("unsuitable")

    with pytest.raises(RuntimeError, match="no suitable data in 5 draws"):
        redraw(None, lambda rng: len(calls), never, tries=5)
    assert calls == [0, 1, 2, 3, 4]
