"""The game registry: every folder ``engines/<game>/`` is a game, its descriptor its ``GAME``.

A game's id is its folder's name with ``-`` for ``_`` (``engines/opito_bay/`` is
``"opito-bay"``), so listing the games imports none of them, and a bot for one game does not
pay for importing the others. Nothing else lists the games: adding one is adding its folder
(and its ``protocol/games/<game>.md``).

The folders are looked for in ``engines.__path__``: the product's ``engines/``, then any
folder named ``pirate_arena_games/`` on ``sys.path`` when ``engines`` was first imported (see
``engines/__init__.py``); a game there is imported as ``engines.<game>`` all the same. The
tests keep a fourth game that way, in ``tests/fourth_game/site/pirate_arena_games/``, on the
path of the test run only: it never reaches a user's list of games.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
import sys

from ._core import Game, UnknownGame

#: what a game id looks like: lowercase words joined by hyphens (its folder joins them by "_")
_ID = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


def _module_of(game_id: str) -> str:
    return "engines." + game_id.replace("-", "_")


def game_ids() -> list[str]:
    """The ids of every game whose engine folder is installed: the product's, in name order,
    then any kept elsewhere (see the module docstring)."""
    ids = []
    for module in pkgutil.iter_modules(sys.modules[__package__].__path__):
        game_id = module.name.replace("_", "-")
        if module.ispkg and _ID.fullmatch(game_id) and game_id not in ids:
            ids.append(game_id)
    return ids


def get_game(game_id: str) -> Game:
    """Return the game registered under ``game_id`` (its package's ``GAME``).

    Raises :class:`UnknownGame` naming the known ids.
    """
    module = sys.modules.get(_module_of(game_id)) if isinstance(game_id, str) else None
    if module is None:
        module = _import(game_id)
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game) or game.id != game_id:
        raise UnknownGame(f"engines/{game_id.replace('-', '_')}/ defines no GAME with id {game_id!r}; "
                          f"a game's package must define one")
    return game


def game_package(game_id: str):
    """The engine package of ``game_id`` (for its game-specific helpers, e.g. ``omniscient_view``).

    Raises :class:`UnknownGame`.
    """
    get_game(game_id)
    return sys.modules[_module_of(game_id)]


def _import(game_id):
    if not isinstance(game_id, str) or not _ID.fullmatch(game_id) or importlib.util.find_spec(
            _module_of(game_id)) is None:
        raise UnknownGame(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
    return importlib.import_module(_module_of(game_id))
