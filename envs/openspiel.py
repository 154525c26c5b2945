"""The three games as OpenSpiel games: ``import envs.openspiel`` registers them.

    import pyspiel
    import envs.openspiel  # registers dead_mans_draw, opito_bay, karibik
    game = pyspiel.load_game("karibik", {"players": 3})
    state = game.new_initial_state()

Each game is a thin adapter over the engine in ``engines/``: the legal actions, their effect,
chance, the observations and the outcome all come from the engine (``docs/environments.md``
documents the numbering and the tensors). What OpenSpiel sees:

- **Parameters**: ``players`` (default: the game's minimum) and every option ``arena games``
  lists, with the same defaults and ranges; ``seed`` (default -1: every initial state is a new
  random deal; ``seed >= 0``: every initial state is the deal of ``arena match --seed SEED``);
  ``turn_based`` (default false; see below).
- **Chance** is *sampled stochastic*: the engines draw every random event (the deal, a Map's
  cards, Opito Bay's next deal) from the state's own generator inside a move, and expose no
  draw as a separate step, so there are no chance nodes; a copy of a state copies its
  generator, so the same actions give the same states. Algorithms that need explicit chance
  (CFR and other full-tree methods) do not apply; sampling methods (MCTS on determinized
  states, IS-MCTS, policy evaluation by sampling) do.
- **Simultaneous decisions** (Dead Man's Draw's character choice, Karibik's bribes and
  tie-breaks) are simultaneous nodes when more than one seat decides; a seat with nothing to
  decide there has no legal actions (pass 0 for it). With ``turn_based=true`` they are
  played out seat by seat instead, each seat's choice hidden from the others until all have
  chosen (as ``pyspiel.convert_to_turn_based`` does, but with ``resample_from_infostate``,
  which OpenSpiel's IS-MCTS needs).
- **Returns** are the arena's scoring of the finishing order: each seat gets, against every
  other seat, +1 for finishing ahead, -1 behind, 0 tied, averaged over the opponents; so they
  lie in [-1, 1] and sum to 0 (zero-sum), and a 2-player game is +1/-1/0. (The arena's
  ``points %`` of a seat is ``(1 + return) / 2``.) Rewards come at the end only.
- **Observations** are a function of the engine's observation of that seat and nothing else:
  ``observation_string`` is that observation as JSON (without the map, which Karibik's
  parameters fix), ``information_state_string`` adds every event the seat was shown, in
  order (what the wire protocol sends it over the game), and ``observation_tensor`` is the
  codec's encoding of the same observation. With ``turn_based=true`` a seat's own pending
  choice is appended to its strings.
- ``resample_from_infostate(player, sampler)`` is the engine's ``resample``: everything the
  seat cannot know is redrawn consistently with what it knows (other seats' choices pending
  in a turn-based rollout are redrawn uniformly among their legal actions).

Bad input raises ``pyspiel.SpielError``: an unknown parameter (OpenSpiel's own check), and a
bad player count or option value with the engine's message.
"""

from __future__ import annotations

import pyspiel

from ._games import SHORT_NAMES as SHORT_NAMES
from ._games import returns_of as returns_of
from ._spiel_game import GAME_TYPES, PirateGame
from ._spiel_game import action_of as action_of
from ._spiel_game import engine_state as engine_state
from ._spiel_game import random_playout_returns as random_playout_returns
from ._spiel_game import state_from_engine as state_from_engine
from ._spiel_state import PirateState as PirateState

__all__ = ["SHORT_NAMES", "PirateGame", "PirateState", "action_of", "engine_state", "random_playout_returns",
           "returns_of", "state_from_engine"]

#: short name -> the registered game class
GAME_CLASSES: dict[str, type[PirateGame]] = {}
for _short in SHORT_NAMES:
    GAME_CLASSES[_short] = type(f"{_short.title().replace('_', '')}Game", (PirateGame,), {"short_name": _short})
    pyspiel.register_game(GAME_TYPES[_short], GAME_CLASSES[_short])
