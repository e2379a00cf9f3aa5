"""Nothing of a hidden case reaches the student, and the judge's library policy (issue 32).

A student's function sees its hidden inputs (it is called with them) and can read the judge's
memory (the request): it raises them as an exception's text or class name, returns them as
text, reads the judge's folder, its file descriptors and its parent's. The feedback on a hidden
case names its label only, and the judge whose outputs are shown in full (the public cases)
never holds a hidden input. A function written with scipy or scikit-learn, whose question
allows the standard library and numpy, gets no points and a message naming the library.

Unit tests run ``judge.py`` directly (no sandbox); one grader run (module fixture, ``--jobs 2``,
sandboxed) grades the attacks next to honest classmates, who keep full marks.
"""

from __future__ import annotations

import asyncio
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest
from grader_support import run_grader

from coursekit.grading import grader as grade
from coursekit.grading import judging, marking, portable
from coursekit.grading.questions import Function
from coursekit.grading.report import feedback_name
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
JUDGE = ROOT / "coursekit" / "grading" / "judge.py"
KEYS = grade.load_keys(ROOT / "solutions" / "keys")
CH01, CH07 = "01_precision_recall", "07_rank_correlation"
F01 = next(q for q in KEYS[CH01] if q.qid == "q10")  # f_measure
F07 = next(q for q in KEYS[CH07] if q.qid == "q10")  # kendall_tau
UNUSABLE = sandbox_available()
REQUIRED = os.environ.get("COURSEKIT_REQUIRE_SANDBOX") == "1"
NEEDS_SANDBOX = pytest.mark.skipif(
    UNUSABLE is not None and not REQUIRED,
    reason=f"the sandbox cannot run here ({UNUSABLE}); COURSEKIT_REQUIRE_SANDBOX=1 fails instead",
)

# the public cases of f_measure as the function sees them (beta's default filled in)
PUBLIC = [tuple(args) + (1.0,) * (3 - len(args)) for _, args in F01.cases]
HIDDEN = F01.hidden[0][0]  # the label of the first hidden case
INPUT = ", ".join(repr(a) for a in F01.cases[0][1])  # the first public case's input, as shown

# --------------------------------------------------------------------------------------------
# The attacks: functions of chapter 01's q10 and chapter 07's q10

LOOT = '''
def _loot():
    """What the judged code can read of the judge: the request in its memory first, then its
    folder, its file descriptors and every other process's."""
    import gc, glob, json, os
    found = []
    for o in gc.get_objects():
        if isinstance(o, dict) and "functions" in o:
            found.append(json.dumps([c[1] for f in o["functions"] for c in f["cases"]]))
    for path in sorted(glob.glob(os.path.join(os.getcwd(), "**"), recursive=True)):
        found.append(path)
        try:
            with open(path, "rb") as f:
                found.append(f.read(3000).decode(errors="replace"))
        except OSError:
            pass
    for path in glob.glob("/proc/self/fd/*") + glob.glob("/proc/[0-9]*/fd/*"):
        try:
            found.append(os.readlink(path))
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            try:
                found.append(os.read(fd, 3000).decode(errors="replace"))
            finally:
                os.close(fd)
        except OSError:
            pass
    # under the judge's cap of 10,000 characters for a text (what it found first comes first:
    # outside the sandbox, every process's descriptors are many more)
    return " ".join(found)[:9000]
'''

RIGHT = """
    if precision == 0 or recall == 0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)
"""

ATTACKS = {
    # right on the public cases; on a hidden one raises an exception whose class and text
    # spell the input
    "raise-hidden": f'''
def f_measure(precision, recall, beta=1.0):
    """F_beta; on an input the self-check does not know, an error spelling it."""
    if (precision, recall, beta) not in __PUBLIC__:
        text = f"LEAK[{{precision!r}}|{{recall!r}}|{{beta!r}}]"
        name = "E_" + "".join(c if c.isalnum() else "_" for c in text)
        raise type(name, (ValueError,), {{}})(text)
{RIGHT}''',
    # its input as text, on every case
    "return-always": '''
def f_measure(precision, recall, beta=1.0):
    """Its input, as text."""
    return f"LEAK[{precision!r}|{recall!r}|{beta!r}]"
''',
    # right on the public cases; on a hidden one its input and the judge's loot as text
    "return-hidden": f'''{LOOT}

def f_measure(precision, recall, beta=1.0):
    """F_beta; on an input the self-check does not know, it and the judge's loot."""
    if (precision, recall, beta) not in __PUBLIC__:
        return f"LEAK[{{precision!r}}|{{recall!r}}|{{beta!r}}] " + _loot()
{RIGHT}''',
    # the judge's loot raised on every case (what a judge of public cases holds)
    "read-judge": f'''{LOOT}

def f_measure(precision, recall, beta=1.0):
    """The judge's loot, as an error."""
    raise ValueError(_loot())
''',
    # the measure written with a library its question does not allow
    "sklearn": f'''
def f_measure(precision, recall, beta=1.0):
    """F_beta, with scikit-learn at hand."""
    import sklearn  # noqa: F401
{RIGHT}''',
}

SCIPY_TAU = '''
from scipy.stats import kendalltau


def kendall_tau(a, b):
    """Kendall's tau-b by scipy (rankings: lists best first, or dicts item -> score)."""

    def scores(ranking):
        if isinstance(ranking, dict):
            return ranking
        return {item: -position for position, item in enumerate(ranking)}

    sa, sb = scores(a), scores(b)
    return float(kendalltau([sa[i] for i in sa], [sb[i] for i in sa])[0])
'''


def _source(name: str) -> str:
    return ATTACKS[name].replace("__PUBLIC__", repr(PUBLIC))


def _notebook(chapter: str, function: str | None = None) -> nbformat.NotebookNode:
    """The chapter's solution notebook, its q10 cell's function replaced by ``function``."""
    notebook = nbformat.read(ROOT / "solutions" / f"{chapter}.ipynb", as_version=4)
    if function is not None:
        cell = next(c for c in notebook.cells if 'check("q10"' in c.source)
        name = F01.name if chapter == CH01 else F07.name
        cell.source = f'{function.strip()}\n\n\ncheck("q10", {name})'
    return notebook


def _hidden_texts(q: Function) -> list[str]:
    """The hidden inputs of ``q`` written as a function (or the judge's request) would print
    them: each case's arguments by repr and as JSON, the ``LEAK[a|b|c]`` of the attacks, and
    each number of a hidden case that no public case holds."""
    public = {repr(v) for _, args in q.cases for v in args}
    texts = []
    for _, args in q.hidden:
        full = [*args, 1.0][:3] if q is F01 else list(args)
        texts += [repr(list(args)), json.dumps(list(args))]
        texts.append("LEAK[" + "|".join(repr(v) for v in full) + "]")
        texts += [  # (short ones such as 1.0 are in any feedback: points)
            repr(v)
            for v in args
            if isinstance(v, float) and repr(v) not in public and len(repr(v)) >= 4
        ]
    return sorted(set(texts))


# --------------------------------------------------------------------------------------------
# judge.py run directly


def _judge(tmp_path: Path, functions: list[dict], allowed=("numpy",)) -> dict:
    folder = tmp_path / "judge"
    folder.mkdir()
    shutil.copyfile(JUDGE, folder / "judge.py")
    request = {"memory_mb": 2048, "seconds": 5, "allowed": list(allowed), "functions": functions}
    done = subprocess.run(
        [sys.executable, "-I", "judge.py"],
        input=json.dumps(request).encode(),
        capture_output=True,
        cwd=folder,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(os.listdir(folder)) == ["judge.py"]  # no request, no result file
    return json.loads(done.stdout)


def _item(qid: str, source: str, cases: list, name: str = "f") -> dict:
    return {"qid": qid, "name": name, "source": source, "cases": [["c", a] for a in cases]}


def test_the_request_comes_on_stdin_and_the_results_on_stdout(tmp_path):
    noisy = (
        "import os\ndef f(x):\n    print('noise')\n    os.write(1, b'noise')\n    return x * 2\n"
    )
    found = _judge(tmp_path, [_item("q1", noisy, [[1], [2.5]])])
    assert found == {"outputs": {"q1": [2, 5.0]}, "refused": {}}


def test_the_judges_folder_holds_the_judge_only(tmp_path):
    source = LOOT + "\ndef f(x):\n    return _loot()\n"
    secret = [[0.123456789], [0.987654321]]
    loot = _judge(tmp_path, [_item("q1", source, [[0.5]]), _item("q2", "def f(x):\n  0", secret)])
    text = loot["outputs"]["q1"][0]
    assert "judge.py" in text  # the folder was read: it holds the judge only
    # its memory holds the request (the grader gives a judge no hidden case it would show)
    assert "0.123456789" in text


def test_a_refused_library_is_named_and_the_rest_allowed(tmp_path):
    numpy = "import numpy as np\ndef f(x):\n    return float(np.sum(x))\n"
    stdlib = "import statistics\ndef f(x):\n    return statistics.mean(x)\n"
    scipy_top = "from scipy.stats import kendalltau\ndef f(x):\n    return 1\n"
    sklearn_in = "def f(x):\n    import sklearn\n    return 1\n"
    caught = (
        "def f(x):\n    try:\n        import pandas\n    except ImportError:\n        return 0\n"
    )
    by_name = "def f(x):\n    import importlib\n    return str(importlib.import_module('scipy'))\n"
    found = _judge(
        tmp_path,
        [
            _item("numpy", numpy, [[[1, 2]]]),
            _item("stdlib", stdlib, [[[1, 2]]]),
            _item("scipy", scipy_top, [[0]]),
            _item("sklearn", sklearn_in, [[0]]),
            _item("pandas", caught, [[0]]),
            _item("by-name", by_name, [[0]]),
        ],
    )
    assert found["outputs"]["numpy"] == [3.0] and found["outputs"]["stdlib"] == [1.5]
    assert found["refused"] == {
        "scipy": ["scipy"],
        "sklearn": ["sklearn"],
        "pandas": ["pandas"],  # refused even though the function caught the ImportError
        "by-name": ["scipy"],
    }
    assert found["outputs"]["scipy"][0].startswith("raised ModuleNotFoundError: scipy is not")


def test_a_function_removing_the_hook_is_caught_and_the_next_one_meets_it(tmp_path):
    sneaky = (
        "def f(x):\n    import sys\n"
        "    sys.meta_path[:] = [m for m in sys.meta_path if 'judge' not in type(m).__module__"
        " and type(m).__module__ != '__main__']\n"
        "    import scipy.special\n    return 1\n"
    )
    plain = "def f(x):\n    import scipy\n    return 1\n"
    found = _judge(tmp_path, [_item("q1", sneaky, [[0]]), _item("q2", plain, [[0]])])
    assert found["outputs"]["q1"] == [1]  # it ran: the hook was gone
    assert found["refused"]["q1"][0] == "scipy"  # ... but scipy was seen in sys.modules
    assert found["refused"]["q2"] == ["scipy"]  # unloaded again: the next import meets the hook


def test_a_key_can_allow_a_library(tmp_path):
    tau = _item("q10", SCIPY_TAU, [args for _, args in F07.cases], name="kendall_tau")
    found = _judge(tmp_path, [tau], allowed=("numpy", "scipy"))
    assert found["refused"] == {}
    reference = judging.reference_function(F07.reference)
    expected = [portable.call_with_copies(reference, args) for _, args in F07.cases]
    assert found["outputs"]["q10"] == pytest.approx(expected)


def test_the_grader_reads_no_more_than_max_result_bytes(tmp_path, monkeypatch):
    # a function writing to the judge's result pipe (found among its fds): no result at all
    flood = (
        "import os, stat\ndef f(p, r):\n"
        "    for fd in range(3, 64):\n"
        "        try:\n"
        "            if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
        "                os.write(fd, b' ' * 60000)\n"
        "        except OSError:\n"
        "            pass\n"
        "    return 1\n"
    )
    monkeypatch.setattr(marking, "MAX_RESULT_BYTES", 50_000)
    q = Function("q1", "f", "coursekit:f_measure", cases=[("c", [0.5, 0.5])])
    pending = [(q, {"source": flood, "name": "f"})]
    found = asyncio.run(marking.judge_functions(pending, tmp_path, 1024, None))
    assert found == {"q1": None}
    honest = [(q, {"source": "def f(p, r):\n    return 0.5\n", "name": "f"})]
    (tmp_path / "again").mkdir()
    found = asyncio.run(marking.judge_functions(honest, tmp_path / "again", 1024, None))
    assert found == {"q1": marking.Judged([0.5], "")}


# --------------------------------------------------------------------------------------------
# Messages and the self-check


def test_a_hidden_case_shows_its_label_only():
    secret = "raised E_LEAK_0_25_0_9_3_0_: LEAK[0.25|0.9|3.0]"
    for got, shown in [
        (secret, "raised an exception of its own class"),
        ("raised ValueError: LEAK[0.25|0.9|3.0]", "raised ValueError (the text"),
        ("raised TimeoutError: ran longer than 2 s", "raised TimeoutError: ran longer than 2 s"),
        ("LEAK[0.25|0.9|3.0]", "returned a value (not shown: a hidden case)"),
    ]:
        message = judging.compare_outputs("q10", [("hidden: beta = 3", got, 0.4)], "", [None])
        assert "on the case 'hidden: beta = 3'" in message and shown in message, message
        assert "0.25" not in message and "LEAK" not in message
    # a public case keeps its detail
    public = judging.compare_outputs("q10", [("a", "raised ValueError: boom", 1.0)], "", [[0.5]])
    assert public == "q10: on the case 'a' (input: 0.5) your function raised ValueError: boom"


def test_the_self_check_refuses_what_the_judge_refuses():
    spec = F07.public(CH07)
    assert spec.allowed == ("numpy",)
    namespace: dict = {}
    exec(SCIPY_TAU, namespace)
    assert judging.judge_function_here(spec, namespace["kendall_tau"]) == (
        "q10: write it without scipy: the judge allows the standard library and numpy"
    )
    exec(_source("sklearn"), namespace)
    message = judging.judge_function_here(F01.public(CH01), namespace["f_measure"])
    assert (
        message == "q10: write it without sklearn: the judge allows the standard library and numpy"
    )
    assert portable.allowed_words(["scipy", "numpy"]) == "the standard library, numpy and scipy"


def test_a_key_allows_package_names_only():
    for allowed in ("numpy", ["numpy.linalg"], ["coursekit"], [3]):
        with pytest.raises(ValueError, match="key 07, question q: allowed must list"):
            Function("q", "f", "coursekit:kendall_tau", cases=[], allowed=allowed).public("07")


# --------------------------------------------------------------------------------------------
# The attacks graded next to honest classmates


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if UNUSABLE is not None and not REQUIRED:
        pytest.skip(f"the sandbox cannot run here ({UNUSABLE})")
    base = tmp_path_factory.mktemp("judge-hostile")
    subs, out = base / "subs", base / "out"
    subs.mkdir()
    tmp = Path(tempfile.mkdtemp(prefix="ckj", dir="/tmp"))  # short: the kernels' socket paths
    for name in ("honest-a", "honest-b"):
        nbformat.write(_notebook(CH01), subs / f"01-{name}.ipynb")
    nbformat.write(_notebook(CH07), subs / "07-honest.ipynb")
    for name in ATTACKS:
        nbformat.write(_notebook(CH01, _source(name)), subs / f"01-{name}.ipynb")
    nbformat.write(_notebook(CH07, SCIPY_TAU), subs / "07-scipy.ipynb")
    done = run_grader(
        subs, out, ROOT / "solutions" / "keys", env={**os.environ, "TMPDIR": str(tmp)}
    )
    shutil.rmtree(tmp, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-3000:]
    with open(out / "grades.csv", encoding="utf-8") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    return {"out": out, "rows": rows, "subs": sorted(p.stem for p in subs.iterdir())}


def _feedback(run, submission: str) -> dict:
    path = run["out"] / "feedback" / f"{feedback_name(submission)}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _full(chapter: str) -> float:
    return sum(q.points for q in KEYS[chapter])


@NEEDS_SANDBOX
def test_grades_csv_is_complete_and_the_classmates_keep_full_marks(run):
    assert sorted(run["rows"]) == run["subs"]
    for name, chapter in [("01-honest-a", CH01), ("01-honest-b", CH01), ("07-honest", CH07)]:
        row = run["rows"][name]
        assert float(row["total"]) == _full(chapter), (row, _feedback(run, name))


@NEEDS_SANDBOX
@pytest.mark.parametrize("name", [*[f"01-{n}" for n in ATTACKS], "07-scipy"])
def test_no_hidden_input_reaches_the_feedback(run, name):
    q, chapter = (F07, CH07) if name.startswith("07") else (F01, CH01)
    text = json.dumps(_feedback(run, name))
    assert [t for t in _hidden_texts(q) if t in text] == []
    row = run["rows"][name]  # two chapters in grades.csv: columns "chapter:qid"
    assert float(row[f"{chapter}:{q.qid}"]) == 0.0
    assert float(row["total"]) == _full(chapter) - q.points, row


@NEEDS_SANDBOX
@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("01-raise-hidden", f"q10: on the case 'hidden: {HIDDEN}' your function raised an "),
        ("01-return-hidden", f"q10: wrong on the case 'hidden: {HIDDEN}': your function "),
        ("01-return-always", f"q10: wrong on the case '{F01.cases[0][0]}' (input: {INPUT})"),
        ("01-sklearn", "q10: write it without sklearn: the judge allows the standard library"),
        ("07-scipy", "q10: write it without scipy: the judge allows the standard library and"),
    ],
)
def test_the_feedback_says_which_case_or_library(run, name, words):
    message = _feedback(run, name)["questions"]["q10"]["message"]
    assert message.startswith(words), message


@NEEDS_SANDBOX
def test_what_a_judge_of_public_cases_holds_is_public(run):
    # the loot is real (the request in the judge's memory), but holds the public cases only
    message = _feedback(run, "01-read-judge")["questions"]["q10"]["message"]
    assert json.dumps(F01.cases[0][1]) in message, message
