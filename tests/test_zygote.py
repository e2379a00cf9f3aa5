"""The grader's fork server (coursekit.grading.zygote): a worker forked warm grades exactly as a
worker started as a new Python, its death or overrun is its own submission's error, a zygote
gone leaves the grading to new Pythons, and a grader killed takes its zygote, workers and
sandboxes with it (a sandbox still starting when its grader died is killed by the next
sandbox's start).

The expected grade is the solution's full marks (the key's points, summed here), and the
comparison is with the same submission graded by a worker started as a new Python.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from test_grader_attacks import FULL, REQUIRED, ROOT, UNUSABLE, _marked_processes, _with

from coursekit.grading import isolation
from coursekit.grading.grade_cli import parser
from coursekit.grading.isolation import grade_in_worker, worker_env
from coursekit.grading.sandbox import cgroup as sandbox_cgroup
from coursekit.grading.sandbox.bwrap import MARKER
from coursekit.grading.zygote import Zygote

pytestmark = pytest.mark.skipif(
    UNUSABLE is not None and not REQUIRED,
    reason=f"the sandbox cannot run here ({UNUSABLE}); COURSEKIT_REQUIRE_SANDBOX=1 fails instead",
)
KEYS = ROOT / "solutions" / "keys"
CHAPTER = "01_precision_recall"


def _submission(folder: Path, notebook=None):
    path = folder / "01-a.ipynb"
    if notebook is None:
        shutil.copyfile(ROOT / "solutions" / f"{CHAPTER}.ipynb", path)
    else:
        nbformat.write(notebook, path)
    argv = [str(folder), "--out", str(folder / "out"), "--keys", str(KEYS)]
    return path, parser().parse_args([*argv, "--memory", "1024"])


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid:
            found.append(int(entry.name))
    return found


def _left(marker: str, seconds: float = 10) -> list[str]:
    """The processes marked ``marker`` still there after at most ``seconds`` (a killed
    process's sandbox ends within a second on a calm machine, later under load)."""
    deadline = time.monotonic() + seconds
    while (found := _marked_processes(marker)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return found


async def _with_zygote(use):
    zygote = await Zygote.start(KEYS, worker_env())
    assert zygote is not None and await zygote.ready()
    try:
        return await use(zygote)
    finally:
        await zygote.close()


def test_a_forked_worker_grades_as_a_new_python(tmp_path):
    path, options = _submission(tmp_path)

    async def both(zygote):
        warm = await grade_in_worker(path, "01-a", tmp_path / "w1", options, 120, None, zygote)
        cold = await grade_in_worker(path, "01-a", tmp_path / "w2", options, 120)
        return warm, cold

    warm, cold = asyncio.run(_with_zygote(both))
    assert not isinstance(warm, str), warm
    assert not isinstance(cold, str), cold
    assert (warm.total, warm.error) == (FULL, "")
    assert warm.questions == cold.questions
    assert warm.cell_errors == cold.cell_errors


def test_a_killed_forked_worker_is_its_submission_error(tmp_path):
    path, options = _submission(
        tmp_path, _with("solution", "import time\ntime.sleep(60)", first=True)
    )
    work = tmp_path / "work"

    async def kill(zygote):
        grading = asyncio.ensure_future(
            grade_in_worker(path, "01-a", work, options, 120, None, zygote, CHAPTER)
        )
        deadline = time.monotonic() + 120
        while not list(work.glob("nb/kernel-*.json")) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        workers = _children(zygote._process.pid)
        assert len(workers) == 1, "the worker is not the zygote's child"
        (worker,) = workers
        own = sandbox_cgroup.worker_dirs(worker)
        if own:  # where cgroups can be made: the worker holds a memory cgroup of its own
            assert own[0].is_dir()
            assert str(worker) in (own[0] / "cgroup.procs").read_text().split()
            limit = own[0] / (
                "memory.max" if (own[0] / "memory.max").exists() else "memory.limit_in_bytes"
            )
            assert int(limit.read_text()) == isolation.memory_limit_mb(options) << 20
        os.kill(worker, signal.SIGKILL)
        return await grading, own

    result, own = asyncio.run(_with_zygote(kill))
    assert [d for d in own if d.exists()] == []  # removed once the worker ended
    assert isinstance(result, str)
    assert result.startswith(
        "grader error: the grading process of this submission died (killed by signal 9, SIGKILL:"
    ), result
    assert _left(str(work)) == []  # its sandbox dies with it (--die-with-parent)


def test_a_forked_worker_over_its_budget_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(isolation, "MARGIN_SECONDS", 0)
    path, options = _submission(
        tmp_path, _with("solution", "import time\ntime.sleep(60)", first=True)
    )
    work = tmp_path / "work"
    start = time.monotonic()

    async def overrun(zygote):
        result = await grade_in_worker(path, "01-a", work, options, 4, None, zygote)
        return result, _children(zygote._process.pid)

    result, left = asyncio.run(_with_zygote(overrun))
    assert result == "grading took longer than its budget of 4 s (reading, running and judging)"
    assert time.monotonic() - start < 4 + isolation.STOP_SECONDS + 10
    assert left == []
    assert _left(str(work)) == []


def test_a_zygote_gone_leaves_grading_to_new_pythons(tmp_path):
    path, options = _submission(tmp_path)

    async def after_its_death(zygote):
        zygote._process.kill()
        await zygote._process.wait()
        return await grade_in_worker(path, "01-a", tmp_path / "w", options, 120, None, zygote)

    result = asyncio.run(_with_zygote(after_its_death))
    assert not isinstance(result, str), result
    assert (result.total, result.error) == (FULL, "")


def test_a_killed_grader_takes_its_zygote_workers_and_sandboxes(tmp_path):
    keys = tmp_path / "keys"  # a folder of this test's: the zygote's command line names it
    shutil.copytree(KEYS, keys)
    subs = tmp_path / "subs"
    subs.mkdir()
    nbformat.write(
        _with("solution", "import time\ntime.sleep(120)", first=True), subs / "01-a.ipynb"
    )
    tmp = tmp_path / "t"
    tmp.mkdir()
    grader = subprocess.Popen(
        [sys.executable, "-m", "coursekit.grade", str(subs), "--out", str(tmp_path / "out")]
        + ["--keys", str(keys), "--memory", "1024"],
        env={**os.environ, "TMPDIR": str(tmp)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not list(tmp.glob("*/*/nb/kernel-*.json")) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert list(tmp.glob("*/*/nb/kernel-*.json")), "the notebook never started"
        assert _marked_processes(str(keys)), "no zygote"
        # the kernel runs in its sandbox: bwrap's PID 1 is bound to the bwrap process once its
        # set-up is done (a kill before then is the case below)
        while not _kernels_in(tmp) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _kernels_in(tmp), "the kernel never ran in its sandbox"
        time.sleep(0.5)
    finally:
        grader.kill()
        grader.wait()
    assert _left(str(tmp_path)) == []


def _kernels_in(folder: Path) -> list[str]:
    return [p for p in _marked_processes(str(folder)) if "ipykernel" in _cmdline(p)]


def _cmdline(found: str) -> str:
    try:
        return Path(f"/proc/{found.split(':')[0]}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_a_sandbox_whose_grader_died_while_it_started_is_killed_by_the_next_start(tmp_path):
    """A grader killed within the milliseconds of a sandbox's set-up (before bwrap's PID 1 is
    bound to the bwrap process) leaves that sandbox running: the next sandbox's start kills it
    (``cgroup.kill_orphans``). Made here as it happens: a namespace's PID 1 whose bwrap process
    is gone (bwrap started by a shell that is then killed, ``--die-with-parent`` not given)."""
    marker = "\0".join(MARKER)
    shell = subprocess.Popen(
        [
            "sh",
            "-c",
            f"exec bwrap --unshare-pid --dev-bind / / {' '.join(MARKER)} "
            f"--chdir {tmp_path} sleep 600 & wait",
        ],
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while not _left(str(tmp_path), 0) and time.monotonic() < deadline:
        time.sleep(0.1)
    before = _left(str(tmp_path), 0)
    assert before, "no sandbox started"
    # its bwrap process killed (outside the namespace: one pid), not its PID 1: an orphan
    for found in before:
        pid = int(found.split(":")[0])
        nspid = re.search(r"NSpid:(.*)", Path(f"/proc/{pid}/status").read_text())[1].split()
        if _cmdline(found).startswith("bwrap") and len(nspid) == 1:
            os.kill(pid, signal.SIGKILL)
    shell.kill()
    shell.wait()
    time.sleep(0.3)
    orphans = _left(str(tmp_path), 0)
    assert orphans, "the sandbox's PID 1 ended with its bwrap process"
    sandbox_cgroup.kill_orphans(marker.encode())
    assert _left(str(tmp_path)) == []
