"""A game's optional pieces: what the environments, the bots and the viewers may use of it.

A game is its rules (a :class:`~engines.Game` and a :class:`~engines.State`); everything else
is optional and named in ``Game.pieces`` as a lazy ``"module:attribute"`` string, imported on
first use only (so listing the games, or a bot for one game, pays for nothing else, and the
engine names the environments' and bots' modules without importing them: engines import
nothing above them). A data piece (:data:`FILES`) is a file beside the engine instead,
named by the descriptor and read by the part that uses it. A piece a game lacks is ``None``;
asking for it raises
:class:`MissingPiece`, which says what the piece is for and where to add it, so a caller that
can do without (a suite, a command) skips it with that message instead of a ``KeyError``.

The same model as OpenSpiel's ``pyspiel.register_game``, one file per game: the descriptor
lies in the game's own package, ``engines/<game>/__init__.py``, and nothing else lists games.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path, PurePosixPath
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

#: data piece -> what it is: a file beside the engine, named relative to the game's folder
FILES = {
    "chance_baseline": "the chance correction's baseline value (arena.ratings reads it; "
                       "benchmarks/chance_baseline.py makes it)",
}


class MissingPiece(LookupError):
    """A game's descriptor names no such piece (or names one that does not import)."""


@dataclass(frozen=True)
class Pieces:
    """The optional pieces of one game, each a lazy ``"module:attribute"`` string (or a
    ``"module"``: the module itself, e.g. ``policies``) or ``None``.

    ``chance_baseline`` is a data piece: the name of a file beside the engine (e.g.
    ``"chance_baseline.json"``), not a module. Besides: ``short_options``, the options OpenSpiel's registration defaults to
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
    chance_baseline: str | None = None
    short_options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for piece in PURPOSE:
            target = getattr(self, piece)
            if target is not None and (not isinstance(target, str) or not target or target.count(":") > 1):
                raise ValueError(f"piece {piece}={target!r} must be a 'module:attribute' string "
                                 f"(or a 'module', the module itself) or None")
        for piece in FILES:
            name = getattr(self, piece)
            if name is not None and (not isinstance(name, str) or not name or PurePosixPath(name).is_absolute()
                                     or ".." in PurePosixPath(name).parts):
                raise ValueError(f"piece {piece}={name!r} must be the name of a file in the game's folder or None")

    def has(self, piece: str) -> bool:
        """Whether the descriptor names ``piece`` (one of :data:`PURPOSE` or :data:`FILES`)."""
        return getattr(self, _known(piece)) is not None

    def load(self, piece: str, game_id: str) -> Any:
        """Import and return ``piece`` of the game ``game_id``.

        Raises :class:`MissingPiece` saying what the piece is for when the game has none or
        its module does not import (an optional package not installed: the module's own
        error is chained).
        """
        if piece in FILES:
            raise ValueError(f"{piece} is a file, not a module: ask for Pieces.file({piece!r}, {game_id!r})")
        target = getattr(self, _known(piece))
        if target is None:
            raise _missing(piece, game_id)
        module, _, attribute = target.partition(":")
        try:
            loaded = importlib.import_module(module)
            return getattr(loaded, attribute) if attribute else loaded
        except (ImportError, AttributeError) as error:
            raise MissingPiece(f"game {game_id!r}: its {piece} {target!r} does not load ({error})") from error


    def file(self, piece: str, game_id: str) -> Path:
        """The path of the data piece ``piece`` (one of :data:`FILES`) of the game ``game_id``:
        the file its descriptor names, in the game's engine folder. The file need not exist
        (the program that makes it asks where to write it).

        Raises :class:`MissingPiece` saying what the piece is for when the game names none.
        """
        name = getattr(self, _known(piece))
        if piece not in FILES:
            raise ValueError(f"{piece} is a module, not a file: ask for Pieces.load({piece!r}, {game_id!r})")
        if name is None:
            raise _missing(piece, game_id)
        package = importlib.import_module("engines." + game_id.replace("-", "_"))  # the registry's module name
        return Path(package.__file__).parent / name


def _missing(piece: str, game_id: str) -> MissingPiece:
    return MissingPiece(f"game {game_id!r} has no {piece}: {(PURPOSE | FILES)[piece]}; add one to the pieces "
                        f"of its descriptor (GAME in its engine package) to use it here")


def _known(piece: str) -> str:
    if piece not in PURPOSE and piece not in FILES:
        raise ValueError(f"unknown piece {piece!r}; pieces: {', '.join(f.name for f in fields(Pieces))}")
    return piece
