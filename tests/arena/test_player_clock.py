"""``Player.decide``: deadlines, the reserve, and reply ids, against an in-memory scripted bot.

Every test runs on trio's mock clock (``autojump_clock``): a bot that "thinks" for 1.25 s
replies at virtual time 1.25 s and the test takes no real time. Times are binary fractions,
so elapsed times and reserves are compared exactly.
"""

import math
from collections.abc import Callable

import pytest
import trio

import protocol
from arena.players._faults import BotFault, FaultKind
from arena.players._manifest import BotSpec
from arena.players._player import Player
from arena.players._timecontrol import GameClock

#: For one arena message, the bot's replies as (seconds to wait first, message); ``None``: the
#: bot exits (closes its stdout).
Answer = Callable[[dict], list[tuple[float, dict]] | None]


def action(request_id: int, value="pass", after: float = 0.0) -> tuple[float, dict]:
    return after, {"type": "action", "id": request_id, "action": value}


class FakeBot:
    """Stands in for a player's ``Connection``: frames go to a scripted bot task over memory
    channels. The bot handles one message at a time, like a real single-threaded bot."""

    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.received: list[dict] = []
        self._to_bot, self._bot_inbox = trio.open_memory_channel(math.inf)
        self._bot_outbox, self._from_bot = trio.open_memory_channel(math.inf)

    written = 0
    arrived = 0.0  # when the last message returned arrived: on the mock clock, when it was taken

    def write_now(self, frame: bytes) -> int:
        return 0  # everything goes through send_frame, on the mock clock

    def poll(self) -> dict | None:
        """What the bot sent while no request was open (read before each request)."""
        try:
            message = self._from_bot.receive_nowait()
            self.arrived = trio.current_time()
            return message
        except trio.WouldBlock:
            return None
        except trio.EndOfChannel:
            raise BotFault(FaultKind.CRASH, "bot closed its stdout (exit code 0)") from None

    def pending(self) -> int:
        return 0  # messages travel whole

    def has_input(self) -> bool:
        return True  # poll() says

    async def send_frame(self, frame: bytes) -> None:
        decoder = protocol.FrameDecoder()
        decoder.feed(bytes(frame))
        message = decoder.next()
        assert decoder.pending() == 0
        self.received.append(message)
        self.written += len(frame)
        await self._to_bot.send(message)

    async def send(self, message: dict) -> None:
        await self.send_frame(protocol.encode(message))

    encode = staticmethod(protocol.encode)

    async def receive(self, polled: bool = False) -> dict:
        try:
            message = await self._from_bot.receive()
            self.arrived = trio.current_time()
            return message
        except trio.EndOfChannel:
            raise BotFault(FaultKind.CRASH, "bot closed its stdout (exit code 0)") from None

    async def run(self) -> None:
        async with self._bot_outbox:
            async for message in self._bot_inbox:
                replies = self.answer(message)
                if replies is None:
                    return
                for delay, reply in replies:
                    await trio.sleep(delay)
                    await self._bot_outbox.send(reply)


async def decide(player: Player, clock: GameClock, legal=("a", "b")):
    return await player.decide("play", {"hand": [1]}, [{"e": 1}], list(legal), clock)


def with_bot(answer: Answer):
    """Decorator: run the test body as ``body(player, bot)`` with a started fake bot."""

    def wrap(body):
        async def test(autojump_clock):
            bot = FakeBot(answer)
            player = Player(BotSpec(name="fake", command=("fake",)), None, protocol.DEFAULT_MAX_FRAME)
            assert player.connection is None
            player.connection = bot
            async with trio.open_nursery() as nursery:
                nursery.start_soon(bot.run)
                await body(player, bot)
                nursery.cancel_scope.cancel()

        test.__name__ = body.__name__
        test.__doc__ = body.__doc__
        return test

    return wrap


async def timed(call):
    """``(result or BotFault, virtual seconds taken)``."""
    started = trio.current_time()
    try:
        result = await call
    except BotFault as fault:
        result = fault
    return result, trio.current_time() - started


# -- replies in time ----------------------------------------------------------------------------

@with_bot(lambda m: [action(m["id"], "a", after=0.25)])
async def test_reply_under_the_move_limit_costs_no_reserve(player, bot):
    clock = GameClock(0.5, 1.0)
    assert await timed(decide(player, clock)) == (("a", 0.25), 0.25)
    assert clock.reserve == 1.0


@with_bot(lambda m: [action(m["id"], "b", after=0.0)])
async def test_instant_reply(player, bot):
    clock = GameClock(0.5, 0.0)
    assert await decide(player, clock) == ("b", 0.0)
    assert clock.reserve == 0.0


@with_bot(lambda m: [action(m["id"], "a", after=0.5)])
async def test_reply_at_exactly_the_move_limit_costs_no_reserve(player, bot):
    clock = GameClock(0.5, 1.0)
    assert await decide(player, clock) == ("a", 0.5)
    assert clock.reserve == 1.0


@with_bot(lambda m: [action(m["id"], "a", after=1.25 if m["id"] == 1 else 0.625)])
async def test_overage_is_charged_to_the_reserve(player, bot):
    clock = GameClock(0.5, 1.0)
    assert await decide(player, clock) == ("a", 1.25)
    assert clock.reserve == 0.25
    # The next request offers the smaller budget.
    assert await decide(player, clock) == ("a", 0.625)
    assert clock.reserve == 0.125
    assert [(m["time_left_ms"], m["move_ms"]) for m in bot.received] == [(1500, 500), (750, 500)]


@with_bot(lambda m: [action(m["id"], "a", after=0.375)])
async def test_reserve_drains_move_by_move(player, bot):
    clock = GameClock(0.25, 0.5)
    for reserve in (0.375, 0.25, 0.125):
        assert await decide(player, clock) == ("a", 0.375)
        assert clock.reserve == reserve
    assert clock.budget() == 0.375


# -- the request --------------------------------------------------------------------------------

@with_bot(lambda m: [action(m["id"])])
async def test_request_message_and_increasing_ids(player, bot):
    clock = GameClock(1.5, 2.0)
    await decide(player, clock)
    await player.decide("bid", {}, [], None, clock)
    assert bot.received == [
        {"type": "request", "id": 1, "kind": "play", "observation": {"hand": [1]}, "events": [{"e": 1}],
         "legal": ["a", "b"], "time_left_ms": 3500, "move_ms": 1500},
        {"type": "request", "id": 2, "kind": "bid", "observation": {}, "events": [], "legal": None,
         "time_left_ms": 3500, "move_ms": 1500},
    ]


@with_bot(lambda m: [action(m["id"])])
async def test_request_times_are_floored_to_whole_ms(player, bot):
    await decide(player, GameClock(0.0015, 0.0009))
    assert (bot.received[0]["time_left_ms"], bot.received[0]["move_ms"]) == (2, 1)


@with_bot(lambda m: [action(m["id"], value=m["legal"][-1])])
async def test_the_action_is_returned_as_sent_without_a_legality_check(player, bot):
    assert (await decide(player, GameClock(1.0, 0.0), legal=[{"card": "K6"}, [1, 2]]))[0] == [1, 2]


# -- timeouts -----------------------------------------------------------------------------------

def stuck_reply(delay: float):
    """A connection whose receive cannot be interrupted and returns a reply after ``delay``:
    the reply is in hand when the deadline's cancellation could first be delivered."""

    class Stuck:
        encode = staticmethod(protocol.encode)
        written = 0

        def write_now(self, frame):
            return 0

        def poll(self):
            return None

        def pending(self):
            return 0

        def has_input(self):
            return False

        async def send_frame(self, frame):
            self.request_id = protocol.decode_payload(bytes(frame[protocol.HEADER_SIZE:]))["id"]

        async def receive(self, polled=False):
            with trio.CancelScope(shield=True):
                await trio.sleep(delay)
            self.arrived = trio.current_time()  # it arrives as it is read
            return {"type": "action", "id": self.request_id, "action": "late"}

    return Stuck()


async def test_reply_late_within_the_margin_is_charged_not_a_timeout(autojump_clock):
    player = Player(BotSpec(name="fake", command=("fake",)), None, 1000)
    player.connection = stuck_reply(1.75)
    clock = GameClock(0.5, 1.0, margin=0.25)
    (action_value, elapsed), taken = await timed(decide(player, clock))
    assert (action_value, elapsed, taken) == ("late", 1.75, 1.75)
    assert clock.reserve == 0.0
    player.connection = stuck_reply(0.76)  # 0.26 s over the move limit: past the margin
    fault, _ = await timed(decide(player, clock))
    assert (fault.kind, fault.detail) == (FaultKind.TIMEOUT, "no reply within 500 ms")


async def test_reply_measured_past_the_budget_is_a_timeout(autojump_clock):
    player = Player(BotSpec(name="fake", command=("fake",)), None, 1000)
    player.connection = stuck_reply(1.75)
    clock = GameClock(0.5, 1.0)
    fault, taken = await timed(decide(player, clock))
    assert taken == 1.75
    assert (fault.kind, fault.detail) == (FaultKind.TIMEOUT, "no reply within 1500 ms")
    assert clock.reserve == 0.0


@with_bot(lambda m: [])
async def test_no_reply_times_out_at_exactly_the_budget(player, bot):
    clock = GameClock(0.5, 1.0)
    fault, taken = await timed(decide(player, clock))
    assert taken == 1.5
    assert (fault.kind, fault.detail) == (FaultKind.TIMEOUT, "no reply within 1500 ms")
    assert clock.reserve == 0.0


@with_bot(lambda m: [action(m["id"], after=2.0 if m["id"] == 1 else 0.125)])
async def test_late_reply_times_out_and_is_discarded_by_the_next_request(player, bot):
    clock = GameClock(1.0, 0.5)
    fault, taken = await timed(decide(player, clock))
    assert (fault.kind, taken, clock.reserve) == (FaultKind.TIMEOUT, 1.5, 0.0)
    # The bot answers request 1 at 2.0 s, then request 2 at 2.125 s: 0.625 s after it was sent.
    assert await decide(player, clock) == ("pass", 0.625)
    assert clock.reserve == 0.0
    assert [m["id"] for m in bot.received] == [1, 2]


# -- reply ids ----------------------------------------------------------------------------------

@with_bot(lambda m: [action(m["id"], "first")] if m["id"] == 1 else
          [action(1, "again", after=0.125), action(1, "and again"), action(m["id"], "second", after=0.125)])
async def test_stale_ids_are_discarded_and_their_time_counts(player, bot):
    clock = GameClock(0.5, 0.0)
    assert await decide(player, clock) == ("first", 0.0)
    assert await decide(player, clock) == ("second", 0.25)


@pytest.mark.parametrize("reply_id", [2, 99])
async def test_future_id_is_a_protocol_fault(autojump_clock, reply_id):
    @with_bot(lambda m: [action(reply_id, after=0.125)])
    async def body(player, bot):
        fault, taken = await timed(decide(player, GameClock(0.5, 0.0)))
        assert (fault.kind, fault.detail) == (
            FaultKind.PROTOCOL, f"reply to id {reply_id}, which was never sent (waiting for 1)")
        assert taken == 0.125

    await body(autojump_clock)


@pytest.mark.parametrize("reply_id", [0, -1])
async def test_id_zero_or_negative_is_a_protocol_fault(autojump_clock, reply_id):
    @with_bot(lambda m: [action(reply_id)])
    async def body(player, bot):
        with pytest.raises(BotFault) as caught:
            await decide(player, GameClock(0.5, 0.0))
        assert caught.value.detail == f"reply to id {reply_id}, which was never sent (waiting for 1)"

    await body(autojump_clock)


# -- wrong messages -----------------------------------------------------------------------------

@pytest.mark.parametrize("reply,detail", [
    ({"type": "hello", "protocol": "1.0"}, "expected an 'action' reply, got type 'hello'"),
    ({"id": 1, "action": "a"}, "expected an 'action' reply, got type None"),
    ({"type": "action", "id": 1}, "'action' message has no 'action' field"),
    ({"type": "action", "id": "1", "action": "a"}, "field 'id' must be the integer id of the request, got '1'"),
    ({"type": "action", "action": "a"},
     "'action' message has no 'id' field (expected the integer id of the request)"),
])
async def test_wrong_reply_is_a_protocol_fault(autojump_clock, reply, detail):
    @with_bot(lambda m: [(0.125, reply)])
    async def body(player, bot):
        clock = GameClock(0.5, 1.0)
        fault, taken = await timed(decide(player, clock))
        assert (fault.kind, fault.detail, taken) == (FaultKind.PROTOCOL, detail, 0.125)
        assert clock.reserve == 1.0

    await body(autojump_clock)


@with_bot(lambda m: [action(m["id"] - 1, after=0.125), (0.0, {"type": "bye"})]
          if m["id"] == 2 else [action(m["id"])])
async def test_wrong_message_after_a_stale_reply_is_still_a_protocol_fault(player, bot):
    clock = GameClock(0.5, 0.0)
    await decide(player, clock)
    with pytest.raises(BotFault) as caught:
        await decide(player, clock)
    assert (caught.value.kind, caught.value.detail) == (FaultKind.PROTOCOL, "expected an 'action' reply, got type 'bye'")


@with_bot(lambda m: None)
async def test_a_bot_that_exits_is_a_crash_not_a_timeout(player, bot):
    clock = GameClock(0.5, 1.0)
    fault, taken = await timed(decide(player, clock))
    assert (fault.kind, taken, clock.reserve) == (FaultKind.CRASH, 0.0, 1.0)


# -- handshake ----------------------------------------------------------------------------------

def hello_reply(protocol_version: str = "1.0", after: float = 0.0):
    def answer(message):
        if message["type"] != "hello":
            return []
        return [(after, {"type": "hello", "protocol": protocol_version, "name": "fake", "version": "3",
                         "games": ["toy"]})]
    return answer


@with_bot(hello_reply(after=4.5))
async def test_handshake(player, bot):
    hello, taken = await timed(player.handshake(5.0))
    assert hello == protocol.BotHello(name="fake", version="3", games=("toy",), protocol="1.0")
    assert (player.hello, taken) == (hello, 4.5)
    assert bot.received == [protocol.hello("pirate-arena 0.1")]


@with_bot(hello_reply(after=6.0))
async def test_handshake_times_out_at_the_startup_limit(player, bot):
    fault, taken = await timed(player.handshake(5.0))
    assert (fault.kind, fault.detail, taken) == (FaultKind.TIMEOUT, "no hello within 5000 ms of starting", 5.0)
    assert player.hello is None


@with_bot(hello_reply("2.0"))
async def test_handshake_refuses_another_major_version_with_a_bye(player, bot):
    fault, _ = await timed(player.handshake(5.0))
    reason = "bot speaks protocol 2.0, the arena speaks 1.1; major versions must match"
    assert (fault.kind, fault.detail) == (FaultKind.PROTOCOL, f"bad hello: {reason}")
    assert bot.received[-1] == protocol.bye(f"refused: {reason}")


@with_bot(lambda m: [(0.0, {"type": "action", "id": 1, "action": "a"})])
async def test_handshake_answered_with_something_else(player, bot):
    fault, _ = await timed(player.handshake(5.0))
    assert (fault.kind, fault.detail) == (FaultKind.PROTOCOL, "bad hello: expected a 'hello' message, got type 'action'")
    assert len(bot.received) == 1
