"""Suit abilities (one trigger per suit) and the resolvers of every decision kind.

``TRIGGERS[suit](state, index)`` runs when the card at ``row[index]`` is placed (or moved by
a Mermaid). A trigger that needs a choice posts it with :func:`_rules.ask`;
``RESOLVERS[kind](state, player, action, info)`` carries out the chosen (already validated)
action. Characters are consulted where their ability changes a suit's effect.
"""

from __future__ import annotations

from ._cards import (
    ANCHOR, CANNON, CARD_NAME, CHEST, HOOK, KEY, KRAKEN, MAP, MERMAID, ORACLE, SUIT_OF_LETTER,
    SWORD, names, parse, suit_of,
)
from ._rules import (
    ask, bank, collect, draw_top, end_turn, enter, has, opponent_has, opponents, stacks_of,
    start_turn, take_random,
)


def _no_effect(state, suit: str) -> None:
    state.emit({"type": "no_effect", "seat": state.turn, "suit": suit})


# -- triggers ---------------------------------------------------------------------------------

def anchor(state, index: int) -> None:
    """Protect every card before the Anchor (Safe Harbour: the Anchor and the next 2 too)."""
    prot = state.prot
    for j in range(index):
        prot[j] = True
    if has(state, state.turn, "safe_harbour"):
        prot[index] = True
        state.harbour = 2


def hook(state, index: int) -> None:
    """Choose one of your own stacks; its top card enters the play area (Miser: protected)."""
    active = state.turn
    if has(state, active, "miser"):
        state.prot[index] = True
    legal = stacks_of(state, active)
    if legal:
        ask(state, active, "hook", legal, {"second": False})
    else:
        _no_effect(state, "hook")


def hook_second(state, first_suit: str) -> None:
    """Captain Hook's second card, from another stack, unless the first card busted."""
    legal = stacks_of(state, state.turn, exclude=SUIT_OF_LETTER[first_suit])
    if legal:
        ask(state, state.turn, "hook", legal, {"second": True})


def cannon(state, index: int) -> None:
    """Discard the top card of an opponent's stack (Misfire: of one of your own stacks)."""
    active = state.turn
    if opponent_has(state, active, "misfire"):
        legal = [[active, letter] for letter in stacks_of(state, active)]
    else:
        legal = [[seat, letter] for seat in opponents(state, active) for letter in stacks_of(state, seat)]
    if legal:
        ask(state, active, "cannon", legal)
    else:
        _no_effect(state, "cannon")


def map_(state, index: int) -> None:
    """Reveal 3 random cards of the discard pile (Navigator: all of it); one will enter."""
    active = state.turn
    discard = state.discard
    if not discard:
        _no_effect(state, "map")
        return
    if has(state, active, "navigator"):
        cards = discard[:]
        discard.clear()
    else:
        cards = take_random(state, 3)
    state.emit({"type": "map", "seat": active, "cards": names(cards)})
    ask(state, active, "map", sorted(set(names(cards))), {"cards": cards})


def oracle(state, index: int) -> None:
    """Reveal the top card to all (Seer: look at up to 3, privately); then place or collect."""
    active = state.turn
    draw = state.draw
    if not draw:
        _no_effect(state, "oracle")
        return
    if has(state, active, "seer"):
        look = draw[-3:][::-1]
        state.known[active] = max(state.known[active], len(look))
        state.emit({"type": "seer", "seat": active, "count": len(look)})
        state.emit({"type": "look", "seat": active, "cards": names(look)}, frozenset((active,)))
    else:
        state.known = [max(k, 1) for k in state.known]
        state.emit({"type": "oracle", "seat": active, "card": CARD_NAME[draw[-1]]})
    ask(state, active, "oracle", ["place"] if state.kraken else ["place", "collect"])


def sword(state, index: int) -> None:
    """Take an opponent's top card of a suit missing from your bank into the play area.

    Swordswoman: any suit. An opponent's Living Shield: it must be a Kraken, from any opponent.
    """
    active = state.turn
    banks = state.banks
    if opponent_has(state, active, "living_shield"):
        legal = [[seat, "X"] for seat in opponents(state, active) if banks[seat][KRAKEN]]
    else:
        exclude_own = not has(state, active, "swordswoman")
        own = banks[active]
        legal = [[seat, letter] for seat in opponents(state, active) for letter in stacks_of(state, seat)
                 if not (exclude_own and own[SUIT_OF_LETTER[letter]])]
    if legal:
        ask(state, active, "sword", legal)
    else:
        _no_effect(state, "sword")


def kraken(state, index: int) -> None:
    """At least 2 more cards (4 against a Beast Master) must be placed before collecting."""
    state.kraken = 4 if opponent_has(state, state.turn, "beast_master") else 2


def mermaid(state, index: int) -> None:
    """Mermaid effect variant only: move a card placed before it to the end and re-trigger it.

    Casanova becomes sir Lovesword: he may bank that card instead.
    """
    if not state.mermaid_effect or index == 0:
        return
    legal = [["move", j] for j in range(index)]
    if has(state, state.turn, "casanova"):
        legal += [["bank", j] for j in range(index)]
    ask(state, state.turn, "mermaid", legal)


def _nothing(state, index: int) -> None:
    """Key and Chest act only when the row is collected."""


TRIGGERS = {
    ANCHOR: anchor, HOOK: hook, CANNON: cannon, KEY: _nothing, CHEST: _nothing, MAP: map_,
    ORACLE: oracle, SWORD: sword, KRAKEN: kraken, MERMAID: mermaid,
}


# -- resolvers --------------------------------------------------------------------------------

def resolve_draw(state, player: int, action: str, info: dict) -> None:
    if action == "draw":
        enter(state, draw_top(state), "draw")
    else:
        collect(state)


def resolve_hook(state, player: int, action: str, info: dict) -> None:
    suit = SUIT_OF_LETTER[action]
    if has(state, player, "captain_hook") and not info["second"]:
        state.tasks.append(("hook2", action))
    card = state.banks[player][suit].pop()
    state.emit({"type": "hook", "seat": player, "card": CARD_NAME[card]})
    enter(state, card, "bank", protect=has(state, player, "miser"))


def resolve_cannon(state, player: int, action: list, info: dict) -> None:
    seat, letter = action
    stack = state.banks[seat][SUIT_OF_LETTER[letter]]
    if has(state, player, "master_gunner"):
        hit = stack[:]
        stack.clear()
    else:
        hit = [stack.pop()]
    to_bank = seat != player and has(state, player, "vulture")
    if to_bank:
        for card in hit:
            bank(state, player, card)
    else:
        state.discard.extend(hit)
    state.emit({"type": "cannon", "seat": player, "target": seat, "cards": names(hit),
                "to": "bank" if to_bank else "discard"})


def resolve_map(state, player: int, action: str, info: dict) -> None:
    cards = list(info["cards"])
    card = parse(action)
    cards.remove(card)
    state.discard.extend(cards)
    enter(state, card, "discard")


def resolve_oracle(state, player: int, action: str, info: dict) -> None:
    if action == "place":
        enter(state, draw_top(state), "draw")
    else:
        collect(state)


def resolve_sword(state, player: int, action: list, info: dict) -> None:
    seat, letter = action
    card = state.banks[seat][SUIT_OF_LETTER[letter]].pop()
    state.emit({"type": "sword", "seat": player, "target": seat, "card": CARD_NAME[card]})
    enter(state, card, "bank")


def resolve_mermaid(state, player: int, action: list, info: dict) -> None:
    mode, j = action
    card = state.row.pop(j)
    protected = state.prot.pop(j)
    if mode == "bank":
        bank(state, player, card)
        state.emit({"type": "lovesword", "seat": player, "card": CARD_NAME[card]})
        return
    siren = next((seat for seat in opponents(state, player) if has(state, seat, "siren")), None)
    if siren is not None:
        bank(state, siren, card)
        state.emit({"type": "siren", "seat": siren, "card": CARD_NAME[card]})
        return
    state.row.append(card)
    state.prot.append(protected)
    state.emit({"type": "move", "seat": player, "card": CARD_NAME[card]})
    if suit_of(card) != MERMAID:  # two Mermaids (Strange Waters) would move each other forever
        state._trigger(len(state.row) - 1)


def resolve_plunder(state, player: int, action: list, info: dict) -> None:
    seat, letter = action
    card = state.banks[seat][SUIT_OF_LETTER[letter]].pop()
    bank(state, player, card)
    state.emit({"type": "bonus", "seat": player, "cards": [CARD_NAME[card]], "from": seat})
    left = info["left"] - 1
    legal = [[seat, other] for other in stacks_of(state, seat)] if left else []
    if legal:
        ask(state, player, "plunder", legal, {"left": left, "from": seat})


def resolve_locker(state, player: int, action: int, info: dict) -> None:
    state.locker[player] = action
    state.emit({"type": "locker", "seat": player, "target": action})


RESOLVERS = {
    "draw": resolve_draw, "hook": resolve_hook, "cannon": resolve_cannon, "map": resolve_map,
    "oracle": resolve_oracle, "sword": resolve_sword, "mermaid": resolve_mermaid,
    "plunder": resolve_plunder, "locker": resolve_locker,
}


def _ask_locker(state, seat: int) -> None:
    ask(state, seat, "locker", opponents(state, seat))


TASKS = {"start": start_turn, "end": end_turn, "hook2": hook_second, "locker": _ask_locker}
