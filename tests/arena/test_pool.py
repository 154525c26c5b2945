"""The bot pool's rules with real processes (tests/arena/bots/lifecycle.py): no process that saw
a deal is alive when another game of that deal starts for its entrant; misbehaviour between
games (exiting, closing stdout, writing) is charged to the entrant's next game, never a process
the pool ended itself; withdrawn entrants are not started again."""

import os
import signal
import sys
from pathlib import Path

import pytest
import trio

from arena.match._match import MatchSettings, play_match
from arena.players._faults import FaultKind
from arena.players._manifest import BotSpec
from arena.players._pool import BotPool
from arena.players._timecontrol import TimeControl

from ._toy import TOY

BOTS = Path(__file__).parent / "bots"
FAST = MatchSettings(TimeControl(move_ms=400, reserve_ms=0, startup_ms=10_000))


def lifecycle(mode: str, name: str | None = None) -> BotSpec:
    return BotSpec(name=name or mode, command=(sys.executable, str(BOTS / "lifecycle.py"), mode))


async def play(pool: BotPool, seats, deal):
    players = await pool.checkout_game(seats, deal)
    try:
        result = await play_match(TOY, players, deal, settings=FAST)
    finally:
        late = pool.checkin_game(seats, players)
    return result, players, late


async def test_a_process_that_saw_a_deal_is_gone_before_another_game_of_it_starts():
    specs = {"a": lifecycle("good", "a"), "b": lifecycle("good", "b")}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2)
        await pool.preflight(specs)
        _, first, _ = await play(pool, ["a", "b"], 1)
        _, second, _ = await play(pool, ["a", "b"], 2)  # another deal: the same processes
        assert second == first and pool.started == 2
        # Deal 3 could start on the idle processes at once; deal 1 would need new ones.
        assert pool.ready(["a", "b"], 3) and not pool.ready(["b", "a"], 1)
        players = await pool.checkout_game(["b", "a"], 1)  # the other rotation of deal 1
        # Both processes saw deal 1: ended, and dead, before the game was handed out.
        assert all(old.process.returncode() is not None for old in first)
        assert not set(players) & set(first) and all(player.usable for player in players)
        result = await play_match(TOY, players, 1, settings=FAST)
        assert pool.checkin_game(["b", "a"], players) == {}
        assert pool.statistics().ended_for_deals == 2 and pool.started == 4
        pool.release_all()
    assert result.faults == ()  # an ended process is no fault


async def test_a_process_let_go_for_the_keep_limit_is_gone_before_another_game_of_its_deal():
    # Two games at once give each entrant two processes; back idle, the older is let go (keep
    # 1). It saw deal 1 and takes 1 s to exit: the other rotation of deal 1, on the younger
    # process (which never saw it), must wait until it is gone. (The full suite caught this
    # once: a tournament's timeline bot found such a process alive.)
    specs = {"a": lifecycle("slow-bye", "a"), "b": lifecycle("slow-bye", "b")}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=1)
        await pool.preflight(specs)
        first = await pool.checkout_game(["a", "b"], 1)
        second = await pool.checkout_game(["a", "b"], 2)
        pool.checkin_game(["a", "b"], first)
        pool.checkin_game(["a", "b"], second)  # two idle each: the older ones (deal 1's) are let go
        players = await pool.checkout_game(["b", "a"], 1)
        assert all(old.process.returncode() is not None for old in first), "deal 1's processes still ran"
        assert set(players) == set(second)
        pool.checkin_game(["b", "a"], players)
        pool.release_all()


async def test_a_process_being_handed_out_for_another_deal_blocks_a_rotation_of_one_it_saw():
    # A game of one move each (target 2) whose movers then read nothing for 1 s: handing their
    # processes out for deal 2 waits that long for them to read their last `end`. Meanwhile the other rotation
    # of deal 1 must neither start beside it (it saw deal 1 and is about to play on) nor take
    # it: it waits until deal 2 is over and that process ended. (The full suite caught this: a
    # tournament's timeline bot found a process alive that saw the deal being started.)
    specs = {"a": lifecycle("slow-after-move", "a"), "b": lifecycle("slow-after-move", "b")}
    one_move = {"target": 2}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2)
        await pool.preflight(specs)
        first = await pool.checkout_game(["a", "b"], 1)
        await play_match(TOY, first, 1, one_move, settings=FAST)
        pool.checkin_game(["a", "b"], first)
        alive_at_rotation = []

        async def deal_2() -> None:
            players = await pool.checkout_game(["a", "b"], 2)  # the same processes: they did not see 2
            await play_match(TOY, players, 2, one_move, settings=FAST)
            pool.checkin_game(["a", "b"], players)

        async def rotation_of_deal_1() -> None:
            players = await pool.checkout_game(["b", "a"], 1)
            alive_at_rotation.extend(old for old in first if old.process.returncode() is None)
            pool.checkin_game(["b", "a"], players)

        async with trio.open_nursery() as games:
            games.start_soon(deal_2)
            await trio.sleep(0.05)  # deal 2 has taken the idle processes and waits for them
            games.start_soon(rotation_of_deal_1)
        assert alive_at_rotation == [], "a process that saw deal 1 ran while another rotation of it started"
        pool.release_all()


async def test_a_checkout_cancelled_while_its_process_is_handed_out_lets_the_pool_close():
    # A worker whose coordinator dies mid-checkout cancels it while the pool waits for the
    # process to read its last `end` (1 s here). That process was neither idle nor busy: before,
    # nothing ended it and the pool's nursery waited for it forever (a worker left behind after
    # a ladder server's kill -9 was found 30 minutes later, its bot still in the pool).
    specs = {"a": lifecycle("slow-after-move", "a"), "b": lifecycle("slow-after-move", "b")}
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            pool = BotPool(nursery, specs, 10, keep=2)
            await pool.preflight(specs)
            first = await pool.checkout_game(["a", "b"], 1)
            await play_match(TOY, first, 1, {"target": 2}, settings=FAST)
            pool.checkin_game(["a", "b"], first)
            with trio.move_on_after(0.2) as scope:
                await pool.checkout_game(["a", "b"], 2)  # the same processes, still reading deal 1's end
            assert scope.cancelled_caught
            pool.release_all()
    assert all(player.process.returncode() is not None for player in first)


async def test_a_rotation_waits_for_a_game_of_its_deal_in_play_and_ends_its_process():
    specs = {"a": lifecycle("good", "a"), "b": lifecycle("good", "b"), "c": lifecycle("good", "c")}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2)
        await pool.preflight(specs)
        playing = await pool.checkout_game(["a", "b"], 7)
        order = []

        async def other_rotation():
            players = await pool.checkout_game(["c", "a"], 7)
            order.append("started")
            assert playing[0].process.returncode() is not None  # a's process of deal 7 is gone
            assert players[1] is not playing[0]
            pool.checkin_game(["c", "a"], players)

        assert not pool.ready(["c", "a"], 7) and pool.ready(["c"], 8)
        nursery.start_soon(other_rotation)
        await trio.sleep(0.3)
        assert order == []  # a's process plays deal 7: the other rotation waits
        await play_match(TOY, playing, 7, settings=FAST)
        order.append("ended")
        pool.checkin_game(["a", "b"], playing)
        with trio.fail_after(10):
            while order != ["ended", "started"]:
                await trio.sleep(0.01)
        pool.release_all()


@pytest.mark.parametrize("mode,kind,detail", [
    ("exit-3-after-end", FaultKind.CRASH, "exited with code 3 between games"),
    ("close-after-end", FaultKind.CRASH, "closed its stdout between games"),
    ("write-after-end", FaultKind.PROTOCOL, "wrote 12 bytes between games"),
])
async def test_misbehaviour_between_games_is_charged_to_the_next_game(mode, kind, detail):
    specs = {"good": lifecycle("good"), "bad": lifecycle(mode, "bad")}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2)
        await pool.preflight(specs)
        result, first, _ = await play(pool, ["good", "bad"], 1)
        assert result.faults == ()
        await trio.sleep(0.3)  # it misbehaves now, between games
        result, second, late = await play(pool, ["good", "bad"], 2)
        assert second[0] is first[0]  # the good bot keeps its process
        assert [(f.seat, f.bot, f.kind, f.step, f.detail, f.between_games) for f in result.faults] == [
            (1, "bad", kind, 0, detail, True)]
        assert result.ranks == (1, 2) and late == {}
        assert second[1] is first[1] and pool.started == 2  # its own failed player stood in
        result, third, _ = await play(pool, ["good", "bad"], 3)  # a new process, no fault
        assert third[1] is not first[1] and pool.started == 3
        assert result.faults == ()
        pool.release_all()


async def test_a_stale_reply_between_games_is_no_fault():
    specs = {"good": lifecycle("good"), "stale": lifecycle("stale-after-end", "stale")}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2)
        await pool.preflight(specs)
        results = []
        for deal in (1, 2, 3):
            result, _, _ = await play(pool, ["good", "stale"], deal)
            results.append(result)
            await trio.sleep(0.1)
        assert pool.started == 2 and pool.statistics().charged == 0
        pool.release_all()
    assert [result.faults for result in results] == [()] * 3


async def test_a_process_ended_for_the_deal_rule_is_charged_only_for_what_it_did_before():
    """The leaver exits after its game, once the pool has taken it back (a signal says when:
    exiting at once, it raced the pool's look, and a loaded machine lost the race); the next
    game is the other rotation of the same deal, so the pool ends that process anyway: the exit
    it made first is still charged."""
    specs = {"good": lifecycle("good"), "leaver": lifecycle("exit-3-on-usr1", "leaver")}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2)
        await pool.preflight(specs)
        _, first, _ = await play(pool, ["good", "leaver"], 1)
        os.kill(first[1].process.pid, signal.SIGUSR1)
        with trio.fail_after(30):  # a guard, not a measure
            await first[1].process.process.wait()
        result, players, _ = await play(pool, ["leaver", "good"], 1)
        assert [(f.bot, f.detail, f.between_games) for f in result.faults] == [
            ("leaver", "exited with code 3 between games", True)]
        assert pool.statistics().ended_for_deals == 2 and pool.statistics().charged == 1
        pool.release_all()


async def test_a_death_found_only_in_the_next_game_is_that_games_charge():
    """The process is handed out alive and dies before reading its game's first byte."""
    specs = {"good": lifecycle("good"), "leaver": lifecycle("exit-after-end", "leaver")}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2)
        await pool.preflight(specs)
        _, players, _ = await play(pool, ["good", "leaver"], 1)
        leaver = players[1]
        leaver.idle_fault = lambda: None  # stands for "still exiting" when the pool looked
        players = await pool.checkout_game(["good", "leaver"], 2)
        assert players[1] is leaver
        await leaver.process.process.wait()
        result = await play_match(TOY, players, 2, settings=FAST)
        assert [f.kind for f in result.faults] == [FaultKind.CRASH]
        del leaver.idle_fault
        late = pool.checkin_game(["good", "leaver"], players)
        assert list(late) == [1] and late[1].between_games
        assert late[1].detail in ("exited with code 0 between games", "closed its stdout between games")
        pool.release_all()


async def test_a_withdrawn_entrant_is_not_started_again():
    specs = {"good": lifecycle("good"), "other": lifecycle("good", "other")}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2)
        await pool.preflight(specs)
        _, first, _ = await play(pool, ["good", "other"], 1)
        pool.withdraw("other", "withdrawn after 5 faults between games")
        result, players, _ = await play(pool, ["good", "other"], 2)
        assert [(f.bot, f.kind, f.step, f.detail, f.between_games) for f in result.faults] == [
            ("other", FaultKind.CRASH, 0, "withdrawn after 5 faults between games; not started again", False)]
        assert players[1].process is None and pool.started == 2
        pool.release_all()
    assert first[1].process.returncode() is not None


async def wait_until(condition) -> None:
    with trio.fail_after(30):  # a guard, not a measure
        while not condition():
            await trio.sleep(0.01)


async def test_a_process_that_faulted_in_its_game_is_replaced_at_once_by_a_spare():
    # Issue 47: a bot that faults in every game needs a new process for each; started when its
    # next game is checked out, the start and handshake held that game's slot. The pauser times
    # out at its 3rd request of every process: a fault in the game, its process ended.
    specs = {"good": lifecycle("good"), "pauser": lifecycle("stop-reading", "pauser")}
    seats, long_game = ["good", "pauser"], {"target": 30}
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, specs, 10, keep=2)
        await pool.preflight(specs)
        first = await pool.checkout_game(seats, 1)
        result = await play_match(TOY, first, 1, long_game, settings=FAST)
        assert [(f.bot, f.kind) for f in result.faults] == [("pauser", FaultKind.TIMEOUT)]
        assert pool.checkin_game(seats, first) == {}
        assert pool.statistics().spares == 1 and not pool.ready(seats, 2)  # on its way
        # Checked out at once: the game waits for that spare and starts no second process.
        second = await pool.checkout_game(seats, 2)
        assert second[0] is first[0] and second[1] is not first[1] and second[1].usable
        assert pool.started == 3
        await play_match(TOY, second, 2, long_game, settings=FAST)
        pool.checkin_game(seats, second)
        # Checked out once the spare is up (ready says so): the checkout starts nothing.
        await wait_until(lambda: pool.ready(seats, 3))
        assert pool.started == 4 and pool.statistics().spares == 2
        third = await pool.checkout_game(seats, 3)
        assert pool.started == 4 and third[1] not in (first[1], second[1]) and third[1].usable
        assert third[1].process.returncode() is None
        pool.checkin_game(seats, third)
        pool.release_all()
    assert all(player.process.returncode() is not None for player in (first[1], second[1], third[1]))


async def test_a_spare_started_as_the_pool_closes_or_its_entrant_is_withdrawn_is_shut_down():
    specs = {"good": lifecycle("good"), "pauser": lifecycle("stop-reading", "pauser")}
    seats = ["good", "pauser"]
    for closing in (True, False):
        with trio.fail_after(60):  # a guard: a spare left idle would keep the pool open for ever
            async with trio.open_nursery() as nursery:
                pool = BotPool(nursery, specs, 10, keep=2)
                await pool.preflight(specs)
                players = await pool.checkout_game(seats, 1)
                await play_match(TOY, players, 1, {"target": 30}, settings=FAST)
                pool.checkin_game(seats, players)  # the spare is being started
                assert pool.statistics().spares == 1
                if closing:
                    pool.release_all()
                else:
                    pool.withdraw("pauser", "withdrawn")
                    await wait_until(lambda: not pool._starting["pauser"])  # up, and let go
                    assert pool.started == 3 and pool._idle["pauser"] == []
                    result, after, _ = await play(pool, seats, 2)
                    assert after[1].process is None and pool.started == 3  # a stand-in
                    pool.release_all()


@pytest.mark.skipif(os.geteuid() != 0, reason="bots get uids of their own only as root")
async def test_a_new_process_of_a_bot_under_another_uid_does_not_compute_its_view_again():
    # Issue 47: a bot that crashes in every game starts a process per game, each under
    # another uid; its view (~1 s of CPU) was computed again for each uid, holding the slot.
    from arena.sandbox import _view
    from arena.sandbox._detect import detect_sandbox

    box = detect_sandbox("auto")
    if box.bwrap is None:
        box.close()
        pytest.skip("no bubblewrap here")
    try:
        specs = {"a": lifecycle("good", "a"), "b": lifecycle("good", "b")}
        _view._bound.cache_clear()
        async with trio.open_nursery() as nursery:
            pool = BotPool(nursery, specs, 10, sandbox=box, keep=2)
            await pool.preflight(["a"])
            # Both seats "a": the idle process and a new one, alive together under two uids.
            result, players, _ = await play(pool, ["a", "a"], 1)
            pool.release_all()
        assert result.faults == () and pool.started == 2
        assert len({player.process.uid for player in players}) == 2
        assert _view._bound.cache_info().misses == 1
    finally:
        box.close()
