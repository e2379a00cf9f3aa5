"""The grader's side of a kernel's connection: every socket it reads is limited.

Everything a kernel sends is the student's. :class:`GuardedKernelManager` and its client
:class:`GuardedKernelClient` make their sockets with :func:`limited_context`: a frame over
:data:`MAX_MESSAGE_MB` drops the connection (ZMQ's ``MAXMSGSIZE``), at most
:data:`RECEIVE_QUEUE` messages wait per socket (``RCVHWM``; ZMQ counts messages, not bytes),
a send the kernel does not take is given up after :data:`SEND_MS`, and, for a sandboxed kernel,
a connection lost is never made again (``RECONNECT_IVL`` -1). A message that is not validly
signed, or cannot be read, is refused (:class:`GuardedChannel`), and so is a connection that
breaks off while the kernel lives (a monitor per socket): either kills the kernel, and
:attr:`GuardedKernelManager.refused` says why. The client opens the shell and IOPub channels
only: jupyter_client's heartbeat makes a new socket, a new connection, whenever the kernel
does not answer.

With the ``ipc`` transport the sockets are reached through a descriptor of their folder
(:func:`socket_url`: ``/proc/self/fd/N/kernel-XXXX-ipc-<port>``, short whatever the folder's
path) and each is checked (:func:`check_socket`: a socket, not a link) before a connection.
A unix socket's path has at most 107 bytes; the folder's may be longer.

A multipart message is queued whole before it is read, whatever its number of frames: that
one is bounded by the memory limit of the grading process (:mod:`coursekit.grading.worker`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import stat
from collections.abc import Callable
from typing import Any

import zmq
import zmq.asyncio
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_client.manager import AsyncKernelManager
from zmq.utils.monitor import parse_monitor_message

# The largest frame the grader takes from a kernel (ZMQ_MAXMSGSIZE; a larger one drops the
# connection). A 10 x 6 inch figure is 30 kB of base64 PNG; 8 MB of JSON numbers are parsed
# in 0.3 s (measured), against 7 s for the 45 MB a kernel could send before.
MAX_MESSAGE_MB = 8
# Messages ZMQ may hold per socket before it stops reading (ZMQ_RCVHWM; 1000 by default): at
# most RECEIVE_QUEUE frames of MAX_MESSAGE_MB wait on each of the three sockets read.
RECEIVE_QUEUE = 8
STARTUP_SECONDS = 60  # for the kernel to listen on its sockets (nbclient's startup_timeout)
SEND_MS = 1000  # a message the kernel does not take in this time is not sent (zmq.Again)
GRACE_SECONDS = 2.0  # a connection that broke off with a live kernel after that: refused
# a monitor's events telling that a connection broke off (or could not be made)
_BROKEN = (
    zmq.EVENT_DISCONNECTED
    | zmq.EVENT_CLOSED
    | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
    | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
    | zmq.EVENT_MONITOR_STOPPED
)


def limited_context(max_message_mb: int = MAX_MESSAGE_MB, reconnect: bool = False):
    """A ``zmq.asyncio.Context`` whose every socket takes frames of at most ``max_message_mb``,
    queues at most :data:`RECEIVE_QUEUE` messages and, unless ``reconnect``, never connects
    again once a connection is lost (the defaults a context gives each socket it makes)."""
    if not isinstance(max_message_mb, int) or isinstance(max_message_mb, bool):
        raise TypeError(f"max_message_mb must be an int, not {type(max_message_mb).__name__}")
    if max_message_mb <= 0:
        raise ValueError(f"max_message_mb must be positive, not {max_message_mb}")
    context = zmq.asyncio.Context()
    context.setsockopt(zmq.MAXMSGSIZE, max_message_mb << 20)
    context.setsockopt(zmq.RCVHWM, RECEIVE_QUEUE)
    # a send to a kernel whose connection is gone (never made again) would wait for ever
    context.setsockopt(zmq.SNDTIMEO, SEND_MS)
    if not reconnect:
        context.setsockopt(zmq.RECONNECT_IVL, -1)
    return context


def _dead_kernel(reason: str) -> Exception:
    from nbclient.exceptions import DeadKernelError

    return DeadKernelError(reason)


class GuardedChannel(AsyncZMQSocketChannel):
    """A channel that refuses (and stops the kernel for) a message it cannot read: a wrong
    signature, frames that are not a Jupyter message, JSON too deep or not JSON."""

    name = "?"
    refuse: Callable[[str], None] | None = None

    async def _recv(self, **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        frames = await self.socket.recv_multipart(**kwargs)
        try:
            _, message = self.session.feed_identities(frames)
            return self.session.deserialize(message)
        except Exception as error:  # noqa: BLE001 - whatever it is, the kernel sent it
            reason = (
                f"its {self.name} channel sent a message the grader refuses "
                f"({type(error).__name__}: {str(error)[:120]})"
            )
            if self.refuse is not None:
                self.refuse(reason)
            raise _dead_kernel(reason) from None


class CheckedSockets:
    """Connects to the kernel's ipc sockets through the socket folder's descriptor
    (:func:`socket_url`), each checked with lstat first (:func:`check_socket`: a socket, not a
    link the notebook put there); the same for a kernel manager and its clients."""

    def _make_url(self, channel: str) -> str:
        return socket_url(self, channel) or super()._make_url(channel)  # type: ignore[misc]

    def _create_connected_socket(self, channel: str, identity: bytes | None = None) -> Any:
        if not check_socket(self, channel):
            raise RuntimeError(f"the kernel's {channel} socket is missing")
        return super()._create_connected_socket(channel, identity=identity)  # type: ignore[misc]


class GuardedKernelClient(CheckedSockets, AsyncKernelClient):
    """The client of a :class:`GuardedKernelManager`: only the shell and IOPub channels (what
    nbclient reads), each watched: a connection that breaks off while the kernel lives (a frame
    over the limit, a socket the notebook closed) stops the kernel."""

    socket_folder: int | None = None  # the folder's descriptor, for ipc sockets

    def __init__(self, **kwargs: Any) -> None:
        for name in ("shell", "iopub", "stdin", "control"):
            kwargs.setdefault(f"{name}_channel_class", GuardedChannel)
        super().__init__(**kwargs)

    def start_channels(self, shell=True, iopub=True, stdin=True, hb=True, control=True) -> None:
        """Shell and IOPub only; stdin, control and heartbeat are never connected."""
        super().start_channels(shell=shell, iopub=iopub, stdin=False, hb=False, control=False)
        self._watchers: list[tuple[asyncio.Task, Any, Any]] = []
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # not in a loop: nothing can watch
            return
        for name in ("shell", "iopub"):
            channel = getattr(self, f"_{name}_channel")
            if channel is None:
                continue
            channel.name, channel.refuse = name, self._refuse
            monitor = channel.socket.get_monitor_socket(_BROKEN | zmq.EVENT_CONNECTED)
            task = asyncio.ensure_future(self._watch(name, monitor))
            self._watchers.append((task, channel.socket, monitor))

    async def _watch(self, name: str, monitor: Any) -> None:
        # reconnecting (TCP, unsafe), a connection tried before the kernel listens is closed
        reconnect = getattr(self.parent, "reconnect", False)
        broken = _BROKEN & ~zmq.EVENT_CLOSED if reconnect else _BROKEN
        while True:
            event = parse_monitor_message(await monitor.recv_multipart())["event"]
            if event & broken:
                break
        await asyncio.sleep(GRACE_SECONDS)  # a kernel that died: nbclient says so itself
        if await self.is_alive():
            limit = getattr(self.parent, "max_message_mb", MAX_MESSAGE_MB)
            self._refuse(
                f"its {name} connection broke off (a frame over the limit of {limit} MB, a "
                "message over the grading process's memory, or a socket the notebook closed)"
            )

    def _refuse(self, reason: str) -> None:
        refuse = getattr(self.parent, "refuse", None)
        if refuse is not None:
            refuse(reason)

    def stop_channels(self) -> None:
        """Stop the watchers and the channels made (jupyter_client's would make the others,
        connecting them, only to stop them)."""
        for task, sock, monitor in getattr(self, "_watchers", []):
            task.cancel()
            with contextlib.suppress(zmq.ZMQError):
                sock.disable_monitor()
            monitor.close(linger=0)
        self._watchers = []
        for name in ("shell", "iopub", "stdin", "hb", "control"):
            channel = getattr(self, f"_{name}_channel")
            if channel is not None and channel.is_alive():
                channel.stop()
        if self._created_context and not self.context.closed:
            self.context.destroy(linger=100)


class GuardedKernelManager(AsyncKernelManager):
    """An ``AsyncKernelManager`` whose sockets (its own control socket and its clients') are
    limited (:func:`limited_context`) and whose client is a :class:`GuardedKernelClient`.
    :meth:`refuse` kills the kernel and keeps the first reason in :attr:`refused`."""

    def __init__(
        self, *, max_message_mb: int = MAX_MESSAGE_MB, reconnect: bool = True, **kwargs: Any
    ) -> None:
        context = limited_context(max_message_mb, reconnect)
        super().__init__(context=context, **kwargs)
        self._created_context = True  # destroyed with the kernel's resources
        self.client_factory = GuardedKernelClient
        self.max_message_mb = max_message_mb
        self.reconnect = reconnect
        self.refused = ""

    def client(self, **kwargs: Any) -> GuardedKernelClient:
        """A client on a limited context of its own (destroyed when its channels stop)."""
        kwargs.setdefault("context", limited_context(self.max_message_mb, self.reconnect))
        client = super().client(**kwargs)
        client._created_context = True
        client.socket_folder = getattr(self, "socket_folder", None)
        return client

    async def _async_interrupt_kernel(self) -> None:
        """jupyter_client's (its shutdown interrupts first), but a kernel whose control
        connection is gone (refused, dead) is not waited for."""
        with contextlib.suppress(zmq.Again):
            await super()._async_interrupt_kernel()

    interrupt_kernel = _async_interrupt_kernel

    def refuse(self, reason: str) -> None:
        """Stop the kernel (SIGKILL) for ``reason``; the first reason is kept."""
        self.refused = self.refused or reason
        process = getattr(self.provisioner, "process", None) if self.provisioner else None
        if process is not None and process.poll() is None:
            process.kill()


def socket_name(owner: Any, channel: str) -> str:
    """The file name of ``channel``'s ipc socket of ``owner`` (a kernel manager or client)."""
    return f"{os.path.basename(owner.ip)}-{getattr(owner, f'{channel}_port')}"


def socket_url(owner: Any, channel: str) -> str | None:
    """The ipc address of ``channel`` through the socket folder's descriptor (None: tcp)."""
    if owner.transport != "ipc" or getattr(owner, "socket_folder", None) is None:
        return None
    return f"ipc:///proc/self/fd/{owner.socket_folder}/{socket_name(owner, channel)}"


def check_socket(owner: Any, channel: str) -> bool:
    """Whether ``channel``'s ipc socket exists (False: not made yet); a RuntimeError if it
    is not a socket (a link to one, say)."""
    if socket_url(owner, channel) is None:
        return True
    name = socket_name(owner, channel)
    try:
        info = os.stat(name, dir_fd=owner.socket_folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    if not stat.S_ISSOCK(info.st_mode):
        raise RuntimeError(f"the kernel's {channel} socket {name} is not a socket (a link?)")
    return True


def listening(owner: Any, channel: str) -> bool:
    """Whether the kernel listens on ``channel``'s socket (checked first: not a link)."""
    if not check_socket(owner, channel):
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(socket_url(owner, channel).removeprefix("ipc://"))
        except OSError:  # bound but not listening yet
            return False
    return True
