"""Game engines: the rules of each game, pure (no I/O, no clocks, no processes).

Public surface::

    from engines import get_game, game_ids
    game = get_game("dead-mans-draw")
    state = game.new_state(num_players=2, seed=7, options={})
    while not state.is_terminal():
        for seat in state.acting: ...  # state.observation(seat), state.legal_actions(seat)
        state.apply({seat: action, ...})
    state.outcome().ranks

Every game is a folder ``engines/<game>/`` whose ``GAME`` is its descriptor (``_registry.py``).
"""

import os as _os
import sys as _sys

#: Games kept outside the product (the tests' fourth game): every folder ``pirate_arena_games/``
#: on ``sys.path`` at import holds further game folders, as ``engines/`` does (a root named
#: ``engines/`` would shadow this package where an editable install's finder comes after the
#: path). Fixed from then on; a user's path holds none.
__path__ = [*__path__, *dict.fromkeys(
    _os.path.realpath(_os.path.join(_entry or _os.curdir, "pirate_arena_games")) for _entry in _sys.path
    if isinstance(_entry, str) and _os.path.isdir(_os.path.join(_entry or _os.curdir, "pirate_arena_games")))]

from ._core import Action as Action
from ._core import BadOption as BadOption
from ._core import EngineError as EngineError
from ._core import Event as Event
from ._core import Game as Game
from ._core import IllegalAction as IllegalAction
from ._core import Option as Option
from ._core import Outcome as Outcome
from ._core import State as State
from ._core import UnknownGame as UnknownGame
from ._pieces import MissingPiece as MissingPiece
from ._pieces import Pieces as Pieces
from ._core import is_listed as is_listed
from ._core import same_value as same_value
from ._registry import game_ids as game_ids
from ._registry import game_package as game_package
from ._registry import get_game as get_game
from ._replay import Replay as Replay
