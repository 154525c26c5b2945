"""Plackett-Luce error bars (issue 33: the report's Plackett-Luce chart had none): the same
cluster-robust sandwich as Bradley-Terry's, so equal to it on two-player games."""

import random

import numpy as np
import pytest

from arena.ratings import GameRecord, compute_standings, fit_plackett_luce
from arena.ratings._encode import encode
from arena.ratings._pl_intervals import plackett_luce_intervals, seat_gradients
from arena.ratings._plackett_luce import plackett_luce_objective, solve_plackett_luce


def games(players: int, count: int, seed: int, blocks: bool = True) -> list[GameRecord]:
    """Random games of ``players`` of five entrants of different strength, in duplicate blocks
    of ``players`` rotations, with some ties."""
    rng = random.Random(seed)
    names = ["a", "b", "c", "d", "e"]
    strength = {"a": 1.5, "b": 0.8, "c": 0.0, "d": -0.5, "e": -1.2}
    out = []
    for block in range(count):
        table = rng.sample(names, players)
        for turn in range(players):
            seats = table[turn:] + table[:turn]
            noise = {name: strength[name] + rng.gauss(0, 1.2) for name in seats}
            order = sorted(seats, key=lambda name: -noise[name])
            ranks = [1 + order.index(name) for name in seats]
            if rng.random() < 0.1:  # a tie for the last two places
                last = max(ranks)
                ranks = [last - 1 if rank == last else rank for rank in ranks]
            out.append(GameRecord(tuple(seats), tuple(ranks), f"b{block}" if blocks else None))
    return out


@pytest.mark.parametrize("blocks", [True, False])
def test_on_two_player_games_they_are_bradley_terrys_intervals(blocks):
    records = games(2, 60, 1, blocks)
    standings = {row.name: row for row in compute_standings(records).rows}
    names, elo, half = plackett_luce_intervals(records)
    for name, value, width in zip(names, elo, half):
        assert value == pytest.approx(standings[name].elo, abs=1e-6)
        assert width == pytest.approx(standings[name].minus, rel=1e-6)


def test_the_seat_gradients_sum_to_the_likelihoods_gradient():
    enc = encode(games(4, 40, 2))
    strength, _ = solve_plackett_luce(enc, 0.0)
    strength = strength + np.linspace(-0.3, 0.3, enc.n)  # away from the fit, where it is not zero
    _, gradient, _ = plackett_luce_objective(enc, 0.0)(strength, True)  # (it sums the gradient only so)
    total = np.zeros(enc.n)
    for group, g in seat_gradients(enc, strength):
        total += np.bincount(group.players.ravel(), weights=g.ravel(), minlength=enc.n)
    assert total == pytest.approx(gradient, abs=1e-9)


def test_four_player_intervals_hold_the_fit_and_shrink_with_more_games():
    few, many = games(4, 30, 3), games(4, 300, 3)
    names, elo, half = plackett_luce_intervals(few)
    fit = fit_plackett_luce(few)
    assert dict(zip(names, elo)) == pytest.approx(dict(zip(fit.entrants, fit.elo)), abs=1e-6)
    assert np.all(np.isfinite(half)) and np.all(half > 0)
    _, _, narrower = plackett_luce_intervals(many)
    assert np.all(narrower < half)
    assert 1.9 < float(np.mean(half / narrower)) < 4.5  # about sqrt(10)


def test_an_anchored_entrant_has_no_width():
    names, elo, half = plackett_luce_intervals(games(3, 40, 4), anchor=("c", 100.0))
    index = names.index("c")
    assert elo[index] == pytest.approx(100.0) and half[index] == pytest.approx(0.0, abs=1e-9)
