"""Notebooks whose kernel attacks the grader itself, through the messages it sends.

The kernel holds its session's HMAC key and its sockets (``get_ipython().kernel``): it can
send badly signed messages, validly signed huge ones, multipart messages of endless frames,
and replace its socket files by links to another unix socket. One grader run (``--jobs 2``,
a ``TMPDIR`` of more than 80 characters, the grader's own peak memory measured) grades them
with two honest classmates (chapter 01's solution) interleaved: the classmates keep full
marks, grades.csv lists every submission, each attack's row says what stopped it, and the
grader's memory stays under :data:`GRADER_PEAK_MB` whatever the notebooks send (several GB).

The tests need the sandbox (bubblewrap): skipped where it cannot run, unless
``COURSEKIT_REQUIRE_SANDBOX=1`` (CI), which makes them fail instead.
"""

from __future__ import annotations

import asyncio
import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import asdict
from pathlib import Path

import nbformat
import pytest
from grader_support import run_grader
from test_grader_attacks import FULL, POINTS, REQUIRED, ROOT, UNUSABLE, _marked_processes, _with

from coursekit.grading import isolation
from coursekit.grading.grade_cli import MIN_MEMORY_MB, parser
from coursekit.grading.isolation import grade_from_json, grade_in_worker
from coursekit.grading.report import Grade

pytestmark = pytest.mark.skipif(
    UNUSABLE is not None and not REQUIRED,
    reason=f"the sandbox cannot run here ({UNUSABLE}); COURSEKIT_REQUIRE_SANDBOX=1 fails instead",
)
MEMORY_MB = 1024
# The grader's own peak resident memory: 96 MB measured (it holds the grades, and
# reads at most 16 MB from each worker), while the notebooks below send several GB.
GRADER_PEAK_MB = 200

BAD_SIGNATURE = r"""
import time
k = get_ipython().kernel
k.iopub_socket.send_multipart([b"stream", b"<IDS|MSG>", b"0" * 64, b"{}", b"{}", b"{}", b"{}"])
big = memoryview(bytearray(100 << 20))
for _ in range(50):  # 5 GB: what nbclient no longer reads, ZMQ would queue in the grader
    k.iopub_socket.send_multipart([b"stream", big], copy=False)
time.sleep(30)
"""

SIGNED_HUGE = r"""
import time
k = get_ipython().kernel
for _ in range(20):  # validly signed, 45 MB each: 7 s of json.loads each in the grader
    k.session.send(k.iopub_socket, "stream", {"name": "stdout", "text": "x" * 45_000_000})
time.sleep(30)
"""

MANY_FRAMES = r"""
import time
k = get_ipython().kernel
block = memoryview(bytearray(4 << 20))  # under the limit of a frame, 2000 of them: 8 GB
k.session.send(k.iopub_socket, "stream", {"name": "stdout", "text": "x"}, buffers=[block] * 2000)
time.sleep(30)
"""

SYMLINKS = r"""
import glob, os, time
for path in glob.glob("kernel-*-ipc-*"):
    os.unlink(path)
    os.symlink(__TRAP__, path)
k = get_ipython().kernel  # a frame over the limit: the grader drops the connection
k.iopub_socket.send_multipart([b"stream", memoryview(bytearray(20 << 20))], copy=False)
time.sleep(30)
"""

ATTACKS = {  # submission -> (cell run just after the set-up, words of its row's error)
    "01-1-bad-signature": (BAD_SIGNATURE, "iopub channel sent a message the grader refuses"),
    "01-3-signed-huge": (SIGNED_HUGE, "iopub connection broke off (a frame over the limit"),
    # ZMQ queues a multipart message whole: the grading process's memory limit stops it
    "01-4-many-frames": (MANY_FRAMES, "message over the grading process's memory"),
    "01-6-symlinks": (SYMLINKS, "iopub connection broke off"),
}
VICTIMS = ["01-2-victim-a", "01-5-victim-b"]
# a notebook printing, then raising, what the sandbox tells of the grader's folders: the
# places binds come from (/proc/self/mountinfo), sys.path, the environment, its folder
HOST_PATHS = r"""
import os, sys
binds = [line.split()[3] for line in open("/proc/self/mountinfo") if line.split()[3] != "/"]
seen = " ".join([os.getcwd(), *binds, *sys.path, os.environ.get("PATH", "")])
print(seen)
raise RuntimeError(seen)
"""
ECHO = "01-7-host-paths"


class Trap:
    """A unix socket of the host counting the connections made to it."""

    def __init__(self, path: Path) -> None:
        self.path, self.connections = path, 0
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(str(path))
        self.server.listen(16)
        self.server.settimeout(0.2)
        self.running = True
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while self.running:
            try:
                connection, _ = self.server.accept()
            except OSError:
                continue
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self.running = False
        self.thread.join()
        self.server.close()


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    base = tmp_path_factory.mktemp("kernel-attacks")
    subs, out = base / "subs", base / "out"
    subs.mkdir()
    token = f"ckk{uuid.uuid4().hex[:10]}"
    top = Path(tempfile.mkdtemp(prefix=token, dir="/tmp"))
    tmp = top / ("long-temporary-folder-" * 4)  # the kernels' unix sockets live under it
    tmp.mkdir()
    trap = Trap(top / "trap.sock")
    try:
        for name, (cell, _) in ATTACKS.items():
            code = cell.replace("__TRAP__", repr(str(trap.path)))
            nbformat.write(_with("solution", code, first=True), subs / f"{name}.ipynb")
        nbformat.write(_with("solution", HOST_PATHS, first=True), subs / f"{ECHO}.ipynb")
        for name in VICTIMS:
            shutil.copyfile(
                ROOT / "solutions" / "01_precision_recall.ipynb", subs / f"{name}.ipynb"
            )
        peak = base / "peak.txt"
        done = run_grader(
            subs,
            out,
            ROOT / "solutions" / "keys",
            memory_mb=MEMORY_MB,
            timeout=900,
            env={**os.environ, "TMPDIR": str(tmp)},
            peak_file=peak,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        with open(out / "grades.csv", encoding="utf-8") as f:
            rows = {row["submission"]: row for row in csv.DictReader(f)}
        shown = "".join(
            path.read_text(encoding="utf-8", errors="replace")
            for path in out.rglob("*")
            if path.is_file() and path.suffix in (".csv", ".html")
        )
        yield {
            "shown": shown,
            "rows": rows,
            "tmp": tmp,
            "peak_mb": int(peak.read_text()) / 1024,
            "trap": trap.connections,
            "survivors": _marked_processes(token),
        }
    finally:
        trap.close()
        shutil.rmtree(top, ignore_errors=True)


def test_the_temporary_folder_is_long(run):
    assert len(str(run["tmp"])) > 80


def test_grades_csv_lists_every_submission(run):
    assert set(run["rows"]) == set(ATTACKS) | set(VICTIMS) | {ECHO}


def test_no_host_folder_reaches_the_results(run):
    assert "/home/student" in run["shown"]  # the echo reached the results, scrubbed
    hosts = {str(ROOT), os.path.abspath(sys.prefix), str(run["tmp"])}
    if not os.path.abspath(sys.base_prefix).startswith("/usr"):
        hosts.add(os.path.abspath(sys.base_prefix))
    assert [host for host in hosts if host in run["shown"]] == []


def test_classmates_keep_full_marks(run):
    for name in VICTIMS:
        row = run["rows"][name]
        assert float(row["total"]) == FULL and row["error"] == "", row


@pytest.mark.parametrize("name", list(ATTACKS))
def test_each_attack_stops_its_own_notebook(run, name):
    row = run["rows"][name]
    assert ATTACKS[name][1] in row["error"], row["error"]
    assert "grader error" not in row["error"]
    assert float(row["total"]) == 0 and float(row["max"]) == FULL


def test_the_grader_memory_stays_bounded(run):
    assert run["peak_mb"] < GRADER_PEAK_MB


def test_no_link_to_another_socket_is_followed(run):
    assert run["trap"] == 0


def test_nothing_of_the_run_is_left(run):
    assert list(run["tmp"].iterdir()) == []
    assert run["survivors"] == []


def test_too_little_memory_is_refused_at_start(tmp_path):
    (tmp_path / "subs").mkdir()
    argv = [sys.executable, "-m", "coursekit.grade", str(tmp_path / "subs")]
    argv += ["--out", str(tmp_path / "out"), "--memory", str(MIN_MEMORY_MB - 256)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2
    assert f"at least {MIN_MEMORY_MB} MB" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_grade_crosses_the_process_boundary_whole():
    grade = Grade(
        "01-a",
        "01_precision_recall",
        {q: {"points": p, "max": p, "message": f"{q}: passed"} for q, p in POINTS.items()},
        "cell 3: ZeroDivisionError",
        [[3, "ZeroDivisionError: division by zero"]],
        ["a note"],
        {"q1": [0.5, float("nan")]},
    )
    back = grade_from_json(json.dumps(asdict(grade)).encode(), "01-a")
    assert json.dumps(asdict(back)) == json.dumps(asdict(grade))
    assert back.total == FULL


@pytest.mark.parametrize(
    "data",
    [
        b"not json",
        b"[]",
        b'{"submission": "01-b"}',
        b'{"submission": "01-a", "unknown": 1}',
        b'{"submission": "01-a", "notes": "not a list"}',
        b'{"submission": "01-a", "questions": {"q1": {"points": "11", "max": 11}}}',
    ],
)
def test_a_garbled_grade_is_refused(data):
    with pytest.raises(ValueError):
        grade_from_json(data, "01-a")


def _worker_of(pid: int) -> list[int]:
    """The grading workers started by the process ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid and b"coursekit.grading.worker" in command:
            found.append(int(entry.name))
    return found


def _one_submission(folder: Path):
    path = folder / "01-a.ipynb"
    shutil.copyfile(ROOT / "solutions" / "01_precision_recall.ipynb", path)
    argv = [str(folder), "--out", str(folder / "out"), "--keys", str(ROOT / "solutions" / "keys")]
    return path, parser().parse_args([*argv, "--memory", str(MEMORY_MB)])


def test_a_killed_worker_is_its_submission_error_and_takes_its_kernel(tmp_path):
    path, options = _one_submission(tmp_path)
    # a notebook still running when its worker is killed (chapter 01's solution alone can end
    # within the second this test waited, on a calm machine)
    nbformat.write(_with("solution", "import time\ntime.sleep(60)", first=True), path)
    work = tmp_path / "work"

    async def kill_while_running():
        grading = asyncio.ensure_future(grade_in_worker(path, "01-a", work, options, 120))
        deadline = time.monotonic() + 120
        while not list(work.glob("nb/kernel-*.json")) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)  # the kernel runs the notebook
        workers = _worker_of(os.getpid())
        assert workers, "no grading worker found"
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        return await grading

    result = asyncio.run(kill_while_running())
    assert isinstance(result, str), result
    assert result.startswith(
        "grader error: the grading process of this submission died (killed by signal 9, SIGKILL:"
    ), result
    time.sleep(1)  # the sandbox dies with its worker (--die-with-parent)
    assert _marked_processes(str(work)) == []


def test_a_worker_over_its_budget_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(isolation, "MARGIN_SECONDS", 0)
    path, options = _one_submission(tmp_path)
    nbformat.write(_with("solution", "import time\ntime.sleep(60)", first=True), path)
    work = tmp_path / "work"
    start = time.monotonic()
    result = asyncio.run(grade_in_worker(path, "01-a", work, options, 4))
    assert result == "grading took longer than its budget of 4 s (reading, running and judging)"
    assert time.monotonic() - start < 4 + isolation.STOP_SECONDS + 5
    assert _worker_of(os.getpid()) == []
    time.sleep(1)
    assert _marked_processes(str(work)) == []
