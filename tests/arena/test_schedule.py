"""Schedules: counts, seat balance, duplicate deals, gauntlets, sampling, determinism."""

import itertools
import math
from collections import Counter

import pytest

from arena._schedule import Format, ScheduleSpec, _nth_combination, build_schedule

NAMES = tuple("abcdef")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_robin_plays_every_table_in_every_rotation(players):
    games = build_schedule(ScheduleSpec(NAMES, players, rounds=2))
    assert len(games) == 2 * math.comb(6, players) * players
    assert len({g.key for g in games}) == len(games)
    tables = Counter(frozenset(g.seats) for g in games)
    assert set(tables) == {frozenset(t) for t in itertools.combinations(NAMES, players)}
    assert set(tables.values()) == {2 * players}


def test_every_entrant_sits_in_every_seat_equally_often():
    games = build_schedule(ScheduleSpec(NAMES, 3))
    seats = Counter((name, seat) for g in games for seat, name in enumerate(g.seats))
    assert len(set(seats.values())) == 1


def test_duplicate_deals_share_a_seed_within_a_block_only():
    games = build_schedule(ScheduleSpec(NAMES, 2, duplicate=True))
    by_block = {}
    for game in games:
        by_block.setdefault(game.block, set()).add(game.seed)
    assert all(len(seeds) == 1 for seeds in by_block.values())
    assert len({next(iter(s)) for s in by_block.values()}) == len(by_block)


def test_without_duplicate_every_game_has_its_own_seed():
    games = build_schedule(ScheduleSpec(NAMES, 2, duplicate=False))
    assert len({g.seed for g in games}) == len(games)


def test_same_spec_same_schedule_and_seed_changes_it():
    spec = ScheduleSpec(NAMES, 3, seed=5, max_tables=4)
    assert build_schedule(spec) == build_schedule(spec)
    other = build_schedule(ScheduleSpec(NAMES, 3, seed=6, max_tables=4))
    assert [g.seed for g in other] != [g.seed for g in build_schedule(spec)]


def test_sampled_tables_are_distinct_and_limited():
    games = build_schedule(ScheduleSpec(tuple("abcdefghij"), 4, max_tables=7))
    tables = {frozenset(g.seats) for g in games}
    assert len(tables) == 7 and len(games) == 7 * 4


def test_nth_combination_matches_itertools():
    pool = tuple("abcdefg")
    expected = list(itertools.combinations(pool, 3))
    assert [_nth_combination(pool, 3, i) for i in range(len(expected))] == expected


def test_gauntlet_puts_a_candidate_at_every_table():
    games = build_schedule(ScheduleSpec(NAMES, 3, format=Format.GAUNTLET, candidates=("a",)))
    assert len(games) == math.comb(5, 2) * 3
    assert all("a" in g.seats for g in games)
