"""Properties of the fits on random small tournaments (hypothesis)."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.ratings import GameRecord, fit_bradley_terry, fit_plackett_luce

NAMES = ["a", "b", "c", "d", "e"]


@st.composite
def game(draw, sizes=(2, 5)):
    k = draw(st.integers(*sizes))
    players = draw(st.permutations(NAMES))[:k]
    ranks = draw(st.lists(st.integers(1, k), min_size=k, max_size=k))
    return GameRecord(tuple(players), tuple(ranks))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(game(), min_size=1, max_size=12), st.randoms(use_true_random=False))
def test_bradley_terry_is_finite_centred_and_order_free(records, rnd):
    fit = fit_bradley_terry(records)
    assert all(math.isfinite(x) for x in fit.elo)
    assert abs(sum(fit.elo)) < 1e-6
    shuffled = []
    for rec in rnd.sample(records, len(records)):
        seats = rnd.sample(range(len(rec.players)), len(rec.players))
        shuffled.append(GameRecord(tuple(rec.players[s] for s in seats), tuple(rec.ranks[s] for s in seats)))
    again = fit_bradley_terry(shuffled)
    assert all(abs(x - y) < 1e-6 for x, y in zip(fit.elo, again.elo))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(game(sizes=(2, 2)), min_size=1, max_size=15))
def test_plackett_luce_equals_bradley_terry_on_two_player_games(records):
    bt = fit_bradley_terry(records)
    pl = fit_plackett_luce(records)
    assert bt.prior_draws == pl.prior_draws
    assert all(abs(x - y) < 1e-6 for x, y in zip(bt.elo, pl.elo))


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.lists(game(), min_size=1, max_size=12))
def test_plackett_luce_is_finite(records):
    fit = fit_plackett_luce(records)
    assert all(math.isfinite(x) for x in fit.elo)
