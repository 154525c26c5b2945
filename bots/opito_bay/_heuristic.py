"""The heuristic policy: the play that leaves the best standing, from the observation only.

Each card is judged with its best target (see ``_evaluate``) less what it is worth to keep
while the library is still long (Jokers, 3s and Kings are worth more later); a target
decision picks the target that judgement assumed; a 5 puts the best cards where I draw and
the worst where the others draw.
"""

from __future__ import annotations

import random
from typing import Any

from bots.sdk import Request

from ._evaluate import Board, best_completion, order_look

#: what keeping a card for later is worth while the library is long
HOLD = {"X": 600, "3": 500, "K": 350, "9": 250, "7": 150, "Q": 100}
#: the order in which unplayable cards are thrown away
DISCARD_ORDER = "97J5KQ3"


def _split(action: str) -> tuple[str, str]:
    return ("X", action[1]) if action[0] == "X" else (action, action[0])


def choose_play(obs: dict, legal: list[str]) -> str:
    board = Board(obs)
    keep = min(1.0, obs["library"] / 15)
    best, choice = None, legal[0]
    for action in legal:
        card, rank = _split(action)
        value = best_completion(board, obs, card, rank)[0] - keep * HOLD.get(card[0], 0)
        if best is None or value > best:
            best, choice = value, action
    return choice


def choose_target(obs: dict, kind: str, legal: list[Any]) -> Any:
    board = Board(obs)
    pending = obs["pending"]
    card, rank = pending["card"], pending["as"]
    if kind == "swap":
        mine, _theirs = best_completion(board, obs, card, rank)[1]
        return mine if mine in legal else legal[0]
    if kind == "swap_with":
        return max(legal, key=lambda theirs: (board.after_swap(obs["swap_from"], theirs), -theirs))
    target = best_completion(board, obs, card, rank)[1]
    return target if target in legal else legal[0]


def spyglass_order(obs: dict) -> list[str]:
    """Best cards for me where I draw, the worst for each other seat where they draw."""
    return order_look(obs["looking"], obs["seat"], obs["order"], obs["hand_sizes"],
                      [ace[1] for ace in obs["aces"]])


def heuristic(request: Request, rng: random.Random) -> Any:
    """Sensible play from the visible state only."""
    obs, kind, legal = request.observation, request.kind, request.legal
    if kind == "play":
        return choose_play(obs, legal)
    if kind == "discard":
        return min(legal, key=lambda card: (DISCARD_ORDER.find(card[0]) % 10, card))
    if kind == "spyglass":
        order = spyglass_order(obs)
        return order if order in legal else legal[0]
    return choose_target(obs, kind, legal)
