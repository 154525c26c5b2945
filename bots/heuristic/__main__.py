"""``python -m bots.heuristic``: the reference heuristic bot, for every game that has one."""

from bots._games import policies
from bots.sdk import PolicyBot, run

run(PolicyBot("py-heuristic", policies("heuristic")))
