"""The three games as OpenSpiel games: ``import envs.openspiel`` registers them.

    import pyspiel
    import envs.openspiel  # registers dead_mans_draw, opito_bay, karibik
    game = pyspiel.load_game("karibik", {"players": 3})
    state = game.new_initial_state()

Each game is a thin adapter over the engine in ``engines/``: the legal actions, their effect,
chance, the observations and the outcome all come from the engine (``docs/environments.md``
documents the numbering and the tensors). What OpenSpiel sees:

- **Parameters**: ``players`` (default: the game's minimum) and every option ``arena games``
  lists, with the same ranges and defaults, except two short ones (``SHORT_DEFAULTS``: Opito
  Bay ``deals=1``, Karibik ``max_rounds=5``, so that OpenSpiel's own IS-MCTS and MCTS finish a
  whole game in seconds); ``seed`` (default -1: every initial state starts with chance nodes
  that draw the deal; ``seed >= 0``: every initial state is the deal of ``arena match --seed
  SEED``, with no chance node); ``turn_based`` (default true; see below).
- **Chance** is *explicit*, and only at the start: four chance nodes draw the deal's 32-bit
  seed, a byte each (uniform over 256 outcomes); the deal is then the one ``arena match
  --seed`` that number plays. Every later random event (a Map's cards, Opito Bay's next deal)
  is drawn from the engine's generator, which that seed fixes, so a state is a function of its
  history: it serializes (``serialize``, ``serialize_game_and_state``, pickle) as the seed and
  the actions, and loads by replaying them. Sampling algorithms (MCTS, IS-MCTS, Monte Carlo
  evaluation) apply; full-tree methods do not (2^32 deals).
- **Simultaneous decisions** (Dead Man's Draw's character choice, Karibik's bribes and
  tie-breaks) are played out seat by seat (``turn_based=true``, the default: sequential
  dynamics, which every OpenSpiel algorithm takes), each seat's choice hidden from the others
  until all have chosen (as ``pyspiel.convert_to_turn_based`` does, but with
  ``resample_from_infostate``, which OpenSpiel's IS-MCTS needs). With ``turn_based=false``
  they are simultaneous nodes when more than one seat decides (simultaneous dynamics); a seat
  with nothing to decide there has no legal actions (pass 0 for it).
- **Returns** are the arena's scoring of the finishing order: each seat gets, against every
  other seat, +1 for finishing ahead, -1 behind, 0 tied, averaged over the opponents; so they
  lie in [-1, 1] and sum to 0 (zero-sum), and a 2-player game is +1/-1/0. (The arena's
  ``points %`` of a seat is ``(1 + return) / 2``.) Rewards come at the end only.
- **Observations** are a function of the engine's observation of that seat and nothing else:
  ``observation_string`` is that observation as JSON (without the map, which Karibik's
  parameters fix), ``information_state_string`` adds every event the seat was shown, in
  order (what the wire protocol sends it over the game), ``observation_tensor`` is the
  codec's encoding of the same observation and ``information_state_tensor`` that plus the
  one-hot id of the seat's own pending turn-based choice. A seat's own pending choice is
  appended to its strings. Before the deal the strings say so and the tensors are zeros.
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
    _name = f"{_short.title().replace('_', '')}Game"
    GAME_CLASSES[_short] = type(_name, (PirateGame,), {"short_name": _short, "__module__": __name__})
    globals()[_name] = GAME_CLASSES[_short]  # a module attribute, so that pickle finds the class
    pyspiel.register_game(GAME_TYPES[_short], GAME_CLASSES[_short])
