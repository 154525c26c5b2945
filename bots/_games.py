"""Where each game's bot policies live, and the engine-backed random fallback."""

from __future__ import annotations

import random
from typing import Any

from engines import MissingPiece, game_ids, get_game

from .sdk import Policy, Request


def random_policy(request: Request, rng: random.Random) -> Any:
    """A uniformly random legal action.

    When the request lists no legal actions (a decision documented as not enumerated), the
    game's chance resampler (its descriptor's ``resampler``) builds a state consistent with the
    observation and draws one from it; :class:`~engines.MissingPiece` if the game has none.
    """
    if request.legal is not None:
        return request.legal[rng.randrange(len(request.legal))]
    state = get_game(request.game).piece("resampler")(request.observation, rng)
    return state.random_action(request.seat, rng)


def policies(kind: str) -> dict[str, Policy]:
    """The policies of ``kind`` ("random", "heuristic", "search") for every game that has one
    (in its descriptor's ``policies`` module); a game without is left out."""
    if kind == "random":
        return {game: random_policy for game in game_ids()}
    found = {}
    for game in game_ids():
        try:
            package = get_game(game).piece("policies")
        except MissingPiece:
            continue
        policy = getattr(package, kind, None)
        if policy is not None:
            found[game] = policy
    return found
