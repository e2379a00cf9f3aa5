"""Exercise notebooks are generated from the solutions; the self-check judges without
revealing. Expected values in these tests are derived by hand in the comments."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

from coursekit.grading import (
    Choice,
    Function,
    Value,
    check,
    judge_value,
    judging,
    portable,
    questions,
    selfcheck,
    session,
)
from coursekit.grading import build as exercise_build

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
KEYS = sorted((ROOT / "solutions" / "keys").glob("[0-9][0-9]_*.py"))


# --------------------------------------------------------------------------------------------
# One source: exercises/ and checks.json follow solutions/


def test_every_chapter_has_a_solution_a_key_and_an_exercise():
    assert SOLUTIONS, "no solution notebook"
    assert [p.stem for p in SOLUTIONS] == [p.stem for p in KEYS]
    assert [p.name for p in SOLUTIONS] == sorted(
        p.name for p in (ROOT / "exercises").glob("*.ipynb")
    )
    chapters = {p.stem[:2] for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")} - {"00"}
    assert chapters <= {p.stem[:2] for p in SOLUTIONS}


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_exercise_notebook_is_up_to_date(path):
    expected = exercise_build.exercise_notebook(nbformat.read(path, as_version=4), path.name)
    committed = nbformat.read(ROOT / "exercises" / path.name, as_version=4)
    assert [(c.cell_type, c.source) for c in committed.cells] == [
        (c.cell_type, c.source) for c in expected.cells
    ], "exercises/ is out of date: run `python -m coursekit.exercises build`"
    code = [c for c in committed.cells if c.cell_type == "code"]
    assert all(not c.outputs and c.execution_count is None for c in code), "outputs not cleared"
    # nbval runs every cell of the exercise (no error allowed) without comparing outputs
    assert all(c.metadata.get("tags") == ["nbval-ignore-output"] for c in code)


def test_checks_json_is_up_to_date():
    committed = json.loads(questions.CHECKS_PATH.read_text(encoding="utf-8"))
    assert committed == exercise_build.checks_data(ROOT), (
        "coursekit/data/exercises/checks.json is out of date: run "
        "`python -m coursekit.exercises build`"
    )


@pytest.mark.parametrize("path", KEYS, ids=[p.stem for p in KEYS])
def test_each_chapter_has_6_to_10_checked_questions_of_several_kinds(path):
    questions = exercise_build.load_key(path)
    assert 6 <= len(questions) <= 10
    kinds = {type(q) for q in questions}
    assert Function in kinds and Value in kinds and Choice in kinds
    solution = (ROOT / "solutions" / f"{path.stem}.ipynb").read_text(encoding="utf-8")
    for q in questions:
        assert f'check(\\"{q.qid}\\",' in solution, f"{q.qid} is never checked"


def _clear_values(questions) -> list[str]:
    """Texts that would reveal an expected number: full repr and 4 decimals, for values
    that are not round (0.5 or 0.25 appear innocently in data)."""
    texts = []
    for q in questions:
        if isinstance(q, Value):
            items = q.expected if isinstance(q.expected, (list, tuple)) else [q.expected]
            for v in items:
                if isinstance(v, float) and abs(v * 100 - round(v * 100)) > 1e-9:
                    texts += [repr(v), f"{v:.4f}"]
    return texts


@pytest.mark.parametrize("path", KEYS, ids=[p.stem for p in KEYS])
def test_expected_values_are_not_stored_in_clear(path):
    texts = _clear_values(exercise_build.load_key(path))
    exercise = (ROOT / "exercises" / f"{path.stem}.ipynb").read_text(encoding="utf-8")
    checks = questions.CHECKS_PATH.read_text(encoding="utf-8")
    for text in texts:
        assert text not in exercise and text not in checks, text


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_no_solution_left_in_the_exercise(path):
    exercise = nbformat.read(ROOT / "exercises" / path.name, as_version=4)
    for cell in exercise.cells:
        assert "SOLUTION" not in cell.source
        assert not cell.get("outputs") or all(
            "passed" not in "".join(o.get("text", "")) for o in cell.outputs
        )


# --------------------------------------------------------------------------------------------
# Building: placeholders and markers


def test_placeholder_keeps_names_and_signatures_only():
    block = "p = 3 / 4\ndef ap(rels, n):\n    'AP.'\n    return 1.0\nfor i in range(3):\n    p += i"
    text = exercise_build.placeholder(block)
    assert "3 / 4" not in text and "return 1.0" not in text and "range" not in text
    assert text.startswith("p = ...") and "def ap(rels, n):" in text
    assert "raise NotImplementedError" in text


def test_placeholder_keeps_imports():
    text = exercise_build.placeholder(
        "import math\nfrom statistics import fmean as mean\nx = math.sqrt(mean([1, 3]))"
    )
    assert text.splitlines() == [
        "import math",
        "from statistics import fmean as mean",
        "",
        "x = ...  # your answer",
    ]


@pytest.mark.parametrize(
    "source, problem",
    [
        ("# BEGIN SOLUTION\nx = 1\n", "never closed"),
        ("x = 1\n# END SOLUTION\n", "without # BEGIN SOLUTION"),
        ("# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION", "inside another"),
    ],
)
def test_unbalanced_markers_name_the_cell_and_line(source, problem):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    with pytest.raises(ValueError, match=problem) as error:
        exercise_build.exercise_notebook(notebook, "demo.ipynb")
    assert "demo.ipynb, cell 0" in str(error.value)


def test_markdown_answers_are_replaced():
    cell = nbformat.v4.new_markdown_cell(
        "Why?\n\n<!-- BEGIN SOLUTION -->\nBecause.\n<!-- END SOLUTION -->"
    )
    notebook = nbformat.v4.new_notebook(cells=[cell])
    text = exercise_build.exercise_notebook(notebook, "demo.ipynb").cells[0].source
    assert "Because" not in text and exercise_build.MD_PLACEHOLDER in text


# --------------------------------------------------------------------------------------------
# Judging values: one line saying what is wrong

# 5 of 6 relevant documents found in the first 7: AP-like value 0.8333... = 5/6
SPEC = Value("q", 5 / 6, low=0, high=1, hint="h").public("test")
LIST = Value("q", [0.5, 2 / 3, 0.75], low=0, high=1).public("test")
IDS = Value("q", ["d3", "d1", "d2"]).public("test")
CHOICE = Choice("q", "c", options="abc").public("test")


@pytest.mark.parametrize(
    "spec, answer, message",
    [
        (SPEC, 5 / 6, "q: passed"),
        (SPEC, 0.8333, "q: passed"),
        (SPEC, 0.83333333, "q: passed"),
        (SPEC, 0.833, "right to 3 decimals only"),
        (SPEC, 0.83, "right to 2 decimals only"),
        (SPEC, 0.8, "q: not right yet (hint: h)"),
        (SPEC, 1.2, "out of range: the answer lies between 0 and 1"),
        (SPEC, float("nan"), "nan (not a number)"),
        (SPEC, "0.8333", "expected a number, got str"),
        (SPEC, True, "expected a number, got bool"),
        (SPEC, ..., "not answered yet"),
        (LIST, [0.5, 2 / 3, 0.75], "q: passed"),
        (LIST, (0.5, 0.6667, 0.75), "q: passed"),
        (LIST, [0.5, 0.6667], "expected a list of 3 elements, got 2"),
        (LIST, [0.5, 0.6, 0.75], "element 1 (0.6) is not right"),
        (LIST, [0.5, 0.67, 0.75], "right to 2 decimals only"),
        (LIST, "0.5", "expected a list of numbers, got str"),
        (LIST, [0.5, "x", 0.75], "element 1 should be a number, got str"),
        (IDS, ["d3", "d1", "d2"], "q: passed"),
        (IDS, ["d3", "d2", "d1"], "element 1 ('d2') is not right"),
        (IDS, ["D3", "d1", "d2"], "element 0 ('D3') is not right"),  # ids keep their case
        (IDS, [" d3", "d1", "d2 "], "q: passed"),
        (CHOICE, "c", "q: passed"),
        (CHOICE, " C ", "q: passed"),
        (CHOICE, "b", "q: not this one"),
        (CHOICE, "e", "answer one of 'a', 'b', 'c', got 'e'"),
        (CHOICE, 3, "expected one letter as a string, got int"),
    ],
)
def test_judge_value_messages(spec, answer, message):
    assert message in judge_value(spec, answer)


def test_numpy_answers_are_accepted():
    np = pytest.importorskip("numpy")
    assert judge_value(SPEC, np.float64(5 / 6)) == "q: passed"
    assert judge_value(LIST, np.array([0.5, 2 / 3, 0.75])) == "q: passed"


def test_whole_numbers():
    spec = Value("q", [6, 4, 2, 28]).public("test")
    assert judge_value(spec, [6, 4, 2, 28]) == "q: passed"
    assert judge_value(spec, [6.0, 4.0, 2.0, 28.0]) == "q: passed"
    assert "element 3 (27) is not right" in judge_value(spec, [6, 4, 2, 27])


def test_the_message_never_holds_the_expected_value():
    spec = Value("q", 0.7142857142857143, low=0, high=1).public("test")  # 5/7
    for answer in (0.1, 0.71, 0.714, [1], "x", 2.0):
        assert "0.714285" not in judge_value(spec, answer)
        assert "0.7143" not in judge_value(spec, answer)


def test_rounding_boundary_counts_its_neighbour():
    # 0.12345 rounds to 0.1234 or 0.1235 depending on its last binary digit; a value computed
    # another way (0.1 + 0.02345) must pass as well
    spec = Value("q", 0.12345).public("test")
    assert judge_value(spec, 0.1 + 0.02345) == "q: passed"


def test_a_tie_rounded_up_is_right_to_its_decimals():
    # 0.625 is exact in binary: Python writes it 0.62 to 2 decimals (half to even), a student
    # 0.63 (half up). Both are right to 2 decimals; neither passes at 4
    spec = Value("q", 0.625, low=0, high=1, hint="h").public("test")
    assert "right to 2 decimals only" in judge_value(spec, 0.63)
    assert "right to 2 decimals only" in judge_value(spec, 0.62)
    assert judge_value(spec, 0.6250) == "q: passed"
    assert judge_value(spec, 0.64) == "q: not right yet (hint: h)"


def test_an_answer_cut_rather_than_rounded_is_told_so():
    # 5/9 = 0.55556: 0.5555 gives 4 decimals but is cut, right to 3 only; 0.556 gives 3
    spec = Value("q", 5 / 9, low=0, high=1).public("test")
    cut = judge_value(spec, 0.5555)
    assert cut.startswith("q: right to 3 decimals only, though you give 4 or more")
    assert "keep full precision" in cut
    assert judge_value(spec, 0.556) == (
        "q: right to 3 decimals only: give at least 4 decimals (do not round before the end)"
    )


# --------------------------------------------------------------------------------------------
# Judging functions: tried on inputs, compared with coursekit

FUNC = Function(
    "q",
    name="ap",
    reference="coursekit:average_precision",
    cases=[
        ("two relevant", [[1, 0, 1], 2]),
        ("edge case: no relevant document", [[0, 0], 0]),
        ("edge case: empty ranking", [[], 3]),
    ],
).public("test")


def ap_right(rels, n_relevant):
    if n_relevant == 0:
        return 0.0
    found, total = 0, 0.0
    for rank, rel in enumerate(rels, start=1):
        if rel:
            found += 1
            total += found / rank
    return total / n_relevant


def ap_divides_by_zero(rels, n_relevant):
    found, total = 0, 0.0
    for rank, rel in enumerate(rels, start=1):
        if rel:
            found += 1
            total += found / rank
    return total / n_relevant


def ap_wrong(rels, n_relevant):
    return sum(rels) / max(len(rels), 1)


def ap_not_written(rels, n_relevant):
    raise NotImplementedError("write this function")


def ap_with_coursekit(rels, n_relevant):
    return judging.reference_function("coursekit:average_precision")(rels, n_relevant)


def test_judge_function_passes_a_right_function():
    # (1/1 + 2/3) / 2 = 0.8333 on the first case, 0 on both edge cases
    assert judging.judge_function_here(FUNC, ap_right) == "q: passed"


@pytest.mark.parametrize(
    "func, message",
    [
        (
            ap_divides_by_zero,
            "on the case 'edge case: no relevant document' (input: [0, 0], 0) your function "
            "raised ZeroDivisionError",
        ),
        (
            ap_wrong,
            "wrong on the case 'two relevant' (input: [1, 0, 1], 2): your function returned 0.666",
        ),
        (ap_not_written, "not answered yet"),
        (ap_with_coursekit, "write it without coursekit"),
        (42, "expected the function ap itself, got int"),
        (..., "not answered yet"),
    ],
)
def test_judge_function_says_what_is_wrong(func, message):
    assert message in judging.judge_function_here(FUNC, func)


def _helper_square(x):
    return x * x


def uses_a_helper(values):
    return math.fsum(_helper_square(v) for v in values)


def test_function_source_is_self_contained():
    source = portable.function_source(uses_a_helper)
    assert "import math as math" in source and "def _helper_square" in source
    namespace: dict = {}
    exec(source, namespace)
    assert namespace["uses_a_helper"]([1.0, 2.0]) == 5.0  # 1 + 4


GRADES_SEEN = {"relevant": [1, 2], "cut": 3}  # a global dict and list, read by a function
WEIGHTS = np.array([1.0, 2.0])  # a global array: cannot be written into source as a literal
size = np.zeros(2)  # a global array that shares its name with an attribute


def ap_reads_global_dict(rels, n_relevant):
    if n_relevant == 0:
        return 0.0
    found, total = 0, 0.0
    for rank, rel in enumerate(rels, start=1):
        if rel in GRADES_SEEN["relevant"]:
            found += 1
            total += found / rank
    return total / n_relevant


def ap_reads_global_array(rels, n_relevant):
    return ap_right(rels, n_relevant) * WEIGHTS[0]


def ap_reads_attribute_named_like_a_global(rels, n_relevant):
    return ap_right(rels, n_relevant) if np.asarray(rels).size >= 0 else -1.0


def test_a_function_reading_a_global_dict_passes_here_and_in_the_grader():
    # the self-check judges the copy the grader will run: both must see GRADES_SEEN
    assert judging.judge_function_here(FUNC, ap_reads_global_dict) == "q: passed"
    source = portable.function_source(ap_reads_global_dict)
    assert "GRADES_SEEN = {'relevant': [1, 2], 'cut': 3}" in source
    namespace: dict = {}
    exec(source, namespace)
    # (1/1 + 2/3) / 2 by hand, as in test_judge_function_passes_a_right_function
    assert namespace["ap_reads_global_dict"]([1, 0, 1], 2) == pytest.approx((1 + 2 / 3) / 2)


def test_a_function_reading_a_global_array_is_refused_with_its_name():
    message = judging.judge_function_here(FUNC, ap_reads_global_array)
    assert message.startswith("q: your function reads the global variable 'WEIGHTS' (a ndarray)")
    with pytest.raises(ValueError, match="'WEIGHTS'"):
        portable.function_source(ap_reads_global_array)


def test_an_attribute_is_not_mistaken_for_a_global():
    # `np.asarray(rels).size` reads the attribute size, not the global array `size`
    assert judging.judge_function_here(FUNC, ap_reads_attribute_named_like_a_global) == "q: passed"


def test_a_lambda_is_refused_with_a_sentence():
    ap_lambda = lambda rels, n_relevant: ap_right(rels, n_relevant)  # noqa: E731
    assert "define it with def" in judging.judge_function_here(FUNC, ap_lambda)


# --------------------------------------------------------------------------------------------
# check(): prints one line, records answers only while grading


def test_check_prints_one_line(capsys):
    selfcheck.start("01_precision_recall")
    capsys.readouterr()
    # 10 retrieved, 5 of them among the 8 relevant (d02 d05 d07 d13 d23): P = 5/10, R = 5/8
    check("q2", 0.5)
    check("q3", 0.5)
    check("q3", 0.625)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "q2: passed"
    assert lines[1].startswith("q3: not right yet")
    assert lines[2] == "q3: passed"


def test_check_names_unknown_questions_and_chapters():
    with pytest.raises(ValueError, match="unknown question 'q99' in chapter 01"):
        check("q99", 1, chapter="01_precision_recall")
    with pytest.raises(ValueError, match="unknown chapter '42_nothing'"):
        selfcheck.start("42_nothing")


def test_check_records_answers_only_when_grading(tmp_path, monkeypatch, capsys):
    log = tmp_path / "answers.jsonl"
    check("q2", 0.5, chapter="01_precision_recall")
    assert not log.exists()
    monkeypatch.setenv(questions.ANSWER_LOG, str(log))
    check("q2", 0.5, chapter="01_precision_recall")
    check("q10", ap_right, chapter="01_precision_recall")
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert entries[0] == {"chapter": "01_precision_recall", "qid": "q2", "value": 0.5}
    assert entries[1]["name"] == "ap_right" and "def ap_right" in entries[1]["source"]
    assert re.search(r"passed|wrong|raised", capsys.readouterr().out)


# --------------------------------------------------------------------------------------------
# Exercises robust to how students run them


def test_a_failing_case_prints_its_label_input_and_hint_never_the_expected_value():
    spec = Function(
        "q",
        name="ap",
        reference="coursekit:average_precision",
        cases=[("two relevant", [[1, 0, 1], 2])],
        hint="divide by all relevant documents",
    ).public("test")
    # the expected AP is (1/1 + 2/3) / 2 = 0.8333; ap_wrong gives 2/3
    message = judging.judge_function_here(spec, ap_wrong)
    assert message == (
        "q: wrong on the case 'two relevant' (input: [1, 0, 1], 2): your function returned "
        "0.6666666666666666, which is not the expected value (hint: divide by all relevant "
        "documents)"
    )
    assert "0.833" not in message
    # the grader shows the inputs of public cases, not those of hidden ones, nor their outputs
    text = judging.compare_outputs("q", [("hidden: big", 1.0, 2.0)], "h", [None])
    assert text == "q: wrong on the case 'hidden: big': your function returned a value (not " + (
        "shown: a hidden case) that is not the expected value (hint: h)"
    )


def test_a_check_cell_run_before_the_set_up_cell_says_so(monkeypatch, capsys):
    monkeypatch.setitem(session.CURRENT, "chapter", None)  # a fresh kernel
    exercise = nbformat.read(ROOT / "exercises" / "01_precision_recall.ipynb", as_version=4)
    cell = next(c for c in exercise.cells if c.source.endswith('check("q2", p)'))
    exec(cell.source, {})  # run alone, in an empty namespace: no NameError
    assert capsys.readouterr().out == (
        "q2: run the set-up cell first (the first code cell of the notebook, which calls "
        "start(...)), and the cells that set up the data, then this cell again\n"
    )


@pytest.mark.parametrize("path", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_every_check_cell_imports_check_itself(path):
    exercise = exercise_build.exercise_notebook(nbformat.read(path, as_version=4), path.name)
    code = [c.source for c in exercise.cells if c.cell_type == "code"]
    assert sum("start(" in source for source in code) == 1
    for source in code:
        if re.search(r"^check\(", source, re.MULTILINE):
            assert "from coursekit.grading import check\n" in source + "\n", source


def test_the_check_import_goes_after_the_cells_imports():
    cell = 'from math import ceil\n\nimport coursekit as ck\n\nz = ...\ncheck("q6", z)'
    assert exercise_build.with_check_import(cell) == (
        "from math import ceil\n\nimport coursekit as ck\nfrom coursekit.grading import check"
        '\n\nz = ...\ncheck("q6", z)'
    )
    function = 'def f(x):\n    raise NotImplementedError\n\n\ncheck("q9", f)'
    assert exercise_build.with_check_import(function).startswith(
        "from coursekit.grading import check\n\n\ndef f(x):"
    )
    assert exercise_build.with_check_import("x = 1") == "x = 1"
    setup = 'import coursekit as ck\nfrom coursekit.grading import check, start\n\nstart("01")'
    assert exercise_build.with_check_import(setup) == (
        'import coursekit as ck\nfrom coursekit.grading import start\n\nstart("01")'
    )
