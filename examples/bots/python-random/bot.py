"""A Python starter bot on the SDK: a uniformly random legal action in every decision.

The SDK (bots/sdk.py) does the framing and the message loop; a bot is one policy function
per game. Karibik's bribe is the one decision without a `legal` list: every seat holds the rum cards
-1..5 each round; bid 6 of them, one per ship in order; the card left out is the tie-breaker
(protocol/games/karibik.md).
"""

import random

from bots.sdk import PolicyBot, Request, run


def random_legal(request: Request, rng: random.Random):
    if request.legal is not None:
        return rng.choice(request.legal)
    if request.kind == "bribe":
        cards = [-1, 0, 1, 2, 3, 4, 5]
        rng.shuffle(cards)
        return cards[:6]
    raise ValueError(f"no legal list for {request.kind!r}: see protocol/games/{request.game}.md")


GAMES = ["dead-mans-draw", "opito-bay", "karibik"]

if __name__ == "__main__":
    run(PolicyBot("python-random", {game: random_legal for game in GAMES}))
