"""Each submission graded in a process of its own: the grader's side.

:func:`grade_in_worker` starts :mod:`coursekit.grading.worker` for one submission, hands it
the request, and reads back its :class:`~coursekit.grading.report.Grade` (JSON, at most
:data:`RESULT_MAX_BYTES`). The worker runs the notebook's kernel client and judges; whatever a
notebook sends (floods, huge or badly signed messages, a multipart message of endless frames)
grows, blocks or kills that worker only, under its own address-space limit
(:func:`memory_limit_mb`), never the grader, whose memory then holds the grades only.

The budget of a submission is enforced here too: a worker still running
:data:`MARGIN_SECONDS` after it (its start and its key's loading are not in the worker's own
budget) is stopped. A worker is stopped by SIGTERM (it then stops its kernel and judges and
removes its folder), and after :data:`STOP_SECONDS` by SIGKILL to its process group; its
sandboxes die with it (``--die-with-parent``). A worker that died, or wrote no readable grade,
is that submission's error, never the class's: the caller writes the row.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import pickle
import signal
import sys
from argparse import Namespace
from pathlib import Path
from typing import Any

from ..i18n import N_
from .config import GraderConfig
from .report import Grade
from .sandbox import cgroup as sandbox_cgroup
from .sandbox import fs as sandbox_fs
from .wording import Fixed
from .zygote import Forked, Zygote

# The worker's own address space, over its kernel's and judges' limits, which it must hold
# (they inherit its RLIMIT_AS as their ceiling): workers grading the ten chapters' solutions
# peak at 1589 MB of address space (VmPeak, most of it mapped, not used; 211 MB resident),
# under the 2304 MB they get at the least --memory, 768 (measured).
WORKER_MB = 1536
RESULT_MAX_BYTES = 16 << 20  # a grade's JSON: capped answers, messages and notes
MARGIN_SECONDS = 60  # over the budget: the worker's start, its key's loading, its clean-up
STOP_SECONDS = 10  # from SIGTERM to SIGKILL
LOG_TAIL = 4096  # bytes kept of a worker's standard error (its last line is said)
# fewer malloc arenas and BLAS threads: each reserves address space the limit counts
WORKER_ENV = {
    "MALLOC_ARENA_MAX": "2",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
_START = (
    "import sys\nsys.path[0] = {path!r}\n"
    "from coursekit.grading.worker import main\nraise SystemExit(main())"
)


def worker_env() -> dict[str, str]:
    """A worker's environment (a zygote's too): the grader's, with :data:`WORKER_ENV`."""
    return {**os.environ, **WORKER_ENV}


def memory_limit_mb(config: GraderConfig | Namespace) -> int:
    """The address-space limit of a worker: its kernel's (``--memory``) or judges'
    (``--judge-memory``) limit, whichever is larger, and :data:`WORKER_MB`."""
    config = GraderConfig.from_args(config)
    return max(config.memory, config.judge_memory) + WORKER_MB


def grade_from_json(data: bytes, name: str) -> Grade:
    """The Grade a worker wrote for ``name``: every field of :class:`Grade`, each of the
    type of its default; a ValueError for anything else."""
    raw = json.loads(data)
    if not isinstance(raw, dict) or raw.get("submission") != name:
        raise ValueError("not the grade of this submission")
    fields = {f.name: f for f in dataclasses.fields(Grade)}
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise ValueError(f"unknown fields {unknown[:3]}")
    for key, value in raw.items():
        field = fields[key]
        default = field.default
        if default is dataclasses.MISSING and field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        kind = (int, float) if isinstance(default, float) else type(default)
        if default not in (None, dataclasses.MISSING) and not isinstance(value, kind):
            raise ValueError(f"{key} is a {type(value).__name__}")
    for record in raw.get("questions", {}).values():
        if not isinstance(record, dict) or not all(
            isinstance(record.get(k), (int, float)) for k in ("points", "max")
        ):
            raise ValueError("a question without points")
    return Grade(**raw)


KERNEL_FOLDER = "nb"  # the kernel's writable folder in a submission's work folder
SHOWN_FIELDS = (
    "error",
    "error_said",
    "cell_errors",
    "notes",
    "questions",
)  # what feedback and rows show


def scrubbed(grade: Grade, work: Path) -> Grade:
    """``grade`` with no host folder of the grader's in what the student and the rows see
    (:func:`.sandbox.fs.scrub`: a notebook can read the places binds come from in
    ``/proc/self/mountinfo`` and print them into an error)."""

    def clean(value: Any) -> Any:
        if isinstance(value, str):
            return sandbox_fs.scrub(value, work)
        if isinstance(value, list):
            return [clean(item) for item in value]
        if isinstance(value, dict):
            return {key: clean(item) for key, item in value.items()}
        return value

    return dataclasses.replace(
        grade, **{name: clean(getattr(grade, name)) for name in SHOWN_FIELDS}
    )


async def _read(stream: asyncio.StreamReader, cap: int) -> bytes | None:
    """Everything ``stream`` gives until its end, or None past ``cap`` bytes (the rest is
    read and dropped, so that the writer never blocks)."""
    chunks: list[bytes] = []
    size = 0
    while chunk := await stream.read(1 << 16):
        size += len(chunk)
        if size <= cap:
            chunks.append(chunk)
    return b"".join(chunks) if size <= cap else None


async def _tail(stream: asyncio.StreamReader, keep: int) -> bytes:
    """The last ``keep`` bytes ``stream`` gives until its end."""
    kept = b""
    while chunk := await stream.read(1 << 16):
        kept = (kept + chunk)[-keep:]
    return kept


async def _stop(process: asyncio.subprocess.Process | Forked) -> None:
    """SIGTERM, then after :data:`STOP_SECONDS` SIGKILL to the worker's process group."""
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(asyncio.shield(process.wait()), STOP_SECONDS)
        except asyncio.TimeoutError:
            if isinstance(process, Forked):
                process.kill_group()  # through its zygote, which knows it still runs
            else:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)
    await process.wait()


def _death(returncode: int, limit_mb: int, log: bytes) -> str:
    said = log.decode("utf-8", "replace").strip().splitlines()
    last = f": {said[-1][:200]}" if said else ""
    if returncode < 0:
        number = -returncode
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = "?"
        said = N_(
            "grader error: the grading process of this submission died (killed by signal "
            "{number}, {name}: its memory limit of {limit} MB?){last}"
        )
        return Fixed(said, number=number, name=name, limit=limit_mb, last=last)
    said = N_(
        "grader error: the grading process of this submission ended with code {code} and no "
        "grade{last}"
    )
    return Fixed(said, code=returncode, last=last)


def over_budget(seconds: float) -> Fixed:
    """Why a submission that ran over its budget of ``seconds`` has no grade."""
    said = N_("grading took longer than its budget of {seconds:g} s (reading, running and judging)")
    return Fixed(said, seconds=seconds)


async def grade_in_worker(
    path: Path,
    name: str,
    work: Path,
    options: GraderConfig | Namespace,
    seconds: float,
    personal: Any = None,
    zygote: Zygote | None = None,
    chapter: str | None = None,
) -> Grade | str:
    """Grade one submission in a worker (in ``work``, which it makes and removes) within
    ``seconds`` (and :data:`MARGIN_SECONDS`): its Grade, or why there is none (the row's
    error). ``options``: the run's configuration (a parser's result is converted);
    ``personal``: the graded variants' data (:class:`.variants.Personal`), sent beside it;
    ``zygote``: the run's fork server (:mod:`.zygote`; the worker is forked warm from it,
    after it loaded the key of ``chapter`` if given), else the worker is a new Python.
    Never raises but for a cancellation, which stops the worker first."""
    config = GraderConfig.from_args(options)
    limit = memory_limit_mb(config)
    request: dict[str, Any] = {
        "path": Path(path),
        "name": name,
        "work": Path(work),
        "keys": config.keys.resolve(),
        "config": config,
        "personal": personal,
    }
    process = None
    if zygote is not None:
        with contextlib.suppress(ConnectionError):  # a zygote gone: a new Python instead
            process = await zygote.spawn(limit, chapter)
    if process is None:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            _START.format(path=str(Path(__file__).resolve().parents[2])),
            str(limit),
            str(os.getpid()),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
            env=worker_env(),
        )
    reading = asyncio.ensure_future(_read(process.stdout, RESULT_MAX_BYTES))
    tail = asyncio.ensure_future(_tail(process.stderr, LOG_TAIL))
    try:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            process.stdin.write(pickle.dumps(request))
            await process.stdin.drain()
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), seconds + MARGIN_SECONDS)
        except asyncio.TimeoutError:
            return over_budget(seconds)
        data, log = await reading, await tail
        if process.returncode != 0 or data == b"":
            return _death(process.returncode, limit, log)
        if data is None:
            said = N_("grader error: the grade of this submission is over {size} bytes")
            return Fixed(said, size=RESULT_MAX_BYTES)
        try:
            return scrubbed(grade_from_json(data, name), Path(work) / KERNEL_FOLDER)
        except (ValueError, TypeError, RecursionError) as error:
            said = N_("grader error: the grading process of this submission returned {error}")
            return Fixed(said, error=str(error))
    finally:
        await _stop(process)
        sandbox_cgroup.remove(sandbox_cgroup.worker_dirs(process.pid))  # its own, if made
        reading.cancel()
        tail.cancel()
