"""Marking one submission's recorded answers against the answer key (the grader's side).

The answer log is the student's file (written by ``check()`` in the sandboxed kernel): it is
read without following links, at most ``MAX_LOG_BYTES``, and a log over the cap is said in the
feedback. Values are judged here, each question on its own (an answer that breaks the judging,
``inf``, ``nan``, ``10**400``, costs that question only, with the reason). Functions are run by
:mod:`coursekit.grading.judge` in a sandbox without coursekit (``hide_coursekit``) whose only
writable folder is a fresh one holding a copy of ``judge.py``: the request goes to its stdin,
the outputs come from its stdout (at most ``MAX_RESULT_BYTES``), and are compared here with
coursekit's.

Nothing of a hidden case reaches the student: the public cases are run in one judge, and the
hidden ones, only for functions that pass every public case, in another (so a judge whose
outputs are shown in full never holds a hidden input); the feedback on a hidden case names its
label, never its input, the value returned or an exception's text
(:func:`~coursekit.grading.judging.compare_outputs`). A function importing a package its
question does not allow (``Function.allowed``; the judge refuses it) gets no points and a
message naming the package.

Points are all or nothing unless the key gives partial credit: a :class:`Value` with
``partial`` earns its share when right to fewer decimals than asked, a :class:`Function` with
``partial="per-case"`` the share of its cases it passes (its hidden cases are then run even
when a public one fails). Points are rounded to 2 decimals, and the message says what earned
what ("3 of 5 cases passed (1.2 of 2 points); ...").
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib.util
import json
import os
import shutil
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from . import sandbox
from .judging import judge_value_points, score_outputs
from .portable import STDLIB, call_with_copies, library_message, reference_function
from .questions import CASE_SECONDS, PASSED, PER_CASE, Choice, Function, Value, points_of
from .report import Grade
from .sandbox import cgroup as sandbox_cgroup
from .sandbox import disk as sandbox_disk
from .sandbox import fs as sandbox_fs

HERE = Path(__file__).parent
JUDGE_SECONDS = CASE_SECONDS  # per case of a function (defined once, shared with check())
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


Pending = list[tuple[Function, dict[str, Any]]]


class Judged(NamedTuple):
    """What a judge says of one function: its outputs on the cases it was given, and the
    package it imported against its question's policy ('' if none)."""

    outputs: list[Any]
    refused: str


def _request(pending: Pending, memory_mb: int, hidden: bool) -> dict[str, Any]:
    """The judge's request: the public cases, or the hidden ones, of functions that share one
    library policy (``pending[0]``'s)."""
    return {
        "memory_mb": memory_mb,
        "seconds": JUDGE_SECONDS,
        "allowed": list(pending[0][0].allowed),
        "functions": [
            {
                "qid": q.qid,
                "name": str(entry.get("name", q.name)),
                "source": str(entry["source"]),
                "cases": [[label, list(args)] for label, args in (q.hidden if hidden else q.cases)],
            }
            for q, entry in pending
        ],
    }


async def _exchange(process: asyncio.subprocess.Process, request: bytes) -> bytes:
    """Give the judge its request on stdin and read its result on stdout to the end: ``b""``
    when it passes ``MAX_RESULT_BYTES`` (no result; the caller kills the judge)."""
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(request)
        await process.stdin.drain()
    except (BrokenPipeError, ConnectionResetError):  # the judge died before reading it all
        pass
    finally:
        process.stdin.close()
    chunks, size = [], 0
    while chunk := await process.stdout.read(1 << 16):
        size += len(chunk)
        if size > MAX_RESULT_BYTES:
            return b""
        chunks.append(chunk)
    await process.wait()
    return b"".join(chunks)


async def _run_judge(
    request: dict[str, Any], folder: Path, limits: sandbox.Limits | None
) -> dict[str, Any]:
    """Run judge.py on ``request`` in ``folder`` (sandboxed when ``limits``): its results."""
    folder.mkdir()
    shutil.copyfile(HERE / "judge.py", folder / "judge.py")
    seconds = JUDGE_SECONDS * sum(len(f["cases"]) for f in request["functions"]) + 20
    argv = [sandbox_fs.PYTHON, "-I", "judge.py"]
    cgroups = sandbox.no_cgroups
    if limits is not None:  # the judge's limits (GraderConfig.judge_limits), for this request
        run = dataclasses.replace(limits, memory_mb=request["memory_mb"], wall_seconds=seconds)
        argv, cgroups = sandbox.command(argv, writable=folder, limits=run, hide_coursekit=True)
    process = await asyncio.create_subprocess_exec(
        *argv,
        cwd=folder,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    full: list[str] = []

    def stop_for_disk(reason: str) -> None:
        full.append(reason)
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)

    disk_mb = limits.disk_mb if limits is not None else sandbox_disk.DEFAULT_MB
    watcher = asyncio.create_task(
        sandbox_disk.watch(folder, disk_mb << 20, stop_for_disk, root=process.pid)
    )
    data = b""
    try:
        data = await asyncio.wait_for(_exchange(process, json.dumps(request).encode()), seconds)
    except asyncio.TimeoutError:
        pass
    finally:
        watcher.cancel()
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)  # bwrap: its PID 1 and the sandbox die
            await process.wait()
        sandbox_cgroup.remove(cgroups(process.pid))
    try:
        results = json.loads(data)
    except (ValueError, RecursionError):
        return {}
    return results if isinstance(results, dict) else {}


def _package(names: Any) -> str:
    """The first of ``names`` (what the judge refused) that is a package installed here, or
    ''. What a function imports is its choice, and can spell a hidden input: only the name of
    a real package is repeated to the student."""
    for name in names[:10] if isinstance(names, list) else []:
        if isinstance(name, str) and name.isidentifier() and name not in STDLIB:
            try:
                if importlib.util.find_spec(name) is not None:
                    return name
            except (ImportError, ValueError):
                continue
    return ""


def _parsed(results: dict[str, Any], pending: Pending, hidden: bool) -> dict[str, Judged | None]:
    """Each function's :class:`Judged` from a judge's ``results`` (None: none, or not one
    output per case)."""
    outputs, refused = results.get("outputs"), results.get("refused")
    outputs = outputs if isinstance(outputs, dict) else {}
    refused = refused if isinstance(refused, dict) else {}
    parsed: dict[str, Judged | None] = {}
    for q, _ in pending:
        got = outputs.get(q.qid)
        count = len(q.hidden if hidden else q.cases)
        valid = isinstance(got, list) and len(got) == count
        parsed[q.qid] = Judged(got, _package(refused.get(q.qid))) if valid else None
    return parsed


async def judge_functions(
    pending: Pending,
    folder: Path,
    memory_mb: int,
    limits: sandbox.Limits | None,
    hidden: bool = False,
) -> dict[str, Judged | None]:
    """Each pending function's :class:`Judged` on its public cases (its ``hidden`` ones if
    asked; None: it could not be run). Functions whose questions allow the same packages run
    in one judge; if that one gives no result, each is run again in a judge of its own (one
    function that ends its process costs its own question only). Each judge runs under
    ``limits`` (:meth:`.config.GraderConfig.judge_limits`; None: unsandboxed) with
    ``memory_mb`` and a wall time from its number of cases."""
    phase = "hidden" if hidden else "public"
    groups: dict[tuple[str, ...], Pending] = {}
    for item in pending:
        groups.setdefault(tuple(sorted(item[0].allowed)), []).append(item)
    found: dict[str, Judged | None] = {}
    for g, group in enumerate(groups.values()):
        request = _request(group, memory_mb, hidden)
        raw = await _run_judge(request, folder / f"judge-{phase}-{g}", limits)
        results = _parsed(raw, group, hidden)
        missing = [item for item in group if results[item[0].qid] is None]
        if len(missing) > 1:
            for i, item in enumerate(missing):
                where = folder / f"judge-{phase}-{g}-{i}"
                alone = await _run_judge(_request([item], memory_mb, hidden), where, limits)
                results.update(_parsed(alone, [item], hidden))
        found.update(results)
    return found


def _short(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def _judged(qid: str, judge: Any, detail: bool = True) -> tuple[str, float]:
    """``judge()`` (a message and the share of the points earned), or why the answer could
    not be judged (without the error's text unless ``detail``: judging a function's outputs
    on hidden cases must not show them) and no points."""
    try:
        return judge()
    except Exception as error:  # noqa: BLE001 - a bad answer costs its own question only
        text = f": {str(error)[:80]}" if detail else ""
        return (
            f"{qid}: the answer could not be judged ({type(error).__name__}{text}); give a "
            "finite number of ordinary size"
        ), 0.0


def _function_message(
    q: Function, chapter: str, judged: Sequence[Judged | None]
) -> tuple[str, float]:
    """The message of a function from its judges (public cases, then hidden ones if run) and
    the share of its points earned. Per case, a judge of hidden cases that gave no result
    leaves the public cases' points (its cases count as failed)."""
    lost = ""
    per_case_public = q.partial == PER_CASE and judged and judged[0] is not None
    if per_case_public and any(j is None for j in judged[1:]):
        judged, lost = judged[:1], "; the hidden cases could not be run to the end"
    if any(j is None for j in judged):
        return (
            f"{q.qid}: the function could not be run to the end (it ended the judge's "
            "process, or used more time or memory than allowed)"
        ), 0.0
    refused = next((j.refused for j in judged if j is not None and j.refused), "")
    if refused:
        return library_message(q.qid, refused, q.allowed), 0.0
    got = [out for j in judged if j is not None for out in j.outputs]
    cases = [*q.cases, *[(f"hidden: {label}", args) for label, args in q.hidden]][: len(got)]
    reference = reference_function(q.reference)
    results = [
        (label, out, call_with_copies(reference, args))
        for (label, args), out in zip(cases, got, strict=True)
    ]
    # the inputs of the public cases are shown; those of the hidden ones are not
    inputs = [list(args) for _, args in q.cases] + [None] * (len(cases) - len(q.cases))

    def judge() -> tuple[str, float]:
        spec = q.public(chapter)
        message, share = score_outputs(q.qid, results, q.hint, inputs, spec, q.case_count())
        if lost and message == f"{q.qid}: {PASSED}":  # the public cases only, all passed
            share = len(results) / q.case_count()
            said = points_of(share * q.points, q.points)
            message = f"{q.qid}: {len(results)} of {q.case_count()} cases passed ({said})"
        return message + lost, share

    return _judged(q.qid, judge, detail=False)


async def mark(
    grade: Grade,
    questions: Sequence[Value | Choice | Function],
    answers: dict[str, dict[str, Any]],
    folder: Path,
    memory_mb: int,
    limits: sandbox.Limits | None,
    truncated: bool = False,
) -> None:
    """Fill ``grade.questions``: points and a one-line message per question (functions are
    judged under ``memory_mb`` and ``limits``, as for :func:`judge_functions`)."""
    pending = []
    shares: dict[str, float] = {}  # of each question's points earned (0 when not set)
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
            judged = _judged(q.qid, lambda s=spec, v=value: judge_value_points(s, v))
            record["message"], shares[q.qid] = judged
    public = await judge_functions(pending, folder, memory_mb, limits)
    # passed every public case (or gets points per case and could be run): now the hidden
    # ones, in a judge of their own
    later = []
    for q, entry in pending:
        message, shares[q.qid] = _function_message(q, grade.chapter, [public[q.qid]])
        grade.questions[q.qid]["message"] = message
        per_case = q.partial == PER_CASE and public[q.qid] is not None
        runs = per_case and not public[q.qid].refused and "not answered yet" not in message
        if q.hidden and (message == f"{q.qid}: {PASSED}" or runs):
            later.append((q, entry))
    hidden = await judge_functions(later, folder, memory_mb, limits, hidden=True)
    for q, _ in later:
        judged = [public[q.qid], hidden[q.qid]]
        message, shares[q.qid] = _function_message(q, grade.chapter, judged)
        grade.questions[q.qid]["message"] = message
    for qid, record in grade.questions.items():
        record["message"] = _short(record["message"])
        # all or nothing: the points of a question that passed; partial credit: its share
        share = min(max(shares.get(qid, 0.0), 0.0), 1.0)
        record["points"] = record["max"] if share == 1 else round(record["max"] * share, 2)
