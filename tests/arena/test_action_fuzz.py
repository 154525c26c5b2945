"""Type-confused actions through real matches: real bot processes (``bots/mutating.py``) that
answer with mutated legal actions, in every game. Every such action must be charged to its
bot as ``illegal`` or, if it is truly legal, accepted; the arena never crashes (issue 13)."""

import ast
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from arena.match._match import MatchSettings, play_match
from arena.match._result import EndReason
from arena.players._faults import FaultKind, FaultPolicy
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from engines import IllegalAction, game_ids, get_game, is_listed, same_value

MUTATING = Path(__file__).parent / "bots" / "mutating.py"
#: generous limits: a timeout on a loaded machine would blur which action was judged
PATIENT = TimeControl(move_ms=10_000, reserve_ms=0, startup_ms=20_000)
#: illegal actions are replaced and the bot plays on, so one game judges hundreds of them
SUBSTITUTE = MatchSettings(PATIENT, FaultPolicy.SUBSTITUTE, max_substitutions=10**6)
#: seats per game, where not its fewest
PLAYERS = {"karibik": 3}
#: games in a row per game, for a few hundred fuzzed actions each (Dead Man's Draw's are short;
#: a game not named here, e.g. the tests' fourth, plays a short game's number)
GAMES = {"dead-mans-draw": 6, "opito-bay": 1, "karibik": 2}
SHORT_GAME_GAMES = 40


def players(game_id):
    return PLAYERS.get(game_id, get_game(game_id).min_players)


def mutating(name: str, *args: str) -> BotSpec:
    return BotSpec(name=name, command=(sys.executable, str(MUTATING), *args))


async def play(game_id, specs, settings, seeds):
    """One game per seed, in a row, between the same bot processes."""
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(spec, startup_s=20)) for spec in specs]
        return [await play_match(get_game(game_id), players, seed, settings=settings) for seed in seeds]


def judge_replays(results, logs):
    """Re-run the games: each seat's logged actions, in order, against the steps it acted in.

    A step with a fault of that seat rejected the bot's action: it must be illegal there.
    Any other step applied the bot's action: it must be strictly legal there. Returns the
    numbers of (rejected, accepted) actions."""
    sent = {seat: [ast.literal_eval(line) for line in log.read_text().splitlines()] for seat, log in logs.items()}
    counts = [0, 0]
    for result in results:
        judge_replay(result, sent, counts)
    assert all(not rest for rest in sent.values()), "the bots sent more actions than the games used"
    return counts


def judge_replay(result, sent, counts):
    faults = {(fault.seat, fault.step) for fault in result.faults}
    state = get_game(result.game).new_state(len(result.bots), result.seed, result.replay.options)
    for index, step in enumerate(result.replay.steps):
        for seat in sorted(step):
            action = sent[seat].pop(0)
            legal = state.legal_actions(seat)
            if (seat, index) in faults:
                counts[0] += 1
                assert legal is None or not is_listed(action, legal), f"step {index}: legal {action!r} rejected"
                with pytest.raises(IllegalAction):
                    state.check(seat, action)
            else:
                counts[1] += 1
                assert same_value(step[seat], action), f"step {index}: {action!r} replaced without a fault"
                assert legal is None or is_listed(action, legal), f"step {index}: {action!r} is not listed"
        state.apply(step)
    assert state.is_terminal()


@pytest.mark.parametrize("game_id", game_ids())
async def test_mutated_actions_are_charged_illegal_or_accepted_when_legal(game_id, tmp_path):
    logs = {seat: tmp_path / f"seat{seat}.log" for seat in range(players(game_id))}
    specs = [mutating(f"fuzz{seat}", "fuzz", str(log)) for seat, log in logs.items()]
    results = await play(game_id, specs, SUBSTITUTE, seeds=range(5, 5 + GAMES.get(game_id, SHORT_GAME_GAMES)))
    for result in results:
        assert result.reason is EndReason.NORMAL, [f.detail for f in result.faults if f.kind is not FaultKind.ILLEGAL]
        assert {fault.kind for fault in result.faults} == {FaultKind.ILLEGAL}
    rejected, accepted = judge_replays(results, logs)
    assert rejected == sum(len(result.faults) for result in results)
    assert rejected >= 100 and accepted >= 10, (rejected, accepted)


@pytest.mark.parametrize("game_id", game_ids())
async def test_a_float_for_an_int_forfeits_the_game(game_id):
    """Issue 13's crash: Karibik took ["move", 7.0] and died applying it."""
    specs = [mutating("float", "float")] + [mutating(f"plain{seat}", "say", "none", "0")
                                            for seat in range(1, players(game_id))]
    [result] = await play(game_id, specs, MatchSettings(PATIENT), seeds=[3])
    assert [(fault.seat, fault.kind) for fault in result.faults] == [(0, FaultKind.ILLEGAL)]
    assert ".0" in result.faults[0].detail.split(":")[0]
    assert result.reason is EndReason.FORFEIT and result.ranks[0] == players(game_id)
