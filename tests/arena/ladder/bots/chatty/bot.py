"""Test bot for the ladder: 1 MiB on stderr at start (its log's limit), then the first legal
action until its 3rd decision of a game, where it exits (status 3)."""

import os
import sys

import engines
from bots.sdk import PolicyBot, run

sys.stderr.write(("chatty " * 1024 + "\n") * 147)  # 1 MiB and a little more
sys.stderr.flush()


class Chatty(PolicyBot):
    def start(self, message):
        super().start(message)
        self.asked = 0

    def act(self, request):
        self.asked += 1
        if self.asked >= 3:
            os._exit(3)
        return request.legal[0]


run(Chatty("chatty", {game: None for game in engines.game_ids()}))
