"""``Connection`` on real pipes, and ``Player.decide``'s path for replies that are already there.

The pipes stand in for a bot process: the test writes the "bot's" bytes itself, before or
after the request, so which path a decision takes is decided by the test, not by timing.
"""

import os

import pytest
import trio

import protocol
from arena.players._connection import Connection
from arena.players._faults import BotFault, FaultKind
from arena.players._manifest import BotSpec
from arena.players._player import Player
from arena.players._timecontrol import GameClock


class _End:
    def __init__(self, fd: int) -> None:
        self._fd = fd

    def fileno(self) -> int:
        return self._fd


class PipeBot:
    """A fake bot process: two non-blocking pipes whose far ends the test holds."""

    def __init__(self) -> None:
        self.to_arena_r, self.to_arena_w = os.pipe()
        self.to_bot_r, self.to_bot_w = os.pipe()
        os.set_blocking(self.to_arena_r, False)
        os.set_blocking(self.to_bot_w, False)
        self.stdin, self.stdout = _End(self.to_bot_w), _End(self.to_arena_r)

    def returncode(self):
        return None

    def reply(self, message: dict) -> None:
        os.write(self.to_arena_w, protocol.encode(message))

    def requests(self) -> list[dict]:
        os.set_blocking(self.to_bot_r, False)
        decoder = protocol.FrameDecoder()
        try:
            decoder.feed(os.read(self.to_bot_r, 1 << 20))
        except BlockingIOError:
            pass
        messages = []
        while (message := decoder.next()) is not None:
            messages.append(message)
        return messages

    def close(self) -> None:
        for fd in (self.to_arena_r, self.to_arena_w, self.to_bot_r, self.to_bot_w):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def bot():
    pipe_bot = PipeBot()
    yield pipe_bot
    pipe_bot.close()


def player_on(bot: PipeBot) -> Player:
    player = Player(BotSpec(name="pipe", command=("pipe",)), None, protocol.DEFAULT_MAX_FRAME)
    player.connection = Connection(bot)
    return player


def action(request_id: int, value="a") -> dict:
    return {"type": "action", "id": request_id, "action": value}


def answer_while_writing(player: Player, bot: PipeBot, message: dict | bytes) -> None:
    """Make ``bot`` answer the next request the moment it is written, as a quick bot does
    (the write wakes it on this core), so the answer is there when the write returns.
    ``message`` as bytes: the rest of a frame the bot had begun."""
    connection = player.connection
    write_now = connection.write_now

    def write_then_answer(frame):
        count = write_now(frame)
        del connection.write_now
        os.write(bot.to_arena_w, message if isinstance(message, bytes) else protocol.encode(message))
        return count

    connection.write_now = write_then_answer


async def test_poll_returns_a_complete_message_and_none_when_nothing_or_half_has_arrived(bot):
    connection = Connection(bot)
    assert connection.poll() is None
    frame = protocol.encode(action(1))
    os.write(bot.to_arena_w, frame[:3])
    assert connection.poll() is None
    os.write(bot.to_arena_w, frame[3:] + protocol.encode(action(2)))
    assert connection.poll() == action(1)
    assert connection.poll() == action(2)
    assert connection.poll() is None


@pytest.mark.parametrize(("data", "kind", "detail"), [
    (b"", FaultKind.CRASH, "bot closed its stdout (still running)"),
    (b"\x00\x00", FaultKind.CRASH, "bot closed its stdout in the middle of a frame (still running)"),
    (b"\xff\xff\xff\xff", FaultKind.OVERSIZE, None),
    (b"Exception in thread main\n", FaultKind.OVERSIZE,
     "the bot wrote text to stdout: 'Exception in thread main' (stdout carries only frames;"
     " write logs to stderr)"),
    (b"\x00\x00\x00\x01\xc1", FaultKind.PROTOCOL, "payload is not valid msgpack (FormatError)"),
])
async def test_poll_classifies_what_it_reads(bot, data, kind, detail):
    connection = Connection(bot)
    os.write(bot.to_arena_w, data)
    if kind is FaultKind.CRASH:
        os.close(bot.to_arena_w)
    with pytest.raises(BotFault) as caught:
        connection.poll()
    assert caught.value.kind is kind
    if detail is not None:
        assert caught.value.detail == detail


async def test_write_now_to_a_closed_stdin_is_a_crash(bot):
    connection = Connection(bot)
    os.close(bot.to_bot_r)
    with pytest.raises(BotFault) as caught:
        connection.write_now(b"x")
    assert (caught.value.kind, caught.value.detail) == (FaultKind.CRASH, "bot stopped reading its stdin (still running)")


async def test_a_reply_already_there_is_taken_without_waiting(bot, autojump_clock):
    player = player_on(bot)
    answer_while_writing(player, bot, action(1, "b"))
    clock = GameClock(0.5, 0.0)
    assert await player.decide("play", {"seat": 0}, [], ["a", "b"], clock) == ("b", 0.0)
    assert [request["id"] for request in bot.requests()] == [1]
    assert player.last_reply == action(1, "b")


async def test_a_stale_reply_already_there_is_discarded_and_the_answer_awaited(bot, autojump_clock):
    player = player_on(bot)
    player._next_id = 3  # requests 1 and 2 timed out earlier
    bot.reply(action(2, "late"))

    async def answer_later():
        await trio.sleep(0.25)
        bot.reply(action(3, "on time"))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(answer_later)
        result = await player.decide("play", {}, [], ["a"], GameClock(1.0, 0.0))
    assert result == ("on time", 0.25)


@pytest.mark.parametrize("reply_id,detail", [
    (7, "reply to id 7, which was never sent (waiting for 1)"),
    (1, "reply to id 1 was written before the request existed"),
])
async def test_a_reply_already_there_with_an_unsent_id_is_a_protocol_fault(bot, autojump_clock, reply_id, detail):
    """Read before the request is written: the request's own id is no better than any other."""
    player = player_on(bot)
    bot.reply(action(reply_id))
    with pytest.raises(BotFault) as caught:
        await player.decide("play", {}, [], ["a"], GameClock(1.0, 0.0))
    assert (caught.value.kind, caught.value.detail) == (FaultKind.PROTOCOL, detail)
    assert bot.requests() == [], "the request is not sent"


async def test_no_reply_still_times_out_at_the_budget(bot, autojump_clock):
    player = player_on(bot)
    started = trio.current_time()
    with pytest.raises(BotFault) as caught:
        await player.decide("play", {}, [], ["a"], GameClock(0.5, 0.25))
    assert (caught.value.kind, trio.current_time() - started) == (FaultKind.TIMEOUT, 0.75)


async def test_instant_replies_still_let_other_tasks_run(bot):
    """A game between bots that always answer at once must not starve the other games."""
    player = player_on(bot)
    clock = GameClock(60.0, 0.0)
    turns = 0

    async def other_game():
        nonlocal turns
        while True:
            turns += 1
            await trio.lowlevel.checkpoint()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(other_game)
        await trio.lowlevel.checkpoint()
        turns = 0
        for request_id in range(1, 161):
            answer_while_writing(player, bot, action(request_id))
            await player.decide("play", {}, [], ["a"], clock)
            assert [request["id"] for request in bot.requests()] == [request_id]
        nursery.cancel_scope.cancel()
    # All were answered at once, with a yield per 16 of them; the other task's turn after the
    # last yield may come only after the cancel, which it then does not survive.
    assert (player._instant, turns) >= (160, 160 // 16 - 1)


async def test_a_reply_begun_before_its_request_was_written_is_a_protocol_fault(bot, autojump_clock):
    player = player_on(bot)
    frame = protocol.encode(action(1))
    os.write(bot.to_arena_w, frame[:3])
    answer_while_writing(player, bot, frame[3:])
    with pytest.raises(BotFault) as caught:
        await player.decide("play", {}, [], ["a"], GameClock(1.0, 0.0))
    assert (caught.value.kind, caught.value.detail) == (
        FaultKind.PROTOCOL, "reply to id 1 began before the request existed")
