"""The search policy: always legal, within its time budget, and it uses what a 5 showed."""

import random
import time

import pytest

from bots.opito_bay import heuristic, search
from bots.opito_bay._search import budget, search_action
from engines.opito_bay import DECK, OpitoState

from ._play import complete, kraken_position, play_game, random_policy, request_for, win_share


def quick(request, rng):
    return search_action(request, rng, iterations=20)


def request(state, **kwargs):
    return request_for(state, state.turn, [0] * state.num_players, dict(state.options), **kwargs)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_always_legal(players):
    state = play_game([quick] + [random_policy] * (players - 1), players, {"deals": 1})
    assert state.is_terminal()


def test_search_uses_the_cards_seen_with_a_five():
    poor_hand = ["2S", "2H", "4C", "7S"]
    # the library holds great cards for me: the Jack goes to myself
    state = kraken_position(poor_hand, ["TD", "8D", "6D", "X", "3D"])
    assert search_action(request(state), random.Random(1), iterations=300) == 0
    # it holds poor cards: the Jack swaps the opponent's strong hand for them
    state = kraken_position(poor_hand, ["2C", "4H", "6C", "7H", "9S"])
    assert search_action(request(state), random.Random(1), iterations=300) == 1
    # without the look, the same public position looks like a fair gamble for my poor hand
    state = kraken_position(poor_hand, ["2C", "4H", "6C", "7H", "9S"], known=False)
    assert search_action(request(state), random.Random(1), iterations=300) == 0


def test_search_stays_within_its_budget():
    library = [card for card in DECK[:40] if card not in ("3C", "QH", "9S", "TD", "8D", "4S")][:25]
    state = complete(["D", "S"], [["3C", "X", "QH", "9S", "TD"], ["X", "X", "2H", "4H", "6H"]], library,
                     table=[("8D", "8", None, 1), ("4S", "4", None, 0)])
    req = request(state, move_ms=200, time_left_ms=10_000)
    assert budget(req) == pytest.approx(0.08)
    start = time.perf_counter()
    assert search(req, random.Random(0)) in req.legal
    assert time.perf_counter() - start < 0.2
    req = request(state, move_ms=1000, time_left_ms=100)
    assert budget(req) == pytest.approx(0.025)


def test_search_beats_random_play():
    assert win_share(quick, random_policy, 6, players=2, options={"deals": 1}, seed=3) >= 0.8


def test_search_answers_a_single_legal_action_at_once():
    state = OpitoState.from_setup(["D", "S"], [["2C"], ["4S"]])
    assert search(request(state), random.Random(0)) == "2C"
    assert heuristic(request(state), random.Random(0)) == "2C"
