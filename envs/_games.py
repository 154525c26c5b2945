"""The games' codecs by game id (each game's descriptor names its own), and the short names both
adapters accept."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from engines import BadOption, Game, MissingPiece, game_ids, get_game

from ._codec import Codec

#: game id -> "module:class" of its codec, for every game whose descriptor names one (a game
#: without is not an environment: :func:`game_id_of` says so)
CODECS = {game_id: get_game(game_id).pieces.codec for game_id in game_ids() if get_game(game_id).pieces.codec}
#: OpenSpiel short name (also accepted by PettingZoo) -> game id
SHORT_NAMES = {game_id.replace("-", "_"): game_id for game_id in CODECS}


def game_id_of(name: str) -> str:
    """The arena's game id for ``name`` (an id like ``"opito-bay"`` or a short name like
    ``"opito_bay"``); ``ValueError`` naming the known games otherwise."""
    if name in CODECS:
        return name
    if name in SHORT_NAMES:
        return SHORT_NAMES[name]
    if name.replace("_", "-") in game_ids():
        try:
            get_game(name.replace("_", "-")).piece("codec")
        except MissingPiece as error:
            raise ValueError(str(error)) from None
    known = ", ".join(f"{short!r}" for short in SHORT_NAMES)
    raise ValueError(f"unknown game {name!r}; known games: {known} (or the arena's ids "
                     f"{', '.join(repr(g) for g in CODECS)})")


def resolve(game_id: str, num_players: Any, options: Mapping[str, Any]) -> tuple[Game, int, dict[str, Any]]:
    """The engine's game, the player count and the complete options, checked by the engine.

    Raises ``ValueError`` with the engine's message for a bad count or option.
    """
    game = get_game(game_id)
    if isinstance(num_players, bool) or not isinstance(num_players, int):
        raise ValueError(f"players must be an integer, got {num_players!r}")
    try:
        game.check_players(num_players)
        resolved = game.resolve_options(options)
    except BadOption as error:
        raise ValueError(str(error)) from None
    return game, num_players, resolved


@functools.lru_cache(maxsize=64)
def _codec(game_id: str, num_players: int, frozen: tuple[tuple[str, Any], ...]) -> Codec:
    return get_game(game_id).piece("codec")(num_players, dict(frozen))


def codec(game_id: str, num_players: int, options: Mapping[str, Any]) -> Codec:
    """The codec of a game with checked ``num_players`` and complete ``options`` (shared:
    codecs are immutable after construction, and Karibik's takes ~10 ms to build)."""
    return _codec(game_id, num_players, tuple(sorted(options.items())))


def returns_of(ranks: tuple[int, ...] | list[int]) -> list[float]:
    """The arena's scoring of a finishing order, per seat: +1 for every opponent finishing
    behind, -1 for every one ahead, 0 for a tie, averaged over the opponents (in [-1, 1],
    summing to 0; a seat's ``points %`` in the arena's standings is ``(1 + return) / 2``)."""
    n = len(ranks)
    return [sum((other > mine) - (other < mine) for other in ranks) / (n - 1) for mine in ranks]
