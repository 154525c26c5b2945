"""Test bot for the ladder: the first legal action for 5 decisions, then it dies with a last
word on stderr (each process; the arena replaces it)."""

import os
import sys

import engines
from bots.sdk import PolicyBot, run

asked = 0


def first_legal_then_crash(request, rng):
    global asked
    asked += 1
    if asked > 5:
        print("crashy: out of rum, giving up", file=sys.stderr, flush=True)
        os._exit(3)
    return request.legal[0]


run(PolicyBot("crashy", {game: first_legal_then_crash for game in engines.game_ids()}))
