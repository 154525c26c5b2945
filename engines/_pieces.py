"""A game's optional pieces: what the environments, the bots and the viewers may use of it.

A game is its rules (a :class:`~engines.Game` and a :class:`~engines.State`); everything else
is optional and named in ``Game.pieces`` as a lazy ``"module:attribute"`` string, imported on
first use only (so listing the games, or a bot for one game, pays for nothing else, and the
engine names the environments' and bots' modules without importing them: engines import
nothing above them). A piece a game lacks is ``None``; asking for it raises
:class:`MissingPiece`, which says what the piece is for and where to add it, so a caller that
can do without (a suite, a command) skips it with that message instead of a ``KeyError``.

The same model as OpenSpiel's ``pyspiel.register_game``, one file per game: the descriptor
lies in the game's own package, ``engines/<game>/__init__.py``, and nothing else lists games.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

#: piece -> what it is, for the message of a game that lacks it
PURPOSE = {
    "codec": "the tensor and action-index codec the OpenSpiel and PettingZoo environments need (envs.Codec)",
    "kept": "a kept observation tensor (envs' Kept; without one the environments rebuild the codec's tensor)",
    "policies": "a module of reference policies, `heuristic` and `search` (bots)",
    "resampler": "a chance resampler, (observation, rng) -> a State consistent with it (random fallback "
                 "for unlisted actions, search bots)",
    "max_length": "(options, num_players) -> a bound on the decisions of one game (OpenSpiel's max_game_length)",
}


class MissingPiece(LookupError):
    """A game's descriptor names no such piece (or names one that does not import)."""


@dataclass(frozen=True)
class Pieces:
    """The optional pieces of one game, each a lazy ``"module:attribute"`` string (or a
    ``"module"``: the module itself, e.g. ``policies``) or ``None``.

    Besides the strings: ``short_options``, the options OpenSpiel's registration defaults to
    where they differ from the arena's (a short game, so a whole game of MCTS takes seconds).
    The browser's pieces are files beside the engine, found by name: ``viewer.js`` (drawing and
    words: reports, ``arena view``, the play page), ``rules.js`` (the rules' JavaScript twin, for
    small reports; without, a report embeds every view) and ``play.js`` (the play page's own
    controls; without, a button per legal action).
    """

    codec: str | None = None
    kept: str | None = None
    policies: str | None = None
    resampler: str | None = None
    max_length: str | None = None
    short_options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for piece in PURPOSE:
            target = getattr(self, piece)
            if target is not None and (not isinstance(target, str) or not target or target.count(":") > 1):
                raise ValueError(f"piece {piece}={target!r} must be a 'module:attribute' string "
                                 f"(or a 'module', the module itself) or None")

    def has(self, piece: str) -> bool:
        """Whether the descriptor names ``piece`` (one of :data:`PURPOSE`)."""
        return getattr(self, _known(piece)) is not None

    def load(self, piece: str, game_id: str) -> Any:
        """Import and return ``piece`` of the game ``game_id``.

        Raises :class:`MissingPiece` saying what the piece is for when the game has none or
        its module does not import (an optional package not installed: the module's own
        error is chained).
        """
        target = getattr(self, _known(piece))
        if target is None:
            raise MissingPiece(f"game {game_id!r} has no {piece}: {PURPOSE[piece]}; add one to the pieces of "
                               f"its descriptor (GAME in its engine package) to use it here")
        module, _, attribute = target.partition(":")
        try:
            loaded = importlib.import_module(module)
            return getattr(loaded, attribute) if attribute else loaded
        except (ImportError, AttributeError) as error:
            raise MissingPiece(f"game {game_id!r}: its {piece} {target!r} does not load ({error})") from error


def _known(piece: str) -> str:
    if piece not in PURPOSE:
        raise ValueError(f"unknown piece {piece!r}; pieces: {', '.join(f.name for f in fields(Pieces))}")
    return piece
