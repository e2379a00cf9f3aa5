"""A Jupyter kernel in the grading sandbox (:mod:`coursekit.grading.sandbox`), for nbclient.

The sandbox has no network of its own reachable from the grader (a new network namespace has
only its own loopback), so the kernel talks over ZeroMQ's ``ipc`` transport: unix sockets
``kernel-XXXX-ipc-<port>`` in the bind-mounted ``writable`` folder, next to the connection file
(ports, HMAC key) the kernel reads. The connection file names the sockets relative to the
kernel's working folder (``writable``), and the grader reaches them through a descriptor of
that folder (:mod:`.kernel_channels`), so a ``writable`` folder under a long ``TMPDIR`` works:
the path of a unix socket has at most 107 bytes.

The notebook can replace its socket files by links to any unix socket of the host: the grader
(root) connects once, to sockets checked not to be links, only when the kernel listens on all
of them, and never again (no reconnection, no heartbeat channel: :mod:`.kernel_channels`).

    >>> from coursekit.grading.sandbox import Limits
    >>> from coursekit.grading.sandbox_kernel import SandboxedKernelManager
    >>> km = SandboxedKernelManager(writable=Path("/tmp"), limits=Limits(memory_mb=2048))
    >>> km.transport, km.ip.startswith("/tmp/kernel-")
    ('ipc', True)
    >>> km.close_socket_folder()

    NotebookClient(notebook, km=km).execute()   # then everything runs in the sandbox
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import sandbox
from .kernel_channels import (
    MAX_MESSAGE_MB,
    STARTUP_SECONDS,
    CheckedSockets,
    GuardedKernelManager,
    listening,
)
from .sandbox import Limits
from .sandbox import cgroup as sandbox_cgroup
from .sandbox import fs as sandbox_fs


class SandboxedKernelManager(CheckedSockets, GuardedKernelManager):
    """A :class:`GuardedKernelManager` whose ipykernel runs in the grading sandbox.

    ``writable``, ``limits``, ``readonly``, ``hide_coursekit`` and ``sandbox_env`` are as for
    :func:`~coursekit.grading.sandbox.command`; ``process_memory_mb`` is each
    process's ``RLIMIT_AS`` (also with a cgroup: a huge allocation gets a ``MemoryError``).
    The kernel is killed, with everything it started, ``limits.wall_seconds`` after it
    starts. Interrupts are sent as messages (a signal to the bwrap process would end the
    sandbox, not the running cell). No connection is ever made again (see the module).
    """

    def __init__(
        self,
        *,
        writable: Path,
        limits: Limits | None = None,
        readonly: Sequence[Path] = (),
        hide_coursekit: bool = False,
        sandbox_env: Mapping[str, str] | None = None,
        process_memory_mb: int | None = None,
        max_message_mb: int = MAX_MESSAGE_MB,
        **kwargs: Any,
    ) -> None:
        writable = Path(writable).resolve()
        stem = writable / f"kernel-{uuid.uuid4().hex[:8]}"
        kwargs.setdefault("kernel_name", "python3")
        super().__init__(
            max_message_mb=max_message_mb,
            reconnect=False,
            transport="ipc",
            connection_file=f"{stem}.json",
            ip=f"{stem}-ipc",
            **kwargs,
        )
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
        self.socket_folder: int | None = os.open(writable, flags)
        self.sandbox_writable = writable
        self.sandbox_limits = limits or Limits()
        self.sandbox_readonly = tuple(readonly)
        self.sandbox_hide_coursekit = hide_coursekit
        self.sandbox_process_memory_mb = process_memory_mb
        # JPY_PARENT_PID=1: the kernel's parent is bwrap's PID 1, no parent polling, no banner
        self.sandbox_env = {"JPY_PARENT_PID": "1", **(sandbox_env or {})}
        self._sandbox_dirs: Callable[[int], list[Path]] = sandbox.no_cgroups
        self._sandbox_cgroups: list[Path] = []
        self._sandbox_timer: threading.Timer | None = None

    def close_socket_folder(self) -> None:
        """Close the socket folder's descriptor (done with the kernel's resources)."""
        if self.socket_folder is not None:
            os.close(self.socket_folder)
            self.socket_folder = None

    def write_connection_file(self, **kwargs: Any) -> None:
        """The connection file names the sockets relative to the kernel's working folder."""
        ip = self.ip
        self.ip = os.path.basename(ip)
        try:
            super().write_connection_file(**kwargs)
        finally:
            self.ip = ip

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        """ipykernel of this interpreter (whatever the kernelspec says), in the sandbox."""
        kernel = [sandbox_fs.PYTHON, "-m", "ipykernel_launcher", "-f", self.connection_file]
        command, cgroups = sandbox.command(
            [*kernel, *(extra_arguments or [])],
            writable=self.sandbox_writable,
            readonly=self.sandbox_readonly,
            limits=self.sandbox_limits,
            hide_coursekit=self.sandbox_hide_coursekit,
            env=self.sandbox_env,
            process_memory_mb=self.sandbox_process_memory_mb,
        )
        self._sandbox_dirs = cgroups
        return command

    async def _async_pre_start_kernel(self, **kw: Any) -> tuple[list[str], dict[str, Any]]:
        if os.path.islink(self.connection_file):  # a restart after the student's code ran:
            os.unlink(self.connection_file)  # never write the key through the student's link
            self._connection_file_written = False
        command, kw = await super()._async_pre_start_kernel(**kw)
        if self.kernel_spec is not None:
            self.kernel_spec.interrupt_mode = "message"
        return command, kw

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
        await super()._async_launch_kernel(kernel_cmd, **kw)
        self._cancel_timer()
        process = getattr(self.provisioner, "process", None)
        if process is not None:
            self._sandbox_cgroups += self._sandbox_dirs(process.pid)
            timer = threading.Timer(self.sandbox_limits.wall_seconds, self._wall_kill, [process])
            timer.daemon = True
            timer.start()
            self._sandbox_timer = timer

    async def _async_post_start_kernel(self, **kw: Any) -> None:
        """Connect (the control socket, then the clients) once the kernel listens on every
        socket: with no reconnection, a connection tried too early would never be made."""
        deadline = time.monotonic() + STARTUP_SECONDS
        waiting = ["shell", "iopub", "stdin", "control", "hb"]
        while waiting:
            waiting = [channel for channel in waiting if not listening(self, channel)]
            if not waiting:
                break
            if not await self._async_is_alive():
                raise RuntimeError("the kernel ended before it listened on its sockets")
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the kernel did not listen on its sockets in {STARTUP_SECONDS} s"
                )
            await asyncio.sleep(0.05)
        await super()._async_post_start_kernel(**kw)

    @staticmethod
    def _wall_kill(process: Any) -> None:
        if process.poll() is None:
            process.kill()  # the bwrap process: its PID 1, and so the whole sandbox, dies

    def _cancel_timer(self) -> None:
        if self._sandbox_timer is not None:
            self._sandbox_timer.cancel()
            self._sandbox_timer = None

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        self._cancel_timer()
        await super()._async_cleanup_resources(restart=restart)
        cgroups, self._sandbox_cgroups = self._sandbox_cgroups, []
        sandbox_cgroup.remove(cgroups)
        if not restart:
            self.close_socket_folder()

    _launch_kernel = _async_launch_kernel
    pre_start_kernel = _async_pre_start_kernel
    post_start_kernel = _async_post_start_kernel
    cleanup_resources = _async_cleanup_resources
