"""Constants of the rules: ships, rum cards, chest states, targets."""

from __future__ import annotations

#: The six neutral pirate ships, in their order of play within a round.
SHIPS = ("Arriba", "Bravo", "Caribic", "Diabolo", "Evita", "Fuego")

#: A player's seven rum cards; -1 is the thief card.
CARDS = (-1, 0, 1, 2, 3, 4, 5)
THIEF = -1

#: Doubloons the controlling player gains for looting a port.
LOOT_GAIN = 2000

#: The game ends after the round in which a player reaches this score (by player count).
TARGETS = {2: 62000, 3: 41000, 4: 31000}

#: [R] Engine limit: at most this many ship-to-ship transfers (rob, exchange, hand over)
#: in one ship's move, so a move cannot cycle forever (they are the only repeatable actions
#: that consume nothing).
MAX_TRANSFERS = 12

# Where a chest is. Wire names in CHEST_STATES.
RESERVE, ON_PORT, ON_SHIP, DELIVERED = range(4)
CHEST_STATES = ("reserve", "port", "ship", "delivered")

# Phases of a round (they are also the decision kinds, except OVER).
BRIBE, TIEBREAK, MOVE, OVER = "bribe", "tiebreak", "move", "over"

NUM_SHIPS = len(SHIPS)
NUM_SHIPS_RANGE = range(NUM_SHIPS)
