"""Executing a student's notebook for the grader: a limited kernel, outputs dropped.

:func:`run_limited` is used by :mod:`coursekit.grade`; the committed notebooks are executed by
:mod:`.executed`.
"""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import sys
from pathlib import Path

from .sandbox import disk as sandbox_disk

# --------------------------------------------------------------------------------------------
# Running a student's notebook for the grader: limited kernel, outputs dropped

LIMITED = Path(__file__).with_name("limited.py")
FILE_MB = 64
MAX_CELL_ERRORS = 20
KERNEL_ENV = {
    "MPLBACKEND": "Agg",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "PYDEVD_DISABLE_FILE_VALIDATION": "1",
}

# Run in the kernel at its start: what a cell prints is sent in pieces of at most 1 M
# characters (ipykernel sends what was printed in 0.2 s as one message, and the grader refuses
# a frame over .kernel_channels.MAX_MESSAGE_MB); the grader keeps no output anyway. The hooks
# of ipykernel's streams belong to the thread that sends (its IO thread).
CUT_OUTPUT = r"""
import sys as _s
def _cut(msg, n=1 << 20):
    text = msg.get("content", {}).get("text")
    if isinstance(text, str) and len(text) > n:
        msg["content"]["text"] = text[:n] + "\n[... cut by the grader]\n"
    return msg
for _o in (_s.stdout, _s.stderr):
    if hasattr(_o, "register_hook") and getattr(_o, "pub_thread", None) is not None:
        _o.pub_thread.schedule(lambda o=_o, h=_cut: o.register_hook(h))
del _s, _o, _cut
"""


@functools.cache
def _limited_client_classes():
    from nbclient import NotebookClient

    from .kernel_channels import GuardedKernelManager

    class LimitedKernelManager(GuardedKernelManager):
        """A kernel manager whose kernel runs under memory and file-size limits (only with
        ``--unsafe-no-sandbox``: the kernel then runs with the grader's rights), its messages
        limited as in the sandbox (but over TCP, reconnected when lost)."""

        memory_mb = 2048

        def format_kernel_cmd(self, extra_arguments=None):
            command = super().format_kernel_cmd(extra_arguments)
            return [sys.executable, str(LIMITED), str(self.memory_mb), str(FILE_MB), "--", *command]

    class QuietClient(NotebookClient):
        """Runs every cell (errors allowed), keeps no output but error names (at most
        ``MAX_CELL_ERRORS``), no widget state and no comm, and remembers the cell it is in.
        Dropping outputs and widget messages as they arrive means a notebook that prints or
        sends widget messages without end cannot fill the grader's memory."""

        current = -1

        @contextlib.asynccontextmanager
        async def async_setup_kernel(self, **kwargs):
            """nbclient's, without its SIGINT and SIGTERM handlers: they replace the grader's
            (a signal stops the whole run, not one kernel) and, removed when the notebook
            ends, leave none. The kernel manager is the caller's, who ends the kernel."""
            kwargs.pop("cleanup_kc", None)
            if not self.km.has_kernel:
                await self.async_start_new_kernel(**kwargs)
            if self.kc is None:
                await self.async_start_new_kernel_client()
            yield

        async def async_execute_cell(self, cell, cell_index, *args, **kwargs):
            self.current = cell_index
            return await super().async_execute_cell(cell, cell_index, *args, **kwargs)

        def output(self, outs, msg, display_id, cell_index):
            if msg["msg_type"] == "error" and len(self.cell_errors) < MAX_CELL_ERRORS:
                content = msg["content"]
                text = f"{content.get('ename', 'Error')}: {content.get('evalue', '')}"
                self.cell_errors.append([cell_index, str(text)[:300]])
            return None

        def handle_comm_msg(self, outs, msg, cell_index):
            return None  # no widget state, no Output widget mimicked: nothing kept

    return LimitedKernelManager, QuietClient


def _kernel_manager(work: Path, env: dict[str, str], memory_mb: int, limits, max_message_mb):
    """The kernel manager: sandboxed (``limits`` given) or, unsafe, only rlimited."""
    manager_class, _ = _limited_client_classes()
    if limits is None:
        km = manager_class(kernel_name="python3", max_message_mb=max_message_mb)
        km.memory_mb = memory_mb
        return km, {**os.environ, **KERNEL_ENV, **env}
    from .sandbox_kernel import SandboxedKernelManager

    # RLIMIT_AS per process too (set by the sandbox's launcher, no extra Python start): the
    # cgroup holds the whole tree, and a single huge allocation gets a MemoryError (a
    # message for the student) instead of the kernel's death
    km = SandboxedKernelManager(
        writable=work,
        limits=limits,
        sandbox_env={**KERNEL_ENV, **env},
        process_memory_mb=memory_mb,
        max_message_mb=max_message_mb,
        kernel_name="python3",
    )
    return km, dict(os.environ)  # the sandbox starts from env -i: none of it gets in


async def run_limited(
    path: Path,
    env: dict[str, str],
    cell_seconds: int,
    total_seconds: int,
    memory_mb: int,
    *,
    limits=None,
    max_message_mb: int | None = None,
) -> tuple[str, list[list]]:
    """Run the notebook at ``path`` (in its folder) in a limited kernel; never raises.

    With ``limits`` (a :class:`~coursekit.grading.sandbox.Limits`), the kernel runs in the
    grading sandbox, whose only writable folder is the notebook's folder; without, in a kernel
    with the grader's rights under an address-space limit of ``memory_mb``. A frame over
    ``max_message_mb`` (default :data:`.kernel_channels.MAX_MESSAGE_MB`) or a message the
    grader cannot read stops the kernel (:class:`.kernel_channels.GuardedKernelManager`).
    Returns why the run stopped
    ('' if it ran to the end) and the errors of its cells as ``[cell index, "Name: message"]``.
    """
    import asyncio
    import signal

    import nbformat
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    _, client_class = _limited_client_classes()
    try:
        notebook = nbformat.read(path, as_version=4)
    except Exception as failure:  # noqa: BLE001 - a file that is JSON but not a notebook
        return f"could not run the notebook: {type(failure).__name__}: {str(failure)[:200]}", []
    from .kernel_channels import MAX_MESSAGE_MB

    work = Path(path).parent
    try:
        km, kernel_env = _kernel_manager(
            work, env, memory_mb, limits, max_message_mb or MAX_MESSAGE_MB
        )
    except Exception as failure:  # noqa: BLE001
        return f"could not start the kernel: {type(failure).__name__}: {str(failure)[:200]}", []
    client = client_class(
        notebook,
        km=km,
        timeout=cell_seconds,
        allow_errors=True,
        kernel_name="python3",
        record_timing=False,
        store_widget_state=False,
        resources={"metadata": {"path": str(work)}},
        extra_arguments=[f"--IPKernelApp.exec_lines={CUT_OUTPUT}"],
    )
    client.cell_errors = []
    expired = False

    def kill_kernel() -> None:
        process = getattr(km.provisioner, "process", None) if km.provisioner else None
        if process is not None and process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)

    def stop_kernel() -> None:  # the whole-notebook limit: kill the kernel, nbclient notices
        nonlocal expired
        expired = True
        kill_kernel()

    timer = asyncio.get_running_loop().call_later(total_seconds, stop_kernel)
    full = ""

    def stop_for_disk(reason: str) -> None:
        nonlocal full
        full = reason
        kill_kernel()

    disk_mb = limits.disk_mb if limits is not None else sandbox_disk.DEFAULT_MB
    watcher = asyncio.create_task(  # root: the bwrap process (its deleted files held count)
        sandbox_disk.watch(
            work,
            disk_mb << 20,
            stop_for_disk,
            root=lambda: getattr(getattr(km.provisioner, "process", None), "pid", None),
        )
    )
    error = ""
    run = None
    try:
        run = asyncio.ensure_future(
            client.async_execute(
                env=kernel_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        )
        await asyncio.wait_for(run, total_seconds + 30)
    except CellTimeoutError:
        error = f"cell {client.current} ran longer than the limit of {cell_seconds} s per cell"
    except (DeadKernelError, asyncio.TimeoutError):
        error = (
            f"the notebook ran longer than its limit of {total_seconds} s (stopped in "
            f"cell {client.current})"
            if expired
            else f"the kernel died in cell {client.current} (an exit, a crash or the memory "
            f"limit of {memory_mb} MB)"
        )
    except Exception as failure:  # noqa: BLE001 - report it, never stop the grader
        error = f"could not run the notebook: {type(failure).__name__}: {str(failure)[:200]}"
    finally:
        timer.cancel()
        watcher.cancel()
        kill_kernel()
        await _shut_down(client, km)
        if run is not None and run.done() and not run.cancelled():
            run.exception()  # seen: a run cancelled with the grader ends in DeadKernelError
    if km.refused:  # a message refused, the kernel killed: whatever nbclient saw then
        error = f"the kernel was stopped in cell {client.current}: {km.refused}"
    if full:
        error = (
            f"the notebook wrote {full} in its folder (its limits: {disk_mb} MB, "
            f"{sandbox_disk.MAX_ENTRIES} entries); stopped in cell {client.current}"
        )
    return error, client.cell_errors


async def _shut_down(client, km) -> None:
    """Close the client's channels and end the kernel: nbclient does not shut down a kernel
    manager it was handed (its sockets, connection file and cgroup would stay)."""
    kc = getattr(client, "kc", None)
    if kc is not None:
        try:
            kc.stop_channels()
        except Exception:  # noqa: BLE001, S110 - already closed
            pass
    try:
        if km.has_kernel:
            await km.shutdown_kernel(now=True)
        else:
            await km.cleanup_resources()
    except Exception:  # noqa: BLE001, S110 - the kernel is dead already
        pass
