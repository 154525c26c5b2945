"""The Karibik heuristic: always legal, sensible choices, and it beats random play."""

import random

import pytest

from bots.karibik import heuristic
from engines.karibik import KaribikState, bribe_problem

from ._play import play_game, random_policy, request_for, win_share

SHIPS = ["Caicos Passage", "Gulf of Uraba", "Sigsbee Deep", "Mosquito Bank", "Venezuelan Basin", "Campeche Bank"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_always_legal(players):
    for seed in range(3):
        state = play_game([heuristic] * (players - 1) + [random_policy], seed, {"max_rounds": 8})
        assert state.is_terminal()  # apply would have raised on an illegal action


def test_bribe_is_a_valid_assignment_with_top_card_on_the_best_ship():
    # Bravo carries Havana's 8000 chest two steps from seat 0's hideout Dry Tortugas.
    ships = ["Caicos Passage", "Gulf of Guacanayabo"] + SHIPS[2:]
    state = KaribikState.from_setup(2, ships=ships, cargo={1: "Havana"}, on_ports=["Veracruz"])
    bid = heuristic(request_for(state, 0), random.Random(0))
    assert bribe_problem(bid) is None and bid[1] == 5


def test_move_delivers_home_rather_than_wandering():
    ships = ["Trinidad"] + SHIPS[1:]
    state = KaribikState.from_setup(2, ships=ships, cargo={0: "Havana"}, on_ports=["Veracruz"],
                                    bids=[[2, 0, 1, 3, 4, 5], [1, 0, 2, 3, 4, 5]])
    assert (state.controller, state.steps_left) == (0, 2)
    first = heuristic(request_for(state, 0), random.Random(0))
    assert first == ["move", state.board.area_id("Dry Tortugas")]


def test_does_not_carry_a_chest_into_the_opponents_hideout():
    # From Willemstad with Havana's chest, Pedro Cays (seat 1's) is adjacent: the heuristic avoids ending there.
    ships = ["Willemstad"] + SHIPS[1:]
    state = KaribikState.from_setup(2, ships=ships, cargo={0: "Havana"}, on_ports=["Veracruz"],
                                    bids=[[1, 0, 2, 3, 4, 5], [0, -1, 2, 3, 4, 5]])
    action = heuristic(request_for(state, 0), random.Random(0))
    assert action != ["move", state.board.area_id("Pedro Cays")]


def test_beats_random_play():
    share = win_share(heuristic, random_policy, 40)
    assert share >= 0.9, share
