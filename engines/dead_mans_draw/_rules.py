"""The turn: drawing, a card entering the play area, bust, collect, the Key/Chest bonus.

Functions here take the state as first argument and change it; they never ask the players
directly. A decision is *posted* with :func:`ask` and resolved later by the state's run loop
(``_state.DeadMansDrawState._run``), so a position can always be copied between two steps.
Work that must happen after a decision (Captain Hook's second card, the end of a turn after a
Plunderer's picks) is pushed on ``state.tasks``, a stack run last-in first-out.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from ._cards import CARD_NAME, CHEST, KEY, KRAKEN, LETTERS, MERMAID, names, suit_of, value_of

EMPTY: dict[str, Any] = {}


# -- characters -------------------------------------------------------------------------------

def has(state, seat: int, character: str) -> bool:
    """Whether ``seat`` plays ``character`` (revealed; characters are public once chosen)."""
    return seat in state.owners.get(character, ())


def opponent_has(state, seat: int, character: str) -> bool:
    """Whether any opponent of ``seat`` plays ``character``."""
    return any(owner != seat for owner in state.owners.get(character, ()))


def opponents(state, seat: int) -> list[int]:
    """The other seats in turn order after ``seat``."""
    n = state.num_players
    return [(seat + step) % n for step in range(1, n)]


# -- decisions --------------------------------------------------------------------------------

def ask(state, player: int, kind: str, legal: list, info: dict[str, Any] = EMPTY) -> None:
    """Post a decision; the run loop resolves it at once when ``legal`` has one action."""
    assert state.pending is None, f"decision {state.pending[1]!r} still open when asking {kind!r}"
    state.pending = (player, kind, legal, info)


def stacks_of(state, seat: int, exclude: int | None = None) -> list[str]:
    """Suit letters of the non-empty stacks of ``seat`` (bank order), optionally minus one suit."""
    return [LETTERS[suit] for suit, stack in enumerate(state.banks[seat]) if stack and suit != exclude]


def bank(state, seat: int, card: int) -> None:
    insort(state.banks[seat][suit_of(card)], card)


# -- drawing and placing ----------------------------------------------------------------------

def draw_top(state) -> int:
    """Take the top card of the draw pile (public); every seat's known prefix shrinks by one."""
    card = state.draw.pop()
    state.known = [k - 1 if k else 0 for k in state.known]
    state.emit({"type": "draw", "seat": state.turn, "card": CARD_NAME[card]})
    return card


def busts(state, card: int) -> bool:
    if state.strange_waters:
        value = value_of(card)
        return any(value_of(other) == value for other in state.row)
    suit = suit_of(card)
    return any(suit_of(other) == suit for other in state.row)


def enter(state, card: int, source: str, protect: bool = False) -> None:
    """A card enters the play area from ``source`` ("draw", "discard" or a bank as "bank:<seat>").

    Casanova's Mermaids and the Fisherman's Krakens go to the active player's bank instead;
    otherwise the card busts or is placed (and its ability triggers). ``protect`` marks a
    card protected on placement (Miser's Hook).
    """
    active = state.turn
    suit = suit_of(card)
    if (suit == MERMAID and not state.mermaid_effect and has(state, active, "casanova")) or (
        suit == KRAKEN and has(state, active, "fisherman")
    ):
        bank(state, active, card)
        state.emit({"type": "banked", "seat": active, "card": CARD_NAME[card], "by": state.chars[active]})
        return
    if busts(state, card):
        bust(state, card)
        return
    place(state, card, source, protect)


def place(state, card: int, source: str, protect: bool = False) -> None:
    """Append ``card`` to the row, count it for Kraken and Safe Harbour, trigger its ability."""
    if state.harbour:
        state.harbour -= 1
        protect = True
    if state.kraken:
        state.kraken -= 1
    state.row.append(card)
    state.prot.append(protect)
    state.emit({"type": "place", "seat": state.turn, "card": CARD_NAME[card], "from": source})
    state._trigger(len(state.row) - 1)


# -- end of a turn ----------------------------------------------------------------------------

def bust(state, card: int) -> None:
    """``card`` busts: protected cards go to the bank, the rest and ``card`` are discarded.

    A Davy Jones' Locker aimed at the active player takes the discarded cards instead. If the
    protected cards hold a Key and a Chest, the bonus applies, counted as the protected cards.
    """
    active = state.turn
    kept = [c for c, p in zip(state.row, state.prot) if p]
    lost = [c for c, p in zip(state.row, state.prot) if not p] + [card]
    for c in kept:
        bank(state, active, c)
    locker = next((s for s in opponents(state, active)
                   if has(state, s, "davy_jones_locker") and state.locker[s] == active), None)
    if locker is None:
        state.discard.extend(lost)
    else:
        for c in lost:
            bank(state, locker, c)
    event = {"type": "bust", "seat": active, "card": CARD_NAME[card], "kept": names(kept), "lost": names(lost)}
    if locker is not None:
        event["locker"] = locker
    state.emit(event)
    state.row, state.prot = [], []
    state.tasks.clear()
    state.pending = None
    state.tasks.append(("end",))
    if _key_and_chest(kept):
        bonus(state, len(kept))


def collect(state) -> None:
    """Bank every card of the row; then the Key/Chest bonus; then the turn ends."""
    active = state.turn
    cards = state.row
    for c in cards:
        bank(state, active, c)
    state.emit({"type": "collect", "seat": active, "cards": names(cards)})
    state.row, state.prot = [], []
    state.tasks.clear()
    state.tasks.append(("end",))
    if _key_and_chest(cards):
        bonus(state, len(cards))


def _key_and_chest(cards: list[int]) -> bool:
    suits = {suit_of(c) for c in cards}
    return KEY in suits and CHEST in suits


def bonus(state, count: int) -> None:
    """The Key/Chest bonus of ``count`` cards: random from the discard pile into the bank.

    Greedy doubles it; a Plunderer picks top cards of one opponent's bank instead.
    """
    active = state.turn
    if has(state, active, "greedy"):
        count *= 2
    if has(state, active, "plunderer"):
        legal = [[s, letter] for s in opponents(state, active) for letter in stacks_of(state, s)]
        if legal:
            ask(state, active, "plunder", legal, {"left": count, "from": None})
        return
    taken = take_random(state, count)
    for c in taken:
        bank(state, active, c)
    state.emit({"type": "bonus", "seat": active, "cards": names(taken), "from": "discard"})


def take_random(state, count: int) -> list[int]:
    """Remove ``count`` random cards (all if fewer) from the discard pile and return them."""
    discard, rng = state.discard, state.own_rng()
    taken = []
    for _ in range(min(count, len(discard))):
        i = rng.randrange(len(discard))
        discard[i], discard[-1] = discard[-1], discard[i]
        taken.append(discard.pop())
    return taken


def end_turn(state) -> None:
    """Clear the turn; end the game if the draw pile is empty, else start the next turn."""
    state.row, state.prot = [], []
    state.kraken = state.harbour = 0
    state.in_turn = False
    if not state.draw:
        state.phase = "over"
        state.emit({"type": "end", "scores": list(state.scores())})
        return
    state.turn = (state.turn + 1) % state.num_players
    start_turn(state)


def start_turn(state) -> None:
    """The mandatory first draw of a turn."""
    state.in_turn = True
    state.emit({"type": "turn", "seat": state.turn})
    enter(state, draw_top(state), "draw")


def after_card(state) -> None:
    """The draw-or-collect decision after a placed card's ability has resolved.

    An empty row (the only card went to a bank) cannot be collected; an unmet Kraken
    requirement forbids collecting unless the draw pile is empty (then it lapses).
    """
    legal = []
    if state.draw:
        legal.append("draw")
    if state.row and (state.kraken == 0 or not state.draw):
        legal.append("collect")
    if not legal:  # empty row and empty draw pile: nothing to collect, the turn just ends
        state.tasks.append(("end",))
        return
    ask(state, state.turn, "draw", legal)
