"""Playing Opito Bay games in-process between policies, as the arena would ask them."""

from __future__ import annotations

import random

from bots._games import random_policy
from bots.sdk import Request
from engines.opito_bay import DECK, GAME, OpitoState


def request_for(state, seat, seen, options, move_ms=1000, time_left_ms=5000, request_id=0):
    """The request the arena would send ``seat`` now; ``seen[seat]`` is its event cursor."""
    events = state.events_for(seat, seen[seat])
    seen[seat] = len(state.log)
    return Request(id=request_id, game=GAME.id, seat=seat, players=state.num_players, options=options,
                   kind=state.decision(seat), observation=state.observation(seat), events=events,
                   legal=state.legal_actions(seat), time_left_ms=time_left_ms, move_ms=move_ms)


def request(state, seat=None, **kwargs):
    """The request for ``seat`` (default: the seat to move) in a position set up by a test."""
    seat = state.turn if seat is None else seat
    return request_for(state, seat, [0] * state.num_players, dict(state.options), **kwargs)


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


def complete(aces, hands, library, table=()):
    """A position holding the whole deck: every card not placed lies in the graveyard."""
    rest = list(DECK)
    for card in [card for hand in hands for card in hand] + list(library) + [row[0] for row in table]:
        rest.remove(card)
    return OpitoState.from_setup(aces, hands, library=library, graveyard=rest, table=table)


def kraken_position(hand, library, known=True):
    """Seat 0 (Ace of diamonds) has played a Jack; seat 1 holds strong cards."""
    state = complete(["D", "S"], [["JC"] + hand, ["X", "X", "3C", "KC", "QD"]], library)
    state.know.top[0] = list(library) if known else []
    state.apply_action("JC")
    assert state.decision(0) == "player"
    return state


__all__ = ["complete", "kraken_position", "play_game", "random_policy", "request", "request_for", "win_share"]
