"""Marking one submission's recorded answers against the answer key (the grader's side).

The answer log is the student's file (written by ``check()`` in the sandboxed kernel): it is
read without following links, at most ``MAX_LOG_BYTES``, and a log over the cap is said in the
feedback. Values are judged here, each question on its own (an answer that breaks the judging,
``inf``, ``nan``, ``10**400``, costs that question only, with the reason). Functions are run by
:mod:`coursekit.grading.judge` in a sandbox without coursekit (``hide_coursekit``) whose only
writable folder is a fresh one holding a copy of ``judge.py``; their outputs are compared here
with coursekit's.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import sandbox, sandbox_cgroup, sandbox_disk, sandbox_fs
from .judging import call_with_copies, compare_outputs, judge_value, reference_function
from .questions import PASSED, Choice, Function, Value
from .report import Grade

HERE = Path(__file__).parent
JUDGE_SECONDS = 2  # per case of a function
MAX_LOG_BYTES = 5 << 20
MAX_RESULT_BYTES = 8 << 20
MAX_MESSAGE = 300


def read_answers(
    work: Path, name: str, chapter: str
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """The last answer recorded for each question, and notes on the log (over the cap,
    lines that could not be read)."""
    notes: list[str] = []
    try:
        data = sandbox.read_output(work, name, MAX_LOG_BYTES + 1)
    except FileNotFoundError:
        return {}, notes
    except (OSError, ValueError) as error:
        return {}, [f"the answer log could not be read ({str(error)[:100]}): no answer counted"]
    if len(data) > MAX_LOG_BYTES:
        data = data[:MAX_LOG_BYTES].rsplit(b"\n", 1)[0]
        notes.append(
            f"the answer log passed its cap of {MAX_LOG_BYTES >> 20} MB: answers recorded "
            "after it were not read (a check() of a huge answer, or a cell writing to the log?)"
        )
    answers: dict[str, dict[str, Any]] = {}
    unreadable = 0
    for line in data.decode("utf-8", errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):
            unreadable += 1
            continue
        if isinstance(entry, dict) and entry.get("chapter") == chapter and "qid" in entry:
            answers[str(entry["qid"])[:100]] = entry
    if unreadable:
        notes.append(f"{unreadable} line(s) of the answer log could not be read")
    return answers, notes


def _request(pending: list[tuple[Function, dict[str, Any]]], memory_mb: int) -> dict[str, Any]:
    return {
        "memory_mb": memory_mb,
        "seconds": JUDGE_SECONDS,
        "functions": [
            {
                "qid": q.qid,
                "name": str(entry.get("name", q.name)),
                "source": str(entry["source"]),
                "cases": [[label, list(args)] for label, args in [*q.cases, *q.hidden]],
            }
            for q, entry in pending
        ],
    }


async def _run_judge(
    request: dict[str, Any], folder: Path, limits: sandbox.Limits | None
) -> dict[str, Any]:
    """Run judge.py on ``request`` in ``folder`` (sandboxed when ``limits``): its results."""
    folder.mkdir()
    shutil.copyfile(HERE / "judge.py", folder / "judge.py")
    (folder / "request.json").write_text(json.dumps(request), encoding="utf-8")
    seconds = JUDGE_SECONDS * sum(len(f["cases"]) for f in request["functions"]) + 20
    argv = [sandbox_fs.PYTHON, "-I", "judge.py", "request.json", "result.json"]
    cgroups = sandbox._no_cgroups
    if limits is not None:
        argv, cgroups = sandbox._build(
            argv,
            writable=folder,
            limits=sandbox.Limits(
                memory_mb=request["memory_mb"],
                processes=limits.processes,
                wall_seconds=seconds,
                tmp_mb=limits.tmp_mb,
                file_mb=limits.file_mb,
            ),
            hide_coursekit=True,
        )
    process = await asyncio.create_subprocess_exec(
        *argv,
        cwd=folder,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    full: list[str] = []

    def stop_for_disk(reason: str) -> None:
        full.append(reason)
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)

    disk_mb = limits.disk_mb if limits is not None else sandbox_disk.DEFAULT_MB
    watcher = asyncio.create_task(sandbox_disk.watch(folder, disk_mb << 20, stop_for_disk))
    try:
        await asyncio.wait_for(process.wait(), seconds)
    except asyncio.TimeoutError:
        pass
    finally:
        watcher.cancel()
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)  # bwrap: its PID 1 and the sandbox die
            await process.wait()
        sandbox_cgroup.remove(cgroups(process.pid))
    try:
        results = json.loads(sandbox.read_output(folder, "result.json", MAX_RESULT_BYTES))
    except (OSError, ValueError, RecursionError):
        return {}
    return results if isinstance(results, dict) else {}


def _valid(outputs: Any, count: int) -> bool:
    return isinstance(outputs, list) and len(outputs) == count


async def judge_functions(
    pending: list[tuple[Function, dict[str, Any]]],
    folder: Path,
    memory_mb: int,
    limits: sandbox.Limits | None,
) -> dict[str, list[Any] | None]:
    """Each pending function's outputs on its cases (None: it could not be run). All run in
    one judge; if that one gives no result, each is run again in a judge of its own (one
    function that ends its process costs its own question only)."""
    if not pending:
        return {}
    results = await _run_judge(_request(pending, memory_mb), folder / "judge", limits)
    counts = {q.qid: len(q.cases) + len(q.hidden) for q, _ in pending}
    missing = [(q, e) for q, e in pending if not _valid(results.get(q.qid), counts[q.qid])]
    if len(missing) > 1:
        for i, item in enumerate(missing):
            alone = await _run_judge(_request([item], memory_mb), folder / f"judge-{i}", limits)
            results[item[0].qid] = alone.get(item[0].qid)
    return {
        q.qid: results[q.qid] if _valid(results.get(q.qid), counts[q.qid]) else None
        for q, _ in pending
    }


def _short(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def _judged(qid: str, judge: Any) -> str:
    try:
        return judge()
    except Exception as error:  # noqa: BLE001 - a bad answer costs its own question only
        return (
            f"{qid}: the answer could not be judged ({type(error).__name__}: "
            f"{str(error)[:80]}); give a finite number of ordinary size"
        )


async def mark(
    grade: Grade,
    questions: Sequence[Value | Choice | Function],
    answers: dict[str, dict[str, Any]],
    folder: Path,
    memory_mb: int,
    limits: sandbox.Limits | None,
    truncated: bool = False,
) -> None:
    """Fill ``grade.questions``: points and a one-line message per question."""
    pending = []
    for q in questions:
        entry = answers.get(q.qid)
        record = {"points": 0.0, "max": float(q.points), "message": f"{q.qid}: not answered"}
        grade.questions[q.qid] = record
        if entry is None:
            if truncated:
                record["message"] += " (or answered after the answer log's cap)"
            continue
        if "unreadable" in entry:
            record["message"] = (
                f"{q.qid}: the answer could not be read ({str(entry['unreadable'])[:150]})"
            )
        elif isinstance(q, Function):
            if not isinstance(entry.get("source"), str):
                record["message"] = f"{q.qid}: expected the function {q.name} itself"
            elif entry.get("uses_coursekit"):
                used = str(entry["uses_coursekit"])[:80]
                record["message"] = f"{q.qid}: write it without coursekit (it uses {used})"
            else:
                pending.append((q, entry))
        else:
            spec, value = q.public(grade.chapter), entry.get("value")
            record["message"] = _judged(q.qid, lambda s=spec, v=value: judge_value(s, v))
    outputs = await judge_functions(pending, folder, memory_mb, limits)
    for q, _ in pending:
        got = outputs[q.qid]
        if got is None:
            grade.questions[q.qid]["message"] = (
                f"{q.qid}: the function could not be run to the end (it ended the judge's "
                "process, or used more time or memory than allowed)"
            )
            continue
        reference = reference_function(q.reference)
        cases = [*q.cases, *[(f"hidden: {label}", args) for label, args in q.hidden]]
        results = [
            (label, out, call_with_copies(reference, args))
            for (label, args), out in zip(cases, got, strict=True)
        ]
        # the inputs of the public cases are shown; those of the hidden ones are not
        inputs = [list(args) for _, args in q.cases] + [None] * len(q.hidden)
        grade.questions[q.qid]["message"] = _judged(
            q.qid,
            lambda r=results, q=q, i=inputs: compare_outputs(
                q.qid, r, q.hint, i, q.public(grade.chapter)
            ),
        )
    for qid, record in grade.questions.items():
        record["message"] = _short(record["message"])
        if record["message"] == f"{qid}: {PASSED}":
            record["points"] = record["max"]
