"""In-process games between Dead Man's Draw policies (no processes, no protocol)."""

import random

from bots._games import random_policy
from bots.sdk import Request
from engines.dead_mans_draw import GAME, DeadMansDrawState
from engines.dead_mans_draw._cards import CARD_NAME, all_cards


def request_for(state, seat, move_ms=100, time_left_ms=300):
    return Request(id=1, game="dead-mans-draw", seat=seat, players=state.num_players,
                   options=dict(state.options), kind=state.decision(seat),
                   observation=state.observation(seat), events=[], legal=state.legal_actions(seat),
                   time_left_ms=time_left_ms, move_ms=move_ms)


def position(draw=(), row=(), banks=(), discard=None, **setup):
    """A 2-player position with a full deck: ``draw`` on top, the other unseen cards below it.

    The discard pile defaults to the starting one less the cards used elsewhere.
    """
    used = list(draw) + list(row) + [card for cards in banks for card in cards] + list(discard or [])
    rest = [CARD_NAME[card] for card in sorted(all_cards(False, False))]
    for card in used:
        rest.remove(card)
    if discard is None:
        discard = [card for card in rest if card[1] == "2" or card == "N4"]
        rest = [card for card in rest if card not in discard]
    return DeadMansDrawState.from_setup(draw=list(draw) + rest, row=row, banks=banks, discard=discard, **setup)


def play_game(policies, seed, options=None, move_ms=100):
    """Play one game; ``state.apply`` raises on any illegal action."""
    state = GAME.new_state(len(policies), seed, options)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply({seat: policies[seat](request_for(state, seat, move_ms), rng) for seat in state.acting})
    return state


def win_share(policy, other, games, options=None, move_ms=100):
    """``policy``'s share of 2-player games won against ``other`` (ties count half), seats alternating."""
    points = 0.0
    for game in range(games):
        seat = game % 2
        players = [other, other]
        players[seat] = policy
        ranks = play_game(players, game, options, move_ms).outcome().ranks
        points += 1.0 if ranks[seat] < ranks[1 - seat] else 0.5 if ranks[0] == ranks[1] else 0.0
    return points / games


__all__ = ["play_game", "position", "random_policy", "request_for", "win_share"]
