"""A bot that answers with type-confused copies of legal actions, for fuzzing the arena.

``python mutating.py MODE [ARGS]``; it plays every game (its hello lists none), taking a
uniformly random legal action (``bots.random``'s policy, seeded by ``bot_seed``) except:

- ``fuzz LOG``: on each request, with probability 0.8, one of the action's one-place
  mutations (``tests/engines/_mutations.py``: float or bool for an int, str for an int, the
  largest ints, nested lists, a dict for a list, None, an empty list ...), drawn with the
  same seeded generator. Appends ``repr(action)`` of every action it sends, one per line,
  to the file LOG (so a test can judge each one).
- ``float``: once, on the first request with an int inside a listed action, that action
  with its first int turned into a float (Karibik's ``["move", 7.0]``).
- ``say KIND ACTION``: once, on the first request of decision kind KIND, the Python
  literal ACTION.
"""

import ast
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root, for tests.*

from bots._games import random_policy  # noqa: E402
from bots.sdk import Bot, run  # noqa: E402
from tests.engines._mutations import mutants  # noqa: E402


def with_float(action):
    """``action`` with its first int (depth first) as a float, or None if it holds no int."""
    if type(action) is int:
        return float(action)
    if type(action) is list:
        for index, item in enumerate(action):
            changed = with_float(item)
            if changed is not None:
                return action[:index] + [changed] + action[index + 1:]
    return None


class Mutating(Bot):
    name = "mutating"
    version = "1"

    def __init__(self, mode, args):
        self.mode = mode
        self.args = args
        self.done = False
        self.rng = random.Random(0)

    def start(self, message):
        self.rng = random.Random(message.get("bot_seed", 0))

    def act(self, request):
        legal_choice = random_policy(request, self.rng)
        action = legal_choice
        if self.mode == "fuzz":
            if self.rng.random() < 0.8:
                action = self.rng.choice(mutants(legal_choice))
            with open(self.args[0], "a") as log:
                log.write(repr(action) + "\n")
        elif self.mode == "float" and not self.done:
            changed = next((c for c in map(with_float, request.legal or []) if c is not None), None)
            if changed is not None:
                action, self.done = changed, True
        elif self.mode == "say" and not self.done and request.kind == self.args[0]:
            action, self.done = ast.literal_eval(self.args[1]), True
        return action


run(Mutating(sys.argv[1], sys.argv[2:]))
