"""The three games for the field's tools: OpenSpiel games and PettingZoo environments.

``import envs.openspiel`` registers ``dead_mans_draw``, ``opito_bay`` and ``karibik`` with
OpenSpiel (extra ``[openspiel]``); ``envs.pettingzoo.env(game, players=...)`` makes an AEC
environment and ``envs.pettingzoo.parallel_env(...)`` a parallel one (extra ``[pettingzoo]``). Both are adapters over ``engines/`` and share one
action numbering and observation tensor per game (``envs._codec`` and the per-game codecs);
``docs/environments.md`` documents them. ``engines`` never imports this package, and the
arena never imports either framework.
"""

from typing import Any as _Any

from ._codec import Codec as Codec
from ._games import SHORT_NAMES as SHORT_NAMES
from ._games import game_id_of as game_id_of
from ._games import returns_of as returns_of


def codec_for(game: str, players: int, **options: _Any) -> Codec:
    """The action numbering and observation tensor of ``game`` (an id or short name) for
    ``players`` seats and ``options`` (defaults filled in, checked by the engine;
    ``ValueError`` otherwise). A bot uses ``codec.tensor(request.observation)`` and
    ``codec.request_legal(request.kind, request.legal, request.observation)``."""
    from ._games import codec, resolve

    game_id = game_id_of(game)
    _, players, resolved = resolve(game_id, players, options)
    return codec(game_id, players, resolved)
