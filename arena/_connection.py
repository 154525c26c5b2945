"""A framed message connection over a bot's pipes.

Turns transport failures into classified :class:`BotFault` s: end of stream → ``CRASH``,
oversize header → ``OVERSIZE``, undecodable payload → ``PROTOCOL``. Deadlines are the
caller's (``trio.move_on_after`` around the calls).
"""

from __future__ import annotations

from typing import Any

import trio

import protocol

from ._faults import BotFault, FaultKind
from ._process import BotProcess


class Connection:
    """Send and receive protocol messages to and from one bot process."""

    def __init__(self, process: BotProcess, max_frame: int = protocol.DEFAULT_MAX_FRAME) -> None:
        self.process = process
        self._stdin = process.stdin
        self._stdout = process.stdout
        self._decoder = protocol.FrameDecoder(max_frame)

    async def send_frame(self, frame: bytes) -> None:
        try:
            await self._stdin.send_all(frame)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            raise BotFault(FaultKind.CRASH, self._gone("stopped reading its stdin")) from None

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_frame(protocol.encode(message))

    async def receive(self) -> dict[str, Any]:
        """The next message from the bot."""
        decoder = self._decoder
        while True:
            try:
                message = decoder.next()
            except protocol.FrameTooLarge as error:
                raise BotFault(FaultKind.OVERSIZE, str(error)) from None
            except protocol.MalformedFrame as error:
                raise BotFault(FaultKind.PROTOCOL, str(error)) from None
            if message is not None:
                return message
            try:
                data = await self._stdout.receive_some(max(65536, decoder.needed()))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                partial = " in the middle of a frame" if decoder.pending() else ""
                raise BotFault(FaultKind.CRASH, self._gone(f"closed its stdout{partial}"))
            decoder.feed(data)

    def _gone(self, what: str) -> str:
        code = self.process.returncode()
        state = "still running" if code is None else f"exit code {code}"
        return f"bot {what} ({state})"
