"""The heuristic policy: always legal, sensible choices, and it beats random play."""

import random

import pytest

from bots.opito_bay import heuristic
from engines.opito_bay import OpitoState

from ._play import kraken_position, play_game, random_policy, request_for, win_share


def request(state, seat=None):
    seat = state.turn if seat is None else seat
    return request_for(state, seat, [0] * state.num_players, dict(state.options))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_always_legal(players):
    for seed in range(4):
        state = play_game([heuristic] * players, seed, {"deals": 1})
        assert state.is_terminal()  # apply_action would have raised on an illegal action


def test_puts_a_three_on_its_best_treasure_and_a_seven_on_the_opponents():
    table = [("4D", "4", None, 0), ("TD", "T", None, 0), ("8S", "8", None, 1), ("2S", "2", None, 1)]
    state = OpitoState.from_setup(["D", "S"], [["3C", "7C"], ["4S"]], library=["5S", "6C"], table=table)
    state.apply_action("3C")
    assert heuristic(request(state), random.Random(0)) == 1
    state = OpitoState.from_setup(["D", "S"], [["7C"], ["4S"]], library=["5S", "6C"], table=table)
    state.apply_action("7C")
    assert heuristic(request(state), random.Random(0)) == 2


def test_gives_a_queen_to_the_opponent_whose_suit_it_is():
    state = OpitoState.from_setup(["D", "S", "H"], [["QH"], ["4S"], ["2C"]], library=["5S", "6C"])
    assert heuristic(request(state), random.Random(0)) == "QH"
    state.apply_action("QH")
    assert heuristic(request(state), random.Random(0)) == 2


def test_spyglass_puts_its_best_card_on_top_and_the_worst_next_for_the_opponent():
    library = ["2C", "QD", "TD", "7S", "4H"]
    state = OpitoState.from_setup(["D", "S"], [["5C", "2S"], ["4S"]], library=library)
    state.apply_action("5C")
    order = heuristic(request(state), random.Random(0))
    assert order[0] == "TD" and order[1] == "2C" and sorted(order) == sorted(library)


def test_heuristic_beats_random_play():
    assert win_share(heuristic, random_policy, 40, players=2, options={"deals": 1}, seed=7) >= 0.85
    assert win_share(heuristic, random_policy, 24, players=4, options={"deals": 1}, seed=7) >= 0.6


def test_jack_follows_what_a_five_showed():
    poor_hand = ["2S", "2H", "4C", "7S"]
    state = kraken_position(poor_hand, ["TD", "8D", "6D", "X", "3D"])
    assert heuristic(request(state), random.Random(0)) == 0
    state = kraken_position(poor_hand, ["2C", "4H", "6C", "7H", "9S"])
    assert heuristic(request(state), random.Random(0)) == 1
