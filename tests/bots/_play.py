"""In-process games between policies of any game (no processes, no protocol), shared by the
games' bot tests."""

import random

from bots.sdk import Request
from engines import Game


def request_for(state, seat, move_ms=100, time_left_ms=300):
    """The request the arena would send ``seat`` now (without events)."""
    return Request(id=1, game=state.game.id, seat=seat, players=state.num_players,
                   options=dict(state.options), kind=state.decision(seat),
                   observation=state.observation(seat), events=[], legal=state.legal_actions(seat),
                   time_left_ms=time_left_ms, move_ms=move_ms)


def play_game(game: Game, policies, seed, options=None, move_ms=100):
    """Play one game; ``state.apply`` raises on any illegal action."""
    state = game.new_state(len(policies), seed, options)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply({seat: policies[seat](request_for(state, seat, move_ms), rng) for seat in state.acting})
    return state


def win_share(game: Game, policy, other, games, options=None, move_ms=100):
    """``policy``'s share of 2-player games won against ``other`` (ties count half), seats alternating."""
    points = 0.0
    for number in range(games):
        seat = number % 2
        players = [other, other]
        players[seat] = policy
        ranks = play_game(game, players, number, options, move_ms).outcome().ranks
        points += 1.0 if ranks[seat] < ranks[1 - seat] else 0.5 if ranks[0] == ranks[1] else 0.0
    return points / games
