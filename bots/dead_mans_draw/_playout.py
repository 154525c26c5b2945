"""The fast playout policy of the search: the heuristic's judgement, read from a full state.

The search plays thousands of turns per move on determinized states, so it cannot afford to
build observations. These functions make the heuristic's choices (``_heuristic``) from the
state itself, using only what the seat to act may know: the draw pile's *composition* (which
equals the cards it has not seen), never its order, except the top cards that seat has seen.
"""

from __future__ import annotations

import random
from typing import Any

from engines.dead_mans_draw import DeadMansDrawState, parse
from engines.dead_mans_draw._cards import CHEST, KEY, LETTERS, SUIT_OF_LETTER
from engines.dead_mans_draw._rules import busts, has

from ._heuristic import ABILITY_BONUS, MOVE_VALUE


def _top(stack: list[int]) -> int:
    return stack[-1] % 10 if stack else 0


def _row_at_risk(state: DeadMansDrawState, stacks: list[list[int]]) -> float:
    """The part of the row's gain a bust would lose (with the heuristic's Key/Chest bonus)."""
    best: dict[int, int] = {}
    kept: dict[int, int] = {}
    total = saved = 0
    suits = set()
    for card, safe in zip(state.row, state.prot):
        suit, value = divmod(card, 10)
        suits.add(suit)
        base = max(best.get(suit, 0), _top(stacks[suit]))
        if value > base:
            total += value - base
            best[suit] = value
        if safe:
            base = max(kept.get(suit, 0), _top(stacks[suit]))
            if value > base:
                saved += value - base
                kept[suit] = value
    if KEY in suits and CHEST in suits:
        total += 1.5 * len(state.row)
    return total - saved


def draw_or_collect(state: DeadMansDrawState, legal: list[str]) -> str:
    """Draw while (1 - p) * (mean gain of a safe card + ability bonus) > p * (row at risk)."""
    if len(legal) == 1:
        return legal[0]
    me = state.turn
    stacks = state.banks[me]
    draw = state.draw
    if state.known[me]:
        return "collect" if busts(state, draw[-1]) else "draw"
    strange = state.strange_waters
    taken = {card % 10 if strange else card // 10 for card in state.row}
    tops = [stack[-1] % 10 if stack else 0 for stack in stacks]
    bad = 0
    gained = 0
    for card in draw:
        suit, value = divmod(card, 10)
        if (value if strange else suit) in taken:
            bad += 1
        elif value > tops[suit]:
            gained += value - tops[suit]
    good = len(draw) - bad
    if not good:
        return "collect"
    p = bad / len(draw)
    return "draw" if (1 - p) * (gained / good + ABILITY_BONUS) > p * _row_at_risk(state, stacks) else "collect"


def _loss(stack: list[int], whole: bool = False) -> int:
    if not stack:
        return 0
    return stack[-1] % 10 - (0 if whole or len(stack) == 1 else stack[-2] % 10)


def _gain(stacks: list[list[int]], card: int) -> int:
    return max(0, card % 10 - _top(stacks[card // 10]))


def choose(state: DeadMansDrawState, kind: str, legal: list, rng: random.Random) -> Any:
    """The heuristic's choice for a targeting decision (hook, sword, map, cannon, ...)."""
    me = state.acting[0]
    banks = state.banks
    mine = banks[me]
    if kind == "oracle":
        return "collect" if "collect" in legal and busts(state, state.draw[-1]) else "place"
    if kind == "hook":
        options = [a for a in legal if not busts(state, mine[SUIT_OF_LETTER[a]][-1])] or legal
        return min(options, key=lambda letter: _loss(mine[SUIT_OF_LETTER[letter]]))
    if kind == "sword" or kind == "plunder":
        def worth(target):
            stack = banks[target[0]][SUIT_OF_LETTER[target[1]]]
            return _gain(mine, stack[-1]) + _loss(stack)
        options = legal
        if kind == "sword":
            options = [t for t in legal if not busts(state, banks[t[0]][SUIT_OF_LETTER[t[1]]][-1])] or legal
        return max(options, key=worth)
    if kind == "map":
        cards = [parse(name) for name in legal]
        options = [card for card in cards if not busts(state, card)] or cards
        return legal[cards.index(max(options, key=lambda card: _gain(mine, card)))]
    if kind == "cannon":
        whole = has(state, me, "master_gunner")
        vulture = has(state, me, "vulture")

        def hurt(target):
            seat, letter = target
            stack = banks[seat][SUIT_OF_LETTER[letter]]
            damage = _loss(stack, whole)
            if seat == me:
                return -damage
            return damage + (_gain(mine, stack[-1]) if vulture else 0)
        return max(legal, key=hurt)
    if kind == "mermaid":
        row = state.row
        return max(legal, key=lambda a: _gain(mine, row[a[1]]) + 2 if a[0] == "bank"
                   else MOVE_VALUE.get(LETTERS[row[a[1]] // 10], 0))
    return legal[rng.randrange(len(legal))]


def act(state: DeadMansDrawState, rng: random.Random) -> Any:
    """The playout policy's action for the seat to act (play phase only)."""
    _, kind, legal, _ = state.pending
    if kind == "draw":
        return draw_or_collect(state, legal)
    return choose(state, kind, legal, rng)
