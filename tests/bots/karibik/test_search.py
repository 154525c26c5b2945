"""The Karibik search bot: legal within its time budget, and it uses the simultaneous bribe."""

import random

import pytest

from bots.karibik import _search as search_module
from bots.karibik import search
from engines.karibik import GAME, KaribikState, bribe_problem

from .._clock import StepClock
from ._play import play_game, random_policy, request_for


@pytest.mark.parametrize("players", [2, 3])
def test_always_legal_over_random_states(players):
    rng = random.Random(players)
    state = GAME.new_state(players, seed=players)
    checked = 0
    while not state.is_terminal() and checked < 25:
        for seat in state.acting:
            if rng.random() < 0.5:
                state.check(seat, search(request_for(state, seat, move_ms=60), rng))
                checked += 1
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
    assert checked >= 10


def test_stays_within_its_time_budget(monkeypatch):
    state = GAME.new_state(3, seed=1)
    for move_ms, time_left in ((100, 1000), (1000, 100)):
        clock = StepClock().install(monkeypatch, search_module)
        action = search(request_for(state, 0, move_ms=move_ms, time_left_ms=time_left), random.Random(0))
        assert 0.04 <= clock.now <= 0.04 + 4 * clock.step  # 40% of the shorter limit, then stop
        assert bribe_problem(action) is None


def test_tiny_budget_falls_back_to_the_heuristic_at_once(monkeypatch):
    state = GAME.new_state(2, seed=2)
    clock = StepClock().install(monkeypatch, search_module)
    action = search(request_for(state, 1, move_ms=10, time_left_ms=10), random.Random(0))
    assert bribe_problem(action) is None and clock.reads == 0


def test_plays_whole_games_legally():
    state = play_game([search, random_policy], seed=5, options={"max_rounds": 3}, move_ms=40)
    assert state.is_terminal()


def test_tiebreak_reveals_for_a_chest_it_can_bring_home():
    # Seat 0 ties on Arriba, which carries Havana's chest one step from seat 0's hideout.
    ships = ["Trinidad", "Caicos Passage", "Gulf of Uraba", "Sigsbee Deep", "Mosquito Bank", "Venezuelan Basin"]
    state = KaribikState.from_setup(2, ships=ships, cargo={0: "Havana"}, on_ports=["Veracruz"],
                                    bids=[[3, 0, 1, 2, 4, 5], [3, 0, 1, 2, 4, -1]])
    assert state.phase == "tiebreak"
    assert search(request_for(state, 0, move_ms=150, time_left_ms=1000), random.Random(0)) == "reveal"
