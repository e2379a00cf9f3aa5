"""The typed public spec (coursekit.grading.spec): what the build writes is what every reader
reads back, the committed self-check data are read and written back unchanged, and a malformed
spec is refused naming the question and the field."""

from __future__ import annotations

import json

import pytest
from exercise_support import CHAPTERS, load_key

from coursekit.grading import Choice, Value, selfcheck, session
from coursekit.grading.questions import CHECKS_PATH
from coursekit.grading.spec import (
    AnswerFormat,
    ChoiceSpec,
    FunctionSpec,
    ValueSpec,
    chapter_from_json,
    from_json,
)
from coursekit.grading.variantcheck import answer_format, judge_answer_format, typed_formats

COMMITTED = json.loads(CHECKS_PATH.read_text(encoding="utf-8"))
KINDS = {"choice": ChoiceSpec, "function": FunctionSpec}


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_question_of_every_key_round_trips(chapter):
    questions = load_key(chapter).QUESTIONS
    assert [q.qid for q in questions] == list(COMMITTED[chapter])
    for q in questions:
        spec = q.public(chapter)
        assert isinstance(spec, KINDS.get(spec.kind, ValueSpec)), q.qid
        assert from_json(spec.to_json()) == spec, q.qid
        # byte for byte what the committed self-check data hold (the independent reference)
        assert json.dumps(spec.to_json()) == json.dumps(COMMITTED[chapter][q.qid]), q.qid


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_committed_data_are_written_back_unchanged(chapter):
    specs = chapter_from_json(COMMITTED[chapter], chapter)
    for qid, spec in specs.items():
        data = COMMITTED[chapter][qid]
        assert spec.to_json() == data and json.dumps(spec.to_json()) == json.dumps(data), qid
        assert from_json(spec.to_json()) == spec


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_variant_format_round_trips(chapter):
    for q in load_key(chapter).QUESTIONS:
        found = answer_format(q)
        assert not {"hashes", "items", "salt", "mistakes", "qid"} & set(found.to_json())
        assert AnswerFormat.from_json(found.to_json(), q.qid) == found
        assert typed_formats({q.qid: found.to_json()}) == {q.qid: found}


VALUE = Value("q3", 2 / 3, low=0, high=1, hint="h").public("demo").to_json()
LIST = Value("q4", [0.5, 0.25]).public("demo").to_json()
CHOICE = Choice("q8", "b", options="abc").public("demo").to_json()


def _without(data: dict, name: str) -> dict:
    return {k: v for k, v in data.items() if k != name}


@pytest.mark.parametrize(
    "data, said",
    [
        (_without(VALUE, "kind"), "question q3: field 'kind' is missing"),
        ({**VALUE, "kind": "matrix"}, "question q3: unknown kind 'matrix'"),
        ({**VALUE, "kind": 3}, "question q3: unknown kind 3"),
        ({**VALUE, "decimals": "4"}, "question q3: decimals must be a whole number, got str '4'"),
        ({**VALUE, "points": True}, "question q3: points must be a number"),
        ({**VALUE, "significant": "yes"}, "question q3: significant must be True or False"),
        ({**VALUE, "answer": 0.6667}, "question q3: unknown field 'answer'"),
        (_without(VALUE, "salt"), "question q3: field 'salt' is missing"),
        (_without(VALUE, "hashes"), "question q3: field 'hashes' is missing"),
        (_without(LIST, "items"), "question q4: field 'items' is missing"),
        ({**LIST, "length": 3}, "question q4: field 'items' has not 3 hashes"),
        ({**LIST, "hashes": {"0": "ab"}}, "question q4: unknown field 'hashes' for this kind"),
        ({**VALUE, "partial": {"two": 0.5}}, "question q3: partial must map numbers of decimals"),
        ({**VALUE, "mistakes": [{"hint": "h"}]}, "question q3: field 'mistakes\\[0\\].hashes'"),
        (
            {**VALUE, "mistakes": [{"hint": "h", "hashes": {"4": "ab"}, "why": 1}]},
            "question q3: unknown field 'mistakes\\[0\\].why'",
        ),
        ({**CHOICE, "options": "abc"}, "question q8: options must be a list, got str"),
        ({**CHOICE, "attempts": 2.0}, "question q8: attempts must be a whole number"),
        (_without(CHOICE, "qid"), "question \\(no qid\\): field 'qid' is missing"),
        ([VALUE], "must be a JSON object, got list"),
    ],
)
def test_a_malformed_spec_is_refused_naming_the_question_and_the_field(data, said):
    with pytest.raises(ValueError, match=said):
        from_json(data)


def test_a_question_filed_under_another_id_is_refused():
    with pytest.raises(ValueError, match="question q9: filed under 'q9'.* 'qid' is 'q3'"):
        chapter_from_json({"q9": VALUE}, "demo")


@pytest.mark.parametrize(
    "data, said",
    [
        ({"kind": "choice", "options": "abc", "points": "1"}, "question q8: points must be"),
        ({"kind": "choice", "options": "abc", "arities": [2]}, "unknown field 'arities'"),
        ({"kind": "graph", "points": 1}, "question q8: unknown kind 'graph'"),
        ({"options": "abc"}, "question q8: field 'kind' is missing"),
        ({"kind": "choice", "qid": "q8"}, "question q8: unknown field 'qid'"),
    ],
)
def test_a_malformed_variant_format_is_refused(data, said):
    with pytest.raises(ValueError, match=said):
        AnswerFormat.from_json(data, "q8")


def test_a_variant_format_read_from_its_json_judges_as_before():
    fmt = typed_formats({"q8": {"kind": "choice", "options": "abc", "points": 1}})["q8"]
    assert judge_answer_format("q8", fmt, "e") == "q8: 'e' is not one of the letters a, b, c"
    fmt = AnswerFormat.from_json({"kind": "floats", "length": 2, "low": 0, "points": 1}, "q4")
    assert judge_answer_format("q4", fmt, [0.5]) == "q4: expected a list of 2 elements, got 1"


@pytest.fixture
def kernel(tmp_path, monkeypatch):
    """A fresh kernel reading the committed self-check data."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(selfcheck, "_CHECKS", {})
    monkeypatch.setattr(selfcheck, "_VERDICTS", {})
    monkeypatch.setattr(selfcheck, "_TRIED", {})
    monkeypatch.setattr(session, "CURRENT", {"chapter": None, "own": frozenset()})


def test_the_self_check_of_an_exercise_says_passed_or_not_right_as_before(kernel, capsys):
    chapter = CHAPTERS[0]
    key = {q.qid: q for q in load_key(chapter).QUESTIONS}
    value = next(q for q in key.values() if isinstance(q, Value) and isinstance(q.expected, float))
    choice = next(q for q in key.values() if isinstance(q, Choice))
    wrong = next(x for x in choice.options if x != choice.expected)
    for qid, answer in [
        (value.qid, value.expected),
        (value.qid, value.expected + 0.1),
        (choice.qid, choice.expected),
        (choice.qid, wrong),
    ]:
        selfcheck.check(qid, answer, chapter)
    said = capsys.readouterr().out.splitlines()
    assert said[0] == f"{value.qid}: passed"
    assert said[1].startswith(f"{value.qid}: not right yet") or "out of range" in said[1]
    assert said[2] == f"{choice.qid}: passed"
    assert said[3].startswith(f"{choice.qid}: not this one")
    assert all(
        isinstance(s, (ValueSpec, ChoiceSpec, FunctionSpec))
        for s in selfcheck._CHECKS[chapter].values()
    )
