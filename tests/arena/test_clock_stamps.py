"""The clock charges a reply's arrival, not the moment the arena gets round to reading it.

Unit tests on trio's mock clock with a connection that reports when each reply arrived, then
real bot processes whose stdout is a stamping TCP socket (and the pipe fallback), with the
arena's event loop deliberately blocked while the bot answers.
"""

import os
import socket
import sys
import time
from pathlib import Path

import pytest
import trio

import protocol
from arena.players import _process
from arena.players._connection import Connection
from arena.players._faults import BotFault, FaultKind
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._player import Player
from arena.players._timecontrol import GameClock
from arena.sandbox._detect import detect_sandbox

BOTS = Path(__file__).parent / "bots"


class LateReader:
    """A connection whose reply to each request arrives ``arrive`` seconds after the request,
    while the arena only gets to read it at ``read`` seconds: by a shielded wait (the reader
    is busy, the deadline cannot interrupt it) or, with ``shielded=False``, never before the
    deadline's cancellation, which then finds the reply with :meth:`poll`."""

    encode = staticmethod(protocol.encode)
    written = 0
    arrived = 0.0

    def __init__(self, arrive: float, read: float, shielded: bool = True) -> None:
        self.arrive, self.read, self.shielded = arrive, read, shielded
        self.sent_at = 0.0
        self.request_id = None

    def write_now(self, frame):
        return 0

    def pending(self):
        return 0

    def has_input(self):
        return False

    def poll(self):
        """What has arrived by now; a reply not yet there is ``None``."""
        if self.request_id is None or trio.current_time() < self.sent_at + self.arrive:
            return None
        self.arrived = self.sent_at + self.arrive
        request_id, self.request_id = self.request_id, None
        return {"type": "action", "id": request_id, "action": "a"}

    async def send_frame(self, frame):
        self.written += len(frame)
        self.request_id = protocol.decode_payload(bytes(frame[protocol.HEADER_SIZE:]))["id"]
        self.sent_at = trio.current_time()

    async def receive(self, polled=False):
        with trio.CancelScope(shield=self.shielded):
            await trio.sleep(self.read)
        return self.poll()


async def decide(player: Player, clock: GameClock):
    started = trio.current_time()
    try:
        result = await player.decide("play", {}, [], ["a", "b"], clock)
    except BotFault as fault:
        result = fault
    return result, trio.current_time() - started


def fake_player(connection) -> Player:
    player = Player(BotSpec(name="fake", command=("fake",)), None, 1000)
    player.connection = connection
    return player


async def test_a_reply_that_arrived_in_time_but_was_read_late_is_charged_its_arrival(autojump_clock):
    clock = GameClock(0.5, 0.0)
    result, taken = await decide(fake_player(LateReader(arrive=0.25, read=2.0)), clock)
    assert (result, taken) == (("a", 0.25), 2.0)
    assert clock.reserve == 0.0


async def test_when_the_deadline_fires_a_reply_already_there_is_judged_by_its_arrival(autojump_clock):
    result, taken = await decide(fake_player(LateReader(arrive=0.375, read=5.0, shielded=False)), GameClock(0.5, 0.0))
    assert (result, taken) == (("a", 0.375), 0.5)


async def test_a_reply_that_arrived_past_the_budget_is_a_timeout_however_it_was_read(autojump_clock):
    clock = GameClock(0.5, 0.25)
    fault, taken = await decide(fake_player(LateReader(arrive=0.875, read=1.0)), clock)
    assert (fault.kind, fault.detail, taken, clock.reserve) == (FaultKind.TIMEOUT, "no reply within 750 ms", 1.0, 0.0)


async def test_a_reply_that_arrived_late_but_within_the_margin_is_charged(autojump_clock):
    clock = GameClock(0.5, 0.25, margin=0.25)
    result, taken = await decide(fake_player(LateReader(arrive=0.875, read=2.0)), clock)
    assert (result, taken, clock.reserve) == (("a", 0.875), 2.0, 0.0)


async def test_nothing_there_when_the_deadline_fires_is_a_timeout_at_the_deadline(autojump_clock):
    fault, taken = await decide(fake_player(LateReader(arrive=3.0, read=5.0, shielded=False)), GameClock(0.5, 0.5))
    assert (fault.kind, fault.detail, taken) == (FaultKind.TIMEOUT, "no reply within 1000 ms", 1.0)


# -- the socket ----------------------------------------------------------------------------------

class _Ends:
    """A stand-in process: stdin a pipe whose far end nobody reads, stdout the arena's socket."""

    def __init__(self, stdout: socket.socket) -> None:
        self._read, self._write = os.pipe()
        self.stdin = os.fdopen(self._write, "wb")
        self.stdout = stdout

    def returncode(self):
        return None

    def close(self) -> None:
        self.stdin.close()
        os.close(self._read)


async def test_a_message_read_late_from_the_socket_carries_its_arrival_and_an_end_is_seen():
    arena_end, bot_end = _process.open_reply_socket()
    ends = _Ends(arena_end)
    try:
        connection = Connection(ends)
        assert connection.poll() is None
        # The kernel turns receive stamps on for the whole machine when a first socket asks,
        # by deferred work: a segment received before that has none and is stamped when read.
        # A bot's first reply comes long after its socket is made; here, wait that long.
        time.sleep(0.02)
        bot_end.sendall(protocol.encode({"type": "action", "id": 1, "action": "a"}))
        time.sleep(0.05)  # the arena is busy: the reply waits in the socket
        assert connection.poll() == {"type": "action", "id": 1, "action": "a"}
        assert 0.05 <= trio.current_time() - connection.arrived < 5
        assert not connection.hung_up()
        bot_end.close()
        assert connection.hung_up()
    finally:
        bot_end.close()
        arena_end.close()
        ends.close()


# -- real processes -----------------------------------------------------------------------------

@pytest.fixture(scope="module", params=["auto", "none"])
def sandbox(request):
    box = detect_sandbox(request.param)
    yield box
    box.close()


def clocked(sleep_ms: int) -> BotSpec:
    return BotSpec(name="clocked", command=(sys.executable, str(BOTS / "clocked.py"), str(sleep_ms)))


async def blocked_decisions(player: Player, block_s: float, moves: int = 3) -> list:
    """Ask ``moves`` decisions, each while another task of this trio run blocks the event loop
    for ``block_s`` seconds (a stand-in for engine work of other games, or the GC) just after
    the request went out. Returns ``(action or fault, charged seconds, wall seconds)`` each."""
    results = []
    for _ in range(moves):
        async with trio.open_nursery() as nursery:
            async def block() -> None:
                await trio.sleep(0)  # runs once decide() waits for the reply
                time.sleep(block_s)

            nursery.start_soon(block)
            started = time.monotonic()
            try:
                action, elapsed = await player.decide("play", {}, [], ["a", "b"], GameClock(0.25, 0.0))
                results.append((action, elapsed, time.monotonic() - started))
            except BotFault as fault:
                results.append((fault.kind, None, time.monotonic() - started))
    return results


async def test_a_blocked_event_loop_is_not_charged_to_the_bot(sandbox):
    # The bot answers after 20 ms while the loop is blocked for 400 ms: read at 400 ms, charged
    # the arrival. Timed when read (the pipe, or the code before stamps) this is a timeout.
    async with open_player(clocked(20), sandbox=sandbox) as player:
        assert player.hello.name == "clocked-socket"
        assert isinstance(player.process.stdout, socket.socket)
        results = await blocked_decisions(player, 0.4)
    for action, elapsed, wall in results:
        assert action == "a"
        assert wall >= 0.4
        assert elapsed < 0.25  # 20 ms of sleep; the rest is the bot's own scheduling, not ours


async def test_without_a_socket_the_bot_gets_a_pipe_and_is_timed_when_read(monkeypatch, sandbox):
    def no_socket(loopback=None):
        raise OSError("no loopback here")

    monkeypatch.setattr(_process, "open_reply_socket", no_socket)
    async with open_player(clocked(20), sandbox=sandbox) as player:
        assert player.hello.name == "clocked-pipe"
        assert not isinstance(player.process.stdout, socket.socket)
        assert [result[0] for result in await blocked_decisions(player, 0.4, moves=1)] == [FaultKind.TIMEOUT]
        action, _ = await player.decide("play", {}, [], ["b"], GameClock(5.0, 0.0))  # the late reply is discarded
        assert action == "b"


async def test_a_bot_that_exits_is_seen_as_hung_up_on_its_socket(sandbox):
    async with open_player(clocked(0), sandbox=sandbox) as player:
        assert player.alive()
        await player.send(protocol.bye(), 1.0)
        await player.process.process.wait()
        assert not player.alive()
