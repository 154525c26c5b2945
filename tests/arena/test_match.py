"""The match runner with real bot processes: normal play, every fault class, cleanup."""

import os
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from arena.match._checkbot import REFERENCE
from arena.match._match import MatchSettings, play_match
from arena.match._result import EndReason
from arena.players._faults import FaultKind, FaultPolicy
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from engines import Game, Option, get_game

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


async def test_random_bots_play_a_short_game_of_every_game(every_game):
    # the reference bot plays whatever the registry holds; the game's short options (OpenSpiel's)
    game = get_game(every_game)
    options = dict(game.pieces.short_options)
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(REFERENCE, startup_s=20))
                   for _ in range(game.min_players)]
        assert all(every_game in player.hello.games for player in players)
        result = await play_match(game, players, seed=4, options=options)
    assert result.reason is EndReason.NORMAL and not result.faults
    assert result.replay.final_state().outcome().ranks == result.ranks
    assert result.replay.options == game.resolve_options(options)


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


# -- an engine that fails: the match contains it ----------------------------------------------

MUTATING = Path(__file__).parent / "bots" / "mutating.py"


class BuggyState(TOY.state_class):
    """Count to ten with a bug chosen by the option ``bug``: ``check`` raises on the action
    "three"; ``apply`` accepts "three" (unlisted) and then fails applying it, half-way; ``vote``
    does the same with the vote "edge"; ``listed`` fails applying a listed action once the
    total is 4 or more; ``observe`` fails building observations from total 4; ``outcome``
    fails computing the outcome."""

    def _check(self, player, action):
        bug = self.options["bug"]
        if action == "three" and bug == "check":
            raise TypeError("a bug in check")
        if not (action == "three" and bug == "apply" or action == "edge" and bug == "vote"):
            super()._check(player, action)

    def _apply(self, actions):
        bug = self.options["bug"]
        if "three" in actions.values() or "edge" in actions.values():
            self.total += 100  # the state is changed, then the engine fails
            raise KeyError("a bug in apply")
        if bug == "listed" and self.total >= 4:
            self.total = -1
            raise ValueError("a bug in apply")
        super()._apply(actions)

    def observation(self, player):
        if self.options["bug"] == "observe" and self.total >= 4:
            raise IndexError("a bug in observation")
        return super().observation(player)

    def outcome(self):
        if self.options["bug"] == "outcome":
            raise ZeroDivisionError("a bug in outcome")
        return super().outcome()


BUGGY = Game(id="buggy-count", name="Buggy count", min_players=2, max_players=4,
             options=(*TOY.options, Option("bug", str, "none", "which engine method fails")),
             state_class=BuggyState)


def saying(kind: str, action: str) -> BotSpec:
    """A bot that plays randomly but sends ``action`` on its first ``kind`` decision."""
    return BotSpec(name=f"say-{action}", command=(sys.executable, str(MUTATING), "say", kind, repr(action)))


async def play_buggy(bug, specs, games=1, seed=1, settings=FAST):
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(spec, startup_s=5)) for spec in specs]
        return [await play_match(BUGGY, players, seed + game, {"bug": bug}, settings) for game in range(games)]


def replays_cleanly(result):
    state = BUGGY.new_state(len(result.bots), result.seed, result.replay.options)
    for step in result.replay.steps:
        state.apply(step)
    return state


@pytest.mark.parametrize("bug,kind,what", [
    ("check", "count", "the engine failed checking it"),
    ("apply", "count", "the engine failed applying it"),
    ("vote", "vote", "the engine failed applying it"),
])
async def test_engine_failing_on_a_bots_action_charges_that_bot_illegal(bug, kind, what):
    action = "edge" if bug == "vote" else "three"
    [result] = await play_buggy(bug, [scripted("good"), saying(kind, action), scripted("good")], seed=3)
    assert [(f.seat, f.kind) for f in result.faults] == [(1, FaultKind.ILLEGAL)]
    detail = result.faults[0].detail
    assert detail.startswith(f"{action!r}: {what}, so it counts as illegal\n") and "Traceback" in detail
    assert result.reason is EndReason.FORFEIT and result.ranks[1] == 3
    state = replays_cleanly(result)  # the step that failed was played again from a copy
    assert state.is_terminal() and state.outcome().ranks == result.engine_ranks
    assert [seat for seat, _, by_bot in result.moves if not by_bot][0] == 1
    assert len(result.moves) == sum(len(step) for step in result.replay.steps)


@pytest.mark.parametrize("bug,error", [
    ("listed", "ValueError: a bug in apply"),
    ("observe", "IndexError: a bug in observation"),
    ("outcome", "ZeroDivisionError: a bug in outcome"),
])
async def test_engine_failing_by_itself_is_an_arena_error_charged_to_no_bot(bug, error):
    results = await play_buggy(bug, [scripted("good"), scripted("good")], games=2)
    for result in results:  # the same processes play on after an arena error
        [fault] = result.faults
        assert (fault.seat, fault.bot, fault.kind) == (None, None, FaultKind.ARENA_ERROR)
        assert fault.detail.startswith("the engine failed ") and error in fault.detail
        assert result.reason is EndReason.ARENA_ERROR and result.ranks == (1, 1)
        assert result.as_dict()["reason"] == "arena-error"
        replays_cleanly(result)  # the replay stops before the step that failed


@pytest.mark.parametrize("players", [2, 3])
async def test_forfeited_seats_replay_identically(players):
    """Issue 13 item 2: with every seat played by the fallback, simultaneous seats draw from
    their own generators, so one seed gives one game whatever order trio runs them in."""
    karibik = get_game("karibik")
    async with AsyncExitStack() as stack:
        crashed = [await stack.enter_async_context(open_player(scripted("no-start-exit"), startup_s=5))
                   for _ in range(players)]
        results = [await play_match(karibik, crashed, 4, settings=FAST) for _ in range(20)]
    assert all(len(result.faults) == players for result in results)
    assert any(len(step) > 1 for step in results[0].replay.steps)
    assert all(result.replay.steps == results[0].replay.steps for result in results)
