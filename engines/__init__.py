"""Game engines: the rules of each game, pure (no I/O, no clocks, no processes).

Public surface::

    from engines import get_game, game_ids
    game = get_game("dead-mans-draw")
    state = game.new_state(num_players=2, seed=7, options={})
    while not state.is_terminal():
        for seat in state.acting: ...  # state.observation(seat), state.legal_actions(seat)
        state.apply({seat: action, ...})
    state.outcome().ranks
"""

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
from ._core import is_listed as is_listed
from ._core import same_value as same_value
from ._registry import game_ids as game_ids
from ._registry import game_package as game_package
from ._registry import get_game as get_game
from ._replay import Replay as Replay
