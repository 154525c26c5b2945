"""The three games for the field's tools: OpenSpiel games and PettingZoo environments.

``import envs.openspiel`` registers ``dead_mans_draw``, ``opito_bay`` and ``karibik`` with
OpenSpiel (extra ``[openspiel]``); ``envs.pettingzoo.env(game, players=...)`` makes an AEC
environment (extra ``[pettingzoo]``). Both are adapters over ``engines/`` and share one
action numbering and observation tensor per game (``envs._codec`` and the per-game codecs);
``docs/environments.md`` documents them. ``engines`` never imports this package, and the
arena never imports either framework.
"""

from ._games import SHORT_NAMES as SHORT_NAMES
from ._games import game_id_of as game_id_of
