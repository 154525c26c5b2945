"""Schedules: counts, seat balance, duplicate deals, gauntlets, sampling, determinism under the
tournament key, laziness, and seeds that say nothing without the key."""

import hashlib
import hmac
import itertools
import math
import tracemalloc
from collections import Counter

import pytest

from arena._schedule import GAME_SEED_BITS, Format, ScheduleSpec, _nth_combination, build_schedule, new_key

NAMES = tuple("abcdef")
KEY = bytes(range(32))


def games_of(spec, key=KEY):
    return list(build_schedule(spec, key))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_robin_plays_every_table_in_every_rotation(players):
    games = games_of(ScheduleSpec(NAMES, players, rounds=2))
    assert len(games) == 2 * math.comb(6, players) * players
    assert len({g.key for g in games}) == len(games)
    tables = Counter(frozenset(g.seats) for g in games)
    assert set(tables) == {frozenset(t) for t in itertools.combinations(NAMES, players)}
    assert set(tables.values()) == {2 * players}


def test_every_entrant_sits_in_every_seat_equally_often():
    games = games_of(ScheduleSpec(NAMES, 3))
    seats = Counter((name, seat) for g in games for seat, name in enumerate(g.seats))
    assert len(set(seats.values())) == 1


def test_duplicate_deals_share_a_seed_within_a_block_only():
    games = games_of(ScheduleSpec(NAMES, 2, duplicate=True))
    by_block = {}
    for game in games:
        by_block.setdefault(game.block, set()).add(game.seed)
    assert all(len(seeds) == 1 for seeds in by_block.values())
    assert len({next(iter(s)) for s in by_block.values()}) == len(by_block)


def test_without_duplicate_every_game_has_its_own_seed():
    games = games_of(ScheduleSpec(NAMES, 2, duplicate=False))
    assert len({g.seed for g in games}) == len(games)


def test_same_spec_and_key_same_schedule_and_seed_or_key_changes_it():
    spec = ScheduleSpec(NAMES, 3, seed=5, max_tables=4)
    assert games_of(spec) == games_of(spec)
    other_seed = games_of(ScheduleSpec(NAMES, 3, seed=6, max_tables=4))
    other_key = games_of(spec, new_key())
    for other in (other_seed, other_key):
        assert [g.seed for g in other] != [g.seed for g in games_of(spec)]
        assert {g.bot_seeds for g in other}.isdisjoint({g.bot_seeds for g in games_of(spec)})


def test_bot_seeds_differ_by_seat_and_rotation_and_game_seeds_fit_json():
    games = games_of(ScheduleSpec(NAMES, 3, rounds=2))
    bot_seeds = [seed for g in games for seed in g.bot_seeds]
    assert all(len(g.bot_seeds) == 3 for g in games)
    assert len(set(bot_seeds)) == len(bot_seeds)
    assert all(0 <= seed < 2**64 for seed in bot_seeds)
    assert all(0 <= g.seed < 2**GAME_SEED_BITS for g in games)


def test_seeds_are_hmac_of_the_key_not_of_the_file_seed():
    """The derivation as documented: without the key, the file's seed predicts nothing."""
    [first, *_] = games_of(ScheduleSpec(NAMES, 2, seed=1))
    deal = hmac.new(KEY, "\x1f".join(["deal", "1", "0", "0", "0"]).encode(), hashlib.sha256).digest()
    assert first.seed == int.from_bytes(deal[:8], "big") >> (64 - GAME_SEED_BITS)
    bot = hmac.new(KEY, "\x1f".join(["bot", "r0t0s0", "0", first.seats[0]]).encode(), hashlib.sha256).digest()
    assert first.bot_seeds[0] == int.from_bytes(bot[:8], "big")


def test_a_short_key_is_refused():
    with pytest.raises(ValueError, match="128 bits"):
        build_schedule(ScheduleSpec(NAMES, 2), b"")


def test_sampled_tables_are_distinct_and_limited():
    games = games_of(ScheduleSpec(tuple("abcdefghij"), 4, max_tables=7))
    tables = {frozenset(g.seats) for g in games}
    assert len(tables) == 7 and len(games) == 7 * 4


def test_nth_combination_matches_itertools():
    pool = tuple("abcdefg")
    expected = list(itertools.combinations(pool, 3))
    assert [_nth_combination(pool, 3, i) for i in range(len(expected))] == expected


def test_gauntlet_puts_a_candidate_at_every_table():
    games = games_of(ScheduleSpec(NAMES, 3, format=Format.GAUNTLET, candidates=("a",)))
    assert len(games) == math.comb(5, 2) * 3
    assert all("a" in g.seats for g in games)


def test_sampled_gauntlet_tables_are_distinct_per_candidate():
    games = games_of(ScheduleSpec(NAMES, 3, format=Format.GAUNTLET, candidates=("a", "b"), max_tables=4))
    tables = Counter(frozenset(g.seats) for g in games)
    assert len(games) == 2 * 4 * 3 and set(tables.values()) == {3}
    assert sum(1 for t in tables if "a" in t and "b" not in t) == 4


@pytest.mark.parametrize("spec", [
    ScheduleSpec(NAMES, 2),
    ScheduleSpec(NAMES, 3, rounds=3, duplicate=False),
    ScheduleSpec(NAMES, 4, max_tables=5, rounds=2),
    ScheduleSpec(NAMES, 4, max_tables=100),
    ScheduleSpec(NAMES, 3, format=Format.GAUNTLET, candidates=("a", "b")),
    ScheduleSpec(NAMES, 3, format=Format.GAUNTLET, candidates=("c",), max_tables=2, rounds=2),
])
def test_total_counts_exactly_the_games(spec):
    assert build_schedule(spec, KEY).total == len(games_of(spec))


def test_pending_is_the_schedule_minus_stored_keys_in_order():
    schedule = build_schedule(ScheduleSpec(NAMES, 3), KEY)
    games = list(schedule)
    done = {g.key for g in games[::3]}
    assert list(schedule.pending(done)) == [g for g in games if g.key not in done]


def test_a_huge_schedule_is_counted_and_resumed_without_being_made():
    """rounds = 10^6 of every 8-subset of 30 entrants: ~4.7e12 games, made one at a time."""
    spec = ScheduleSpec(tuple(f"bot{i}" for i in range(30)), 8, rounds=10**6)
    schedule = build_schedule(spec, KEY)
    tracemalloc.start()
    try:
        assert schedule.total == 10**6 * math.comb(30, 8) * 8
        first = list(itertools.islice(schedule.pending({"r0t0s0", "r0t0s1"}), 1000))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert first[0].key == "r0t0s2" and len(first) == 1000
    assert peak < 5 * 2**20


def test_sampled_rounds_are_made_one_at_a_time_and_the_key_is_not_shown():
    spec = ScheduleSpec(tuple(f"bot{i}" for i in range(60)), 4, rounds=10**6, max_tables=10**5)
    schedule = build_schedule(spec, KEY)
    assert schedule.total == 10**6 * 10**5 * 4
    games = schedule.pending(set())
    assert [next(games).table for _ in range(8)] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert KEY.hex() not in repr(schedule) and repr(KEY) not in repr(schedule)
