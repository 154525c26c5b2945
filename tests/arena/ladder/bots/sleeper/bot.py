"""A hostile author's bot, as an author would upload it: 1 MiB on stderr at every start (its
log's limit), and the first legal action; but from ARMED_AFTER_S after its build (so it passes
vetting, which runs right after the build), it exits (status 3) at its 3rd decision of every
game: every game of it a fault and a new process, a new 1 MiB log, 16 KiB of fault text."""

import os
import sys
import time
from pathlib import Path

import engines
from bots.sdk import PolicyBot, run

ARMED_AFTER_S = 120
ARMED = time.time() - float((Path(__file__).parent / "built").read_text()) > ARMED_AFTER_S

sys.stderr.write(("sleeper " * 1024 + "\n") * 129)  # 1 MiB and a little more
sys.stderr.flush()


class Sleeper(PolicyBot):
    def start(self, message):
        super().start(message)
        self.asked = 0

    def act(self, request):
        self.asked += 1
        if ARMED and self.asked >= 3:
            os._exit(3)
        return request.legal[0]


run(Sleeper("sleeper", {game: None for game in engines.game_ids()}))
