"""Protocol 1.1's static observation fields: sent once, in ``start.static``, to 1.1 bots only.

The engines declare which observation keys are static (``Game.static_fields``); the first test
plays seeded games of every game and checks that those keys never change. The others run real
matches with a bot (``bots/recorder.py``) that fingerprints every frame it receives, and
rebuild the frames independently: a 1.0 bot gets the frames of protocol 1.0 byte for byte, a
1.1 bot gets the static fields once and requests without them.
"""

import hashlib
import random
import struct
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import msgpack
import pytest

import protocol
from arena.match._match import MatchSettings, play_match
from arena.match._result import EndReason
from arena.players._faults import FaultKind
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from engines import Game, game_ids, get_game
from protocol.tools import dumps

from ..arena._toy import TOY, CountState

RECORDER = Path(__file__).parent / "bots" / "recorder.py"
MOVE_MS = 5000
SETTINGS = MatchSettings(TimeControl(move_ms=MOVE_MS, reserve_ms=0, startup_ms=20_000))
#: a table per game: players, options, seed (Karibik at 3 players: simultaneous bribes and ties)
TABLES = {"karibik": (3, {"max_rounds": 4}, 5), "dead-mans-draw": (2, {}, 5), "opito-bay": (2, {"deals": 1}, 5)}


def test_karibik_declares_its_board_static_and_the_others_nothing():
    declared = {game_id: get_game(game_id).static_fields for game_id in game_ids()}
    assert {"karibik": ("board",), "dead-mans-draw": (), "opito-bay": ()}.items() <= declared.items()


@pytest.mark.parametrize("game_id", game_ids())
def test_declared_static_fields_never_change_during_a_game(game_id):
    game = get_game(game_id)
    options = {"deals": 1} if game_id == "opito-bay" else {}
    for seed in range(16):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new_state(players, seed, options)
        rng = random.Random(seed)

        def static(seat):
            observation = state.observation(seat)
            # By value, as the bytes a bot would get: a cached object could be changed in place.
            return [msgpack.packb(observation[key]) for key in game.static_fields]

        first = [static(seat) for seat in range(players)]
        while not state.is_terminal():
            state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
            assert [static(seat) for seat in range(players)] == first, (game_id, seed, len(state.history))


# -- real matches -------------------------------------------------------------------------------

def frame(message) -> bytes:
    """A frame as protocol 1.0 wrote it: plain msgpack, strings as str, 4-byte big-endian length."""
    payload = msgpack.packb(message, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


def expected_games(game_id, players, options, seed, bot_seeds, result, version):
    """Per seat: (frames, sha256) of what a ``version`` bot must have received from ``start``
    to ``end``, rebuilt from the replay with literal maps (not the arena's builders)."""
    game = get_game(game_id)
    state = game.new_state(players, seed, options)
    static_keys = game.static_fields if version == "1.1" else ()
    streams, cursors, ids = [], [0] * players, [0] * players
    for seat in range(players):
        start = {"type": "start", "game": game_id, "seat": seat, "players": players,
                 "options": game.resolve_options(options), "move_ms": MOVE_MS, "reserve_ms": 0,
                 "bot_seed": bot_seeds[seat]}
        if version == "1.1":
            start["static"] = {key: state.observation(seat)[key] for key in static_keys}
        streams.append([frame(start)])
    for step in result.replay.steps:
        for seat in sorted(step):
            observation = {key: value for key, value in state.observation(seat).items()
                           if key not in static_keys}
            ids[seat] += 1
            streams[seat].append(frame({
                "type": "request", "id": ids[seat], "kind": state.decision(seat), "observation": observation,
                "events": state.events_for(seat, cursors[seat]), "legal": state.legal_actions(seat),
                "time_left_ms": MOVE_MS, "move_ms": MOVE_MS}))
            cursors[seat] = len(state.log)
        state.apply(step)
    for seat in range(players):
        streams[seat].append(frame({"type": "end", "ranks": list(result.ranks), "scores": list(result.scores),
                                    "events": state.events_for(seat, cursors[seat]), "reason": "normal"}))
    return [(len(stream), hashlib.sha256(b"".join(stream)).hexdigest()) for stream in streams]


async def recorded_match(game_id, version):
    players, options, seed = TABLES[game_id]
    bot_seeds = [11 + seat for seat in range(players)]
    spec = BotSpec("recorder", (sys.executable, str(RECORDER), version))
    async with AsyncExitStack() as stack:
        bots = [await stack.enter_async_context(open_player(spec, 20)) for _ in range(players)]
        result = await play_match(get_game(game_id), bots, seed, options, SETTINGS, bot_seeds=bot_seeds)
    assert result.reason is EndReason.NORMAL, result.faults
    logs = [bot.stderr_tail().split("\n") for bot in bots]
    statics = [next(line.split()[1] for line in log if line.startswith("STATIC ")) for log in logs]
    games = [next((int(line.split()[1]), line.split()[2]) for line in log if line.startswith("GAME ")) for log in logs]
    return statics, games, expected_games(game_id, players, options, seed, bot_seeds, result, version)


@pytest.mark.parametrize("game_id", list(TABLES))
async def test_a_1_0_bot_gets_the_frames_of_protocol_1_0_byte_for_byte(game_id):
    statics, games, expected = await recorded_match(game_id, "1.0")
    assert statics == ["absent"] * len(games)
    assert games == expected


@pytest.mark.parametrize("game_id", list(TABLES))
async def test_a_1_1_bot_gets_the_static_fields_once_in_start(game_id):
    statics, games, expected = await recorded_match(game_id, "1.1")
    assert statics == [",".join(get_game(game_id).static_fields) or "-"] * len(games)
    assert games == expected


def test_spec_states_the_karibik_request_sizes_it_shows():
    full, lean = dumps.request_sizes()
    assert full > 2000 and lean < full / 4, (full, lean)
    assert f"{full} bytes instead of {lean}" in dumps.SPEC.read_text(encoding="utf-8")


class _MissingStatic(CountState):
    pass


#: A game that declares a static key its observations do not have (an engine bug).
BROKEN = Game(id=TOY.id, name=TOY.name, min_players=2, max_players=4, options=TOY.options,
              state_class=_MissingStatic, static_fields=("nowhere",))


async def test_an_engine_that_declares_a_missing_static_key_is_an_arena_error_not_a_crash():
    spec = BotSpec("recorder", (sys.executable, str(RECORDER), "1.1"))
    async with open_player(spec, 20) as one, open_player(spec, 20) as two:
        result = await play_match(BROKEN, [one, two], 1, settings=SETTINGS)
    assert result.reason is EndReason.ARENA_ERROR
    [fault] = result.faults
    assert fault.kind is FaultKind.ARENA_ERROR and fault.seat is None
    assert fault.detail.startswith("the engine failed preparing seat 0's start\n")
    assert "KeyError: 'nowhere'" in fault.detail


def test_hello_speaks_later_minors_of_the_same_major_only():
    def hello(version):
        return protocol.BotHello(name="b", version="1", games=(), protocol=version)
    assert protocol.STATIC_SINCE == (1, 1)
    assert [hello(v).speaks(protocol.STATIC_SINCE) for v in ("1.0", "1.1", "1.7", "2.1")] == [
        False, True, True, False]
