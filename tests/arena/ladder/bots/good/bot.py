"""Test bot for the ladder: the first legal action, in every game."""

import engines
from bots.sdk import PolicyBot, run


def first_legal(request, rng):
    return request.legal[0]


run(PolicyBot("good", {game: first_legal for game in engines.game_ids()}))
