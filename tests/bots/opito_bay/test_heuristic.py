"""The heuristic policy: always legal, sensible choices, and it beats random play."""

import random

import pytest

from bots.opito_bay import heuristic
from engines.opito_bay import OpitoState

from ._play import (
    complete,
    kraken_position,
    play_game,
    random_policy,
    request,
    win_share,
)


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


def test_with_four_players_a_seven_costs_whoever_loses_most_not_only_the_leader():
    # seat 1 (Ace of spades) leads with 4400 in small treasures; seat 2 (Ace of clubs) has 4000
    # in one: its 10 of clubs with a 3 on it. Halving that costs the table most.
    table = [("TD", "T", None, 1), ("8D", "8", None, 1), ("6D", "6", None, 1), ("4D", "4", None, 1),
             ("2D", "2", None, 1), ("TH", "T", None, 1), ("4H", "4", None, 1),
             ("TC", "T", None, 2), ("3S", "3", 7, None)]
    state = OpitoState.from_setup(["D", "S", "C", "H"], [["7C"], ["4S"], ["2C"], ["2H"]],
                                  library=["5S", "6C"], table=table)
    state.apply_action("7C")
    assert heuristic(request(state), random.Random(0)) == 7


def test_with_three_players_a_jack_hits_the_seat_the_seen_cards_hurt_not_the_leader():
    # the library's top five (seen with a 5) are spades: a gift to seat 1 (Ace of spades), the
    # leader, and plain cards for seat 2; my own hand is better than them
    library = ["TS", "8S", "6S", "4S", "2S"]
    state = complete(["D", "S", "C"], [["JC", "TD", "8D", "3C", "X"], ["9D", "9S", "9C", "9H", "5D"],
                                       ["7D", "7S", "7H", "5S", "5H"]], library)
    state.totals = [0, 5000, 0]
    state.know.top[0] = list(library)
    state.apply_action("JC")
    assert heuristic(request(state), random.Random(0)) == 2
