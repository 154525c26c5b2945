"""The Dead Man's Draw search: legal, within its time budget, and stronger than random."""

import random
import time

import pytest

from bots.dead_mans_draw import search
from bots.dead_mans_draw._search import budget, search_action
from ._play import play_game, position, random_policy, request_for, win_share


def quick(request, rng):
    return search_action(request, rng, iterations=20)


@pytest.mark.parametrize("players,options", [(2, {}), (4, {"strange_waters": True, "mermaid_effect": True}),
                                             (5, {"characters": False})])
def test_always_legal(players, options):
    state = play_game([quick] * (players - 1) + [random_policy], seed=players, options=options)
    assert state.is_terminal()


def test_stays_inside_the_time_budget():
    state = position(row=["S3", "C4"])
    request = request_for(state, 0, move_ms=50, time_left_ms=1000)
    assert budget(request) == pytest.approx(0.02)
    start = time.perf_counter()
    assert search(request, random.Random(0)) in ("draw", "collect")
    assert time.perf_counter() - start < 0.05


def test_budget_respects_a_short_reserve():
    state = position(row=["S3"])
    assert budget(request_for(state, 0, move_ms=1000, time_left_ms=100)) == pytest.approx(0.025)


def test_collects_when_the_oracle_shows_a_busting_card():
    state = position(draw=["O3", "K4"], row=["K5", "A3"])
    state.apply_action("draw")
    assert state.decision(0) == "oracle"
    assert search_action(request_for(state, 0), random.Random(0), iterations=200) == "collect"


def test_beats_random_play():
    share = win_share(quick, random_policy, 40)
    assert share >= 0.8, share
