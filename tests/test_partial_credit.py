"""Partial credit declared in the answer key: a Value's share of its points when right to fewer
decimals than asked, a Function's points per case passed (public and hidden). The default stays
all or nothing; hidden cases still show their label only.

Expected points are worked out by hand in each test (F1 = 2PR / (P + R), F2 = 5PR / (4P + R)).
"""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest

from coursekit.grading import Choice, Function, Value, judging, marking
from coursekit.grading.build import load_key
from coursekit.grading.questions import CASE_SECONDS, PER_CASE, points_of, points_text
from coursekit.grading.report import Grade

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "demo"

# --------------------------------------------------------------------------------------------
# Values: a share of the points when right to fewer decimals


def test_a_value_right_to_2_decimals_earns_its_declared_share():
    spec = Value("q1", 2 / 3, points=1, partial={2: 0.5}).public(CHAPTER)
    assert spec.to_json()["partial"] == {"2": 0.5}  # the rule reaches check(): it says the points
    message, share = judging.judge_value_points(spec, 0.67)
    assert share == 0.5
    assert message == (
        "q1: right to 2 decimals only (0.5 of 1 point): give at least 4 decimals (do not round "
        "before the end)"
    )
    # right to 4 decimals: all of it; wrong to 2 decimals: nothing
    assert judging.judge_value_points(spec, 0.6667) == ("q1: passed", 1.0)
    assert judging.judge_value_points(spec, 0.65)[1] == 0.0


def test_the_best_share_reached_counts_and_points_are_said_in_points():
    # 2/3 = 0.666666...: 0.667 is right to 3 decimals (and so to 2), not to 4
    spec = Value("q2", 2 / 3, points=2, partial={2: 0.25, 3: 0.75}).public(CHAPTER)
    message, share = judging.judge_value_points(spec, 0.667)
    assert share == 0.75 and "right to 3 decimals only (1.5 of 2 points)" in message
    message, share = judging.judge_value_points(spec, 0.67)
    assert share == 0.25 and "(0.5 of 2 points)" in message


def test_a_list_of_floats_is_right_to_its_least_precise_element():
    spec = Value("q3", [0.25, 1 / 3], partial={2: 0.5}).public(CHAPTER)
    assert judging.judge_value_points(spec, [0.25, 0.33])[1] == 0.5
    assert judging.judge_value_points(spec, [0.25, 0.3333])[1] == 1.0
    assert judging.judge_value_points(spec, [0.2, 0.3333])[1] == 0.0


def test_a_common_mistake_earns_nothing_even_with_partial_credit():
    from coursekit.grading import Mistake

    spec = Value("q4", 0.5, partial={2: 0.5}, mistakes=[Mistake(0.625, "slip")]).public(CHAPTER)
    assert judging.judge_value_points(spec, 0.625) == ("q4: not right yet: slip", 0.0)


def test_without_partial_a_rounded_value_earns_nothing_and_is_told_as_before():
    spec = Value("q1", 2 / 3).public(CHAPTER)
    assert "partial" not in spec.to_json()
    assert judging.judge_value_points(spec, 0.67) == (
        "q1: right to 2 decimals only: give at least 4 decimals (do not round before the end)",
        0.0,
    )


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (lambda: Value("q5", 3, partial={2: 0.5}), "Value q5: partial.*needs a float answer"),
        (lambda: Value("q5", 0.5, partial={4: 0.5}), "4 decimals: partial credit is for 2, 3"),
        (lambda: Value("q5", 0.5, decimals=3, partial={3: 0.5}), "is for 2 decimals"),
        (lambda: Value("q5", 0.5, partial={2: 1.0}), "between 0 and 1 .excluded., got 1.0"),
        (lambda: Value("q5", 0.5, partial={2: 0}), "between 0 and 1"),
        (lambda: Value("q5", 0.5, partial={True: 0.5}), "True decimals"),
        (lambda: Value("q5", 0.5, partial={}), r"give a dict \{decimals"),
        (lambda: Value("q5", 0.5, partial=0.5), r"give a dict \{decimals"),
        (
            lambda: Function("q6", "f", "coursekit:f_measure", [("a", [1, 1])], partial="all"),
            "Function q6: partial must be None .all or nothing. or 'per-case', got 'all'",
        ),
        (
            lambda: Function("q6", "f", "coursekit:f_measure", [], partial=PER_CASE),
            "Function q6: partial='per-case' needs public cases",
        ),
    ],
)
def test_a_wrong_partial_rule_is_refused_naming_the_question(question, said):
    with pytest.raises(ValueError, match=said):
        question()


def test_every_existing_key_stays_all_or_nothing():
    keys = sorted((ROOT / "solutions" / "keys").glob("[0-9][0-9]_*.py"))
    assert len(keys) >= 10
    for path in keys:
        for q in load_key(path):
            spec = q.public(path.stem).to_json()
            assert "partial" not in spec and "hidden_cases" not in spec, (path.stem, q.qid)


def test_points_print_sensibly():
    assert points_text(1.4999999) == "1.5"
    assert points_text(0.1 + 0.2) == "0.3"
    assert points_text(2.0) == "2"
    assert points_text(-0.0) == "0"
    assert points_of(0.6, 1) == "0.6 of 1 point"
    assert points_of(3 * 0.4, 2) == "1.2 of 2 points"


# --------------------------------------------------------------------------------------------
# Functions: points per case, in the self-check and in the grader

F1_RIGHT = "def f_measure(p, r, beta=1.0):\n    return 2 * p * r / (p + r)\n"  # ignores beta
HIDDEN_INPUTS = ["0.123456", "0.654321", "0.345678", "0.876543", "123.456"]


def _question(partial: str | None, hidden: bool = True, beta_public: bool = True) -> Function:
    cases = [("equal", [0.5, 0.5]), ("P = 0.6, R = 0.3", [0.6, 0.3])]
    if beta_public:
        cases.append(("beta = 2", [0.4, 0.8, 2.0]))  # F2 = 1.6 / 2.4 = 2/3; F1 gives 0.5333
    secret = [
        ("small", [0.2, 0.2]),  # F1 = 0.08 / 0.4 = 0.2
        ("tiny", [0.123456, 0.654321, 3.0]),
        ("odd", [0.345678, 0.876543]),
    ]
    return Function(
        "q4",
        "f_measure",
        "coursekit:f_measure",
        cases,
        hidden=secret if hidden else [],
        points=1,
        partial=partial,
    )


def _mark(tmp_path: Path, questions: list, answers: dict) -> Grade:
    grade = Grade("alice.ipynb", chapter=CHAPTER)
    tmp_path.mkdir(parents=True, exist_ok=True)
    entries = {qid: {"chapter": CHAPTER, "qid": qid, **entry} for qid, entry in answers.items()}
    asyncio.run(marking.mark(grade, questions, entries, tmp_path, 512, None))
    return grade


def _source(source: str) -> dict:
    return {"source": source, "name": "f_measure"}


def test_the_grader_gives_points_per_case_public_and_hidden(tmp_path):
    # F1_RIGHT passes equal, P = 0.6, small and odd (F1 of 0.345678, 0.876543), fails
    # beta = 2 and tiny (beta = 3): 4 of 6 cases
    grade = _mark(tmp_path, [_question(PER_CASE)], {"q4": _source(F1_RIGHT)})
    record = grade.questions["q4"]
    assert record["points"] == 0.67 and record["max"] == 1.0  # 4/6 = 0.666..., to 2 decimals
    assert record["message"].startswith("q4: 4 of 6 cases passed (0.67 of 1 point); wrong on ")
    # the hidden cases were run although a public one failed
    assert "beta = 2" in record["message"]


def test_the_grader_counts_hidden_cases_after_the_public_ones_pass(tmp_path):
    # no beta among the public cases: both pass; hidden: small passes, tiny (beta = 3) fails,
    # odd passes: 4 of 5 = 0.8
    grade = _mark(tmp_path, [_question(PER_CASE, beta_public=False)], {"q4": _source(F1_RIGHT)})
    record = grade.questions["q4"]
    assert record["points"] == 0.8
    assert record["message"] == (
        "q4: 4 of 5 cases passed (0.8 of 1 point); wrong on the case 'hidden: tiny': your "
        "function returned a value (not shown: a hidden case) that is not the expected value"
    )


def test_all_or_nothing_is_unchanged(tmp_path):
    questions = [_question(None), _question(None, beta_public=False), Value("q1", 2 / 3)]
    questions[1].qid = "q5"
    answers = {"q4": _source(F1_RIGHT), "q5": _source(F1_RIGHT), "q1": {"value": 0.67}}
    grade = _mark(tmp_path, questions, answers)
    assert grade.questions["q4"] == {
        "points": 0.0,
        "max": 1.0,
        "message": "q4: wrong on the case 'beta = 2' (input: 0.4, 0.8, 2.0): your function "
        "returned 0.5333333333333333, which is not the expected value",
    }
    assert grade.questions["q5"]["points"] == 0.0
    assert grade.questions["q5"]["message"].startswith("q5: wrong on the case 'hidden: tiny'")
    assert grade.questions["q1"]["points"] == 0.0
    right = (
        "def f_measure(p, r, beta=1.0):\n    b = beta * beta\n"
        "    return (1 + b) * p * r / (b * p + r)\n"
    )
    grade = _mark(tmp_path / "again", [_question(None)], {"q4": _source(right)})
    assert grade.questions["q4"] == {"points": 1.0, "max": 1.0, "message": "q4: passed"}


def test_partial_value_points_in_the_grade(tmp_path):
    questions = [
        Value("q1", 2 / 3, points=1, partial={2: 0.5}),
        Value("q2", 0.125, points=3, partial={2: 0.2, 3: 0.5}),  # 0.13 is right to 2: 0.6
        Choice("q3", "b", points=1),
    ]
    answers = {"q1": {"value": 0.67}, "q2": {"value": 0.13}, "q3": {"value": "b"}}
    grade = _mark(tmp_path, questions, answers)
    assert grade.questions["q1"]["points"] == 0.5
    assert grade.questions["q2"]["points"] == 0.6
    assert "(0.6 of 3 points)" in grade.questions["q2"]["message"]
    assert grade.questions["q3"]["points"] == 1.0
    assert f"{grade.total:g} / {grade.max:g}" == "2.1 / 5"


LEAKY = """def f_measure(p, r, beta=1.0):
    if p == 0.123456:
        raise ValueError(f"LEAK {p} {r} {p * 1000}")
    if p == 0.345678:
        return f"LEAK {p} {r}"
    return 2 * p * r / (p + r)
"""
LEAKY_VALUE = """def f_measure(p, r, beta=1.0):
    if p == 0.123456:
        return p * 1000
    return 2 * p * r / (p + r)
"""


@pytest.mark.parametrize("source", [LEAKY, LEAKY_VALUE])
def test_hidden_cases_show_their_label_only_with_partial_credit(tmp_path, source):
    grade = _mark(tmp_path, [_question(PER_CASE, beta_public=False)], {"q4": _source(source)})
    message = grade.questions["q4"]["message"]
    assert "hidden: tiny" in message
    for text in [*HIDDEN_INPUTS, "LEAK"]:
        assert text not in message, message
    if source == LEAKY:  # tiny raised, odd returned a text: equal, P = 0.6, small pass: 3/5
        assert message.startswith("q4: 3 of 5 cases passed (0.6 of 1 point); on the case ")
        assert "raised ValueError (the text of an error on a hidden case is not shown)" in message
        assert grade.questions["q4"]["points"] == 0.6
    else:  # tiny returned a wrong number: 4 of 5
        assert "returned a value (not shown: a hidden case)" in message
        assert grade.questions["q4"]["points"] == 0.8


def test_a_long_message_keeps_its_points():
    label = "x" * 400
    rows = [("a", 1.0, 1.0), (label, 3.0, 2.0)]
    spec = Function("q4", "f", "coursekit:f", [("a", [1])], points=2, partial=PER_CASE).public("d")
    message, share = judging.score_outputs("q4", rows, "", [[1], [2]], spec)
    assert share == 0.5
    assert marking._short(message).startswith("q4: 1 of 2 cases passed (1 of 2 points); ")


def written(folder: Path, source: str, name: str = "f_measure"):
    """The function ``name`` of ``source``, from a file (so that its source can be read, as
    in a notebook cell)."""
    path = folder / f"student_{abs(hash(source))}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def test_the_self_check_says_the_rule_with_the_hidden_cases_still_to_come(tmp_path):
    spec = _question(PER_CASE).public(CHAPTER)
    assert spec.partial == PER_CASE and spec.hidden_cases == 3
    assert "hidden" not in spec.to_json()  # the hidden inputs are never public
    for text in HIDDEN_INPUTS:
        assert text not in str(spec.to_json())
    message, share = judging.judge_function_points(spec, written(tmp_path, F1_RIGHT))
    # 2 of the 3 public cases pass; each of the 6 cases is worth 1/6: 2/6 = 0.33 so far
    assert share == pytest.approx(2 / 6)
    assert message.startswith(
        "q4: 2 of 3 cases passed (0.33 of 1 point so far; 3 more cases are tried when graded); "
        "wrong on the case 'beta = 2' (input: 0.4, 0.8, 2.0)"
    )


def test_the_time_limit_is_defined_once():
    assert CASE_SECONDS == 2
    assert marking.JUDGE_SECONDS is CASE_SECONDS
    q = _question(None)
    request = marking._request([(q, {"source": F1_RIGHT})], 256, hidden=False)
    assert request["seconds"] == 2
