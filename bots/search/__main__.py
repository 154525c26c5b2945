"""``python -m bots.search [--nodes N]``: the reference search bot, for every game that has one.

By default it budgets each decision by the clock (and says so in its hello: ``clock_bound``);
``--nodes N`` searches exactly N iterations a decision instead, so its games replay exactly
(``bots/_budget.py``)."""

import functools
import sys

from bots._budget import parse_nodes
from bots._games import policies
from bots.sdk import PolicyBot, run

nodes = parse_nodes(sys.argv[1:], "python -m bots.search")
found = policies("search")
if nodes is not None:
    found = {game: functools.partial(policy, nodes=nodes) for game, policy in found.items()}
run(PolicyBot("py-search", found, clock_bound=nodes is None))
