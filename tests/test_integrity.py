"""Signs of copying reported to the lecturer (``OUT/integrity.csv``, coursekit.grading.integrity).

Unit tests of the normalised comparison of functions and of the own-data comparison on
hand-made expected values, then one grading run of chapter 03 with a roster of three: ben
hands in amy's notebook (her data, her answers, his id in its metadata, her function with its
names changed), cat is honest. The expected rows are written out here by hand, and the
copied questions are found by comparing amy's and ben's expected values directly.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from coursekit.grading import integrity, variants
from coursekit.grading.grader import load_keys
from coursekit.grading.questions import Function, Value
from coursekit.grading.report import Grade, feedback_name, write_feedback
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "03_ap_map"
KEYS = ROOT / "solutions" / "keys"
UNSAFE = (
    ["--unsafe-no-sandbox"]
    if sandbox_available() is not None and os.environ.get("COURSEKIT_REQUIRE_SANDBOX") != "1"
    else []
)

LOOP = '''
def average_precision(rels, n_relevant):
    """AP by a loop over the ranks."""
    if not n_relevant:
        return 0.0
    total = 0.0
    hits = 0
    for i in range(len(rels)):
        if rels[i] > 0:
            hits = hits + 1
            total = total + hits / (i + 1)
    return total / n_relevant
'''
#: LOOP with other names, comments, blank lines and spacing, and another docstring
LOOP_RENAMED = """
def average_precision(ranking, n):
    # my own work
    if not n:
        return 0.0

    s = 0.0
    found = 0
    for k in range(len(ranking)):      # every rank
        if ranking[k] > 0:
            found = found + 1
            s = s + found / (k + 1)
    return s / n
"""
COMPREHENSION = '''
def average_precision(rels, n_relevant):
    """AP from the ranks of the relevant documents."""
    if n_relevant == 0:
        return 0.0
    ranks = [rank for rank, grade in enumerate(rels, start=1) if grade >= 1]
    return sum(hit / rank for hit, rank in enumerate(ranks, start=1)) / n_relevant
'''
#: the solution notebook's function, its names changed
SOLUTION_RENAMED = """
def average_precision(r, n):
    if n == 0:
        return 0.0
    hits, acc = 0, 0.0
    for pos, g in enumerate(r, start=1):
        if g >= 1:
            hits += 1
            acc += hits / pos
    return acc / n
"""
GAIN = "def gain_percent(a, b):\n    return 100.0 * (a - b) / b\n"
AP = Function("q9", "average_precision", "coursekit:average_precision", cases=[])


def _graded(submission: str, chapter: str = "ch", **answers) -> Grade:
    return Grade(submission, chapter, answers=answers)


def _who(grade: Grade) -> str:
    return grade.submission


# --------------------------------------------------------------------------------------------
# Functions


def test_renamed_names_and_layout_are_seen_through():
    assert integrity.normalised_tokens(LOOP) == integrity.normalised_tokens(LOOP_RENAMED)
    tokens = integrity.normalised_tokens(LOOP)
    assert "hits" not in tokens and "NUM" in tokens and "range" in tokens  # builtins kept
    assert integrity.normalised_tokens("def f(:\n") is None


def test_two_different_correct_implementations_are_not_alike():
    ratio = integrity.similarity(
        integrity.normalised_tokens(LOOP), integrity.normalised_tokens(COMPREHENSION)
    )
    assert ratio < integrity.SIMILAR


def test_a_renamed_copy_is_reported_and_an_honest_classmate_is_not():
    grades = [
        _graded("amy", q9=LOOP),
        _graded("ben", q9=LOOP_RENAMED),
        _graded("cat", q9=COMPREHENSION),
    ]
    rows = integrity.function_evidence(grades, [AP], {}, _who)
    assert rows == [["amy", "ben", "function source", "q9", "q9: 1.00 alike once normalised"]]


def test_functions_near_the_reference_solution_are_no_evidence():
    refs = {"q9": integrity.references(AP, ROOT / "solutions", CHAPTER)}
    assert len(refs["q9"]) == 2  # the solution notebook's function and coursekit's
    grades = [_graded("amy", q9=SOLUTION_RENAMED), _graded("ben", q9=SOLUTION_RENAMED)]
    assert integrity.function_evidence(grades, [AP], refs, _who) == []
    assert integrity.function_evidence(grades, [AP], {}, _who) != []  # without the reference


def test_tiny_functions_are_not_compared():
    gain = Function("q9", "gain_percent", "coursekit:average_precision", cases=[])
    grades = [_graded("amy", q9=GAIN), _graded("ben", q9=GAIN)]
    assert integrity.function_evidence(grades, [gain], {}, _who) == []


# --------------------------------------------------------------------------------------------
# Own-data answers, on hand-made expected values

KEY = [Value("q1", 0.5), Value("q2", ["d1", "d2", "d3"]), Value("q3", 7), AP]
#: each student's expected values (q3: amy and cat share theirs)
VARIANTS = {
    "amy": [Value("q1", 0.123456), Value("q2", ["d3", "d1", "d2"]), Value("q3", 4)],
    "ben": [Value("q1", 0.654321), Value("q2", ["d2", "d3", "d1"]), Value("q3", 5)],
    "cat": [Value("q1", 0.987654), Value("q2", ["d1", "d3", "d2"]), Value("q3", 4)],
}


def _marked(grade: Grade, right: set[str]) -> Grade:
    for q in KEY:
        passed = q.qid in right
        grade.questions[q.qid] = {
            "points": float(passed),
            "max": 1.0,
            "message": f"{q.qid}: passed" if passed else f"{q.qid}: not right yet (hint: x)",
        }
    return grade


def test_answers_of_a_classmates_data_or_the_public_data_are_reported():
    ben = _marked(_graded("ben", q1=0.12346, q2=["d3", "d1", "d2"], q3=4), set())
    cat = _marked(_graded("cat", q1=0.987654, q2=["d1", "d2", "d3"], q3=4), {"q1", "q3"})
    dan = _marked(_graded("dan", q1=0.1234, q2=["D3", "d1", "d2"], q3=6), set())
    rows, flagged = integrity.own_data_evidence([ben, cat, dan], KEY, VARIANTS, _who)
    assert rows == [
        [
            "ben",
            "amy",
            "own-data answer of b",
            "q1 q2 q3",
            "3 of 3 own-data answers equal the expected values of amy's data, not ben's; "
            "weak: q3 (a value 2 sources give)",
        ],
        [
            "ben",
            "cat",
            "own-data answer of b",
            "q3",
            "1 of 3 own-data answers equal the expected values of cat's data, not ben's; "
            "weak: q3 (a value 2 sources give)",
        ],
        [
            "cat",
            "",
            "public data",
            "q2",
            "1 of 3 own-data answers equal the expected values of the public exercise's data, "
            "not cat's",
        ],
    ]
    # ben's q1 (0.12346 is amy's 0.123456 to 4 decimals) and q2; not q3, whose value two
    # variants give; cat's copied q2 (the public one); dan's answers are near, not equal
    assert flagged == {0: {"q1", "q2"}, 1: {"q2"}}


def test_a_slips_hint_is_kept_and_without_variants_nothing_is_compared():
    ben = _marked(_graded("ben", q1=0.123456), set())
    ben.questions["q1"]["message"] = "q1: not right yet: divide by n"
    rows, flagged = integrity.own_data_evidence([ben], KEY, VARIANTS, _who)
    assert [row[:4] for row in rows] == [["ben", "amy", "own-data answer of b", "q1"]]
    assert flagged == {}
    assert integrity.own_data_evidence([ben], KEY, {}, _who) == ([], {})


def test_recorded_answers_are_capped_and_kept_out_of_the_feedback(tmp_path):
    log = {
        "q1": {"value": 0.5},
        "q2": {"value": ["d1"] * 10_000},  # too long to carry
        "q9": {"source": LOOP},
        "q99": {"value": 1},  # no such question
        "q3": {"unreadable": "TypeError"},
    }
    answers = integrity.recorded(log, KEY)
    assert answers == {"q1": 0.5, "q9": LOOP}
    grade = _marked(Grade("amy", "ch", answers=answers), {"q1"})
    assert "answers" not in grade.as_dict()
    write_feedback(grade, tmp_path)
    text = (tmp_path / "feedback" / f"{feedback_name('amy')}.json").read_text(encoding="utf-8")
    assert "hits" not in text and json.loads(text)["total"] == 1.0


HEADER = "chapter,student_a,student_b,kind,questions,evidence\n"


def test_nothing_found_gives_the_header_only(tmp_path):
    grades = [_marked(_graded("amy", q1=0.5, q9=LOOP), {"q1", "q9"})]
    assert integrity.write_report(grades, tmp_path, {"ch": KEY}) == []
    assert (tmp_path / "integrity.csv").read_text(encoding="utf-8") == HEADER


def test_without_variants_functions_are_still_compared(tmp_path):
    grades = [
        _marked(_graded("=amy", q1=0.25, q9=LOOP), {"q9"}),
        _marked(_graded("ben", q1=0.25, q9=LOOP_RENAMED), {"q9"}),
        _marked(_graded("cat", "other"), set()),  # a chapter without a key: said, not raised
    ]
    assert integrity.write_report(grades, tmp_path, {"ch": KEY}) == []
    assert (tmp_path / "integrity.csv").read_text(encoding="utf-8") == HEADER + (
        "ch,'=amy,ben,function source,q9,q9: 1.00 alike once normalised\n"
        "other,,,error,,not checked: KeyError: 'other'\n"
    )


# --------------------------------------------------------------------------------------------
# A grading run: ben hands in amy's notebook, cat is honest

ROSTER = ["amy", "ben", "cat"]
SECRET = b"yU3m0v4Xq9b2Lr7tPz1cWk5sNd8eHf6gJa0iOx2Rq4M="
CELL = '# BEGIN SOLUTION\n{}\n# END SOLUTION\ncheck("q9", average_precision)'


def _notebook(data_of: str, handed_as: str, function: str):
    notebook = nbformat.read(ROOT / "solutions" / f"{CHAPTER}.ipynb", as_version=4)
    generator = variants.key_generator(KEYS, CHAPTER)
    notebook = variants.personalise(notebook, CHAPTER, data_of, generator, SECRET)
    notebook.metadata["coursekit"]["student"] = handed_as
    cell = next(c for c in notebook.cells if 'check("q9"' in c.source)
    cell.source = CELL.format(function.strip())
    return notebook


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    base = tmp_path_factory.mktemp("integrity")
    secret = base / "secret"
    secret.write_bytes(SECRET + b"\n")
    os.chmod(secret, 0o600)
    (base / "students.csv").write_text("id\n" + "\n".join(ROSTER) + "\n", encoding="utf-8")
    handed = {
        "amy": _notebook("amy", "amy", COMPREHENSION),
        "ben": _notebook("amy", "ben", COMPREHENSION.replace("rank", "r").replace("hit", "h")),
        "cat": _notebook("cat", "cat", LOOP),
    }
    for student, notebook in handed.items():
        (base / "subs" / student).mkdir(parents=True)
        nbformat.write(notebook, base / "subs" / student / f"{CHAPTER}.ipynb")
    done = subprocess.run(
        [sys.executable, "-m", "coursekit.grade", str(base / "subs"), "--out", str(base / "out")]
        + ["--jobs", "2", "--keys", str(KEYS), "--secret-file", str(secret)]
        + ["--roster", str(base / "students.csv"), *UNSAFE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return base / "out"


def _copied() -> list[str]:
    """The own-data questions whose expected value differs between amy's and ben's data."""
    generator = variants.key_generator(KEYS, CHAPTER)
    expected = {
        s: {
            q.qid: q.expected
            for q in variants.variant(generator, SECRET, CHAPTER, s)[1]
            if isinstance(q, Value)
        }
        for s in ("amy", "ben")
    }

    def text(value):  # numbers to the 4 decimals graded, ids as they are
        values = value if isinstance(value, list) else [value]
        return [f"{v:.4f}" if isinstance(v, float) else v for v in values]

    own = [q.qid for q in load_keys(KEYS)[CHAPTER] if isinstance(q, Value)]
    return [q for q in own if text(expected["amy"][q]) != text(expected["ben"][q])]


def _feedback(out: Path, student: str) -> dict:
    path = out / "feedback" / f"{feedback_name(f'{student}/{CHAPTER}')}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_copy_is_reported_and_the_honest_student_is_not(run):
    copied = _copied()
    assert len(copied) >= 3  # q1, q2, q4, q5 on these data: a copy is plain to see
    with open(run / "integrity.csv", encoding="utf-8", newline="") as f:
        rows = [[row[c] for c in integrity.COLUMNS] for row in csv.DictReader(f)]
    assert [row[:5] for row in rows] == [
        [CHAPTER, "amy", "ben", "function source", "q9"],
        [CHAPTER, "ben", "amy", "own-data answer of b", " ".join(copied)],
    ]


def test_the_copiers_feedback_says_not_computed_on_your_data(run):
    ben, cat, copied = _feedback(run, "ben"), _feedback(run, "cat"), _copied()
    for qid, record in ben["questions"].items():
        assert ("not computed on your data" in record["message"]) == (qid in copied), qid
    assert cat["total"] == cat["max"] > 0
    assert not any("not computed" in r["message"] for r in cat["questions"].values())
