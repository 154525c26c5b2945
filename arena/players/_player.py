"""A player: one bot process, its connection, its identity, and the decision round trip.

A :class:`Player` (:func:`~._open_player.open_player` starts its bot and shakes hands) plays any
number of games in a row (``start`` ... requests ... ``end``). Every failure is raised as a
classified :class:`BotFault`; deciding what it costs is the match's job.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import trio

import protocol

from ._connection import Connection
from ._faults import BotFault, FaultKind
from ._manifest import BotSpec
from ._process import BotProcess
from ._timecontrol import GameClock

if TYPE_CHECKING:
    from ..sandbox import BotCgroup

ARENA_NAME = "pirate-arena 0.1"


def cgroup_fault(cgroup: BotCgroup) -> BotFault | None:
    """The fault of a bot whose cgroups say it went past a limit: a ``memory`` fault after an
    OOM kill among its processes, a timeout past its ``cpu_s``; ``None`` while within them."""
    overrun = cgroup.overrun()
    if overrun is None:
        return None
    limit, detail = overrun
    return BotFault(FaultKind.MEMORY if limit == "memory" else FaultKind.TIMEOUT, detail)


#: the longest a bot's request waits (before its clock starts) for the bots frozen before it to
#: have stopped every process: a bot that forked a hundred CPU burners is frozen when its reply
#: arrives, but the freezer stops each burner only at its next interrupt, and until then they
#: take the cores of the bot on move (issue 32: 1.64x its CPU time in one run)
FREEZE_WAIT_S = 0.05


async def _until_the_others_stopped(own: BotCgroup) -> None:
    """Wait, at most :data:`FREEZE_WAIT_S`, until no bot this process froze is still running
    (:meth:`arena.sandbox._botcgroup.BotCgroup.still_freezing`); usually they all are at once,
    and this is one read of a cgroup file per freeze."""
    if not own.still_freezing(besides=own):
        return
    deadline = trio.current_time() + FREEZE_WAIT_S
    while trio.current_time() < deadline:
        await trio.sleep(0.001)
        if not own.still_freezing(besides=own):
            return


class Player:
    """A started bot. ``failure`` is set once the bot has faulted fatally; it then plays no more."""

    def __init__(self, spec: BotSpec, process: BotProcess | None, max_frame: int) -> None:
        self.spec = spec
        self.process = process
        self.connection = Connection(process, max_frame) if process is not None else None
        #: the bot's cgroups (frozen while it is not on move; memory and cpu_s checked)
        self._cgroup = process.cgroup if process is not None else None
        self._ponder = False  # the last game's time control let it think on others' time
        self.hello: protocol.BotHello | None = None
        self.failure: BotFault | None = None
        #: the last request sent and the last message received (for reports like check-bot)
        self.last_request: dict[str, Any] | None = None
        self.last_reply: dict[str, Any] | None = None
        self._next_id = 1
        self._instant = 0  # replies that were there without waiting
        self._early = False  # a frame had begun before the open request was sent
        self._game_mark = 0  # connection.written when the current game was handed out

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def usable(self) -> bool:
        return self.failure is None

    def stderr_tail(self) -> str:
        return self.process.stderr.tail() if self.process is not None else ""

    def alive(self) -> bool:
        """Whether the bot can play another game: it has not failed, its process is running and
        its stdout is open. Never waits and reads nothing."""
        return (self.failure is None and self.process.returncode() is None
                and not self.connection.hung_up())

    async def wait_input_read(self, limit: float) -> None:
        """Wait, at most ``limit`` seconds, until the bot has read everything sent to it.

        A bot that is waiting for its next game has already read the last one's ``end``, so
        this returns at once; nothing signals an empty pipe, hence the short sleeps. A bot
        frozen since its last reply has not: it is thawed while it reads (a buffered reader
        would otherwise take the next game's first bytes with ``end``, and a bot that exits
        after ``end`` would seem to have died in the next game), and frozen again; the first
        2 ms are polled at every pass of the event loop, since it usually takes well under one.
        """
        if not self.connection.unread():
            return
        cgroup = self._cgroup
        if cgroup is not None:
            cgroup.wake()
        quick = trio.current_time() + 0.002
        delay = 0.001
        try:
            with trio.move_on_after(limit):
                while self.connection.unread():
                    if trio.current_time() < quick:
                        await trio.lowlevel.checkpoint()
                        continue
                    await trio.sleep(delay)
                    delay = min(2 * delay, 0.05)
        finally:
            if cgroup is not None:
                cgroup.rest(self._ponder)

    def begin_game(self) -> None:
        """Note that the player is handed out for a new game (see :meth:`read_nothing_of_game`)."""
        self._game_mark = self.connection.written

    def read_nothing_of_game(self) -> bool:
        """Whether the bot has not read a single byte sent to it since :meth:`begin_game`:
        after a crash, that means its process died before the game reached it."""
        if self.connection is None:
            return False
        return self.connection.unread() >= self.connection.written - self._game_mark

    def idle_fault(self) -> BotFault | None:
        """What the bot did wrong since its last game ended, found without waiting: its process
        exited, it closed its stdout, or it wrote something other than a late answer to an old
        request (a stale reply, which SPEC section 8 allows and is discarded here). The fault is
        marked ``between_games``; ``None`` when the bot is waiting for its next game as it should."""
        if self.process is None or self.failure is not None:
            return None
        code = self.process.returncode()
        if code is not None:
            how = f"exited with code {code}" if code >= 0 else f"was killed by signal {-code}"
            return BotFault(FaultKind.CRASH, f"{how} between games", between_games=True)
        connection = self.connection
        if not connection.has_input():
            return None
        size = connection.waiting()
        try:
            while (message := connection.poll()) is not None:
                if not self._stale(message):  # a stale reply is discarded, as during a game
                    break
            else:
                if not connection.pending():
                    return None
        except BotFault as fault:
            if fault.kind is FaultKind.CRASH and not connection.pending():
                return BotFault(FaultKind.CRASH, "closed its stdout between games", between_games=True)
        return BotFault(FaultKind.PROTOCOL, f"wrote {size} bytes between games", between_games=True)

    def _stale(self, message: dict[str, Any]) -> bool:
        """Whether ``message`` is a late answer to a request sent before (SPEC section 8)."""
        try:
            reply = protocol.parse_action(message) if message.get("type") == "action" else None
        except protocol.ProtocolError:
            return False
        return reply is not None and 0 < reply.id < self._next_id

    def fail(self, fault: BotFault) -> None:
        """Mark the bot as failed and kill its process group now."""
        if self.failure is None:
            self.failure = fault
        if self.process is not None:
            self.process.kill()

    def explain(self, fault: BotFault) -> BotFault:
        """``fault`` as its cgroups explain it: a bot the kernel killed for its memory limit
        has a ``memory`` fault, one past its ``cpu_s`` a timeout saying so (whatever the
        connection saw); such a bot is failed at once. Other faults are returned unchanged."""
        explained = cgroup_fault(self._cgroup) if self._cgroup is not None else None
        if explained is None:
            return fault
        self.fail(explained)
        return explained

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
        """Send a message that needs no answer; a bot that does not read it times out. A
        frozen bot is thawed while the arena waits for it to read what the pipe cannot hold,
        and for good when told ``bye``."""
        connection = self.connection
        cgroup = self._cgroup
        if cgroup is not None and message.get("type") == "bye":
            cgroup.release()
        elif cgroup is not None:
            fault = cgroup_fault(cgroup)  # past its memory or cpu_s since its last move: charged here
            if fault is not None:
                self.fail(fault)
                raise fault
        frame = connection.encode(message)
        before = connection.written
        written = connection.write_now(frame)
        if written == len(frame):
            return  # the usual case: the pipe took it all, no deadline was needed
        if cgroup is not None:
            cgroup.wake()
        try:
            with trio.move_on_after(timeout_s):
                await connection.send_frame(memoryview(frame)[written:])
                return
            raise self._write_timeout(before, len(frame), f"did not read its stdin for {timeout_s * 1000:.0f} ms")
        except BotFault as fault:
            raise self.explain(fault) from None
        finally:
            if cgroup is not None:
                cgroup.rest(self._ponder)

    def _write_timeout(self, before: int, size: int, detail: str) -> BotFault:
        """The fault for a frame not written in time. When part of it went out, the bot's input
        can never be read as frames again (the next frame would be spliced into this one): the
        player fails at once, whatever the fault policy, and is replaced before its next game."""
        sent = self.connection.written - before
        if not 0 < sent < size:
            return BotFault(FaultKind.TIMEOUT, detail)
        fault = BotFault(FaultKind.TIMEOUT, f"{detail}; a frame was cut after {sent} of {size} bytes, "
                                            f"so the bot is out for the rest of the game")
        self.fail(fault)
        return fault

    async def decide(self, kind: str, observation: Mapping[str, Any], events: Sequence[Any],
                     legal: Sequence[Any] | None, clock: GameClock) -> tuple[Any, float]:
        """Ask for one decision; return ``(action, elapsed seconds)``.

        Replies with an older id (answers to requests that already timed out) are discarded.
        Raises :class:`BotFault` on timeout (the clock is charged), crash or protocol error,
        and, where the bot has cgroups, for memory (an OOM kill among its processes) and for
        ``cpu_s`` (checked after every move). The action is not checked for legality here.

        Where a cgroup freezer serves, the bot is thawed just before the request is written
        (before the clock starts) and frozen again once its reply has arrived, unless
        ``clock.ponder``.
        """
        cgroup = self._cgroup
        if cgroup is None:
            return await self._ask(kind, observation, events, legal, clock)
        self._ponder = clock.ponder
        await _until_the_others_stopped(cgroup)
        cgroup.wake()
        try:
            action, elapsed = await self._ask(kind, observation, events, legal, clock)
        except BotFault as fault:
            raise self.explain(fault) from None
        finally:
            cgroup.rest(clock.ponder)
        fault = cgroup_fault(cgroup)
        if fault is not None:
            self.fail(fault)
            raise fault
        return action, elapsed

    async def _ask(self, kind: str, observation: Mapping[str, Any], events: Sequence[Any],
                   legal: Sequence[Any] | None, clock: GameClock) -> tuple[Any, float]:
        """The round trip of :meth:`decide`."""
        request_id = self._next_id
        self._next_id += 1
        budget = clock.budget()
        self.last_request = message = protocol.request(
            request_id, kind, observation, events, legal,
            time_left_ms=math.floor(budget * 1000), move_ms=math.floor(clock.move_limit * 1000),
        )
        connection = self.connection
        frame = connection.encode(message)
        self._check_before_request(request_id)
        before = connection.written
        # The charge runs from here (just before the request is written) to the arrival of the
        # reply's last byte (Connection.arrived: the kernel's stamp where the bot's stdout is a
        # socket), so whatever delays this process's reading is not charged to the bot.
        started = trio.current_time()
        written = connection.write_now(frame)
        whole = written == len(frame)
        reply = self._reply_to(request_id, connection.poll()) if whole else None
        if reply is not None:
            # Answered without waiting: no cancel scope was needed (entering one costs more
            # than the rest of this method).
            self._instant += 1
            if self._instant % 16 == 0:
                # Now and then let other tasks run, so a game between instant bots does not
                # starve them (the reply's time is already stamped).
                await trio.lowlevel.checkpoint()
        else:
            with trio.CancelScope(deadline=started + clock.deadline()) as deadline:
                if not whole:
                    await connection.send_frame(memoryview(frame)[written:])
                # Wait first when the poll above found nothing (it would only find nothing again).
                polled = whole and not connection.pending()
                while reply is None:
                    reply = self._reply_to(request_id, await connection.receive(polled))
                    polled = False
                    if reply is None:
                        await trio.lowlevel.checkpoint()  # a stale reply: discard it and keep waiting
            if deadline.cancelled_caught:
                # The deadline fired, maybe late: a reply that arrived by then is judged by its
                # stamp below, not by when this task woke up.
                if connection.written - before == len(frame):
                    reply = self._reply_arrived(request_id, deadline.deadline)
                if reply is None:
                    clock.update(budget)
                    raise self._write_timeout(before, len(frame), f"no reply within {budget * 1000:.0f} ms")
        elapsed = max(connection.arrived - started, 0.0)
        if not clock.update(elapsed):
            clock.update(budget)
            raise BotFault(FaultKind.TIMEOUT, f"no reply within {budget * 1000:.0f} ms")
        return reply.action, elapsed

    def _reply_arrived(self, request_id: int, by: float) -> protocol.ActionReply | None:
        """The reply to ``request_id`` if it arrived whole by ``by`` (trio clock), read without
        waiting; stale replies before it are discarded, and reading stops at the first message
        that arrived later (a bot that floods stale replies cannot keep it reading). An end of
        stream found now came after the deadline: the bot was late first, so that is a timeout
        (``None``), not a crash."""
        connection = self.connection
        try:
            while (message := connection.poll()) is not None:
                if (reply := self._reply_to(request_id, message)) is not None:
                    return reply
                if connection.arrived > by:
                    break
        except BotFault as fault:
            if fault.kind is not FaultKind.CRASH:
                raise
        return None

    def _check_before_request(self, request_id: int) -> None:
        """Read what the bot sent while no request was open, before ``request_id`` goes out.

        Stale replies are discarded (SPEC §8); anything else is a protocol fault, in particular
        an answer to ``request_id`` itself: it was written before the request existed. A frame
        begun but not finished is judged when it completes (see :meth:`_reply_to`).
        """
        connection = self.connection
        self._early = False
        if not connection.has_input():
            return  # the usual case: the bot sent nothing since its last reply
        while (message := connection.poll()) is not None:
            if self._reply_to(request_id, message) is not None:
                raise BotFault(FaultKind.PROTOCOL, f"reply to id {request_id} was written before the "
                                                   f"request existed")
        self._early = connection.pending() > 0

    def _reply_to(self, request_id: int, message: dict[str, Any] | None) -> protocol.ActionReply | None:
        """The bot's answer to ``request_id`` in ``message``; ``None`` for no message or a stale one."""
        if message is None:
            return None
        early, self._early = self._early, False
        self.last_reply = message
        if message.get("type") != "action":
            raise BotFault(FaultKind.PROTOCOL, f"expected an 'action' reply, got type {message.get('type')!r}")
        try:
            reply = protocol.parse_action(message)
        except protocol.ProtocolError as error:
            raise BotFault(FaultKind.PROTOCOL, str(error)) from None
        if reply.id == request_id:
            if early:
                raise BotFault(FaultKind.PROTOCOL, f"reply to id {request_id} began before the request "
                                                   f"existed")
            return reply
        if not 0 < reply.id < request_id:
            raise BotFault(FaultKind.PROTOCOL, f"reply to id {reply.id}, which was never sent (waiting for {request_id})")
        return None
