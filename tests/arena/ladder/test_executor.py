"""A ladder's source of games: the games of a version benched after its window was chosen are
dropped where they were not handed out yet (no processes)."""

import trio

from arena.ladder._executor import LadderSource
from arena.tournament._handout import WindowPlan
from arena.tournament._schedule import ScheduledGame

TABLES = [("a", "bomb"), ("a", "b"), ("bomb", "b"), ("bomb", "a")]


def blocks(tables):
    for number, table in enumerate(tables):
        for rotation in range(len(table)):
            yield ScheduledGame(key=f"b{number}s{rotation}", round=0, table=number, rotation=rotation,
                                seats=table[rotation:] + table[:rotation], seed=number, block=f"b{number}")


def take(source, count):
    async def main():
        return [await source.take() for _ in range(count)]

    return trio.run(main)


def test_the_games_of_a_benched_version_not_handed_out_are_dropped():
    source = LadderSource(blocks(TABLES), WindowPlan(players=2, entrants=3, games_per_pass=2))
    first = take(source, 1)[0]  # the window, all four blocks, is chosen; one game handed out
    assert first.key == "b0s0"
    dropped = source.drop("bomb")
    assert sorted(game.key for game in dropped) == ["b0s1", "b2s0", "b2s1", "b3s0", "b3s1"]
    source.done()
    assert sorted(game.key for game in take(source, 2)) == ["b1s0", "b1s1"]
    assert source.drop("bomb") == [] and source.withdrawn == {}  # dropped, not withdrawn
