"""Where each game's bot policies live, and the engine-backed random fallback."""

from __future__ import annotations

import importlib
import random
from typing import Any

from engines import game_ids, game_package

from .sdk import Policy, Request

#: game id -> package holding that game's policies (heuristic, search).
POLICY_PACKAGES = {
    "dead-mans-draw": "bots.dead_mans_draw",
    "opito-bay": "bots.opito_bay",
    "karibik": "bots.karibik",
}


def random_policy(request: Request, rng: random.Random) -> Any:
    """A uniformly random legal action.

    When the request lists no legal actions (a decision documented as not enumerated), the
    game's engine builds a state consistent with the observation and draws one from it.
    """
    if request.legal is not None:
        return request.legal[rng.randrange(len(request.legal))]
    state = game_package(request.game).determinize(request.observation, rng)
    return state.random_action(request.seat, rng)


def policies(kind: str) -> dict[str, Policy]:
    """The policies of ``kind`` ("random", "heuristic", "search") for every game that has one."""
    if kind == "random":
        return {game: random_policy for game in game_ids()}
    found = {}
    for game in game_ids():
        try:
            package = importlib.import_module(POLICY_PACKAGES[game])
        except ModuleNotFoundError:
            continue
        policy = getattr(package, kind, None)
        if policy is not None:
            found[game] = policy
    return found
