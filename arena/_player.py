"""A player: one bot process, its connection, its identity, and the decision round trip.

:func:`open_player` starts a bot and shakes hands; a :class:`Player` then plays any number
of games in a row (``start`` ... requests ... ``end``). Every failure is raised as a
classified :class:`BotFault`; deciding what it costs is the match's job.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import trio

import protocol

from ._connection import Connection
from ._faults import BotFault, FaultKind
from ._manifest import BotSpec
from ._process import BotProcess, open_bot_process
from ._sandbox import Sandbox
from ._timecontrol import GameClock

ARENA_NAME = "pirate-arena 0.1"


class Player:
    """A started bot. ``failure`` is set once the bot has faulted fatally; it then plays no more."""

    def __init__(self, spec: BotSpec, process: BotProcess | None, max_frame: int) -> None:
        self.spec = spec
        self.process = process
        self.connection = Connection(process, max_frame) if process is not None else None
        self.hello: protocol.BotHello | None = None
        self.failure: BotFault | None = None
        #: the last request sent and the last message received (for reports like check-bot)
        self.last_request: dict[str, Any] | None = None
        self.last_reply: dict[str, Any] | None = None
        self._next_id = 1
        self._instant = 0  # replies that were there without waiting

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def usable(self) -> bool:
        return self.failure is None

    def stderr_tail(self) -> str:
        return self.process.stderr.tail() if self.process is not None else ""

    def fail(self, fault: BotFault) -> None:
        """Mark the bot as failed and kill its process group now."""
        if self.failure is None:
            self.failure = fault
        if self.process is not None:
            self.process.kill()

    async def handshake(self, startup_s: float) -> protocol.BotHello:
        with trio.move_on_after(startup_s):
            await self.connection.send(protocol.hello(ARENA_NAME))
            message = await self.connection.receive()
            try:
                self.hello = protocol.parse_hello(message)
            except protocol.VersionMismatch as error:
                # A clean refusal: tell the bot why before it is stopped.
                await self.connection.send(protocol.bye(f"refused: {error}"))
                raise BotFault(FaultKind.PROTOCOL, f"bad hello: {error}") from None
            except protocol.ProtocolError as error:
                raise BotFault(FaultKind.PROTOCOL, f"bad hello: {error}") from None
            return self.hello
        raise BotFault(FaultKind.TIMEOUT, f"no hello within {startup_s * 1000:.0f} ms of starting")

    async def send(self, message: dict[str, Any], timeout_s: float) -> None:
        """Send a message that needs no answer; a bot that does not read it times out."""
        frame = self.connection.encode(message)
        written = self.connection.write_now(frame)
        if written == len(frame):
            return  # the usual case: the pipe took it all, no deadline was needed
        with trio.move_on_after(timeout_s):
            await self.connection.send_frame(memoryview(frame)[written:])
            return
        raise BotFault(FaultKind.TIMEOUT, f"did not read its stdin for {timeout_s * 1000:.0f} ms")

    async def decide(self, kind: str, observation: Mapping[str, Any], events: Sequence[Any],
                     legal: Sequence[Any] | None, clock: GameClock) -> tuple[Any, float]:
        """Ask for one decision; return ``(action, elapsed seconds)``.

        Replies with an older id (answers to requests that already timed out) are discarded.
        Raises :class:`BotFault` on timeout (the clock is charged), crash or protocol error.
        The action is not checked for legality here.
        """
        request_id = self._next_id
        self._next_id += 1
        budget = clock.budget()
        self.last_request = message = protocol.request(
            request_id, kind, observation, events, legal,
            time_left_ms=math.floor(budget * 1000), move_ms=math.floor(clock.move_limit * 1000),
        )
        connection = self.connection
        frame = connection.encode(message)
        started = trio.current_time()
        written = connection.write_now(frame)
        reply = self._reply_to(request_id, connection.poll_answer()) if written == len(frame) else None
        if reply is not None:
            # Answered without waiting: no cancel scope was needed (entering one costs more
            # than the rest of this method). Yield now and then, so a game between instant
            # bots does not starve the other tasks.
            self._instant += 1
            if self._instant % 16 == 0:
                await trio.lowlevel.checkpoint()
        else:
            with trio.CancelScope(deadline=started + budget) as deadline:
                await connection.send_frame(memoryview(frame)[written:])
                while reply is None:
                    reply = self._reply_to(request_id, await connection.receive())
                    if reply is None:
                        await trio.lowlevel.checkpoint()  # a stale reply: discard it and keep waiting
            if deadline.cancelled_caught:
                clock.update(budget)
                raise BotFault(FaultKind.TIMEOUT, f"no reply within {budget * 1000:.0f} ms")
        elapsed = trio.current_time() - started
        if not clock.update(elapsed):
            clock.update(budget)
            raise BotFault(FaultKind.TIMEOUT, f"no reply within {budget * 1000:.0f} ms")
        return reply.action, elapsed

    def _reply_to(self, request_id: int, message: dict[str, Any] | None) -> protocol.ActionReply | None:
        """The bot's answer to ``request_id`` in ``message``; ``None`` for no message or a stale one."""
        if message is None:
            return None
        self.last_reply = message
        if message.get("type") != "action":
            raise BotFault(FaultKind.PROTOCOL, f"expected an 'action' reply, got type {message.get('type')!r}")
        try:
            reply = protocol.parse_action(message)
        except protocol.ProtocolError as error:
            raise BotFault(FaultKind.PROTOCOL, str(error)) from None
        if reply.id == request_id:
            return reply
        if not 0 < reply.id < request_id:
            raise BotFault(FaultKind.PROTOCOL, f"reply to id {reply.id}, which was never sent (waiting for {request_id})")
        return None


@asynccontextmanager
async def open_player(spec: BotSpec, startup_s: float = 10.0,
                      max_frame: int = protocol.DEFAULT_MAX_FRAME,
                      sandbox: Sandbox | None = None, log_dir: Path | None = None) -> AsyncIterator[Player]:
    """Start a bot and shake hands; on exit say ``bye`` and kill its process group.

    Never raises for the bot's faults: a bot that cannot start or fails the handshake
    yields a :class:`Player` whose ``failure`` says why.
    """
    async with AsyncExitStack() as stack:
        try:
            process = await stack.enter_async_context(open_bot_process(spec, sandbox, log_dir=log_dir))
        except BotFault as fault:
            player = Player(spec, None, max_frame)
            player.failure = fault
        else:
            player = Player(spec, process, max_frame)
            try:
                await player.handshake(startup_s)
            except BotFault as fault:
                player.fail(fault)
        try:
            yield player
        finally:
            if player.usable:
                with trio.move_on_after(0.5) as scope:
                    scope.shield = True
                    try:
                        await player.connection.send(protocol.bye())
                    except BotFault:
                        pass
                    await player.process.process.wait()
