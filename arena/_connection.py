"""A framed message connection over a bot's pipes.

Turns transport failures into classified :class:`BotFault` s: end of stream → ``CRASH``,
oversize header → ``OVERSIZE``, undecodable payload → ``PROTOCOL``. Deadlines are the
caller's (a cancel scope around the awaiting calls); :meth:`Connection.write_now` and
:meth:`Connection.poll` never wait, so a caller can skip the cancel scope when the bot has
already answered.
"""

from __future__ import annotations

import os
import time
from typing import Any

import trio

import protocol

from ._faults import BotFault, FaultKind
from ._process import BotProcess

#: How long :meth:`Connection.poll` may spin for a reply that is about to arrive: about
#: twice a Python bot's whole round trip on a pipe. Spinning answers such a bot at raw pipe
#: speed; sleeping in the event loop costs a scheduler pass (see BENCHMARKS.md).
SPIN_NS = 50_000
#: Spinning needs a core for the bot while this process spins.
_SPARE_CORE = len(os.sched_getaffinity(0)) > 1
#: Connections of this trio run parked in ``wait_readable``: while any other bot is being
#: waited for, other games compete for the cores and nobody spins.
_WAITING = trio.lowlevel.RunVar("pirate_arena_waiting_connections", default=0)


class Connection:
    """Send and receive protocol messages to and from one bot process.

    Works on the raw pipe file descriptors (already non-blocking) with trio's
    ``wait_readable``/``wait_writable``: the stream layer above them costs more per move
    than everything else the arena does (see BENCHMARKS.md).
    """

    def __init__(self, process: BotProcess, max_frame: int = protocol.DEFAULT_MAX_FRAME) -> None:
        self.process = process
        self._out = process.stdin.fileno()
        self._in = process.stdout.fileno()
        self._decoder = protocol.FrameDecoder(max_frame)
        self.encode = protocol.FrameEncoder().encode
        self._sent_ns = 0
        #: the last reply came within SPIN_NS of the frame before it: worth spinning for
        self._quick = False

    def write_now(self, frame: bytes | memoryview) -> int:
        """Write as much of ``frame`` as the pipe takes without waiting; return the byte count."""
        self._sent_ns = time.perf_counter_ns()
        try:
            return os.write(self._out, frame)
        except BlockingIOError:
            return 0
        except OSError:
            raise BotFault(FaultKind.CRASH, self._gone("stopped reading its stdin")) from None

    async def send_frame(self, frame: bytes | memoryview) -> None:
        view = memoryview(frame)
        while view:
            written = self.write_now(view)
            if not written:
                await trio.lowlevel.wait_writable(self._out)
            view = view[written:]

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_frame(self.encode(message))

    def poll(self) -> dict[str, Any] | None:
        """The next message if it has arrived, else ``None``; never waits in the event loop.

        Spins for up to :data:`SPIN_NS` for a bot whose last reply came that fast, when this
        process has a spare core and no other bot is being waited for.
        """
        message = self._read_available()
        if message is None and self._quick and _SPARE_CORE and not _WAITING.get():
            give_up = self._sent_ns + SPIN_NS
            while message is None and time.perf_counter_ns() < give_up:
                message = self._read_available()
        return message

    async def receive(self) -> dict[str, Any]:
        """The next message from the bot."""
        while True:
            message = self._read_available()
            if message is not None:
                return message
            _WAITING.set(_WAITING.get() + 1)
            try:
                await trio.lowlevel.wait_readable(self._in)
            finally:
                _WAITING.set(_WAITING.get() - 1)

    def _read_available(self) -> dict[str, Any] | None:
        """Decode the next message from what is buffered or readable now."""
        decoder = self._decoder
        while True:
            try:
                message = decoder.next()
            except protocol.FrameTooLarge as error:
                raise BotFault(FaultKind.OVERSIZE, str(error)) from None
            except protocol.MalformedFrame as error:
                raise BotFault(FaultKind.PROTOCOL, str(error)) from None
            if message is not None:
                self._quick = time.perf_counter_ns() - self._sent_ns <= SPIN_NS
                return message
            try:
                data = os.read(self._in, max(65536, decoder.needed()))
            except BlockingIOError:
                return None
            except OSError:
                data = b""
            if not data:
                partial = " in the middle of a frame" if decoder.pending() else ""
                raise BotFault(FaultKind.CRASH, self._gone(f"closed its stdout{partial}"))
            decoder.feed(data)

    def _gone(self, what: str) -> str:
        code = self.process.returncode()
        state = "still running" if code is None else f"exit code {code}"
        return f"bot {what} ({state})"
