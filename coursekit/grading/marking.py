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

Messages and notes are in the language the grader speaks for the submission
(:func:`coursekit.i18n.speaking`, set per submission by the grader: ``--lang``, or the
notebook's ``metadata.coursekit.language``); what is decided from a message (passed, not
answered) is decided in English, and a question's English message is kept as ``message_en``
when the feedback is in another language (the lecturer's statistics read it).
"""

from __future__ import annotations

import asyncio
import contextlib
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

from ..i18n import language, speaking
from . import sandbox
from .feedback_lines import MAX_MESSAGE, _messages, _short  # noqa: F401 - their address too
from .portable import STDLIB
from .questions import CASE_SECONDS, PASSED, PER_CASE, Choice, Function, Value
from .report import Grade
from .sandbox import cgroup as sandbox_cgroup
from .sandbox import disk as sandbox_disk
from .sandbox import fs as sandbox_fs
from .wording import N_, _, unanswered

HERE = Path(__file__).parent
JUDGE_SECONDS = CASE_SECONDS  # per case of a function (defined once, shared with check())
MAX_LOG_BYTES = 5 << 20
MAX_RESULT_BYTES = 8 << 20
#: The note of an answer log over its cap (:func:`log_capped` reads it back).
LOG_CAP_NOTE = N_(
    "the answer log passed its cap of {mb} MB: answers recorded after it were not read (a "
    "check() of a huge answer, or a cell writing to the log?)"
)


def log_capped(notes: Sequence[str]) -> bool:
    """Whether :func:`read_answers`' ``notes`` (in the language in use) say the log passed its
    cap."""
    return _(LOG_CAP_NOTE).format(mb=MAX_LOG_BYTES >> 20) in notes


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
        said = _("the answer log could not be read ({error}): no answer counted")
        return {}, [said.format(error=str(error)[:100])]
    if len(data) > MAX_LOG_BYTES:
        data = data[:MAX_LOG_BYTES].rsplit(b"\n", 1)[0]
        notes.append(_(LOG_CAP_NOTE).format(mb=MAX_LOG_BYTES >> 20))
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
        said = _("{count} line(s) of the answer log could not be read")
        notes.append(said.format(count=unreadable))
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
            with contextlib.suppress(ProcessLookupError):  # reaped, not yet said to asyncio
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
            with contextlib.suppress(ProcessLookupError):  # reaped, not yet said to asyncio
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
    for q, _entry in pending:
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
    judged under ``memory_mb`` and ``limits``, as for :func:`judge_functions`), in the
    language in use (with ``message_en``, the English one, when it is not English)."""
    shown_in = language()
    pending = []
    for q in questions:
        entry = answers.get(q.qid)
        runnable = isinstance(q, Function) and entry is not None and "unreadable" not in entry
        if runnable and isinstance(entry.get("source"), str) and not entry.get("uses_coursekit"):
            pending.append((q, entry))
    public = await judge_functions(pending, folder, memory_mb, limits)
    judged: dict[str, list[Judged | None]] = {q.qid: [public[q.qid]] for q, _entry in pending}
    with speaking("en"):  # what is decided from a message is decided in English
        first = _messages(questions, answers, grade.chapter, judged, truncated)
    # passed every public case (or gets points per case and could be run): now the hidden
    # ones, in a judge of their own
    later = []
    for q, entry in pending:
        message = first[q.qid][0]
        per_case = q.partial == PER_CASE and public[q.qid] is not None
        runs = per_case and not public[q.qid].refused and not unanswered(q.qid, message)
        if q.hidden and (message == f"{q.qid}: {PASSED}" or runs):
            later.append((q, entry))
    hidden = await judge_functions(later, folder, memory_mb, limits, hidden=True)
    for q, _entry in later:
        judged[q.qid].append(hidden[q.qid])
    with speaking("en"):
        english = _messages(questions, answers, grade.chapter, judged, truncated)
    shown = english
    if shown_in != "en":
        with speaking(shown_in):
            shown = _messages(questions, answers, grade.chapter, judged, truncated)
    for q in questions:
        message, earned = english[q.qid]
        record: dict[str, Any] = {"points": 0.0, "max": float(q.points)}
        record["message"] = _short(shown[q.qid][0])
        if shown_in != "en":
            record["message_en"] = _short(message)
        grade.questions[q.qid] = record
        # all or nothing: the points of a question that passed; partial credit: its share
        share = min(max(earned, 0.0), 1.0)
        record["points"] = record["max"] if share == 1 else round(record["max"] * share, 2)
