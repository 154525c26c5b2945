"""The Karibik heuristic: plan the controlled ship's move, bid where gains and threats are.

From the visible state only (the observation; ``determinize`` just builds an engine state
for the planner, and nothing the planner reads depends on the sampled hidden parts).
"""

from __future__ import annotations

import random
from typing import Any

from engines.karibik import determinize

from ._evaluate import plan, quick_gain

#: The cards bid on the ships from most to least important; 0 stays as tie-breaker.
BID_ORDER = (5, 4, 3, 2, 1, -1)


def ship_importance(state: Any, me: int) -> list[float]:
    """Per ship: what I gain by moving it (4 steps) plus most of what the best opponent would."""
    players = range(state.num_players)
    return [quick_gain(state, ship, me, 4)
            + 0.6 * max(quick_gain(state, ship, other, 4) for other in players if other != me)
            for ship in range(6)]


def bribe(state: Any, me: int, rng: random.Random, noise: float = 1.0) -> list[int]:
    importance = ship_importance(state, me)
    order = sorted(range(6), key=lambda s: importance[s] + noise * 1000 * rng.random(), reverse=True)
    cards = [0] * 6
    for card, ship in zip(BID_ORDER, order):
        cards[ship] = card
    return cards


def tiebreak_steps(observation: dict[str, Any], me_reveals: bool) -> int:
    ship = observation["ship"]
    cards = [bids[ship] for bids in observation["revealed"]]
    thieves = cards.count(-1) + (me_reveals and observation["my_tiebreaker"] == -1)
    return max(0, max(cards) - thieves)


def heuristic(request: Any, rng: random.Random) -> Any:
    observation = request.observation
    state = determinize(observation, rng)
    me = request.seat
    if request.kind == "bribe":
        return bribe(state, me, rng)
    if request.kind == "tiebreak":
        gain = quick_gain(state, state.ship, me, tiebreak_steps(observation, True))
        return "reveal" if gain > 500 else "keep"
    return plan(state, me, budget=600)[1]
