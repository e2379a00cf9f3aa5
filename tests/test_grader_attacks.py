"""Students who want marks they did not earn, against the sandboxed grader: one test per attack.

Most attacks are graded together in one grader run (module fixture, ``--jobs 2``, the answer
keys in a private folder passed with ``--keys``): notebooks that read the answer keys (found
from ``coursekit.__file__``, from the grader's command line in ``/proc``, by searching the
disk), leave daemons (double fork, ``setsid``, ``nohup``) to rewrite grades.csv, feedback and
submissions, pad the classmates' answer logs, read the classmates and the keys and send them
back in their own feedback, fork without end, split a memory hog over children, import
coursekit in a function "written without coursekit", answer inf, nan and 10**400, pad their own
answer log; and files that are links (to the lecturer's solution, to /dev/zero), a FIFO, a
200 MB file, names that a spreadsheet takes for formulas, names that collide once made safe.
Each test asserts the grade (the attack gains nothing); the fixture asserts that SUBMISSIONS
is unchanged, that OUT holds only the grader's files and stays so, and that no process of the
run (marked with a token in its command line or environment) survives it.

The tests need the sandbox (bubblewrap): skipped where it cannot run, unless
``COURSEKIT_REQUIRE_SANDBOX=1`` (CI), which makes them fail instead.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import nbformat
import pytest
from grader_support import run_grader

from coursekit.grading import grade_cli
from coursekit.grading import grader as grade
from coursekit.grading.report import feedback_name
from coursekit.grading.sandbox import sandbox_available

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = "01_precision_recall"
KEY = grade.load_keys(ROOT / "solutions" / "keys")[CHAPTER]
POINTS = {q.qid: q.points for q in KEY}
FULL = sum(POINTS.values())
TOKEN = f"ckattack{uuid.uuid4().hex[:12]}"
SECRET = "SECRET" + TOKEN  # in the private keys (…K) and in a classmate's notebook (…C)
MEMORY_MB = 1024
PROCESSES = 64

UNUSABLE = sandbox_available()
REQUIRED = os.environ.get("COURSEKIT_REQUIRE_SANDBOX") == "1"
pytestmark = pytest.mark.skipif(
    UNUSABLE is not None and not REQUIRED,
    reason=f"the sandbox cannot run here ({UNUSABLE}); COURSEKIT_REQUIRE_SANDBOX=1 fails instead",
)


def _notebook(kind: str) -> nbformat.NotebookNode:
    folder = "solutions" if kind == "solution" else "exercises"
    return nbformat.read(ROOT / folder / f"{CHAPTER}.ipynb", as_version=4)


def _with(kind: str, *cells: str, first: bool = False, replace: dict | None = None):
    """The chapter's solution or exercise with ``cells`` added at the end (or just after the
    set-up cell that calls start())."""
    notebook = _notebook(kind)
    for cell in notebook.cells:
        for old, new in (replace or {}).items():
            cell.source = cell.source.replace(old, new)
    at = len(notebook.cells)
    if first:
        at = next(i for i, c in enumerate(notebook.cells) if "start(" in c.source) + 1
    for offset, source in enumerate(cells):
        notebook.cells.insert(at + offset, nbformat.v4.new_code_cell(source))
    return notebook


# --------------------------------------------------------------------------------------------
# The attacks (cells added to a notebook); __PATHS__ is replaced by the run's real paths: the
# attacker is assumed to know them; __TOKEN__ marks the processes they start

KEYS_ATTACK = r"""
import glob, importlib.util, os, time
from pathlib import Path
import coursekit
places = [Path(coursekit.__file__).resolve().parents[1] / "solutions" / "keys"]
for cmdline in glob.glob("/proc/[0-9]*/cmdline"):  # the grader's --keys
    try:
        args = open(cmdline, "rb").read().split(b"\0")
    except OSError:
        continue
    places += [Path(os.fsdecode(b)) for a, b in zip(args, args[1:]) if a == b"--keys"]
deadline = time.time() + 3
for top in ("/work", "/home", "/root", "/tmp", "/srv", str(Path.home())):  # search the disk
    for folder, dirs, files in os.walk(top):
        if "01_precision_recall.py" in files:
            places.append(Path(folder))
        if time.time() > deadline:
            break
for place in places:
    path = place / "01_precision_recall.py"
    if path.is_file():
        spec = importlib.util.spec_from_file_location("stolen", path)
        key = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(key)
        for q in key.QUESTIONS:
            if hasattr(q, "expected"):
                check(q.qid, q.expected)
        print("STOLEN from", place)
        break
"""

DAEMON = r"""
import glob, os, sys, time
end = time.time() + 45
while time.time() < end:
    for pattern in sys.argv[1:-1]:
        for path in glob.glob(pattern, recursive=True):
            try:
                with open(path, "w") as f:
                    f.write("tampered")
            except OSError:
                pass
    time.sleep(0.2)
"""

DAEMON_ATTACK = r"""
import os, subprocess, sys
code = __CODE__
targets = __PATHS__
env = dict(os.environ, ATTACK_TOKEN=__TOKEN__)
argv = [sys.executable, "-c", code, *targets, __TOKEN__]
subprocess.Popen(["nohup", "setsid", *argv], env=env, stdin=subprocess.DEVNULL,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
pid = os.fork()
if pid == 0:  # double fork, new session
    os.setsid()
    if os.fork() == 0:
        os.execve(sys.executable, argv, env)
    os._exit(0)
os.waitpid(pid, 0)
"""

WATCHER = r"""
import glob, os, sys, time
end = time.time() + 90
padded = set()
while time.time() < end:
    for pattern in sys.argv[1:-1]:
        for path in glob.glob(pattern, recursive=True):
            if path not in padded:
                padded.add(path)
                try:
                    with open(path, "a") as f:
                        f.write(("x" * 1000 + "\n") * 6000)
                except OSError:
                    pass
    time.sleep(0.05)
"""

EXFILTRATE = r"""
import glob, os, re
from pathlib import Path
import coursekit
texts = []
patterns = __PATHS__ + [str(Path(coursekit.__file__).resolve().parents[1] / "solutions/keys/*.py")]
for pattern in patterns:
    for path in glob.glob(pattern, recursive=True):
        try:
            texts.append(open(path, errors="replace").read())
        except OSError:
            pass
found = sorted(set(re.findall("SEC" + "RET" + __TOKEN__ + "[KC]", " ".join(texts))))
check("q8", " ".join(found) or "nothing")
raise RuntimeError(f"read {len(texts)} files: {found}")
"""

FORK_BOMB = r"""
import os
children = 0
try:
    for _ in range(5000):
        if os.fork() == 0:
            os.execv("/bin/sh", ["sh", "-c", "sleep 60; :", __TOKEN__])
        children += 1
except OSError as error:
    raise RuntimeError(f"forks: {children} ({type(error).__name__})")
raise RuntimeError(f"forks: {children} (no limit)")
"""

MEMORY_CHILDREN = r"""
import os, time
kids = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        try:
            block = b"x" * (400 << 20)  # written: the pages are really used
            time.sleep(4)
            os._exit(0)
        except MemoryError:
            os._exit(3)
    kids.append(pid)
codes = [os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in kids]
raise RuntimeError(f"children holding 400 MB: {codes.count(0)}")
"""

# q10 "written without coursekit": removes the import blocker, takes coursekit from the
# kernel when it is there, imports it or finds it on the disk when judged
SNEAKY_FUNCTION = '''def f_measure(precision, recall, beta=1.0):
    """F_beta of a precision and a recall."""
    import importlib, os, sys, time
    sys.meta_path[:] = [f for f in sys.meta_path if "oursekit" not in type(f).__name__]
    name = "course" + "kit"
    ck = sys.modules.get(name)
    if ck is None:
        try:
            ck = importlib.import_module(name)
        except ImportError:
            deadline = time.time() + 0.5
            for top in ("/work", "/usr", sys.prefix, "/tmp", "/home"):
                for folder, dirs, files in os.walk(top):
                    if os.path.basename(folder) == name and "__init__.py" in files:
                        sys.path.insert(0, os.path.dirname(folder))
                        ck = importlib.import_module(name)
                        break
                    if time.time() > deadline:
                        break
    return getattr(ck, "f_" + "measure")(precision, recall, beta)
'''
SOLUTION_FUNCTION = '''def f_measure(precision, recall, beta=1.0):
    """F_beta of a precision and a recall."""
    if precision == 0 or recall == 0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)
'''

PAD_LOG = r"""
import os
with open(os.environ["COURSEKIT_ANSWER_LOG"], "a") as log:
    log.write(("#" * 1000 + "\n") * 6000)
"""


def _fill(code: str, paths: list[str], daemon: str = DAEMON) -> str:
    return (
        code.replace("__CODE__", repr(daemon))
        .replace("__PATHS__", repr(paths))
        .replace("__TOKEN__", repr(TOKEN))
    )


def _tree(folder: Path) -> dict[str, str]:
    """Every entry under ``folder`` (links not followed) with its type and content hash."""
    found = {}
    for top, dirs, files in os.walk(folder):
        for name in [*dirs, *files]:
            path = Path(top) / name
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                found[str(path.relative_to(folder))] = "link:" + os.readlink(path)
            elif stat.S_ISREG(info.st_mode):
                digest = hashlib.sha256()
                with open(path, "rb") as f:
                    while chunk := f.read(1 << 22):
                        digest.update(chunk)
                found[str(path.relative_to(folder))] = digest.hexdigest()
            else:
                found[str(path.relative_to(folder))] = f"mode:{stat.S_IFMT(info.st_mode)}"
    return found


def _marked_processes(*markers: str) -> list[str]:
    """Processes whose command line or environment holds one of ``markers``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        for part in ("cmdline", "environ"):
            try:
                data = (entry / part).read_bytes()
            except OSError:
                continue
            if any(m.encode() in data for m in markers):
                found.append(f"{entry.name}: {data[:200]!r}")
                break
    return found


def _grade(submissions: Path, out: Path, keys: Path, tmp: Path, *extra: str):
    return run_grader(
        submissions,
        out,
        keys,
        "--processes",
        str(PROCESSES),
        *extra,
        memory_mb=MEMORY_MB,
        timeout=900,
        env={**os.environ, "TMPDIR": str(tmp)},
    )


DISK_FILL = r"""
import os
block = b"x" * (1 << 20)
os.makedirs("deep/er", exist_ok=True)
for i in range(4000):  # 4 GB in files of 16 MB, under the limit of a file (RLIMIT_FSIZE)
    with open(f"deep/er/fill-{i}.bin", "wb") as f:
        for _ in range(16):
            f.write(block)
print("wrote 4 GB")
"""

MANY_FILES = r"""
import os
os.makedirs("many", exist_ok=True)
for i in range(1_000_000):  # empty files: no bytes, but a folder of a million entries
    open(f"many/{i}", "w").close()
print("made a million files")
"""

ATTACKS = {  # name -> (notebook, expected total or None when checked by its own test)
    "attack-keys": lambda p: (_with("exercise", _fill(KEYS_ATTACK, p)), 0.0),
    "attack-daemon": lambda p: (_with("exercise", _fill(DAEMON_ATTACK, p)), 0.0),
    "attack-watcher": lambda p: (_with("exercise", _fill(DAEMON_ATTACK, p, WATCHER)), 0.0),
    "attack-exfiltrate": lambda p: (_with("exercise", _fill(EXFILTRATE, p)), 0.0),
    "attack-forkbomb": lambda p: (_with("exercise", _fill(FORK_BOMB, p)), 0.0),
    "attack-memory-children": lambda p: (_with("exercise", MEMORY_CHILDREN), 0.0),
    "attack-import": lambda p: (
        _with("solution", replace={SOLUTION_FUNCTION: SNEAKY_FUNCTION}),
        FULL - POINTS["q10"],
    ),
    "attack-numbers": lambda p: (
        _with(
            "solution",
            'check("q2", float("nan"))',
            'check("q3", float("inf"))',
            replace={"    b2 = beta * beta\n": "    b2 = beta * beta\n    return 10**400\n"},
        ),
        FULL - POINTS["q2"] - POINTS["q3"] - POINTS["q10"],
    ),
    "attack-logpad": lambda p: (_with("solution", PAD_LOG, first=True), 0.0),
    "attack-disk": lambda p: (_with("solution", DISK_FILL, first=True), 0.0),
    "attack-many-files": lambda p: (_with("solution", MANY_FILES, first=True), 0.0),
}
VICTIMS = ["zz-victim-a", "zz-victim-b"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    base = tmp_path_factory.mktemp("attacks")
    subs, out, keys = base / "subs", base / "out", base / "private-keys"
    tmp = Path(tempfile.mkdtemp(prefix="ckt", dir="/tmp"))  # short: the kernels' socket paths
    subs.mkdir()
    keys.mkdir()
    for path in (ROOT / "solutions" / "keys").glob("[0-9][0-9]_*.py"):
        text = path.read_text(encoding="utf-8")
        (keys / path.name).write_text(f"# {SECRET}K\n{text}", encoding="utf-8")
    targets = {
        "attack-daemon": [str(out / "grades.csv"), str(out / "feedback/*"), str(subs / "*")],
        "attack-watcher": [str(tmp / "**/.coursekit-answers.jsonl"), "/tmp/**/.coursekit-*.jsonl"],
        "attack-exfiltrate": [str(subs / "**/*"), str(keys / "*"), str(tmp / "**/*.ipynb")],
    }
    for name, make in ATTACKS.items():
        paths = targets.get(name, [])
        notebook, _ = make(paths)
        nbformat.write(notebook, subs / f"01-{name}.ipynb")
    for name in VICTIMS:
        notebook = _notebook("solution")
        notebook.cells.insert(0, nbformat.v4.new_markdown_cell(f"{SECRET}C"))
        nbformat.write(notebook, subs / f"01-{name}.ipynb")
    # intake: links, a FIFO, a device, a folder, a 200 MB file, formula and colliding names
    os.symlink(ROOT / "solutions" / f"{CHAPTER}.ipynb", subs / "01-link-solution.ipynb")
    os.symlink("/dev/zero", subs / "01-link-zero.ipynb")
    os.symlink(ROOT / "solutions", subs / "linked-folder")
    os.mkfifo(subs / "01-fifo.ipynb")
    (subs / "01-folder.ipynb").mkdir()
    with open(subs / "01-huge.ipynb", "wb") as f:
        f.truncate(200 << 20)  # sparse: 200 MB to read, no disk used
    for name in ("=01-formula", "+01-plus", "-01-minus", "@01-at", "01 alice", "01_alice"):
        (subs / f"{name}.ipynb").write_text(f'{{"cells": "{name}"}}', encoding="utf-8")
    before = _tree(subs)
    start = time.monotonic()
    done = _grade(subs, out, keys, tmp)
    seconds = time.monotonic() - start
    assert done.returncode == 0, done.stdout + done.stderr
    snapshot = _tree(out)
    time.sleep(2)  # a daemon would rewrite OUT after the grader ended
    survivors = _marked_processes(TOKEN, str(tmp))
    with open(out / "grades.csv", encoding="utf-8") as f:
        rows = {row["submission"]: row for row in csv.DictReader(f)}
    yield {
        "subs": subs,
        "out": out,
        "tmp": tmp,
        "rows": rows,
        "before": before,
        "after": _tree(subs),
        "snapshot": snapshot,
        "later": _tree(out),
        "survivors": survivors,
        "seconds": seconds,
        "stdout": done.stdout,
    }
    shutil.rmtree(tmp, ignore_errors=True)


def _feedback(run, submission: str) -> dict:
    path = run["out"] / "feedback" / f"{feedback_name(submission)}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _total(run, name: str) -> float:
    return float(run["rows"][f"01-{name}"]["total"])


# --------------------------------------------------------------------------------------------
# What the run as a whole must keep


def test_submissions_are_byte_identical(run):
    assert run["after"] == run["before"]


def test_out_holds_only_the_grader_files_and_stays_so(run):
    submissions = [r[1:] if r[:2] in ("'=", "'+", "'-", "'@") else r for r in run["rows"]]
    names = {"grades.csv", "integrity.csv", "stats.csv", "stats.html", "free_text.csv"}
    names |= {"answers.json"} | {
        f"feedback/{feedback_name(r)}{suffix}" for r in submissions for suffix in (".json", ".html")
    }
    assert set(run["snapshot"]) == names | {"feedback"}
    assert run["later"] == run["snapshot"]
    assert "tampered" not in (run["out"] / "grades.csv").read_text(encoding="utf-8")


def test_no_process_of_the_run_survives_it(run):
    assert run["survivors"] == []


def test_no_temporary_folder_is_left(run):
    assert list(run["tmp"].iterdir()) == []


def test_the_sandbox_is_said(run):
    assert run["stdout"].startswith("sandbox: bubblewrap; memory: ")


# --------------------------------------------------------------------------------------------
# One test per attack


@pytest.mark.parametrize("name", list(ATTACKS))
def test_the_attack_gains_nothing(run, name):
    expected = ATTACKS[name]([])[1]
    row = run["rows"][f"01-{name}"]
    assert float(row["total"]) == expected, row["error"]
    assert "grader error" not in row["error"]


def test_the_keys_attack_works_without_the_sandbox(tmp_path):
    # the attack is real: run with the grader's rights, it finds the keys and answers right
    log = tmp_path / "answers.jsonl"
    code = "from coursekit.grading import check, start\nstart('01_precision_recall')\n"
    done = subprocess.run(
        [sys.executable, "-c", code + _fill(KEYS_ATTACK, [])],
        env={**os.environ, "COURSEKIT_ANSWER_LOG": str(log)},
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert "STOLEN from" in done.stdout, done.stderr
    assert len(log.read_text().splitlines()) == len(KEY) - 1  # every value and choice


def test_classmates_keep_full_marks_whatever_the_watcher_does(run):
    for name in VICTIMS:
        row = run["rows"][f"01-{name}"]
        assert float(row["total"]) == FULL and row["error"] == "", row["error"]


def test_nothing_read_is_sent_back_in_the_feedback(run):
    feedback = _feedback(run, "01-attack-exfiltrate")
    assert "read " in json.dumps(feedback["cell_errors"])  # the attack ran, found nothing
    for path in run["out"].rglob("*"):
        if path.is_file():
            assert SECRET not in path.read_text(encoding="utf-8", errors="replace"), path


def test_a_fork_bomb_is_stopped_at_the_process_limit(run):
    error = run["rows"]["01-attack-forkbomb"]["error"]
    if "kernel died" not in error:
        children = int(error.split("forks: ")[1].split(" ")[0])
        assert children < PROCESSES, error


def test_memory_split_over_children_is_limited_in_total(run):
    error = run["rows"]["01-attack-memory-children"]["error"]
    if "kernel died" not in error:
        held = int(error.split("children holding 400 MB: ")[1].split(" ")[0])
        assert held * 400 < MEMORY_MB, error


@pytest.mark.parametrize(
    ("name", "limit"),
    [("attack-disk", "more than 256 MB"), ("attack-many-files", "more than 10000 files and")],
)
def test_a_notebook_filling_the_disk_is_stopped(run, name, limit):
    error = run["rows"][f"01-{name}"]["error"]
    assert error.startswith(f"the notebook wrote {limit}"), error


def test_a_function_cannot_import_coursekit_when_judged(run):
    message = _feedback(run, "01-attack-import")["questions"]["q10"]["message"]
    assert message.startswith("q10: on the case ") and "your function raised" in message


def test_inf_nan_and_huge_answers_cost_their_question_only(run):
    questions = _feedback(run, "01-attack-numbers")["questions"]
    assert "nan" in questions["q2"]["message"]
    assert "out of range" in questions["q3"]["message"]
    assert "too large" in questions["q10"]["message"]
    assert questions["q4"]["points"] == POINTS["q4"]


def test_an_oversized_answer_log_is_said(run):
    feedback = _feedback(run, "01-attack-logpad")
    assert any("cap of 5 MB" in note for note in feedback["notes"])
    assert "answer log's cap" in feedback["questions"]["q1"]["message"]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("01-link-solution", "symbolic link"),
        ("01-link-zero", "symbolic link"),
        ("01-fifo", "not a regular file"),
        ("01-folder", "not a regular file"),
        ("01-huge", "over the limit of 20 MB"),
    ],
)
def test_only_regular_files_of_limited_size_are_read(run, name, words):
    row = run["rows"][name]
    assert float(row["total"]) == 0 and float(row["max"]) == FULL
    assert words in row["error"]


def test_linked_folders_are_not_entered(run):
    assert not [name for name in run["rows"] if name.startswith("linked-folder")]


def test_formula_names_are_quoted_in_grades_csv(run):
    text = (run["out"] / "grades.csv").read_text(encoding="utf-8")
    for name in ("=01-formula", "+01-plus", "-01-minus", "@01-at"):
        assert f"'{name}" in run["rows"], list(run["rows"])
        assert f"\n{name}," not in text


def test_names_equal_once_made_safe_get_their_own_feedback(run):
    assert feedback_name("01 alice") != feedback_name("01_alice")
    for name in ("01 alice", "01_alice"):
        assert _feedback(run, name)["submission"] == name


# --------------------------------------------------------------------------------------------
# Outside the batch run


def test_a_widget_flood_does_not_grow_the_grader(tmp_path):
    # 2,000 widget messages of 200 kB, each a new key of the widget's state: 400 MB that
    # nbclient would keep (store_widget_state) in the grader's memory
    flood = (
        "from ipykernel.comm import Comm\n"
        "comm = Comm(target_name='jupyter.widget', data={'state': {'_model_name': 'X'}})\n"
        "for i in range(2000):\n"
        "    comm.send({'method': 'update', 'state': {f'k{i}': 'x' * 200_000}})\n"
    )
    folder = tmp_path / "nb"
    folder.mkdir()
    nbformat.write(
        nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(flood)]), folder / "n.ipynb"
    )
    script = (
        "import asyncio, resource, sys\n"
        "from pathlib import Path\n"
        "from coursekit.grading.notebooks import run_limited\n"
        "from coursekit.grading.sandbox import Limits\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "error, _ = asyncio.run(run_limited(Path(sys.argv[1]), {}, 60, 90, 1024, "
        "limits=Limits(memory_mb=1024, wall_seconds=100)))\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(repr(error), (after - before) // 1024)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(folder / "n.ipynb")],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "TMPDIR": "/tmp"},
    )
    error, grown = done.stdout.split()
    assert error == "''", done.stdout + done.stderr
    # kept, the state would hold 400 MB; not kept, the grader still buffers messages it reads
    # more slowly than the kernel sends them (31 to 186 MB seen on a loaded 2-core machine)
    assert int(grown) < 300  # MB


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_an_interrupted_grader_leaves_nothing_behind(tmp_path, sig):
    subs, out = tmp_path / "subs", tmp_path / "out"
    subs.mkdir()
    tmp = Path(tempfile.mkdtemp(prefix="ckt", dir="/tmp"))
    try:
        loop = _with("exercise", "import time\nwhile True:\n    time.sleep(0.1)")
        for i in range(3):
            nbformat.write(loop, subs / f"01-loop-{i}.ipynb")
        # Started as a CI runner starts it: both signals blocked and SIGINT ignored, states a
        # process inherits from its parent; the grader must undo them to be stoppable.
        grader = [sys.executable, "-m", "coursekit.grade", str(subs), "--out", str(out)]
        grader += ["--jobs", "2", "--keys", str(ROOT / "solutions" / "keys")]
        parent = (
            "import os, signal, sys\n"
            "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})\n"
            "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
            "os.execv(sys.executable, sys.argv[1:])\n"
        )
        process = subprocess.Popen(
            [sys.executable, "-c", parent, *grader],
            env={**os.environ, "TMPDIR": str(tmp)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(list(tmp.glob("*/*/nb/kernel-*.json"))) < 2:
            time.sleep(0.2)
        assert list(tmp.glob("*/*/nb/kernel-*.json")), "no kernel started"
        time.sleep(1)
        process.send_signal(sig)
        stdout, stderr = process.communicate(timeout=60)
        assert process.returncode == 130, stdout + stderr
        assert "interrupted" in stdout
        assert list(tmp.iterdir()) == []
        time.sleep(0.5)
        assert _marked_processes(str(tmp)) == []
        assert not (out / "grades.csv").exists()
    finally:
        if "process" in locals() and process.poll() is None:
            process.kill()
            process.communicate()
        shutil.rmtree(tmp, ignore_errors=True)


def test_unsafe_mode_is_refused_without_the_flag_where_no_sandbox(tmp_path, monkeypatch):
    from coursekit.grading import sandbox

    monkeypatch.setattr(sandbox, "sandbox_available", lambda: "bwrap is not installed")
    (tmp_path / "subs").mkdir()
    argv = [str(tmp_path / "subs"), "--out", str(tmp_path / "out")]
    argv += ["--keys", str(ROOT / "solutions" / "keys")]
    assert grade_cli.main(argv) == 2
    assert not (tmp_path / "out").exists()
