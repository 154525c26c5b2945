"""What the visible table is worth: stack tops, a card's gain, the unseen cards, bust odds.

Everything here reads an observation (see ``protocol/games/dead-mans-draw.md``) only.
"""

from __future__ import annotations

from collections import Counter

from engines.dead_mans_draw._cards import CARD_NAME, all_cards

_DECKS: dict[tuple[bool, bool], Counter] = {
    (mermaid, party): Counter(CARD_NAME[card] for card in all_cards(mermaid, party))
    for mermaid in (False, True) for party in (False, True)
}


def tops(bank: dict[str, list[str]]) -> dict[str, int]:
    """Suit letter -> value of that stack's top card."""
    return {letter: int(cards[0][1]) for letter, cards in bank.items()}


def gain(top: dict[str, int], card: str) -> int:
    """How much banking ``card`` raises a score whose stack tops are ``top``."""
    return max(0, int(card[1]) - top.get(card[0], 0))


def loss(bank: dict[str, list[str]], letter: str, whole: bool = False) -> int:
    """How much losing the top card (or the whole stack) of ``letter`` lowers the score."""
    stack = bank.get(letter, [])
    if not stack:
        return 0
    rest = 0 if whole or len(stack) == 1 else int(stack[1][1])
    return int(stack[0][1]) - rest


def row_gain(top: dict[str, int], cards: list[str]) -> int:
    """The score gained by banking ``cards`` together."""
    best = dict(top)
    total = 0
    for card in cards:
        value = int(card[1])
        if value > best.get(card[0], 0):
            total += value - best.get(card[0], 0)
            best[card[0]] = value
    return total


def unseen(obs: dict) -> Counter:
    """The multiset of cards the seat has not seen: the draw pile less its known top cards."""
    options = obs["options"]
    counts = _DECKS[(options["mermaid_effect"], options["party"])].copy()
    counts.subtract(obs["discard"])
    counts.subtract(obs["row"])
    counts.subtract(obs["draw_known"])
    pending = obs.get("pending") or {}
    counts.subtract(pending.get("cards", ()))
    for bank in obs["banks"]:
        for cards in bank.values():
            counts.subtract(cards)
    return +counts


def busts(obs: dict, card: str) -> bool:
    """Whether ``card`` would bust the row now."""
    index = 1 if obs["options"]["strange_waters"] else 0
    return any(other[index] == card[index] for other in obs["row"])


def draw_odds(obs: dict) -> tuple[float, float]:
    """(chance the next draw busts, mean gain of the next card if it does not)."""
    me = obs["seat"]
    top = tops(obs["banks"][me])
    if obs["draw_known"]:
        card = obs["draw_known"][0]
        return (1.0, 0.0) if busts(obs, card) else (0.0, float(gain(top, card)))
    counts = unseen(obs)
    total = sum(counts.values())
    if not total:
        return 0.0, 0.0
    bad = sum(n for card, n in counts.items() if busts(obs, card))
    good = total - bad
    mean = sum(n * gain(top, card) for card, n in counts.items() if not busts(obs, card)) / good if good else 0.0
    return bad / total, mean
