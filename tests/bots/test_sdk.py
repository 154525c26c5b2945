"""The Python bot SDK: the message loop of ``run`` on in-memory pipes."""

import io
import random
import sys
from contextlib import AsyncExitStack

import pytest

import protocol
from arena.match._match import MatchSettings, play_match
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from bots.sdk import Bot, PolicyBot, Request, read_message, run, write_message
from engines import get_game

from ._clock import StepClock

GAME = "toy-game"
BIG_SEED = 14097894508562428199  # >= 2**63, as SPEC.md's example


def start(bot_seed=7, game=GAME, seat=1, players=3, options=None):
    message = protocol.start(game, seat, players, options or {"target": 10}, move_ms=1000, reserve_ms=500,
                             bot_seed=bot_seed or 0)
    if bot_seed is None:
        del message["bot_seed"]
    return message


def request(request_id, legal=("a", "b", "c", "d", "e", "f", "g", "h"), kind="play"):
    return protocol.request(request_id, kind, {"hand": [1, 2]}, [{"e": 0}],
                            None if legal is None else list(legal), time_left_ms=1500, move_ms=1000)


def serve(bot: Bot, *messages, tail: bytes = b"") -> list[dict]:
    """Run ``bot`` on the given arena messages (then ``tail``, then EOF); return its replies."""
    stdin = io.BytesIO(b"".join(protocol.encode(m) for m in messages) + tail)
    stdout = io.BytesIO()
    run(bot, stdin, stdout)
    decoder = protocol.FrameDecoder()
    decoder.feed(stdout.getvalue())
    replies = []
    while (reply := decoder.next()) is not None:
        replies.append(reply)
    assert decoder.pending() == 0
    return replies


def random_choice(req: Request, rng: random.Random):
    return rng.choice(req.legal)


def choices(bot_seed, count=12, bot=None) -> list:
    bot = bot or PolicyBot("r", {GAME: random_choice})
    replies = serve(bot, start(bot_seed), *(request(i) for i in range(1, count + 1)))
    return [reply["action"] for reply in replies]


# -- hello --------------------------------------------------------------------------------------

def test_hello_reply():
    bot = PolicyBot("py-test", {"dead-mans-draw": random_choice, "opito-bay": random_choice}, version="2.3")
    [reply] = serve(bot, protocol.hello("pirate-arena 0.1"))
    assert reply == {"type": "hello", "protocol": "1.1", "name": "py-test", "version": "2.3",
                     "games": ["dead-mans-draw", "opito-bay"]}
    assert protocol.parse_hello(reply) == protocol.BotHello(
        name="py-test", version="2.3", games=("dead-mans-draw", "opito-bay"), protocol="1.1")


def test_a_bot_may_say_protocol_1_0():
    bot = PolicyBot("old", {})
    bot.protocol = "1.0"
    assert serve(bot, protocol.hello("pirate-arena 0.1"))[0]["protocol"] == "1.0"


def test_policy_bot_defaults():
    bot = PolicyBot("p", {})
    assert (bot.name, bot.version, bot.games) == ("p", "1.0", ())


def test_base_bot_hello_and_act():
    [reply] = serve(Bot(), protocol.hello("arena"))
    assert reply == {"type": "hello", "protocol": "1.1", "name": "unnamed-bot", "version": "0", "games": []}
    with pytest.raises(NotImplementedError):
        Bot().act(None)


# -- requests -----------------------------------------------------------------------------------

class Recorder(Bot):
    """Records what the loop hands it and answers with the request's id and kind."""

    def __init__(self):
        self.calls = []

    def start(self, message):
        self.calls.append(("start", message))

    def act(self, req):
        self.calls.append(("act", req))
        return {"echo": [req.id, req.kind]}

    def end(self, message):
        self.calls.append(("end", message))


def test_request_becomes_a_request_object_and_the_reply_carries_its_id():
    bot = Recorder()
    replies = serve(bot, start(), request(5, kind="bid"), request(9, legal=None))
    assert replies == [{"type": "action", "id": 5, "action": {"echo": [5, "bid"]}},
                       {"type": "action", "id": 9, "action": {"echo": [9, "play"]}}]
    assert bot.calls[0] == ("start", start())
    assert bot.calls[1] == ("act", Request(
        id=5, game=GAME, seat=1, players=3, options={"target": 10}, kind="bid",
        observation={"hand": [1, 2]}, events=[{"e": 0}], legal=["a", "b", "c", "d", "e", "f", "g", "h"],
        time_left_ms=1500, move_ms=1000))
    assert bot.calls[2][1].legal is None


def test_static_fields_of_start_are_merged_into_every_observation_of_the_game():
    bot = Recorder()
    board = {"name": "caribbean", "areas": [[1, 2]]}
    with_static = dict(start(), static={"board": board})
    serve(bot, with_static, request(1), request(2), start(), request(3))
    observations = [call[1].observation for call in bot.calls if call[0] == "act"]
    assert observations == [{"board": board, "hand": [1, 2]}, {"board": board, "hand": [1, 2]},
                            {"hand": [1, 2]}]  # the next start has no static: nothing merged


def test_request_before_any_start_has_empty_game_fields():
    bot = Recorder()
    serve(bot, request(1))
    req = bot.calls[0][1]
    assert (req.game, req.seat, req.players, req.options) == ("", 0, 0, {})


def test_end_is_passed_to_the_bot():
    bot = Recorder()
    end = protocol.end([2, 1], [39, 44], [], "normal")
    assert serve(bot, start(), end) == []
    assert bot.calls == [("start", start()), ("end", end)]


def test_unknown_message_types_are_ignored():
    bot = Recorder()
    replies = serve(bot, {"type": "ping"}, {"no": "type"}, start(), request(1))
    assert [r["id"] for r in replies] == [1]


def test_policy_bot_picks_the_policy_of_the_game():
    bot = PolicyBot("two", {"g1": lambda req, rng: "from g1", "g2": lambda req, rng: "from g2"})
    replies = serve(bot, start(game="g2"), request(1), start(game="g1"), request(2))
    assert [r["action"] for r in replies] == ["from g2", "from g1"]


# -- bot_seed -----------------------------------------------------------------------------------

def test_same_bot_seed_same_choices():
    assert choices(7) == choices(7)
    assert choices(BIG_SEED) == choices(BIG_SEED)


def test_choices_follow_random_seeded_with_bot_seed():
    rng = random.Random(BIG_SEED)
    legal = list(request(1)["legal"])
    assert choices(BIG_SEED) == [rng.choice(legal) for _ in range(12)]


def test_different_bot_seeds_differ():
    assert choices(7) != choices(8)


def test_each_start_reseeds():
    bot = PolicyBot("r", {GAME: random_choice})
    replies = serve(bot, start(3), *(request(i) for i in range(1, 7)), start(3), *(request(i) for i in range(7, 13)))
    actions = [reply["action"] for reply in replies]
    assert actions[:6] == actions[6:] == choices(3, count=6)


def test_start_without_bot_seed_seeds_with_zero():
    rng = random.Random(0)
    assert choices(None, count=5) == [rng.choice(list("abcdefgh")) for _ in range(5)]


# -- end of the loop ----------------------------------------------------------------------------

def test_bye_ends_the_loop_and_nothing_after_it_is_read():
    bot = Recorder()
    stdin = io.BytesIO(b"".join(protocol.encode(m) for m in [start(), protocol.bye(), request(1)]))
    stdout = io.BytesIO()
    run(bot, stdin, stdout)
    assert stdout.getvalue() == b""
    assert [call for call, _ in bot.calls] == ["start"]
    assert stdin.read() == protocol.encode(request(1))


def test_eof_ends_the_loop():
    assert serve(Recorder()) == []
    assert serve(Recorder(), start(), request(1))[-1]["id"] == 1


def test_eof_in_the_middle_of_a_frame_is_an_error():
    with pytest.raises(EOFError, match="^arena closed the pipe in the middle of a frame$"):
        serve(Recorder(), start(), tail=protocol.encode(request(1))[:-3])


def test_eof_in_the_middle_of_a_header_is_an_error():
    with pytest.raises(EOFError):
        serve(Recorder(), tail=b"\x00\x00")


def test_malformed_frame_raises_malformed_frame():
    with pytest.raises(protocol.MalformedFrame, match="got list"):
        serve(Recorder(), tail=protocol.HEADER.pack(1) + b"\x90")


def test_zero_length_frame_is_malformed():
    with pytest.raises(protocol.MalformedFrame):
        serve(Recorder(), tail=b"\x00\x00\x00\x00")


# -- reading and writing frames -------------------------------------------------------------------

class Trickle(io.RawIOBase):
    """A pipe that hands out at most ``size`` bytes per read, like a slow writer."""

    def __init__(self, data: bytes, size: int) -> None:
        self.data, self.size = data, size

    def readable(self):
        return True

    def read(self, n=-1):
        chunk, self.data = self.data[:min(n, self.size)], self.data[min(n, self.size):]
        return chunk


@pytest.mark.parametrize("size", [1, 3, 5])
def test_short_reads_are_completed(size):
    messages = [start(), request(1), protocol.bye()]
    stream = Trickle(b"".join(protocol.encode(m) for m in messages), size)
    assert [read_message(stream) for _ in messages] == messages
    assert read_message(stream) is None


def test_write_message_frames_and_flushes():
    class Flushes(io.BytesIO):
        flushed = 0

        def flush(self):
            self.flushed += 1

    stream = Flushes()
    write_message(stream, {"type": "action", "id": 1, "action": "a"})
    assert stream.getvalue() == protocol.encode({"type": "action", "id": 1, "action": "a"})
    assert stream.flushed == 1


# -- protocol 1.0 and 1.1: the reference bots choose alike ----------------------------------------

def karibik_requests(version, seat=0, seed=4, players=3):
    """``start`` and every request of ``seat`` in a random Karibik game, as the arena sends them to a
    ``version`` bot (1.1: the board once, in start.static)."""
    from protocol.tools.sample import without_static
    game = get_game("karibik")
    state = game.new_state(players, seed, {"max_rounds": 3})
    first = protocol.start("karibik", seat, players, state.options, move_ms=60, reserve_ms=0, bot_seed=seed,
                           static={"board": state.observation(seat)["board"]} if version == "1.1" else None)
    messages, rng, cursor = [first], random.Random(seed), 0
    while not state.is_terminal():
        if seat in state.acting:
            observation = state.observation(seat)
            if version == "1.1":
                observation = without_static("karibik", observation)
            messages.append(protocol.request(len(messages), state.decision(seat), observation,
                                             state.events_for(seat, cursor), state.legal_actions(seat),
                                             time_left_ms=60, move_ms=60))
            cursor = len(state.log)
        state.apply({s: state.random_action(s, rng) for s in state.acting})
    return messages


@pytest.mark.parametrize("kind", ["random", "heuristic", "search"])
def test_reference_karibik_bots_choose_the_same_under_1_0_and_1_1(kind, monkeypatch):
    from bots._games import policies
    from bots.karibik import _search

    def replies(version):
        StepClock().install(monkeypatch, _search)  # the search's budget in reads, not seconds
        bot = PolicyBot("ref", {"karibik": policies(kind)["karibik"]})
        return [reply["action"] for reply in serve(bot, *karibik_requests(version))]

    old, new = replies("1.0"), replies("1.1")
    assert len(old) > 10 and old == new
    lean = karibik_requests("1.1")
    assert "board" in lean[0]["static"] and all("board" not in r["observation"] for r in lean[1:])


def heuristic_bot(version):
    code = ("from bots._games import policies\nfrom bots.sdk import PolicyBot, run\n"
            f"bot = PolicyBot('py-heuristic', policies('heuristic'))\nbot.protocol = {version!r}\nrun(bot)")
    return BotSpec(f"heuristic-{version}", (sys.executable, "-c", code))


async def test_real_karibik_matches_are_the_same_game_under_1_0_and_1_1():
    settings = MatchSettings(TimeControl(move_ms=5000, reserve_ms=0, startup_ms=20_000))
    games = []
    for version in ("1.0", "1.1"):
        async with AsyncExitStack() as stack:
            bots = [await stack.enter_async_context(open_player(heuristic_bot(version), 20)) for _ in range(3)]
            assert [bot.hello.protocol for bot in bots] == [version] * 3
            result = await play_match(get_game("karibik"), bots, 9, {"max_rounds": 4}, settings, bot_seeds=[1, 2, 3])
        assert result.faults == ()
        games.append((result.replay.steps, result.scores))
    assert games[0] == games[1]
