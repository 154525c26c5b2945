"""In-process games between Karibik policies (no processes, no protocol)."""

from bots._games import random_policy
from engines.karibik import GAME

from .. import _play as shared
from .._play import request_for


def play_game(policies, seed, options=None, move_ms=100):
    """Play one game; ``state.apply`` raises on any illegal action."""
    return shared.play_game(GAME, policies, seed, options, move_ms)


def win_share(policy, other, games, options=None, move_ms=100):
    """``policy``'s share of 2-player games won against ``other`` (ties count half), seats alternating."""
    return shared.win_share(GAME, policy, other, games, options, move_ms)


__all__ = ["play_game", "random_policy", "request_for", "win_share"]
