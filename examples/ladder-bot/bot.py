"""A tiny bot for the ladder example: always the first legal action."""

from bots.sdk import PolicyBot, run


def first_legal(request, rng):
    return request.legal[0]


run(PolicyBot("first-legal", {"dead-mans-draw": first_legal}))
