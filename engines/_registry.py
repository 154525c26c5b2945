"""The game registry: game ids to :class:`~engines.Game` objects.

Games are imported lazily, so ``arena games`` or a bot for one game does not pay for
importing the others.
"""

from __future__ import annotations

import importlib
import importlib.util

from ._core import Game, UnknownGame

#: game id -> "module:attribute" of its Game object. Fixed at import; never mutated.
_GAME_MODULES: dict[str, str] = {
    "dead-mans-draw": "engines.dead_mans_draw:GAME",
    "opito-bay": "engines.opito_bay:GAME",
    "karibik": "engines.karibik:GAME",
}


def game_ids() -> list[str]:
    """The ids of every game whose engine is installed, in registry order."""
    ids = []
    for game_id, target in _GAME_MODULES.items():
        module = target.partition(":")[0]
        if importlib.util.find_spec(module) is not None:
            ids.append(game_id)
    return ids


def get_game(game_id: str) -> Game:
    """Return the game registered under ``game_id``.

    Raises :class:`UnknownGame` naming the known ids.
    """
    target = _GAME_MODULES.get(game_id)
    if target is None or game_id not in game_ids():
        raise UnknownGame(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def game_package(game_id: str):
    """The engine package of ``game_id`` (for its game-specific helpers, e.g. ``determinize``).

    Raises :class:`UnknownGame`.
    """
    get_game(game_id)
    return importlib.import_module(_GAME_MODULES[game_id].partition(":")[0])
