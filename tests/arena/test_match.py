"""The match runner with real bot processes: normal play, every fault class, cleanup."""

import os
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from arena._faults import FaultKind, FaultPolicy
from arena._manifest import BotSpec
from arena._match import EndReason, MatchSettings, play_match
from arena._player import open_player
from arena._timecontrol import TimeControl

from ._toy import TOY

SCRIPT = Path(__file__).parent / "bots" / "scripted.py"
FAST = MatchSettings(TimeControl(move_ms=400, reserve_ms=0, startup_ms=5000))


def scripted(mode: str) -> BotSpec:
    return BotSpec(name=mode, command=(sys.executable, str(SCRIPT), mode))


def group_gone(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def play(modes, settings=FAST, seed=1, games=1):
    """Play ``games`` games with bots in ``modes``; return results and the bots' pids."""
    results, pids = [], []
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(scripted(m), startup_s=5)) for m in modes]
        pids = [p.process.pid if p.process else None for p in players]
        for game in range(games):
            results.append(await play_match(TOY, players, seed + game, settings=settings))
    for pid in pids:
        if pid is not None:
            assert group_gone(pid), f"process group {pid} outlived its player"
    return results, pids


async def test_two_good_bots_play_to_the_end():
    [result], _ = await play(["good", "good"])
    assert result.reason is EndReason.NORMAL
    assert result.faults == ()
    assert sorted(result.ranks) == [1, 2]
    assert len(result.moves) == len(result.replay.steps) + sum(
        len(step) - 1 for step in result.replay.steps)
    assert all(by_bot for _, _, by_bot in result.moves)


async def test_same_seed_same_game():
    [first], _ = await play(["good", "good"], seed=9)
    [second], _ = await play(["good", "good"], seed=9)
    assert first.replay.steps == second.replay.steps
    assert first.ranks == second.ranks


async def test_one_process_plays_several_games():
    results, _ = await play(["good", "good", "good"], games=3)
    assert [r.reason for r in results] == [EndReason.NORMAL] * 3


@pytest.mark.parametrize("mode,kind", [
    ("no-start-exit", FaultKind.CRASH),
    ("exit-in-handshake", FaultKind.CRASH),
    ("bad-hello", FaultKind.PROTOCOL),
    ("old-version", FaultKind.PROTOCOL),
    ("never-answer", FaultKind.TIMEOUT),
    ("late-answer", FaultKind.TIMEOUT),
    ("stale-id", FaultKind.TIMEOUT),
    ("future-id", FaultKind.PROTOCOL),
    ("oversize", FaultKind.OVERSIZE),
    ("garbage", FaultKind.PROTOCOL),
    ("not-a-map", FaultKind.PROTOCOL),
    ("half-frame", FaultKind.TIMEOUT),
    ("wrong-type", FaultKind.PROTOCOL),
    ("illegal", FaultKind.ILLEGAL),
    ("exit-mid-game", FaultKind.CRASH),
    ("spawn-child", None),
])
async def test_fault_is_classified_and_attributed(mode, kind):
    [result], _ = await play(["good", mode])
    if kind is None:
        assert result.faults == ()
        return
    assert [(f.seat, f.bot, f.kind) for f in result.faults] == [(1, mode, kind)]
    assert result.ranks == (1, 2), "the faulting bot forfeits; the other keeps its result"
    assert result.reason is EndReason.FORFEIT


async def test_handshake_stderr_is_kept_with_the_fault():
    [result], _ = await play(["exit-in-handshake", "good"])
    assert result.faults[0].seat == 0
    assert "giving up during the handshake" in result.faults[0].stderr_tail


async def test_bot_that_cannot_start_is_a_crash():
    missing = BotSpec(name="ghost", command=("/nonexistent/bot",))
    async with open_player(missing) as ghost, open_player(scripted("good")) as good:
        result = await play_match(TOY, [ghost, good], 1, settings=FAST)
    assert result.faults[0].kind is FaultKind.CRASH
    assert "could not start" in result.faults[0].detail
    assert result.ranks == (2, 1)


async def test_reply_to_timed_out_request_is_discarded_under_substitute():
    settings = MatchSettings(TimeControl(move_ms=1500), FaultPolicy.SUBSTITUTE, max_substitutions=3)
    [result], _ = await play(["good", "late-answer"], settings=settings)
    assert [f.kind for f in result.faults] == [FaultKind.TIMEOUT]
    assert result.reason is EndReason.NORMAL  # substituted once, then played on
    substituted = [m for m in result.moves if not m[2]]
    assert len(substituted) == 1 and substituted[0][0] == 1


async def test_end_game_policy_stops_at_once():
    settings = MatchSettings(TimeControl(move_ms=400), FaultPolicy.END_GAME)
    [result], _ = await play(["illegal", "good"], settings=settings)
    assert result.reason is EndReason.FAULT
    assert result.ranks == (2, 1)


async def test_reserve_absorbs_a_slow_move():
    settings = MatchSettings(TimeControl(move_ms=400, reserve_ms=3000))
    [result], _ = await play(["good", "late-answer"], settings=settings)
    assert result.faults == ()
    slow = [elapsed for seat, elapsed, _ in result.moves if seat == 1 and elapsed > 1500]
    assert len(slow) == 1
