"""Ladder matchmaking: valid, deterministic tables; new versions first; nobody starves;
a new version is placed with fewer games than uniform pairing needs."""

from __future__ import annotations

import math
import random

import pytest

from arena.ladder._matchmaking import (
    STARVE_FACTOR,
    LadderGame,
    choose_tables,
    fit_ladder,
    pairwise_share,
)


def play(rng: random.Random, true: dict[str, float], table: tuple[str, ...]) -> list[LadderGame]:
    """One duplicate block of ``table`` under Plackett-Luce (logistic for two) with Elo ``true``."""
    out = []
    k = len(table)
    for r in range(k):
        seats = table[r:] + table[:r]
        value = [true[s] * math.log(10) / 400 - math.log(-math.log(rng.random())) for s in seats]
        order = sorted(range(k), key=lambda s: -value[s])
        ranks = [0] * k
        for pos, seat in enumerate(order):
            ranks[seat] = pos + 1
        out.append(LadderGame(seats, tuple(ranks)))
    return out


def field(n: int, players: int, history_tables: int, seed: int) -> tuple[dict[str, float], list[LadderGame]]:
    """``n`` entrants, true Elo spread -300 .. +300, and a history of uniformly drawn tables."""
    true = {f"e{i}": -300.0 + 600.0 * i / (n - 1) for i in range(n)}
    rng = random.Random(seed)
    games: list[LadderGame] = []
    for _ in range(history_tables):
        games += play(rng, true, tuple(rng.sample(sorted(true), players)))
    return true, games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tables_are_distinct_active_names_of_the_right_size(players):
    true, games = field(7, players, 30, seed=1)
    active = ["e1", "e2", "e3", "e5", "e6", "fresh"]  # e0 and e4 retired, one new version
    tables = choose_tables(active, games, players, 25, random.Random(3))
    assert len(tables) == 25
    for table in tables:
        assert len(table) == players
        assert len(set(table)) == players
        assert set(table) <= set(active)


@pytest.mark.parametrize("players", [2, 4])
def test_same_inputs_and_rng_state_give_the_same_tables(players):
    _, games = field(6, players, 40, seed=2)
    active = sorted({s for g in games for s in g.seats}) + ["new"]
    first = choose_tables(active, games, players, 12, random.Random(9))
    again = choose_tables(active, games, players, 12, random.Random(9))
    with_fit = choose_tables(active, games, players, 12, random.Random(9), fit=fit_ladder(games))
    assert first == again == with_fit
    assert choose_tables(active, games, players, 12, random.Random(10)) != first


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_new_version_is_seated_first(players):
    _, games = field(8, players, 150, seed=4)
    active = [f"e{i}" for i in range(8)] + ["v2"]
    tables = choose_tables(active, games, players, 3, random.Random(1))
    assert all("v2" in table for table in tables)


def test_a_new_version_meets_opponents_close_to_its_rating():
    """Without games a new version is rated at the field's centre: its first opponents
    are the entrants rated near 0, not the ones far above or below."""
    elo = [-500, -400, -300, -200, -50, 50, 200, 300, 400, 500]
    true = {f"e{i}": float(r) for i, r in enumerate(elo)}
    rng = random.Random(5)
    games: list[LadderGame] = []
    for _ in range(200):
        games += play(rng, true, tuple(rng.sample(sorted(true), 2)))
    for i in range(0, 10, 2):  # everyone played lately: no fair-share seat is due
        games += play(rng, true, (f"e{i}", f"e{i + 1}"))
    tables = choose_tables(sorted(true) + ["new"], games, 2, 3, random.Random(1))
    opponents = [t[1 - t.index("new")] for t in tables]
    assert len(opponents) == 3
    assert opponents[0] in {"e4", "e5"}
    assert set(opponents) <= {"e3", "e4", "e5", "e6"}


def test_pending_tables_count_as_played():
    _, games = field(6, 2, 100, seed=6)
    active = [f"e{i}" for i in range(6)] + ["new"]
    rng = random.Random(4)
    first = choose_tables(active, games, 2, 1, rng)[0]
    assert "new" in first
    fit = fit_ladder(games)
    in_flight = [first] * 40
    again = choose_tables(active, games, 2, 1, random.Random(4), fit=fit, pending=in_flight)[0]
    assert again != first
    with pytest.raises(ValueError, match="'gone', which is not active"):
        choose_tables(active, games, 2, 1, rng, pending=[("gone", "e1")])


def test_nobody_starves_over_a_long_run():
    """A new version and an outlier far below everyone: each plays at least about half its
    uniform share and at most twice it, and no active entrant waits longer than the
    starvation limit (plus the tables of one call)."""
    true, games = field(10, 2, 100, seed=7)
    true["e0"] = -1500.0  # least informative opponent for everyone
    true["new"] = 250.0
    active = sorted(true)
    rng = random.Random(8)
    start = len(games)
    last = {name: start for name in active}
    wait = dict.fromkeys(active, 0)
    for _ in range(150):  # 600 tables, 4 per call
        for table in choose_tables(active, games, 2, 4, rng):
            games += play(rng, true, table)
            for name in table:
                wait[name] = max(wait[name], len(games) - 2 - last[name])
                last[name] = len(games)
    played = len(games) - start
    fair = played * 2 / len(active)
    counts = {name: sum(name in g.seats for g in games[start:]) for name in active}
    limit = STARVE_FACTOR * len(active)
    assert max(wait.values()) <= limit + 4 * 2
    assert min(counts.values()) >= 0.4 * fair
    assert max(counts.values()) <= 2 * fair
    assert counts["e0"] <= fair  # losing every game, it says little: no more than its share


def _games_to_place(method: str, seed: int) -> tuple[int, int]:
    """(The new version's games, the ladder's games) until its interval, as matchmaking
    computes it, is under +-75 Elo; a field of 8 (-300 .. +300) with 1200 games of history."""
    true, games = field(8, 2, 600, seed=seed)
    true["new"] = 120.0
    active = sorted(true)
    rng = random.Random(seed)
    start = len(games)
    new_games = 0
    while True:
        if method == "matchmaking":
            table = choose_tables(active, games, 2, 1, rng)[0]
        else:
            table = tuple(rng.sample(active, 2))
        games += play(rng, true, table)
        if "new" in table:
            new_games += 2
            if fit_ladder(games).elo_interval("new") < 75.0:
                return new_games, len(games) - start


def test_a_new_version_is_placed_with_fewer_games_than_uniform_pairing():
    # The floor, every game against an equal opponent: (1.96 * 173.7 / 75)^2 / 0.25 = 82
    # games. Matchmaking seats the new version at every table here, against close
    # opponents; uniform pairing at 2 tables in 9, against anyone.
    assert _games_to_place("matchmaking", 11) == (88, 88)
    assert _games_to_place("uniform", 11) == (96, 490)


def test_rejects_impossible_requests():
    with pytest.raises(ValueError, match="at least 2 players"):
        choose_tables(["a", "b"], [], 1, 1, random.Random(0))
    with pytest.raises(ValueError, match="cannot fill a 3-player table"):
        choose_tables(["a", "b"], [], 3, 1, random.Random(0))
    with pytest.raises(ValueError, match="listed twice"):
        choose_tables(["a", "a", "b"], [], 2, 1, random.Random(0))
    with pytest.raises(ValueError, match="count must be >= 0"):
        choose_tables(["a", "b"], [], 2, -1, random.Random(0))
    assert choose_tables(["a", "b"], [], 2, 0, random.Random(0)) == []
    with pytest.raises(ValueError, match="seated twice"):
        LadderGame(("a", "a"), (1, 2))
    with pytest.raises(ValueError, match="ints >= 1"):
        LadderGame(("a", "b"), (0, 1))


def test_fit_counts_games_and_waits():
    games = [LadderGame(("a", "b"), (1, 2)), LadderGame(("b", "c"), (1, 1)), LadderGame(("c", "b"), (2, 1))]
    fit = fit_ladder(games)
    assert fit.entrants == ("a", "b", "c")
    assert fit.games == (1, 3, 2)
    assert fit.since == (2, 0, 0)
    assert fit.elo_interval("nobody") == pytest.approx(1.96 * 400 / math.log(10) * 2)
    assert fit.elo_interval("b") < fit.elo_interval("a")


def test_pairwise_share_of_plackett_luce_information():
    assert pairwise_share(2) == 1.0
    assert pairwise_share(3) == pytest.approx(7 / 9)
    assert pairwise_share(4) == pytest.approx(23 / 36)
