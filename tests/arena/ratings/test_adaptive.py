"""Adaptive scheduling (arena/ratings/_adaptive.py, _adaptive_round.py): the stop, who is
seated, determinism, and the error rate against simulated Plackett-Luce fields."""

import numpy as np
import pytest

from arena.ratings import _adaptive
from arena.ratings._adaptive import Goal, judge, parse_goal
from arena.ratings._adaptive_round import first_round, next_round
from arena.ratings._fit import ELO_PER_NAT


def _play(strength, tables, rng):
    seats = np.repeat(np.asarray(tables), len(tables[0]), axis=0)
    noise = strength[seats] + rng.gumbel(size=seats.shape)
    return np.take_along_axis(seats, np.argsort(-noise, axis=1), axis=1)


def _run(elo, size, goal, *, error=0.05, seed=1, max_looks=50):
    """One simulated adaptive tournament: (final verdict, [(verdict before, tables)], games)."""
    strength = np.asarray(elo, dtype=float) / ELO_PER_NAT
    rng = np.random.default_rng(seed + 1000)
    tables, verdict, played, rounds, orders = first_round(len(elo), size, seed), None, 0, [], []
    while True:
        rounds.append((verdict, tables))
        orders.append(_play(strength, tables, rng))
        played += len(tables)
        verdict = judge(len(elo), np.concatenate(orders), goal, error=error, previous=verdict,
                        max_looks=max_looks)
        if verdict.decided or verdict.exhausted:
            return verdict, rounds, played * size
        tables = next_round(verdict, size, seed, played)


def test_separated_field_stops_early_with_the_right_top_3():
    elo = [900, 600, 300, 0, -100, -200, -300, -400]  # 300 Elo steps down to the 4th
    verdict, rounds, games = _run(elo, 4, parse_goal("top 3"))
    assert verdict.decided and not verdict.exhausted
    assert set(verdict.answer) == {0, 1, 2}
    assert games <= 400, games  # uniform needs thousands for the same gaps at 0.05 (see BENCHMARKS.md)
    assert verdict.reason.startswith("top 3 decided at look")


def test_a_decided_entrant_is_not_scheduled_again():
    rng = np.random.default_rng(3)
    elo = sorted(rng.normal(0, 250, 24), reverse=True)
    verdict, rounds, _ = _run(elo, 4, parse_goal("top 3"), seed=5)
    checked = 0
    for before, tables in rounds[1:]:
        decided = before.inside | before.out
        if len(before.undecided) >= 4:
            seated = {i for t in tables for i in t}
            assert not seated & decided, (before.look, sorted(seated & decided))
            assert seated == set(before.undecided)
            checked += bool(decided)
    assert checked >= 2  # rounds where some entrants were decided and the rest still filled tables


def test_the_same_seed_gives_the_same_schedule():
    elo = [400, 250, 200, 150, 0, -50, -100, -300, -350, -400]
    a = _run(elo, 4, parse_goal("top 3"), seed=9)
    b = _run(elo, 4, parse_goal("top 3"), seed=9)
    c = _run(elo, 4, parse_goal("top 3"), seed=10)
    assert [t for _, t in a[1]] == [t for _, t in b[1]] and a[2] == b[2]
    assert [t for _, t in a[1]] != [t for _, t in c[1]]


def _error_rate(fields, goal, error):
    wrong = 0
    for f, elo in enumerate(fields):
        verdict, _, _ = _run(elo, 2, goal, error=error, seed=f, max_looks=20)
        kth = sorted(elo)[-goal.k]
        wrong += any(elo[i] < kth - goal.margin for i in verdict.answer)
    return wrong


def test_the_error_rate_is_held_and_the_check_can_fail(monkeypatch):
    # 60 fields of 6 at 2 players, ratings 120 Elo apart on average: near-ties are common
    rng = np.random.default_rng(46)
    fields = [list(rng.normal(0, 120, 6)) for _ in range(60)]
    goal = Goal("top", k=2, margin=10.0)
    # at error 0.2, 60 fields: at most 12 wrong expected; 20 is past the binomial 99.5 % point
    assert _error_rate(fields, goal, 0.2) <= 20
    # the same check on a rule whose bound is far too narrow (z = 0.3 at every look) fails it
    monkeypatch.setattr(_adaptive, "_z", lambda alpha: 0.3)
    assert _error_rate(fields, goal, 0.2) > 20


def test_order_and_elo_goals_stop_on_a_clear_field():
    elo = [600, 200, -200, -600]
    order, _, _ = _run(elo, 2, parse_goal("order"))
    assert order.decided and order.answer == (0, 1, 2, 3)
    ratings, _, _ = _run(elo, 4, parse_goal("elo 60"))
    assert ratings.decided and np.all(np.abs(ratings.ratings - (np.array(elo) - np.mean(elo))) < 120)


@pytest.mark.parametrize("text", ["top", "top 0", "best 3", "elo", "elo -5", "order 3"])
def test_a_goal_that_cannot_be_read_says_the_forms(text):
    with pytest.raises(ValueError, match="top K"):
        parse_goal(text)


def test_top_k_must_leave_someone_out():
    with pytest.raises(ValueError, match="k must lie in 1..3"):
        judge(4, np.zeros((0, 2), dtype=int), parse_goal("top 4"), error=0.05)
