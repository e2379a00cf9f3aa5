"""Every question of a student's variant varies or is shuffled (issue 33).

For each chapter, 200 students are drawn as a release draws them (``variants.variant``: the
seed is an HMAC of a fixed test secret, the chapter and the student id; the choices' letters
after the student's own order of the options). Their answers, each as the grader compares it
(a number rounded to the question's decimals, or significant digits; a letter), must be:

- distinct as a whole for at least 95 % of the students (no twin with the same answers);
- for a value question, the same for at most a third of the students, unless the key lists it
  in ``CONSTANT_QUESTIONS`` with the reason;
- for a choice, its letter the same for at most 1/m + 0.1 of the students, m being the number
  of places its right option can take (the options that are not in the key's
  ``FIXED_OPTIONS``): the order is drawn uniformly, so 1/m is what any order gives.

A function question is left out: its answer is code, judged on the same hidden inputs for
everyone. The other tests check that a variant's text and letters agree (the option the key
expects is the one the notebook puts at that letter), that an option that must stay last is
fixed, and that a variant's self-check holds no hash and never says right or wrong.
"""

from __future__ import annotations

import functools
import re
from collections import Counter

import nbformat
import numpy as np
import pytest
from exercise_support import CHAPTERS, ROOT, load_key

from coursekit.grading import Choice, Function, Value, variants
from coursekit.grading.choices import question_cell, split_options
from coursekit.grading.variantcheck import answer_format, judge_answer_format

SECRET = b"the variant-space test's own secret: fixed, and long enough"
STUDENTS = [f"student{i:03d}" for i in range(200)]
KEYS = {chapter: load_key(chapter) for chapter in CHAPTERS}
#: an option whose text must stay in its place (after the others): "neither ...", "none of ..."
MUST_STAY = re.compile(r"^(neither|none of|both (can|are|rows))\b", re.IGNORECASE)


def graded(question: Value | Choice):
    """The answer as the grader compares it: numbers rounded, ids exact, a letter."""
    if isinstance(question, Choice):
        return question.expected

    def rounded(x):
        if isinstance(x, float):
            if question.significant:
                return f"{x:.{question.decimals - 1}e}"
            return f"{x:.{question.decimals}f}"
        return x

    e = question.expected
    return tuple(rounded(x) for x in e) if isinstance(e, (list, tuple)) else rounded(e)


@functools.cache
def draws(chapter: str) -> tuple[list[dict], dict]:
    """Each student's graded answers ({qid: answer}), and the questions by id (the first
    student's, for their kind and options)."""
    answers, kinds = [], {}
    for student in STUDENTS:
        _, questions = variants.variant(KEYS[chapter], SECRET, chapter, student)
        asked = [q for q in questions if not isinstance(q, Function)]
        answers.append({q.qid: graded(q) for q in asked})
        kinds = kinds or {q.qid: q for q in asked}
    return answers, kinds


def places(chapter: str, question: Choice) -> int:
    """How many places a choice's right option can take in a student's order."""
    fixed = getattr(KEYS[chapter], "FIXED_OPTIONS", {}).get(question.qid, "")
    public = next(q for q in KEYS[chapter].QUESTIONS if q.qid == question.qid)
    return 1 if public.expected in fixed else len([x for x in public.options if x not in fixed])


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_key_states_its_variant_space(chapter):
    assert "\nVariant space: " in KEYS[chapter].__doc__


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_at_least_95_percent_of_the_answer_sets_are_distinct(chapter):
    answers, _ = draws(chapter)
    rows = {tuple(sorted(a.items())) for a in answers}
    assert len(rows) >= 0.95 * len(STUDENTS), len(rows)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_no_answer_is_shared_by_more_than_a_third(chapter):
    answers, kinds = draws(chapter)
    documented = getattr(KEYS[chapter], "CONSTANT_QUESTIONS", {})
    for qid, question in kinds.items():
        share = Counter(a[qid] for a in answers).most_common(1)[0][1] / len(STUDENTS)
        if qid in documented:
            assert documented[qid].strip(), qid  # the reason is given
        elif isinstance(question, Choice):
            m = places(chapter, question)
            assert m >= 2 and share <= 1 / m + 0.1, (qid, m, share)
        else:
            assert share <= 1 / 3, (qid, share)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_an_option_that_must_stay_in_place_is_fixed(chapter):
    cells = nbformat.read(ROOT / "exercises" / f"{chapter}.ipynb", as_version=4).cells
    fixed = getattr(KEYS[chapter], "FIXED_OPTIONS", {})
    for q in KEYS[chapter].QUESTIONS:
        if not isinstance(q, Choice):
            continue
        _, options, _ = split_options(question_cell(cells, q.qid).source)
        assert "".join(letter for letter, _ in options) == q.options, q.qid
        for letter, lines in options:
            text = " ".join(line.strip() for line in lines)[len("- a) ") :]
            if MUST_STAY.match(text):
                assert letter in fixed.get(q.qid, ""), (q.qid, text)
            elif letter not in fixed.get(q.qid, ""):  # a moving option names no other letter
                assert not re.search(r"\b(option|answer) [a-e]\b|\b[a-e]\)", text), text


def _options(cell) -> dict[str, str]:
    _, options, _ = split_options(cell.source)
    return {letter: " ".join(line.strip() for line in lines)[5:] for letter, lines in options}


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_variants_text_and_letters_agree(chapter):
    """The option a variant's key expects is the one its notebook shows at that letter: the
    option the same data give in the public order (the key's generate, unshuffled)."""
    key = KEYS[chapter]
    public = nbformat.read(ROOT / "exercises" / f"{chapter}.ipynb", as_version=4)
    for student in STUDENTS[:3]:
        notebook = variants.personalise(
            nbformat.read(ROOT / "exercises" / f"{chapter}.ipynb", as_version=4),
            chapter,
            student,
            key,
            SECRET,
        )
        _, shuffled = variants.variant(key, SECRET, chapter, student)
        rng = np.random.default_rng(variants.seed(SECRET, chapter, student))
        _, unshuffled = key.generate(rng)  # the same data, options in the public order
        in_public_order = {q.qid: q.expected for q in unshuffled if isinstance(q, Choice)}
        for q in (q for q in shuffled if isinstance(q, Choice)):
            mine = _options(question_cell(notebook.cells, q.qid))
            theirs = _options(question_cell(public.cells, q.qid))
            assert sorted(mine.values()) == sorted(theirs.values()), q.qid
            assert mine[q.expected] == theirs[in_public_order[q.qid]], (student, q.qid)
            fixed = getattr(key, "FIXED_OPTIONS", {}).get(q.qid, "")
            assert all(mine[x] == theirs[x] for x in fixed), q.qid


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_variants_self_check_holds_no_hash_and_judges_no_answer(chapter, capsys):
    key = KEYS[chapter]
    notebook = variants.personalise(
        nbformat.read(ROOT / "exercises" / f"{chapter}.ipynb", as_version=4),
        chapter,
        "student000",
        key,
        SECRET,
    )
    code = "\n".join(c.source for c in notebook.cells if c.cell_type == "code")
    assert not re.search(r"[0-9a-f]{24}", code)  # a hash of checks.json is 24 hex digits
    assert "from coursekit.grading import" not in code  # check and start: the variant's
    assert code.count("from coursekit.grading.variantcheck import") >= len(key.QUESTIONS)
    _, questions = variants.variant(key, SECRET, chapter, "student000")
    for q in questions:
        spec = answer_format(q)
        assert not {"hashes", "items", "salt", "mistakes"} & set(spec.to_json()), q.qid
        if isinstance(q, Function):
            continue
        for answer in (q.expected, _another(q)):
            said = judge_answer_format(q.qid, spec, answer)
            assert "passed" not in said and "not right" not in said and "recorded" in said, said


def _another(q: Value | Choice):
    """Another answer of the right format: another letter, the list reversed, a number between
    the lower bound (or 0) and the expected one."""
    if isinstance(q, Choice):
        return next(x for x in q.options if x != q.expected)
    if isinstance(q.expected, list):
        return q.expected[::-1] if len(set(map(str, q.expected))) > 1 else q.expected[:]
    low = q.low if q.low is not None else 0
    middle = (q.expected + low) / 2
    return int(middle) if isinstance(q.expected, int) else middle
