"""``python -m bots.random``: plays uniformly random legal actions in every game."""

from bots._games import policies
from bots.sdk import PolicyBot, run

run(PolicyBot("py-random", policies("random")))
