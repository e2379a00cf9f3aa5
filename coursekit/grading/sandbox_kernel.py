"""A Jupyter kernel in the grading sandbox (:mod:`coursekit.grading.sandbox`), for nbclient.

The sandbox has no network of its own reachable from the grader (a new network namespace has
only its own loopback), so the kernel talks over ZeroMQ's ``ipc`` transport: unix sockets
``<writable>/kernel-XXXX-ipc-<port>`` in the bind-mounted ``writable`` folder, seen at the same
path inside and outside. For ``ipc`` jupyter_client's ``ip`` is that path prefix, and the
connection file (ports, HMAC key) is written in ``writable`` too, where the kernel reads it.

    >>> from coursekit.grading.sandbox import Limits
    >>> from coursekit.grading.sandbox_kernel import SandboxedKernelManager
    >>> km = SandboxedKernelManager(writable=Path("/tmp"), limits=Limits(memory_mb=2048))
    >>> km.transport, km.ip.startswith("/tmp/kernel-")
    ('ipc', True)

    NotebookClient(notebook, km=km).execute()   # then everything runs in the sandbox
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from jupyter_client.manager import AsyncKernelManager

from . import sandbox_cgroup, sandbox_fs
from .sandbox import Limits, _build, _no_cgroups

SOCKET_PATH_MAX = 100  # a unix socket path has at most 107 bytes; the port adds a few


class SandboxedKernelManager(AsyncKernelManager):
    """An ``AsyncKernelManager`` whose ipykernel runs in the grading sandbox.

    ``writable``, ``limits``, ``readonly``, ``hide_coursekit`` and ``sandbox_env`` are as for
    :func:`~coursekit.grading.sandbox.sandbox_command`; ``process_memory_mb`` is each
    process's ``RLIMIT_AS`` (also with a cgroup: a huge allocation gets a ``MemoryError``).
    The kernel is killed, with everything it started, ``limits.wall_seconds`` after it
    starts. Interrupts are sent as messages (a signal to the bwrap process would end the
    sandbox, not the running cell).
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
        **kwargs: Any,
    ) -> None:
        writable = Path(writable).resolve()
        stem = writable / f"kernel-{uuid.uuid4().hex[:8]}"
        if len(f"{stem}-ipc-00000") > SOCKET_PATH_MAX:
            raise ValueError(f"{writable} is too long a path for the kernel's unix sockets")
        kwargs.setdefault("kernel_name", "python3")
        super().__init__(
            transport="ipc", connection_file=f"{stem}.json", ip=f"{stem}-ipc", **kwargs
        )
        self.sandbox_writable = writable
        self.sandbox_limits = limits or Limits()
        self.sandbox_readonly = tuple(readonly)
        self.sandbox_hide_coursekit = hide_coursekit
        self.sandbox_process_memory_mb = process_memory_mb
        # JPY_PARENT_PID=1: the kernel's parent is bwrap's PID 1, no parent polling, no banner
        self.sandbox_env = {"JPY_PARENT_PID": "1", **(sandbox_env or {})}
        self._sandbox_dirs: Callable[[int], list[Path]] = _no_cgroups
        self._sandbox_cgroups: list[Path] = []
        self._sandbox_timer: threading.Timer | None = None

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        """ipykernel of this interpreter (whatever the kernelspec says), in the sandbox."""
        kernel = [sandbox_fs.PYTHON, "-m", "ipykernel_launcher", "-f", self.connection_file]
        command, cgroups = _build(
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

    _launch_kernel = _async_launch_kernel
    pre_start_kernel = _async_pre_start_kernel
    cleanup_resources = _async_cleanup_resources
