"""Multiple-choice questions: the self-check judges a limited number of wrong letters, kept in
the user's cache folder across kernel restarts; the grader ignores attempts."""

from __future__ import annotations

import asyncio
import json

import pytest

from coursekit.grading import Choice, check, selfcheck
from coursekit.grading.marking import mark
from coursekit.grading.report import Grade

SPEC = Choice("q", "c", options="abcd", hint="section 2 of the chapter").public("demo")


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    """A fresh cache folder and a fresh kernel for each test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(selfcheck, "_TRIED", {})
    return tmp_path / "cache" / "coursekit" / "attempts.json"


def _restart_kernel(monkeypatch):
    monkeypatch.setattr(selfcheck, "_TRIED", {})


def test_two_wrong_letters_then_no_more_right_or_wrong(cache, monkeypatch):
    judge = selfcheck.judge_choice
    assert (
        judge(SPEC, "a", "demo")
        == "q: not this one (hint: section 2 of the chapter) (1 more attempt)"
    )
    # the same wrong letter again (Run All twice) uses no attempt
    assert judge(SPEC, "a", "demo").endswith("(1 more attempt)")
    assert judge(SPEC, "e", "demo") == "q: answer one of 'a', 'b', 'c', 'd', got 'e'"  # no attempt
    assert "that was your last attempt" in judge(SPEC, "b", "demo")
    used_up = judge(SPEC, "c", "demo")  # the right letter, too late: not confirmed
    assert used_up == (
        "q: your 2 attempts are used up, so this check no longer says right or wrong; "
        "read again: section 2 of the chapter"
    )
    assert "passed" not in used_up and "not this one" not in used_up
    # a kernel restart does not reset the count: it is in the cache file
    assert json.loads(cache.read_text()) == {"demo:q": ["a", "b"]}
    _restart_kernel(monkeypatch)
    assert judge(SPEC, "d", "demo") == used_up
    # other questions and chapters keep their own count
    assert judge(SPEC, "c", "other") == "q: passed"


def test_a_right_answer_passes_every_time():
    for _ in range(4):
        assert selfcheck.judge_choice(SPEC, "C", "demo") == "q: passed"


def test_attempts_are_configurable_per_question():
    one = Choice("q", "a", options="abc", attempts=1).public("demo")
    assert "last attempt" in selfcheck.judge_choice(one, "b", "demo")
    assert "used up" in selfcheck.judge_choice(one, "a", "demo")
    assert Choice("q", "a", options="ab").public("d").attempts == 1  # two options: one try
    assert Choice("q", "a").public("d").attempts == 2
    with pytest.raises(ValueError, match="attempts must lie between 1 and 3"):
        Choice("q", "a", attempts=4).public("d")
    with pytest.raises(ValueError, match="got 0"):
        Choice("q", "a", attempts=0).public("d")
    with pytest.raises(TypeError, match="attempts"):
        Choice("q", "a", attempts=1.5).public("d")


def test_an_unwritable_cache_counts_in_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # cache/coursekit cannot be made
    assert selfcheck.judge_choice(SPEC, "a", "demo").endswith("(1 more attempt)")
    assert "last attempt" in selfcheck.judge_choice(SPEC, "b", "demo")
    assert "used up" in selfcheck.judge_choice(SPEC, "c", "demo")
    monkeypatch.setenv("XDG_CACHE_HOME", "")
    monkeypatch.setenv("HOME", str(blocker))  # ~/.cache under a file
    assert "used up" in selfcheck.judge_choice(SPEC, "c", "demo")


def test_a_damaged_cache_file_counts_as_empty(cache):
    cache.parent.mkdir(parents=True)
    cache.write_text("{not json")
    assert selfcheck.judge_choice(SPEC, "a", "demo").endswith("(1 more attempt)")
    assert json.loads(cache.read_text()) == {"demo:q": ["a"]}


def test_check_limits_the_chapters_choices(capsys):
    # chapter 01, q8: the answer is b (the second printed row is the impossible one)
    for letter in ("a", "c", "b"):
        check("q8", letter, chapter="01_precision_recall")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("q8: not this one") and lines[0].endswith("(1 more attempt)")
    assert "last attempt" in lines[1]
    assert lines[2].startswith("q8: your 2 attempts are used up")


def test_the_grader_ignores_attempts(tmp_path):
    for letter in ("a", "b", "d"):
        selfcheck.judge_choice(SPEC, letter, "demo")
    grade = Grade("alice.ipynb", chapter="demo")
    answers = {"q": {"chapter": "demo", "qid": "q", "value": "c"}}
    asyncio.run(mark(grade, [Choice("q", "c", hint="h")], answers, tmp_path, 256, None))
    assert grade.questions["q"] == {"points": 1.0, "max": 1.0, "message": "q: passed"}


def test_a_graded_run_counts_in_memory_and_leaves_the_cache_alone(cache, monkeypatch, tmp_path):
    monkeypatch.setenv("COURSEKIT_ANSWER_LOG", str(tmp_path / "answers.jsonl"))
    assert selfcheck.judge_choice(SPEC, "a", "demo").endswith("(1 more attempt)")
    assert "last attempt" in selfcheck.judge_choice(SPEC, "b", "demo")
    assert not cache.exists()
