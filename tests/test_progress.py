"""progress() for students, and the self-check's time limit per case.

progress() lists each question's state from the last check() of it in this kernel and the
points so far (partial credit included); in a variant notebook it says recorded / not answered /
format to fix, never right or wrong. check() stops a function that loops on a case after the
grader's time per case and names that case.
"""

from __future__ import annotations

import importlib.util
import re
import signal
import threading
import time
from pathlib import Path

import pytest

import coursekit.exercises
from coursekit import grading
from coursekit.grading import Choice, Function, Value, judging, selfcheck, session, variantcheck
from coursekit.grading.questions import CASE_SECONDS, PER_CASE

CHAPTER = "demo"
F1_IGNORING_BETA = "def f_measure(p, r, beta=1.0):\n    return 2 * p * r / (p + r)\n"
LOOPS_ON_ZERO = (
    "def f_measure(p, r, beta=1.0):\n"
    "    while p == 0.0:\n"
    "        pass\n"
    "    return 2 * p * r / (p + r)\n"
)


def _questions() -> list:
    return [
        Value("q1", 2 / 3),
        Value("q2", 0.125, points=2, partial={2: 0.5}),
        Choice("q3", "b", options="abc"),
        Function(
            "q4",
            "f_measure",
            "coursekit:f_measure",
            [("equal", [0.5, 0.5]), ("beta = 2", [0.4, 0.8, 2.0])],
            hidden=[("small", [0.2, 0.2])],
            points=2,
            partial=PER_CASE,
        ),
        Value("q5", 0.25),
        Function(
            "q6",
            "f_measure",
            "coursekit:f_measure",
            [("fine", [0.5, 0.5]), ("zero precision", [0.0, 0.5])],
        ),
    ]


@pytest.fixture(autouse=True)
def kernel(monkeypatch):
    """A fresh kernel whose self-check data holds the chapter 'demo' only."""
    checks = {CHAPTER: {q.qid: q.public(CHAPTER) for q in _questions()}}
    monkeypatch.setattr(selfcheck, "_CHECKS", checks)
    monkeypatch.setattr(selfcheck, "_VERDICTS", {})
    monkeypatch.setattr(selfcheck, "_TRIED", {})
    monkeypatch.setattr(session, "CURRENT", {"chapter": None, "own": frozenset()})
    monkeypatch.setattr(variantcheck, "_STARTED", {})
    monkeypatch.setattr(variantcheck, "_SAID", {})


def written(folder: Path, source: str, name: str = "f_measure"):
    """The function ``name`` of ``source``, from a file (its source can be read, as in a
    notebook cell)."""
    path = folder / f"student_{abs(hash(source))}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def _row(out: str, qid: str) -> str:
    return next(line for line in out.splitlines() if line.split()[:1] == [qid])


# --------------------------------------------------------------------------------------------
# progress() in an exercise notebook


def test_progress_lists_states_and_points_so_far(capsys, tmp_path):
    grading.start(CHAPTER)
    grading.check("q1", 0.6667)
    grading.check("q2", 0.13)  # 0.125 is 0.12 or 0.13 to 2 decimals, not 0.1300: half of 2
    grading.check("q3", "a")
    grading.check("q4", written(tmp_path, F1_IGNORING_BETA))  # passes 'equal' only
    grading.check("q6", ...)
    capsys.readouterr()
    grading.progress()
    out = capsys.readouterr().out
    assert out.startswith("Chapter demo, from the check() calls since the kernel started:")
    assert re.fullmatch(r"\s*q1\s+passed\s+1 of 1 point", _row(out, "q1"))
    assert re.fullmatch(r"\s*q2\s+not right yet\s+1 of 2 points", _row(out, "q2"))
    assert re.fullmatch(r"\s*q3\s+not right yet\s+0 of 1 point", _row(out, "q3"))
    # 1 of the 3 cases (2 public, 1 hidden) passed: 2/3 of a point, to 2 decimals
    assert re.fullmatch(r"\s*q4\s+not right yet\s+0.67 of 2 points", _row(out, "q4"))
    assert re.fullmatch(r"\s*q5\s+not answered\s+0 of 1 point", _row(out, "q5"))
    assert re.fullmatch(r"\s*q6\s+not answered\s+0 of 2 points", _row(out, "q6"))
    # 1 + 1 + 0 + 0.67 + 0 + 0 of 1 + 2 + 1 + 2 + 1 + 2
    assert out.splitlines()[-1] == (
        "Points so far: 2.67 of 9 (1 of 6 questions passed); a function is tried on more "
        "cases when graded."
    )


def test_the_last_check_counts_and_used_up_attempts_say_nothing(capsys):
    grading.start(CHAPTER)
    grading.check("q1", 0.5)
    grading.check("q1", 0.6667)
    for letter in ("a", "c", "b"):  # two wrong letters, then the right one: no verdict
        grading.check("q3", letter)
    capsys.readouterr()
    grading.progress()
    out = capsys.readouterr().out
    assert re.fullmatch(r"\s*q1\s+passed\s+1 of 1 point", _row(out, "q1"))
    assert re.fullmatch(r"\s*q3\s+attempts used up\s+0 of 1 point", _row(out, "q3"))


def test_progress_before_the_set_up_cell_says_to_run_it(capsys):
    grading.progress()
    assert capsys.readouterr().out.startswith("progress(): run the set-up cell first")


def test_progress_of_an_unknown_chapter_is_refused():
    with pytest.raises(ValueError, match="unknown chapter 'nope'; known: demo"):
        grading.progress("nope")
    with pytest.raises(TypeError, match="the chapter"):
        grading.progress(3)


def test_progress_is_where_check_and_start_are():
    assert grading.progress is selfcheck.progress
    assert coursekit.exercises.progress is selfcheck.progress
    assert "progress" in grading.__all__ and "progress" in coursekit.exercises.__all__


# --------------------------------------------------------------------------------------------
# progress() in a variant notebook: recorded, never right or wrong


def _variant_progress(capsys, q1: float) -> str:
    formats = {q.qid: variantcheck.answer_format(q) for q in _questions()}
    variantcheck.start(CHAPTER, formats)
    variantcheck.check("q1", q1)
    variantcheck.check("q2", "0.13")  # a text: format to fix
    variantcheck.check("q3", "a")
    variantcheck.check("q6", ...)
    capsys.readouterr()
    grading.progress()  # coursekit.grading's progress() follows the variant's set-up cell
    return capsys.readouterr().out


def test_a_variants_progress_says_recorded_never_right_or_wrong(capsys):
    right = _variant_progress(capsys, 0.6667)
    assert "on your own data" in right.splitlines()[0]
    assert re.fullmatch(r"\s*q1\s+recorded\s+1 point", _row(right, "q1"))
    assert re.fullmatch(r"\s*q2\s+format to fix\s+2 points", _row(right, "q2"))
    assert re.fullmatch(r"\s*q3\s+recorded\s+1 point", _row(right, "q3"))
    assert re.fullmatch(r"\s*q5\s+not answered\s+1 point", _row(right, "q5"))
    assert re.fullmatch(r"\s*q6\s+not answered\s+2 points", _row(right, "q6"))
    assert right.splitlines()[-1] == (
        "Recorded: 2 of 6 answers (points are given when graded: 9 in all)."
    )
    for verdict in ("passed", "not right", "wrong", " of 1 point"):
        assert verdict not in right
    # a wrong answer of the right format: word for word the same
    assert _variant_progress(capsys, 0.1) == right
    # variantcheck.progress itself, as a variant's cells import it
    variantcheck.progress()
    assert capsys.readouterr().out == right


def test_a_variants_progress_before_its_set_up_cell(capsys):
    variantcheck.progress()
    assert capsys.readouterr().out.startswith("progress(): run the set-up cell first")


def test_the_public_set_up_cell_takes_progress_back(capsys):
    _variant_progress(capsys, 0.6667)
    grading.start(CHAPTER)
    capsys.readouterr()
    grading.progress()
    assert capsys.readouterr().out.startswith("Chapter demo, from the check() calls")


def test_a_variant_imports_progress_from_the_variant_check():
    cells = (
        "from coursekit.grading import progress\n"
        "from coursekit.grading import check, start, progress\n"
        "from coursekit.grading import check\n"
    )
    assert variantcheck.IMPORT.sub(r"from coursekit.grading.variantcheck import \1", cells) == (
        "from coursekit.grading.variantcheck import progress\n"
        "from coursekit.grading.variantcheck import check, start, progress\n"
        "from coursekit.grading.variantcheck import check\n"
    )


# --------------------------------------------------------------------------------------------
# The time limit per case


def _loop(n):
    while True:
        n += 1


def _swallows(n):
    try:
        while True:
            n += 1
    except BaseException:  # a student catching everything: still reported as too long
        return 0.5


def test_a_looping_function_is_stopped_after_its_time():
    for func in (_loop, _swallows):
        started = time.monotonic()
        assert judging.call_limited(func, [0], 0.2) == (
            "raised TimeoutError: ran longer than 0.2 s"
        )
        assert time.monotonic() - started < 1.5


def test_the_alarm_handler_and_timer_in_place_are_put_back():
    def theirs(signum, frame):
        raise AssertionError("their timer fired during the test")

    previous = signal.signal(signal.SIGALRM, theirs)
    try:
        signal.setitimer(signal.ITIMER_REAL, 30)
        assert judging.call_limited(_loop, [0], 0.1).startswith("raised TimeoutError")
        assert signal.getsignal(signal.SIGALRM) is theirs
        left, interval = signal.getitimer(signal.ITIMER_REAL)
        assert 25 < left < 30 and interval == 0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    # no timer left behind when there was none
    judging.call_limited(_loop, [0], 0.05)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_check_names_the_case_that_looped(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(selfcheck, "CASE_SECONDS", 0.3)
    grading.start(CHAPTER)
    started = time.monotonic()
    grading.check("q6", written(tmp_path, LOOPS_ON_ZERO))
    assert time.monotonic() - started < 3
    said = capsys.readouterr().out.splitlines()[-1]
    assert said == (
        "q6: on the case 'zero precision' (input: 0.0, 0.5) your function raised TimeoutError: "
        "ran longer than 0.3 s and was stopped (a loop that never ends?)"
    )
    grading.progress()
    assert re.fullmatch(
        r"\s*q6\s+not right yet\s+0 of 2 points", _row(capsys.readouterr().out, "q6")
    )


def test_the_self_check_uses_the_graders_two_seconds(tmp_path):
    assert CASE_SECONDS == 2
    spec = _questions()[5].public(CHAPTER)
    started = time.monotonic()
    message = judging.judge_function_here(spec, written(tmp_path, LOOPS_ON_ZERO))
    assert 1.9 < time.monotonic() - started < 6
    assert "on the case 'zero precision'" in message and "ran longer than 2 s" in message


def test_per_case_the_cases_after_a_loop_still_count(tmp_path):
    spec = Function(
        "q7",
        "f_measure",
        "coursekit:f_measure",
        [("zero", [0.0, 0.5]), ("equal", [0.5, 0.5]), ("half", [0.5, 1.0])],
        points=3,
        partial=PER_CASE,
    ).public(CHAPTER)
    message, share = judging.judge_function_points(
        spec, written(tmp_path, LOOPS_ON_ZERO), None, 0.2
    )
    # zero loops; equal (F1 = 0.5) and half (F1 = 1 / 1.5) pass: 2 of 3, 2 of 3 points
    assert share == pytest.approx(2 / 3)
    assert message.startswith("q7: 2 of 3 cases passed (2 of 3 points); on the case 'zero'")


def test_outside_the_main_thread_check_says_it_cannot_stop_a_loop(capsys, tmp_path):
    grading.start(CHAPTER)
    func = written(tmp_path, F1_IGNORING_BETA)
    thread = threading.Thread(target=grading.check, args=("q6", func))
    thread.start()
    thread.join(10)
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == (
        "q6: (no time limit here (check() runs outside the main thread): if this cell does not "
        "end, a loop of your function never ends: interrupt the kernel and look at your loops)"
    )
    assert lines[-1] == "q6: passed"  # F1 is all q6 asks
