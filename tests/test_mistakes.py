"""Hints keyed to common mistakes: a wrong answer equal to what a known mistake gives prints
that mistake's hint, in the self-check and in the grader's feedback, never the expected value.

Every value below is derived by hand in the comments.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from coursekit.grading import Function, Mistake, Value, judge_value, judging
from coursekit.grading import build as exercise_build
from coursekit.grading.marking import mark
from coursekit.grading.report import Grade

# AP of a ranking whose relevant documents sit at ranks 1, 3 and 6, with 5 relevant documents
# in all (2 never retrieved): the precisions there are 1/1, 2/3, 3/6, summing to 13/6.
# Right: 13/6 / 5 = 13/30 = 0.43333; dividing by the 3 relevant *retrieved*: 13/18 = 0.72222.
BY_RETRIEVED = "you divided by the relevant documents retrieved: divide by all relevant ones"
AP = Value(
    "q3",
    13 / 30,
    low=0,
    high=1,
    hint="mean of the precisions at the relevant ranks",
    mistakes=[Mistake(13 / 18, BY_RETRIEVED)],
).public("03_demo")


@pytest.mark.parametrize(
    "answer, message",
    [
        (0.7222, f"q3: not right yet: {BY_RETRIEVED}"),
        (13 / 18, f"q3: not right yet: {BY_RETRIEVED}"),
        (0.722, f"q3: not right yet: {BY_RETRIEVED}"),  # the mistake, rounded
        (0.72, f"q3: not right yet: {BY_RETRIEVED}"),
        (0.4333, "q3: passed"),
        (0.43, "q3: right to 2 decimals only"),
        (0.5, "q3: not right yet (hint: mean of the precisions at the relevant ranks)"),
        (..., "q3: not answered yet"),
        ("0.7222", "q3: expected a number, got str"),
    ],
)
def test_a_mistaken_value_prints_its_hint(answer, message):
    assert judge_value(AP, answer).startswith(message)


def test_the_hint_never_shows_the_expected_value():
    for answer in (0.7222, 0.72, 0.5, 13 / 18):
        text = judge_value(AP, answer)
        assert "0.433" not in text and "0.43" not in text and "13/30" not in text


def test_mistakes_are_shipped_hashed_with_their_hint():
    text = json.dumps(AP.to_json())
    assert "0.722" not in text and "0.7222" not in text
    assert [m.hint for m in AP.mistakes] == [BY_RETRIEVED]
    # same rounding scheme as the expected value: 4, 3 and 2 decimals
    assert sorted(AP.mistakes[0].hashes) == sorted(AP.hashes) == ["2", "3", "4"]
    assert AP.mistakes[0].hashes != AP.hashes


# F1 of P = 2/3 and R = 1/2: 2 (1/3) / (7/6) = 4/7 = 0.571429. With P rounded early to 0.67:
# 2 * 0.67 * 0.5 / 1.17 = 0.67 / 1.17 = 0.572650. Both are 0.57 to 2 decimals.
EARLY = "you rounded precision before computing F1: keep every decimal until the end"
F1 = Value("q5", 4 / 7, low=0, high=1, mistakes=[Mistake(0.67 / 1.17, EARLY)]).public("d")


def test_rounding_early_is_told_apart_from_rounding_the_answer():
    assert judge_value(F1, 0.5727) == f"q5: not right yet: {EARLY}"
    assert judge_value(F1, 0.573) == f"q5: not right yet: {EARLY}"
    # 0.57 agrees with both to 2 decimals only: the rounding message, which is true
    assert judge_value(F1, 0.57).startswith("q5: right to 2 decimals only")
    assert judge_value(F1, 0.5714) == "q5: passed"


def test_a_reversed_ranking_and_a_list_of_numbers():
    reverse = "the ranking is reversed: sort by decreasing score"
    ids = Value("q", ["d3", "d1", "d2"], mistakes=[Mistake(["d2", "d1", "d3"], reverse)])
    spec = ids.public("d")
    assert judge_value(spec, ["d2", "d1", "d3"]) == f"q: not right yet: {reverse}"
    assert judge_value(spec, ["d3", "d1", "d2"]) == "q: passed"
    assert judge_value(spec, ["d1", "d3", "d2"]).startswith("q: element 0 ('d1') is not right")
    # precisions at 1..3 of ranking R N R: 1, 1/2, 2/3; counting at rank k - 1: 0, 1, 1/2
    shifted = "precision at k counts the first k documents, not k - 1"
    spec = Value("q", [1.0, 0.5, 2 / 3], mistakes=[Mistake([0.0, 1.0, 0.5], shifted)]).public("d")
    assert judge_value(spec, [0, 1, 0.5]) == f"q: not right yet: {shifted}"
    assert judge_value(spec, [1, 0.5, 0.6667]) == "q: passed"
    assert "element 2" in judge_value(spec, [1, 0.5, 0.5])  # one element of each: no hint


def test_log_base_and_ties():
    # the discounted gain of grade 2 at rank 2: 2 / log2(3) = 1.261860; with log10: 2 /
    # 0.477121 = 4.191807 (out of the range given: the mistake's hint wins over the range)
    base = "use log base 2"
    spec = Value("q", 1.2618595, low=0, high=2, mistakes=[Mistake(4.1918065, base)]).public("d")
    assert judge_value(spec, 4.1918) == f"q: not right yet: {base}"
    assert judge_value(spec, 1.2619) == "q: passed"
    assert "out of range" in judge_value(spec, 3.0)
    # 3 relevant documents in the top 5; counting the tie at the cut-off as relevant gives 4
    ties = "a document tied with the cut-off is not in the top 5"
    spec = Value("q", 3, mistakes=[Mistake(4, ties)]).public("d")
    assert judge_value(spec, 4) == f"q: not right yet: {ties}"
    assert judge_value(spec, 4.0) == f"q: not right yet: {ties}"
    assert judge_value(spec, 5) == "q: not right yet"
    assert judge_value(spec, 10**400).startswith("q: not right yet")  # no crash


def test_a_mistake_equal_to_the_expected_value_is_refused():
    same = Value("q7", 0.5, mistakes=[Mistake(0.50001, "divide by all")])  # 0.5000 both
    with pytest.raises(ValueError, match=r"key 05_key, question q7: mistake 0 .* equals"):
        same.public("05_key")
    with pytest.raises(ValueError, match="question q7"):
        Value("q7", [1, 2], mistakes=[Mistake([1, 2], "h")]).public("05_key")
    with pytest.raises(ValueError, match="length"):
        Value("q7", [1, 2], mistakes=[Mistake([1, 2, 3], "h")]).public("05_key")
    with pytest.raises(ValueError, match="hint"):
        Mistake(0.1, "")


def test_a_key_with_such_a_mistake_is_refused_when_loaded(tmp_path):
    key = tmp_path / "42_bad_key.py"
    key.write_text(
        "from coursekit.grading import Mistake, Value\n"
        "QUESTIONS = [Value('q1', 0.25, mistakes=[Mistake(0.25, 'divided twice')])]\n"
    )
    with pytest.raises(ValueError, match=r"42_bad_key.*q1.*equals the expected value"):
        exercise_build.load_key(key)


def test_the_grader_feedback_gives_the_same_hint(tmp_path):
    question = Value("q3", 13 / 30, low=0, high=1, mistakes=[Mistake(13 / 18, BY_RETRIEVED)])
    grade = Grade("alice.ipynb", chapter="03_demo")
    answers = {"q3": {"chapter": "03_demo", "qid": "q3", "value": 0.7222}}
    asyncio.run(mark(grade, [question], answers, tmp_path, 256, None))
    assert grade.questions["q3"] == {
        "points": 0.0,
        "max": 1.0,
        "message": f"q3: not right yet: {BY_RETRIEVED}",
    }


# A function question: AP of rels [1, 0, 1, 0] with 3 relevant documents in all is
# (1/1 + 2/3) / 3 = 5/9 = 0.5556; divided by the 2 relevant retrieved it is 5/6 = 0.8333.


def ap_by_retrieved(rels, n_relevant):
    found, total = 0, 0.0
    for rank, rel in enumerate(rels, start=1):
        if rel:
            found += 1
            total += found / rank
    return total / found if found else 0.0


def ap_by_length(rels, n_relevant):
    return sum(rels) / len(rels) if rels else 0.0


AP_FUNCTION = Function(
    "q9",
    name="ap",
    reference="coursekit:average_precision",
    cases=[("one relevant missed", [[1, 0, 1, 0], 3])],
    hint="the mean of the precisions at the relevant ranks",
    mistakes=[Mistake(ap_by_retrieved, BY_RETRIEVED)],
)


def test_a_function_giving_a_mistakes_output_gets_its_hint():
    spec = AP_FUNCTION.public("03_demo")
    text = json.dumps(spec.to_json())
    assert "0.8333" not in text and "0.5556" not in text
    assert judging.judge_function_here(spec, ap_by_retrieved) == (
        "q9: wrong on the case 'one relevant missed' (input: [1, 0, 1, 0], 3): your function "
        f"returned 0.8333333333333333, which is not the expected value: {BY_RETRIEVED}"
    )
    # another wrong function (2/4 = 0.5): the question's own hint
    assert judging.judge_function_here(spec, ap_by_length).endswith(
        "which is not the expected value (hint: the mean of the precisions at the relevant ranks)"
    )


def test_a_function_mistake_equal_to_the_reference_is_refused():
    same = Function(
        "q9",
        name="ap",
        reference="coursekit:average_precision",
        cases=[("all relevant found", [[1, 1], 2])],  # 2 = the relevant retrieved: no difference
        mistakes=[Mistake(ap_by_retrieved, BY_RETRIEVED)],
    )
    with pytest.raises(ValueError, match="key 03_demo, question q9: mistake 0 .* every case"):
        same.public("03_demo")
    with pytest.raises(TypeError, match="Mistake\\(a function, hint\\)"):
        Function("q", "f", "coursekit:average_precision", [], mistakes=[Mistake(0.5, "h")]).public(
            "d"
        )
