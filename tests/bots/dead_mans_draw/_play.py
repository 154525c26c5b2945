"""In-process games between Dead Man's Draw policies (no processes, no protocol)."""

from bots._games import random_policy
from engines.dead_mans_draw import GAME, DeadMansDrawState
from engines.dead_mans_draw._cards import CARD_NAME, all_cards

from .. import _play as shared
from .._play import request_for


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
    return shared.play_game(GAME, policies, seed, options, move_ms)


def win_share(policy, other, games, options=None, move_ms=100):
    """``policy``'s share of 2-player games won against ``other`` (ties count half), seats alternating."""
    return shared.win_share(GAME, policy, other, games, options, move_ms)


__all__ = ["play_game", "position", "random_policy", "request_for", "win_share"]
