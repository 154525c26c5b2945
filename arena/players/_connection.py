"""A framed message connection over a bot's stdin pipe and its stdout (socket or pipe).

Turns transport failures into classified :class:`BotFault` s: end of stream → ``CRASH``,
oversize header → ``OVERSIZE``, undecodable payload → ``PROTOCOL``. Deadlines are the
caller's (a cancel scope around the awaiting calls); :meth:`Connection.write_now` and
:meth:`Connection.poll` never wait, so a caller can skip the cancel scope when the bot has
already answered.

Every message read carries the time its last byte arrived (:attr:`Connection.arrived`). On a
stamping socket (see ``_process``) that is the kernel's receive stamp, which nothing in this
process can delay: engine work of other games, the garbage collector or a late wake-up of the
event loop make the arena read later, not the bot look slower. On a pipe it is the time of
the read.
"""

from __future__ import annotations

import fcntl
import os
import select
import socket
import struct
import time
import termios
from typing import Any

import trio

import protocol

from ._faults import BotFault, FaultKind
from ._process import BotProcess
from ._reply_socket import SO_TIMESTAMPNS

#: room for one ``struct timespec`` control message
_STAMP_SPACE = socket.CMSG_SPACE(16)
_TIMESPEC = struct.Struct("qq")
_SOL_SOCKET = socket.SOL_SOCKET
#: bytes asked of one read: a whole usual reply, and never less than the frame still needs
_READ_SIZE = 65536


class Connection:
    """Send and receive protocol messages to and from one bot process.

    Works on the raw file descriptors (already non-blocking) with trio's
    ``wait_readable``/``wait_writable``: the stream layer above them costs more per move
    than everything else the arena does (see BENCHMARKS.md).
    """

    #: trio-clock time at which the last byte of the latest message returned arrived
    arrived = 0.0

    def __init__(self, process: BotProcess, max_frame: int = protocol.DEFAULT_MAX_FRAME) -> None:
        self.process = process
        self._out = process.stdin.fileno()
        self._in = process.stdout.fileno()
        self._socket = process.stdout if isinstance(process.stdout, socket.socket) else None
        self._decoder = protocol.FrameDecoder(max_frame)
        self.encode = protocol.FrameEncoder().encode
        #: bytes written to the bot's stdin so far (``unread`` tells how many it has not read)
        self.written = 0
        self._poller = select.poll()
        # POLLRDHUP: a socket whose peer closed reports that, not POLLHUP (pipes ignore it)
        self._poller.register(self._in, select.POLLIN | select.POLLRDHUP)

    def write_now(self, frame: bytes | memoryview) -> int:
        """Write as much of ``frame`` as the pipe takes without waiting; return the byte count."""
        try:
            count = os.write(self._out, frame)
        except BlockingIOError:
            return 0
        except OSError:
            raise BotFault(FaultKind.CRASH, self._gone("stopped reading its stdin")) from None
        self.written += count
        return count

    def unread(self) -> int:
        """Bytes written to the bot's stdin that it has not read (still in the pipe).

        Linux answers ``FIONREAD`` on either end of a pipe, also after the reader exited.
        """
        try:
            return struct.unpack("i", fcntl.ioctl(self._out, termios.FIONREAD, b"\0\0\0\0"))[0]
        except OSError:
            return 0

    def hung_up(self) -> bool:
        """Whether the bot has closed its stdout (it exited, or will never answer). Never waits
        and reads nothing: messages already in the pipe stay there."""
        return any(events & (select.POLLHUP | select.POLLERR | select.POLLRDHUP)
                   for _, events in self._poller.poll(0))

    def has_input(self) -> bool:
        """Whether :meth:`poll` may find something: received bytes not yet taken as a message,
        or bytes (or end of stream) waiting in the pipe. Never waits; cheaper than a read that
        finds nothing (measured: 1.5 against 3.2 us)."""
        return bool(self._decoder.pending() or self._poller.poll(0))

    def pending(self) -> int:
        """Bytes of an incomplete frame received so far (0 at a frame boundary)."""
        return self._decoder.pending()

    def waiting(self) -> int:
        """Bytes the bot has sent that no message returned so far took: those in the pipe or
        socket, and a frame begun. Never waits and reads nothing."""
        try:
            queued = struct.unpack("i", fcntl.ioctl(self._in, termios.FIONREAD, b"\0\0\0\0"))[0]
        except OSError:
            queued = 0
        return queued + self._decoder.pending()

    async def send_frame(self, frame: bytes | memoryview) -> None:
        view = memoryview(frame)
        while view:
            written = self.write_now(view)
            if not written:
                await trio.lowlevel.wait_writable(self._out)
            view = view[written:]

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_frame(self.encode(message))

    async def receive(self, polled: bool = False) -> dict[str, Any]:
        """The next message from the bot. ``polled``: the caller's :meth:`poll` has just found
        nothing, so this waits before reading (it saves a read that would find nothing)."""
        if polled:
            await trio.lowlevel.wait_readable(self._in)
        while True:
            message = self.poll()
            if message is not None:
                return message
            await trio.lowlevel.wait_readable(self._in)

    def poll(self) -> dict[str, Any] | None:
        """The next message if it has arrived (buffered or readable now), else ``None``.

        Never waits. A bot often answers before the request's ``write`` returns to the
        arena (the write wakes it on the same core), and then the answer costs no pass
        through the event loop. :attr:`arrived` is the arrival time of the last read that
        took part in the message (its last byte's, or a little later when one read took
        more than the message).
        """
        decoder = self._decoder
        data = None
        while True:
            try:
                message = decoder.next() if data is None else decoder.take(data)
            except protocol.FrameTooLarge as error:
                raise BotFault(FaultKind.OVERSIZE, str(error)) from None
            except protocol.MalformedFrame as error:
                raise BotFault(FaultKind.PROTOCOL, str(error)) from None
            if message is not None:
                return message
            try:
                data = self._read(max(_READ_SIZE, decoder.needed()) if decoder.pending() else _READ_SIZE)
            except BlockingIOError:
                return None
            except OSError:
                data = b""
            if not data:
                partial = " in the middle of a frame" if decoder.pending() else ""
                raise BotFault(FaultKind.CRASH, self._gone(f"closed its stdout{partial}"))

    def _read(self, size: int) -> bytes:
        """Read what is there (raises :class:`BlockingIOError` when nothing is) and set
        :attr:`arrived`: the kernel's stamp, carried over to the trio clock by its age."""
        if self._socket is None:
            data = os.read(self._in, size)
            self.arrived = trio.current_time()
            return data
        data, ancillary, _, _ = self._socket.recvmsg(size, _STAMP_SPACE)
        now = trio.current_time()
        age = 0
        for level, kind, stamp in ancillary:
            if level == _SOL_SOCKET and kind == SO_TIMESTAMPNS and len(stamp) >= 16:
                # Both on the real-time clock, and only a reader's lateness apart: a step of
                # that clock in between is the only error, and is clamped to "now".
                seconds, nanoseconds = _TIMESPEC.unpack_from(stamp)
                age = max(time.time_ns() - seconds * 1_000_000_000 - nanoseconds, 0)
        self.arrived = now - age / 1e9
        return data

    def _gone(self, what: str) -> str:
        code = self.process.returncode()
        state = "still running" if code is None else f"exit code {code}"
        return f"bot {what} ({state})"
