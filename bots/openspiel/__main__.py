"""``python -m bots.openspiel``: OpenSpiel's IS-MCTS (``PIRATE_OS_SEARCH=mcts``: determinized MCTS)
for every game; needs the ``[openspiel]`` extra."""

import os

from bots.openspiel import OpenSpielPolicy
from bots.sdk import PolicyBot, run
from envs import SHORT_NAMES

algorithm = os.environ.get("PIRATE_OS_SEARCH", "ismcts")
policy = OpenSpielPolicy(algorithm)
run(PolicyBot(f"os-{algorithm}", {game_id: policy for game_id in SHORT_NAMES.values()}))
