"""OpenSpiel's search as an entrant: IS-MCTS (or MCTS on determinized states) through ``envs.openspiel``.

Each decision, the bot rebuilds a full state from its observation with the game's own
determinizer (``engines.<game>.determinize``), wraps it as an OpenSpiel state of the game in
its turn-based form (a simultaneous decision is played out seat by seat, this bot's seat
first, so the others decide without seeing its choice) and searches it with OpenSpiel's code:

- ``ismcts`` (default): ``open_spiel.python.algorithms.ismcts.ISMCTSBot``, keyed by observation
  strings, every iteration on a fresh ``resample_from_infostate`` of the root (the engine's
  ``resample``), UCT with c = 2, the most visited action;
- ``mcts``: ``open_spiel.python.algorithms.mcts.MCTSBot`` on one determinized state after
  another (each a new ``resample``), the root's visit counts summed over them (perfect-
  information search on sampled worlds).

Leaves are valued by one uniformly random playout, played on the engine
(``envs.openspiel.random_playout_returns``: OpenSpiel's ``RandomRolloutEvaluator`` does the
same through OpenSpiel's API, 10-20x slower), as the game's returns (the pairwise rank
score). Both are anytime: they stop at the reference bots' budget (40% of the move limit, at
most a quarter of the time left, at most 2 s) and answer with the best action so far.
"""

from ._search import OpenSpielPolicy as OpenSpielPolicy
from bots._budget import budget as budget
