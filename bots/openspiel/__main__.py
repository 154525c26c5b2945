"""``python -m bots.openspiel [--nodes N]``: OpenSpiel's IS-MCTS (``PIRATE_OS_SEARCH=mcts``:
determinized MCTS) for every game; needs the ``[openspiel]`` extra.

By default it budgets each decision by the clock (and says so in its hello: ``clock_bound``);
``--nodes N`` runs exactly N simulations a decision instead, so its games replay exactly."""

import os
import sys

from bots._budget import parse_nodes
from bots.openspiel import OpenSpielPolicy
from bots.sdk import PolicyBot, run
from envs import SHORT_NAMES

nodes = parse_nodes(sys.argv[1:], "python -m bots.openspiel")
algorithm = os.environ.get("PIRATE_OS_SEARCH", "ismcts")
policy = OpenSpielPolicy(algorithm, nodes)
run(PolicyBot(f"os-{algorithm}", {game_id: policy for game_id in SHORT_NAMES.values()}, clock_bound=nodes is None))
