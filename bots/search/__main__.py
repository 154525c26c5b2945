"""``python -m bots.search``: the reference search bot, for every game that has one."""

from bots._games import policies
from bots.sdk import PolicyBot, run

run(PolicyBot("py-search", policies("search")))
