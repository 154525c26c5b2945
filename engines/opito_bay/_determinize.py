"""A full Opito Bay state consistent with one seat's observation (for search bots and
OpenSpiel's resampling): the hidden cards sampled."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ._cards import DECK
from ._state import OpitoState
from ._table import Table


def determinize(observation: dict[str, Any], rng: random.Random) -> OpitoState:
    """A full state consistent with one seat's observation; the hidden cards are sampled.

    The other seats know nothing privately in the result (their own looks are not
    observable). Its log and history are empty; its rng is seeded from ``rng``.
    """
    player = observation["seat"]
    aces = [ace[1] for ace in observation["aces"]]
    options = {"deals": observation["deals"], "target": observation["target"]}
    state = OpitoState.blank(aces, options, random.Random(rng.getrandbits(64)))
    state.deal = observation["deal"]
    state.totals = list(observation["totals"])
    state.deal_history = [list(points) for points in observation["deal_history"]]
    state.graveyard = list(observation["graveyard"])
    state.table = table = Table()
    for node in observation["table"]:
        if node["on"] is None:
            table.place(node["card"], node["as"], node["owner"])
        else:
            table.lay(node["card"], node["as"], node["on"])
    pending = observation["pending"]
    state.pending = None if pending is None else (pending["card"], pending["as"])
    state.swap_from = observation["swap_from"]
    state.window = observation["window"]
    state.know.top[player] = list(observation["library_top"])
    state.know.hands[player] = [list(cards) for cards in observation["seen_in_hands"]]

    known = dict(enumerate(observation["library_top"]))
    known.update(enumerate(observation["looking"]))
    known = {index: card for index, card in known.items() if card is not None}
    unseen = Counter(DECK)
    unseen.subtract(observation["hand"])
    unseen.subtract(node["card"] for node in observation["table"])
    unseen.subtract(observation["graveyard"])
    unseen.subtract(known.values())
    for cards in observation["seen_in_hands"]:
        unseen.subtract(cards)
    if pending is not None:
        unseen[pending["card"]] -= 1
    pool = list(unseen.elements())
    rng.shuffle(pool)

    size = observation["library"]
    state.library = [known[size - 1 - slot] if size - 1 - slot in known else pool.pop() for slot in range(size)]
    state.hands = []
    for seat, count in enumerate(observation["hand_sizes"]):
        if seat == player:
            state.hands.append(list(observation["hand"]))
        else:
            seen = list(observation["seen_in_hands"][seat])
            state.hands.append(seen + [pool.pop() for _ in range(count - len(seen))])
    if pool:
        raise ValueError(f"observation does not account for the cards {sorted(pool)}")
    if observation["turn"] is None:
        state.turn, state.phase, state.acting = state.order[0], "over", ()
    else:
        state.turn, state.phase, state.acting = observation["turn"], observation["decision"], (observation["turn"],)
    return state
