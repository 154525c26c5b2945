"""Playing Opito Bay games in-process between policies, as the arena would ask them."""

from __future__ import annotations

import random

from bots._games import random_policy
from bots.sdk import Request
from engines.opito_bay import GAME


def request_for(state, seat, seen, options, move_ms=1000, time_left_ms=5000, request_id=0):
    """The request the arena would send ``seat`` now; ``seen[seat]`` is its event cursor."""
    events = state.events_for(seat, seen[seat])
    seen[seat] = len(state.log)
    return Request(id=request_id, game=GAME.id, seat=seat, players=state.num_players, options=options,
                   kind=state.decision(seat), observation=state.observation(seat), events=events,
                   legal=state.legal_actions(seat), time_left_ms=time_left_ms, move_ms=move_ms)


def play_game(policies, seed, options=None, move_ms=1000):
    """Play one game, seat i using ``policies[i]``; return the final state."""
    options = GAME.resolve_options(options)
    state = GAME.new_state(len(policies), seed, options)
    rngs = [random.Random(seed * 10 + seat) for seat in range(len(policies))]
    seen = [0] * len(policies)
    while not state.is_terminal():
        seat = state.turn
        request = request_for(state, seat, seen, options, move_ms=move_ms)
        state.apply_action(policies[seat](request, rngs[seat]))
    return state


def win_share(candidate, opponent, games, players=2, options=None, seed=0):
    """The candidate's share of first places (ties split) over games with rotating seats."""
    share = 0.0
    for game in range(games):
        seat = game % players
        policies = [opponent] * players
        policies[seat] = candidate
        ranks = play_game(policies, seed + game, options).outcome().ranks
        if ranks[seat] == 1:
            share += 1 / ranks.count(1)
    return share / games


__all__ = ["play_game", "random_policy", "request_for", "win_share"]
