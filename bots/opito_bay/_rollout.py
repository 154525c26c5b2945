"""A cheap greedy rollout policy over engine states, for the search.

It judges cards by the face value of the treasures they would help or hurt (ignoring what
already lies on them), with a little randomness; far cruder than the heuristic, and ~20x
cheaper. A 5's look is ordered as the heuristic orders it (it used to be left as it was,
which made a 5 worth nothing in a rollout).
"""

from __future__ import annotations

import random
from typing import Any

from engines.opito_bay import OpitoState

from ._evaluate import order_look

FACE = {"2": 200, "4": 400, "6": 600, "8": 800, "T": 1000}
EPSILON = 0.15
#: a Joker is worth keeping for a better use
JOKER_COST = 300


def _treasure_values(state: OpitoState) -> list[tuple[int, int, int]]:
    """``(value, node id, owner)`` of every treasure, by face value and Ace suit."""
    table, aces = state.table, state.aces
    values = []
    for node in table.treasures:
        card, rank, _on, _root = table.nodes[node]
        owner = table.owner[node]
        value = FACE[rank] * (2 if card[1:] == aces[owner] else 1)
        values.append((value, node, owner))
    return values


def _best(state: OpitoState, seat: int, rank: str, treasures: list[tuple[int, int, int]]) -> tuple[float, Any]:
    """Rough gain and target of playing ``rank``."""
    if rank == "3":
        own = [(value, node) for value, node, owner in treasures if owner == seat]
        return max(own) if own else (-100.0, treasures[0][1])
    if rank == "7":
        theirs = [(value / 2, node) for value, node, owner in treasures if owner != seat]
        return max(theirs) if theirs else (-100.0, treasures[0][1])
    if rank == "K":
        theirs = [(value, node) for value, node, owner in treasures if owner != seat]
        table = state.table
        for node, (card, played, on, _root) in enumerate(table.nodes):
            if on is None and played == "Q" and table.owner[node] == seat:
                theirs.append((4000 if card[1:] == state.aces[seat] else 2000, node))
        return max(theirs) if theirs else (-100.0, 0)
    if rank == "9":
        mine = min((value, node) for value, node, owner in treasures if owner == seat)
        theirs = max((value, node) for value, node, owner in treasures if owner != seat)
        return theirs[0] - mine[0], (mine[1], theirs[1])
    if rank == "Q":
        others = [other for other in range(state.num_players) if other != seat]
        return 2000.0, others[0]
    return (100.0 if rank == "5" else 50.0), None


def spyglass_order(state: OpitoState) -> list[str]:
    """The cards under a 5's look ordered as the heuristic orders them (``order_look``)."""
    return order_look(state.looking(), state.turn, state.order, [len(hand) for hand in state.hands], state.aces)


def rollout_action(state: OpitoState, rng: random.Random) -> Any:
    """A quick, mostly greedy action for the player to move."""
    seat, phase = state.turn, state.phase
    if phase == "spyglass":
        return spyglass_order(state)
    legal = state.legal_actions(seat)
    if rng.random() < EPSILON or phase in ("discard", "swap_with") or len(legal) == 1:
        return legal[rng.randrange(len(legal))]
    treasures = _treasure_values(state)
    if phase == "play":
        best, choice = None, legal[0]
        for action in legal:
            joker = action[0] == "X"
            rank = action[1] if joker else action[0]
            if rank in FACE:
                gain = FACE[rank] * (1 if joker or action[1] != state.aces[seat] else 2)
            else:
                gain = _best(state, seat, rank, treasures)[0]
            gain -= JOKER_COST if joker else 0
            if best is None or gain > best:
                best, choice = gain, action
        return choice
    rank = state.pending[1]
    if phase == "player":
        if rank == "Q":
            others = [other for other in legal if other != seat]
            return others[rng.randrange(len(others))]
        return legal[rng.randrange(len(legal))]
    target = _best(state, seat, rank, treasures)[1]
    if phase == "swap":
        target = target[0]
    return target if target in legal else legal[rng.randrange(len(legal))]
