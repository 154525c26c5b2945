"""Handing games out: rotation-major windows, a block on one worker, windows given back whole,
window sizes from the slots and entrants (arena/tournament/_handout.py). No processes: fast."""

import pytest
import trio
import trio.testing

from arena.tournament._handout import MAX_WINDOW_BLOCKS, GameSource, WindowPlan, rotation_major
from arena.tournament._schedule import ScheduleSpec, build_schedule

KEY = bytes(32)


def schedule(entrants=4, players=2, rounds=3):
    spec = ScheduleSpec(entrants=tuple(f"e{i}" for i in range(entrants)), players=players, rounds=rounds)
    return build_schedule(spec, KEY)


def test_rotation_major_order_keeps_partial_blocks():
    a = [("a", 0), ("a", 1), ("a", 2)]
    b = [("b", 1), ("b", 2)]  # rotation 0 stored already (a resumed run)
    assert rotation_major([a, b]) == [("a", 0), ("b", 1), ("a", 1), ("b", 2), ("a", 2)]


async def take_all(source, worker=None):
    games = []
    while (game := await source.take(worker)) is not None:
        games.append(game)
        source.done()
    return games


async def test_one_process_plays_every_game_rotation_major_within_windows():
    games = list(schedule(rounds=5))
    source = GameSource(iter(games), WindowPlan(players=2, entrants=4, share=1), remaining=len(games))
    taken = await take_all(source)
    assert sorted(g.key for g in taken) == sorted(g.key for g in games)  # the schedule's games, unchanged
    assert source.windows == 1  # 60 games: one window of 30 blocks
    assert [g.rotation for g in taken] == [0] * 30 + [1] * 30


def test_window_sizes():
    # quickstart: 3 entrants, 2 players; one worker plays everything as one window
    assert WindowPlan(2, 3, share=2).blocks(30) == 128
    # two workers share the remaining blocks (guided: windows shrink as the end nears) ...
    plan = WindowPlan(2, 6, share=1, workers=2)
    sizes, remaining = [], 150
    while remaining:
        size = min(plan.blocks(remaining), remaining)
        sizes.append(size)
        remaining -= size
    assert sizes == [75, 38, 19, 9, 6, 3]
    # ... but a window plays at least twice as many games as it may start processes
    assert WindowPlan(4, 4, share=1, workers=2).blocks(10) == 6
    # an SPRT's pairs complete within a short window; a ladder's size is its own
    assert WindowPlan(2, 2, share=2, sprt=True).blocks(None) == 16
    assert WindowPlan(2, 10, share=2, games_per_pass=16).blocks(None) == 80
    assert WindowPlan(2, 10**4, share=1).blocks(None) == MAX_WINDOW_BLOCKS


async def test_every_rotation_of_a_block_goes_to_one_worker():
    games = list(schedule(entrants=5, rounds=4))
    source = GameSource(iter(games), WindowPlan(players=2, entrants=5, share=1, workers=2), remaining=len(games))
    workers = {}

    async def worker(name):
        workers[name] = []
        while (game := await source.take(name)) is not None:
            workers[name].append(game)
            await trio.sleep(0.01 if name == "slow" else 0.001)
            source.done()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(worker, "fast")
        nursery.start_soon(worker, "slow")
    blocks = {name: {g.block for g in taken} for name, taken in workers.items()}
    assert not blocks["fast"] & blocks["slow"]
    assert sum(len(taken) for taken in workers.values()) == len(games)
    assert source.windows >= 3  # windows of 20, 10, 5, 5 blocks: whoever is free takes the next


async def test_a_dead_workers_games_go_back_whole_to_one_worker_and_are_marked():
    games = list(schedule(entrants=3, rounds=2))  # 6 blocks, windows of 3
    source = GameSource(iter(games), WindowPlan(players=2, entrants=3, share=1, workers=2), remaining=len(games))
    first = [await source.take("dead") for _ in range(2)]
    assert source.give_back("dead", first) == 6  # its two games in flight and the rest of its window
    assert source.in_flight == 0
    replayed = [await source.take("heir") for _ in range(6)]
    assert replayed[:2] == first and {g.key for g in replayed} == source.retried
    assert len({g.block for g in replayed}) == 3 and [g.rotation for g in replayed] == [0, 0, 0, 1, 1, 1]
    assert source.windows == 2


async def test_game_source_wakes_every_waiting_worker_and_replays_given_back_games():
    games = list(schedule(entrants=2, rounds=1))  # one block of two games
    first, second = games
    source = GameSource(iter(games))
    assert await source.take("w") is first and await source.take("w") is second
    taken = []

    async def take(worker):
        taken.append(await source.take(worker))

    with trio.fail_after(5):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(take, "x")
            nursery.start_soon(take, "y")
            await trio.testing.wait_all_tasks_blocked()
            source.give_back("w", [first])  # a worker died with `first` unfinished
            await trio.testing.wait_all_tasks_blocked()
            assert taken == [first]
            source.done(2)  # `second` and the replayed `first` are stored
    assert taken == [first, None]
    assert await source.take() is None


@pytest.mark.parametrize("players", [2, 3])
async def test_resumed_schedules_keep_their_keys_and_seeds(players):
    games = list(schedule(entrants=4, players=players, rounds=2))
    done = {g.key for g in games[::3]}
    pending = [g for g in games if g.key not in done]
    source = GameSource(iter(pending), WindowPlan(players=players, entrants=4), remaining=len(pending))
    taken = await take_all(source)
    assert sorted((g.key, g.seed, g.seats) for g in taken) == sorted((g.key, g.seed, g.seats) for g in pending)


def test_spread_keeps_an_entrant_out_of_games_played_at_once():
    from arena.tournament._handout import _blocks, spread

    blocks = list(_blocks(iter(schedule(entrants=6, rounds=10))))
    order = spread(blocks, 2)
    assert sorted(b[0].key for b in order) == sorted(b[0].key for b in blocks)

    def clashes(blocks):
        return sum(1 for i in range(2, len(blocks))
                   if set(blocks[i][0].seats) & (set(blocks[i - 1][0].seats) | set(blocks[i - 2][0].seats)))

    assert clashes(order) < clashes(blocks) / 4
    assert spread(blocks, 1) == blocks


def test_pick_takes_the_first_ready_game_within_its_lookahead():
    from collections import deque

    from arena.tournament._handout import pick

    games = deque(schedule(entrants=4, rounds=1))
    first, third, fifth = games[0], games[2], games[4]
    assert pick(games, lambda game: game is third, 4) is third and games[0] is first
    assert pick(games, lambda game: game is fifth, 3) is first  # beyond the lookahead: the first
    second = games[0]
    assert pick(games, None, 3) is second


async def test_a_withdrawal_can_drop_the_games_not_handed_out():
    games = list(schedule(entrants=3, rounds=2))
    source = GameSource(iter(games), WindowPlan(players=2, entrants=3), remaining=len(games))
    first = await source.take("w")
    source.done()
    source.withdraw("e0", "withdrawn after 5 faults between games (limit 5)", drop=True)
    rest = await take_all(source, "w")
    assert source.withdrawn == {"e0": "withdrawn after 5 faults between games (limit 5)"}
    assert rest and all("e0" not in game.seats for game in rest)
    assert len(rest) == sum("e0" not in game.seats for game in games) - ("e0" not in first.seats)
