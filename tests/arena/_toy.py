"""A tiny game for testing the arena without depending on a real game's rules.

"Count to ten": players take turns adding 1 or 2 ("one", "two") to a shared total; whoever
reaches 10 or more wins. Every third step all seats first make a simultaneous secret
choice ("heads"/"tails"), so the arena's concurrent decisions get exercised.
"""

from engines import Game, Option, Outcome, State


class CountState(State):
    def __init__(self, num_players, rng, options):
        super().__init__(num_players, rng, options)
        self.total = 0
        self.turn = rng.randrange(num_players)
        self.winner = None
        self.vote = False
        self.acting = (self.turn,)

    def decision(self, player):
        return "vote" if self.vote else "count"

    def legal_actions(self, player):
        return ["heads", "tails"] if self.vote else ["one", "two"]

    def _apply(self, actions):
        if self.vote:
            self.emit({"votes": [actions[p] for p in sorted(actions)]})
            self.vote = False
            self.acting = (self.turn,)
            return
        self.total += 1 if actions[self.turn] == "one" else 2
        self.emit({"seat": self.turn, "total": self.total})
        if self.total >= self.options["target"]:
            self.winner = self.turn
            self.acting = ()
            return
        self.turn = (self.turn + 1) % self.num_players
        if len(self.history) % 3 == 2:
            self.vote = True
            self.acting = tuple(range(self.num_players))
        else:
            self.acting = (self.turn,)

    def observation(self, player):
        observation = {"seat": player, "players": self.num_players, "total": self.total}
        if self.options["padding"]:
            observation["padding"] = "p" * self.options["padding"]
        return observation

    def outcome(self):
        return Outcome.from_keys([1 if p == self.winner else 0 for p in range(self.num_players)])


TOY = Game(
    id="count-to-ten", name="Count to ten", min_players=2, max_players=4,
    options=(Option("target", int, 10, "total that wins", minimum=1),
             Option("padding", int, 0, "bytes of filler in every observation", minimum=0)),
    state_class=CountState,
)
