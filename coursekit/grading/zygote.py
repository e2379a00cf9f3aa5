"""A warmed maker of grading workers for one run of the grader: a fork server.

Each submission is graded in a process of its own (:mod:`.worker`, started by
:func:`.isolation.grade_in_worker`). Started as a new Python, a worker spends most of a
second importing nbclient, ZMQ, pandas and the grading modules before it reads the notebook,
and loading its chapter's answer key (chapter 07's imports scipy.stats and draws its data:
2.5 s). The zygote pays for that once per run: a process that imports those modules, loads
the keys of the chapters it is told of, then forks a worker for each submission. A forked
worker is exactly the worker a new Python would be (same code, same limits, same request on
its standard input, same grade on its standard output), only warm. It never shares anything
with another submission's worker: each is forked from the zygote, which reads no notebook.

    grader ──(socketpair: spawn requests, pipes' descriptors)──> zygote ──fork──> worker

The protocol (one ``SOCK_SEQPACKET`` socket pair, one message a datagram):

- grader → zygote: ``F<limit MB> <chapter or ->`` with three descriptors (the worker's
  stdin, stdout and stderr); ``S<pid> <signal>``: signal a worker's process group (the zygote
  reaps its workers, so it alone knows a pid still names one);
- zygote → grader: ``R`` once, warm; ``P<pid>`` for each fork, in order; ``X<pid> <code>``
  when a worker ended (``os.waitstatus_to_exitcode``: minus the signal that killed it).

The zygote dies with the grader (``PR_SET_PDEATHSIG``), and each worker with the zygote, so
a grader killed by SIGKILL leaves nothing running; the zygote ends when the grader closes
its socket. Where this cannot work (no ``socket.send_fds``), :meth:`Zygote.start` returns
None and workers start as new Pythons.

Benchmark (``benchmarks/bench_grader.py``, 2026-11-28): see benchmarks/README.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

READY_SECONDS = 60  # a zygote not warm by then is not used (workers start as new Pythons)
_START = (
    "import sys\nsys.path[0] = {path!r}\n"
    "from coursekit.grading.worker import serve_forks\nraise SystemExit(serve_forks())"
)
#: What every worker imports before it reads a notebook (measured: 0.5-0.8 s).
PRELOAD = (
    "coursekit.grading.grader",
    "coursekit.grading.notebooks",
    "coursekit.grading.kernel_channels",
    "coursekit.grading.sandbox_kernel",
    "nbclient",
    "nbclient.exceptions",
)


# --- the grader's side ------------------------------------------------------------------------


class Forked:
    """A worker forked by the zygote, as :mod:`.isolation` uses a process: ``pid``,
    ``returncode``, ``stdin`` (a StreamWriter), ``stdout`` and ``stderr`` (StreamReaders),
    :meth:`wait` and :meth:`send_signal`."""

    def __init__(self, zygote: Zygote, pid: int, stdin: Any, stdout: Any, stderr: Any) -> None:
        self.pid, self.stdin, self.stdout, self.stderr = pid, stdin, stdout, stderr
        self.returncode: int | None = None
        self._zygote = zygote
        self._ended = asyncio.get_running_loop().create_future()

    async def wait(self) -> int:
        self.returncode = await asyncio.shield(self._ended)
        return self.returncode

    def send_signal(self, number: int) -> None:
        """Signal the worker's process group (through the zygote, which knows it still runs)."""
        if not self._ended.done():
            self._zygote._send(f"S{self.pid} {int(number)}".encode())

    def kill_group(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """The grader's handle on its zygote (see the module's doc); one per run."""

    def __init__(self, process: asyncio.subprocess.Process, sock: socket.socket) -> None:
        self._process, self._sock = process, sock
        self._lock = asyncio.Lock()
        self._forks: asyncio.Queue[int] = asyncio.Queue()
        self._workers: dict[int, Forked] = {}
        self._ended: dict[int, int] = {}
        self._ready = asyncio.get_running_loop().create_future()
        self._reader = asyncio.ensure_future(self._read())

    @classmethod
    async def start(cls, keys: Path, env: dict[str, str]) -> Zygote | None:
        """A zygote for a run grading with the keys of ``keys`` (``env``: its environment);
        None where fork servers cannot work here."""
        if not hasattr(socket, "send_fds") or not hasattr(os, "waitstatus_to_exitcode"):
            return None
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        package = str(Path(__file__).resolve().parents[2])
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                _START.format(path=package),
                str(theirs.fileno()),
                str(os.getpid()),
                str(Path(keys).resolve()),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
                start_new_session=True,
                env=env,
            )
        finally:
            theirs.close()
        ours.setblocking(False)
        return cls(process, ours)

    async def ready(self) -> bool:
        """Whether the zygote is warm (within :data:`READY_SECONDS`); closed if not."""
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), READY_SECONDS)
            return True
        except (asyncio.TimeoutError, ConnectionError):
            await self.close()
            return False

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while message := await loop.sock_recv(self._sock, 64):
                kind, rest = message[:1], message[1:].decode()
                if kind == b"R":
                    self._ready.set_result(True)
                elif kind == b"P":
                    self._forks.put_nowait(int(rest))
                elif kind == b"X":
                    pid, code = map(int, rest.split())
                    worker = self._workers.pop(pid, None)
                    if worker is None:
                        self._ended[pid] = code
                    elif not worker._ended.done():
                        worker._ended.set_result(code)
        except OSError:
            pass
        finally:  # the zygote is gone: its workers died with it (PR_SET_PDEATHSIG)
            if not self._ready.done():
                self._ready.set_exception(ConnectionError("the zygote ended"))
            self._forks.put_nowait(-1)
            for worker in self._workers.values():
                if not worker._ended.done():
                    worker._ended.set_result(-signal.SIGKILL)
            self._workers.clear()

    def _send(self, data: bytes, fds: tuple[int, ...] = ()) -> None:
        with contextlib.suppress(OSError):  # a zygote gone: its workers' ends say so
            socket.send_fds(self._sock, [data], list(fds)) if fds else self._sock.send(data)

    async def spawn(self, limit_mb: int, chapter: str | None) -> Forked:
        """A worker under ``limit_mb`` of address space (for a submission of ``chapter``, if
        known: the zygote loads its key first), its standard streams piped to this process."""
        loop = asyncio.get_running_loop()
        pipes = [os.pipe() for _ in range(3)]
        theirs = (pipes[0][0], pipes[1][1], pipes[2][1])
        try:
            async with self._lock:
                self._send(f"F{int(limit_mb)} {chapter or '-'}".encode(), theirs)
                pid = await self._forks.get()
        finally:
            for fd in theirs:
                os.close(fd)
        if pid < 0:
            for fd in (pipes[0][1], pipes[1][0], pipes[2][0]):
                os.close(fd)
            raise ConnectionError("the zygote ended")
        stdin = await _writer(loop, pipes[0][1])
        stdout, stderr = await _reader(loop, pipes[1][0]), await _reader(loop, pipes[2][0])
        worker = Forked(self, pid, stdin, stdout, stderr)
        if pid in self._ended:
            worker._ended.set_result(self._ended.pop(pid))
        else:
            self._workers[pid] = worker
        return worker

    async def close(self) -> None:
        """End the zygote (it stops its workers left, if any)."""
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        try:
            await asyncio.wait_for(self._process.wait(), 10)
        except asyncio.TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()
            await self._process.wait()
        self._reader.cancel()


async def _reader(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.StreamReader:
    reader = asyncio.StreamReader(limit=1 << 16)
    await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", 0)
    )
    return reader


async def _writer(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.StreamWriter:
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(fd, "wb", 0)
    )
    return asyncio.StreamWriter(transport, protocol, None, loop)
