"""The search policy: always legal, within its time budget, and it uses what a 5 showed."""

import math
import random

import pytest

from bots.opito_bay import _search as search_module
from bots.opito_bay import heuristic, search
from bots.opito_bay._rollout import spyglass_order
from bots._budget import budget
from bots.opito_bay._search import Node, _iterate, _rewards, search_action
from engines.opito_bay import DECK, OpitoState

from .._clock import StepClock
from ._play import (
    complete,
    kraken_position,
    play_game,
    random_policy,
    request,
    win_share,
)


def quick(request, rng):
    return search_action(request, rng, iterations=20)


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


def test_search_stays_within_its_budget(monkeypatch):
    library = [card for card in DECK[:40] if card not in ("3C", "QH", "9S", "TD", "8D", "4S")][:25]
    state = complete(["D", "S"], [["3C", "X", "QH", "9S", "TD"], ["X", "X", "2H", "4H", "6H"]], library,
                     table=[("8D", "8", None, 1), ("4S", "4", None, 0)])
    req = request(state, move_ms=200, time_left_ms=10_000)
    assert budget(req) == pytest.approx(0.08)
    clock = StepClock().install(monkeypatch, search_module)
    assert search(req, random.Random(0)) in req.legal
    assert 0.08 <= clock.now <= 0.08 + 2 * clock.step  # stopped at the first read past the deadline
    req = request(state, move_ms=1000, time_left_ms=100)
    assert budget(req) == pytest.approx(0.025)


def test_search_beats_random_play():
    assert win_share(quick, random_policy, 16, players=2, options={"deals": 1}, seed=3) >= 0.8


def test_search_answers_a_single_legal_action_at_once():
    state = OpitoState.from_setup(["D", "S"], [["2C"], ["4S"]])
    assert search(request(state), random.Random(0)) == "2C"
    assert heuristic(request(state), random.Random(0)) == "2C"


def test_rewards_are_the_mean_of_squashed_pairwise_leads():
    state = OpitoState.from_setup(["D", "S", "C", "H"], [["2C"], ["4S"], ["2H"], ["4H"]],
                                  totals=[3000, 0, 0, -3000])
    leads = [math.tanh(x) for x in (1, 2)]  # SCALE = 3000: a 3000 lead is 1, 6000 is 2
    expected = [0.5 + (leads[0] + leads[0] + leads[1]) / 6, 0.5 + (-leads[0] + 0 + leads[0]) / 6,
                0.5 + (-leads[0] + 0 + leads[0]) / 6, 0.5 - (leads[1] + leads[0] + leads[0]) / 6]
    assert _rewards(state, deal=0) == pytest.approx(expected)  # deal 0: totals only
    two = OpitoState.from_setup(["D", "S"], [["2C"], ["4S"]], totals=[3000, 0])
    assert _rewards(two, deal=0) == pytest.approx([0.5 + leads[0] / 2, 0.5 - leads[0] / 2])


def test_tree_skips_low_joker_treasures_and_orders_a_spyglass_like_the_heuristic():
    library = ["2C", "QD", "TD", "7S", "4H", "6S", "8H"]
    state = complete(["D", "S"], [["X", "5C"], ["4S", "6H"]], library, table=[("8D", "8", None, 1)])
    req = request(state)
    root = Node()
    rng = random.Random(0)
    for _ in range(200):
        _iterate(root, dict(req.observation), rng)
    assert sorted(root.children) == sorted(set(req.legal) - {"X2", "X4", "X6", "X8"})
    # after my 5 the look is ordered at once: the next choices in the tree are the opponent's
    # plays (cards), not orders of the look (tuples)
    following = root.children["5C"].children
    assert following and all(isinstance(action, str) for action in following)


def test_rollout_spyglass_order_gives_me_the_best_card_and_the_opponent_the_worst():
    library = ["2C", "QD", "TD", "7S", "4H"]
    state = OpitoState.from_setup(["D", "S"], [["5C", "2S"], ["4S"]], library=library)
    state.apply_action("5C")
    assert spyglass_order(state) == ["TD", "2C", "QD", "7S", "4H"]
