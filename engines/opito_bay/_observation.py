"""What one player sees (:func:`observe`), and a state resampled from a seat's knowledge
(:func:`resample`); a state rebuilt from an observation alone is
:func:`engines.opito_bay._determinize.determinize`.

Public: the Aces and seats, the table (what lies on what), the graveyard, the library's size,
hand sizes, totals and every play. Private: one's own hand and what one saw with a 5
(``library_top``, and ``seen_in_hands``: cards one saw on the library that another player has
since drawn and still holds). Never: other hands, the library's order beyond one's own look.
"""

from __future__ import annotations

import random
from typing import Any

from engines import State


def observe(state: State, player: int) -> dict[str, Any]:
    """The observation of ``player`` (see ``protocol/games/opito-bay.md``)."""
    table = state.table
    live = table.live()
    owner = table.owner
    over = not state.acting
    spying = state.phase == "spyglass" and state.turn == player
    return {
        "seat": player,
        "players": state.num_players,
        "aces": ["A" + suit for suit in state.aces],
        "order": list(state.order),
        "deal": state.deal,
        "deals": state.options["deals"],
        "target": state.options["target"],
        "max_deals": state.max_deals,
        "totals": list(state.totals),
        "deal_history": [list(points) for points in state.deal_history],
        "turn": None if over else state.turn,
        "decision": None if over else state.phase,
        "hand": list(state.hands[player]),
        "hand_sizes": [len(hand) for hand in state.hands],
        "library": len(state.library),
        "graveyard": list(state.graveyard),
        "table": [
            {"id": node_id, "card": card, "as": rank, "on": on, "owner": owner[root], "live": live[node_id]}
            for node_id, (card, rank, on, root) in enumerate(table.nodes)
        ],
        "deal_points": table.points(state.aces, live),
        "pending": None if state.pending is None else {"card": state.pending[0], "as": state.pending[1]},
        "swap_from": state.swap_from,
        "window": state.window,
        "looking": state.looking() if spying else [],
        "library_top": list(state.know.top[player]),
        "seen_in_hands": [list(cards) for cards in state.know.hands[player]],
    }


def _known_positions(state: State, player: int) -> dict[int, str]:
    """Library positions (0 = top) whose card ``player`` knows."""
    known = {index: card for index, card in enumerate(state.know.top[player]) if card is not None}
    if state.phase == "spyglass" and state.turn == player:
        known.update(enumerate(state.looking()))
    return known


def resample(state: State, player: int, rng: random.Random) -> State:
    """A copy in which everything ``player`` cannot know is redrawn.

    Other hands (but the cards ``player`` saw going into them) and the library (but the
    positions ``player`` knows) are reshuffled together; the others' own looks are refilled
    from the new library; events ``player`` may not see are dropped from the log; the rng is new.
    """
    other = state.clone()
    other.rng = random.Random(rng.getrandbits(64))
    other._rng_shared = False
    other.log = [event for event in state.log if event.visible_to(player)]
    library = other.library
    size = len(library)
    known = _known_positions(state, player)
    free_slots = [size - 1 - index for index in range(size) if index not in known]
    pool = [library[slot] for slot in free_slots]
    kept: list[list[str]] = [[] for _ in range(state.num_players)]
    for seat, hand in enumerate(other.hands):
        if seat != player:
            seen = state.know.hands[player][seat]
            rest = list(hand)
            for card in seen:
                rest.remove(card)
            kept[seat] = list(seen)
            pool.extend(rest)
    rng.shuffle(pool)
    for slot in free_slots:
        library[slot] = pool.pop()
    for seat in range(state.num_players):
        if seat != player:
            other.hands[seat] = kept[seat] + [pool.pop() for _ in range(len(other.hands[seat]) - len(kept[seat]))]
    _refill_others_knowledge(other, player)
    return other


def resample_chance(state: State, rng: random.Random) -> State:
    """A copy with the library positions no seat knows reshuffled among themselves and a new
    rng; hands, table and every seat's knowledge stay (see ``OpitoState.resample_chance``)."""
    other = state.clone()
    other.rng = random.Random(rng.getrandbits(64))
    other._rng_shared = False
    library = other.library
    size = len(library)
    known: set[int] = set()
    for seat in range(state.num_players):
        known.update(_known_positions(state, seat))
    slots = [size - 1 - index for index in range(size) if index not in known]
    pool = [library[slot] for slot in slots]
    rng.shuffle(pool)
    for slot, card in zip(slots, pool):
        library[slot] = card
    return other


def _refill_others_knowledge(state: State, player: int) -> None:
    """Make the other seats' private knowledge agree with the redrawn library."""
    library = state.library
    for seat in range(state.num_players):
        if seat == player:
            continue
        top = state.know.top[seat]
        state.know.top[seat] = [None if card is None else library[-1 - index] for index, card in enumerate(top)]
        for holder in range(state.num_players):
            if holder != player:
                state.know.hands[seat][holder] = []
