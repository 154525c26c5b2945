"""Test bot for the ladder: the first legal action, but at its 3rd decision of every game it
exits (status 3) with a last word on stderr: the arena replaces it before the next game."""

import os
import sys

import engines
from bots.sdk import PolicyBot, run


class TimeBomb(PolicyBot):
    def start(self, message):
        super().start(message)
        self.asked = 0

    def act(self, request):
        self.asked += 1
        if self.asked >= 3:
            print("timebomb: boom", file=sys.stderr, flush=True)
            os._exit(3)
        return request.legal[0]


run(TimeBomb("timebomb", {game: None for game in engines.game_ids()}))
