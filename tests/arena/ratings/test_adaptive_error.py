"""How an adaptive tournament spends its error (arena/ratings/_adaptive_error.py): the share
of each look, the weight of each pair, and that a weighted look still stops where it should."""

import itertools
from dataclasses import replace

import numpy as np
import pytest

from arena.ratings._adaptive import Goal, judge, parse_goal
from arena.ratings import _adaptive
from arena.ratings._adaptive_error import FAR_WEIGHT, look_share, order_weights, pair_weights
from arena.ratings._adaptive_round import next_round
from arena.ratings._fit import ELO_PER_NAT

from .test_adaptive import _play, _run


def test_the_looks_share_the_error_and_the_middle_looks_get_most():
    shares = [look_share(t, 50) for t in range(1, 51)]
    assert sum(shares) == pytest.approx(1.0, abs=1e-12)
    assert shares[:4] == [0.01] * 4  # nothing stops while the field is wide
    assert shares[4] == pytest.approx(0.9 / 26) and shares[29] == pytest.approx(0.9 / 26)
    assert shares[30] == pytest.approx(0.06 / 20) and shares[49] == pytest.approx(0.06 / 20)
    assert look_share(51, 50) == 0.0 and look_share(0, 50) == 0.0
    for looks in (1, 2, 7, 20):
        assert sum(look_share(t, looks) for t in range(1, looks + 1)) == pytest.approx(1.0, abs=1e-12)


def test_the_first_look_splits_its_error_evenly_over_the_pairs_across():
    w = pair_weights([0, 1, 2, 3, 4, 5], 2, 0.1, 7)
    assert w[0, 1] == w[3, 5] == 1 / 8  # 2 x 4 pairs across any split
    assert w[6].sum() == 0.0 and w[2, 2] == 0.0


def _previous_look():
    rng = np.random.default_rng(4)
    strength = np.array([300, 250, 240, 0, -200, -400]) / ELO_PER_NAT
    tables = [tuple(rng.permutation(6)[:4]) for _ in range(30)]
    return judge(6, _play(strength, tables, rng), Goal("top", k=2, margin=20.0), error=0.05)


def test_the_weights_come_from_the_previous_look_and_hold_for_every_truth():
    previous = _previous_look()
    assert previous.out == {3, 4, 5} and previous.undecided == (0, 1, 2)
    w = pair_weights([0, 1, 2], 2, 20.0 / ELO_PER_NAT, 6, previous.fit, previous.z)
    # 0 and 1 were ahead of 2, near it: those pairs share the weight; 0-1 was not tested
    assert w[0, 2] == w[1, 2] == pytest.approx(1 / 2.01)
    assert w[0, 1] == pytest.approx(FAR_WEIGHT / 2.01)
    for best in itertools.combinations([0, 1, 2], 2):  # whichever two are truly the best
        across = sum(w[i, j] for i in best for j in {0, 1, 2} - set(best))
        assert across <= 1.0 + 1e-12


@pytest.mark.parametrize(("elo", "size", "seed", "look", "games"), [
    ([900, 600, 300, 0, -100, -200, -300, -400], 4, 1, 5, 56),
    ([400, 250, 200, 150, 0, -50, -100, -300, -350, -400], 4, 9, 11, 308),
    ([400, 250, 200, 150, 0, -50, -100, -300, -350, -400], 2, 9, 20, 840),
])
def test_a_seeded_field_stops_at_the_same_look_with_the_right_top_3(elo, size, seed, look, games):
    verdict, _, played = _run(elo, size, parse_goal("top 3"), seed=seed)
    assert (verdict.look, played, verdict.answer) == (look, games, (0, 1, 2))
    assert verdict.decided and verdict.z == pytest.approx(2.9235, abs=1e-4)  # one pair near: z of the look


def test_a_round_keeps_growing_when_every_undecided_entrant_is_near_the_stop():
    previous = _previous_look()  # 0, 1, 2 undecided
    near = replace(previous, closeness={i: 0.9 * previous.z for i in previous.undecided})
    far = replace(previous, closeness={i: 0.0 for i in previous.undecided})
    # 3 undecided at 2 seats, a quarter of 40 tables so far: 7 layers of 2 tables at full weight;
    # at weight 0.2 each would sit in 1 layer (2 tables), scaled to 0.4 it sits in 3
    assert len(next_round(far, 2, 1, 40)) == 14
    assert len(next_round(near, 2, 1, 40)) == 6


def test_the_order_weights_cover_every_pair_and_sum_to_one():
    first = order_weights(5, 0.1)
    assert first[0, 4] == first[3, 1] == pytest.approx(1 / 10) and first[2, 2] == 0.0
    previous = _previous_look()
    w = order_weights(6, 20.0 / ELO_PER_NAT, previous.fit, previous.z)
    assert w[np.triu_indices(6, 1)].sum() == pytest.approx(1.0)
    assert (w == w.T).all()
    # 1 and 2 (250 and 240 Elo) were near each other, 0 and 5 (700 Elo apart) far: a hundredth
    assert w[0, 5] == pytest.approx(FAR_WEIGHT * w[1, 2])


def _order_error_rate(fields, error):
    wrong = 0
    for f, elo in enumerate(fields):
        verdict, _, _ = _run(elo, 2, Goal("order", margin=10.0), error=error, seed=f, max_looks=20)
        s = np.array(elo)[list(verdict.answer)]
        # a wrong stop: the guarantee is for a decided order (20 looks leave many undecided)
        wrong += verdict.decided and bool(np.any(s[:-1] < s[1:] - 10.0))
    return wrong


def test_the_order_goal_holds_its_error_and_the_check_can_fail(monkeypatch):
    # 40 fields of 5 at 2 players, 60 Elo apart on average: neighbours near the margin are common
    rng = np.random.default_rng(7)
    fields = [list(rng.normal(0, 60, 5)) for _ in range(40)]
    # at error 0.2: at most 8 wrong expected; 15 is past the binomial 99.5 % point
    assert _order_error_rate(fields, 0.2) <= 15
    monkeypatch.setattr(_adaptive, "_z", lambda alpha: 0.3)
    assert _order_error_rate(fields, 0.2) > 15
