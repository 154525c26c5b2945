"""A random bot that crashes: ``python flaky.py N`` plays uniformly random legal actions (the
SDK's), writes a line to stderr for every request, and at its N-th request writes a traceback
to stderr and exits with status 1 (a crash, in the middle of a game). For the viewer's tests
of a fault at its step."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository: bots.sdk

from bots._games import random_policy  # noqa: E402
from bots.sdk import PolicyBot, run  # noqa: E402
from engines import game_ids  # noqa: E402

CRASH_AT = int(sys.argv[1]) if len(sys.argv) > 1 else 5
asked = 0


def flaky(request, rng):
    global asked
    asked += 1
    print(f"flaky: request {asked} ({request.kind})", file=sys.stderr, flush=True)
    if asked == CRASH_AT:
        print("Traceback (most recent call last):\n  File \"flaky.py\", line 27, in flaky\n"
              "ZeroDivisionError: division by zero", file=sys.stderr, flush=True)
        sys.exit(1)
    return random_policy(request, rng)


run(PolicyBot("flaky", {game: flaky for game in game_ids()}))
