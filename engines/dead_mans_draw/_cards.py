"""Cards, suits, characters and the notation used on the wire.

A card is an ``int`` inside the engine, ``suit * 10 + value`` (values 2..9 fit in one digit),
and a two-character string on the wire: the suit letter then the value, e.g. ``"A5"`` (Anchor
5) or ``"N9"`` (Mermaid 9). Banks are indexed by suit; a stack is a list sorted ascending, so
its top (highest) card is the last element.
"""

from __future__ import annotations

from collections.abc import Iterable

ANCHOR, HOOK, CANNON, KEY, CHEST, MAP, ORACLE, SWORD, KRAKEN, MERMAID = range(10)
SUITS = range(10)
#: suit index -> wire letter (Kraken is X, Mermaid is N for "nixie", Chest is T for "treasure")
LETTERS = "AHCKTMOSXN"
SUIT_OF_LETTER = {letter: suit for suit, letter in enumerate(LETTERS)}
SUIT_NAMES = ("anchor", "hook", "cannon", "key", "chest", "map", "oracle", "sword", "kraken", "mermaid")

#: card int -> wire name, for every int a card can take
CARD_NAME = {suit * 10 + value: f"{LETTERS[suit]}{value}" for suit in SUITS for value in range(2, 10)}
CARD_OF_NAME = {name: card for card, name in CARD_NAME.items()}

CHARACTERS = (
    "golden_scales", "casanova", "plunderer", "greedy", "navigator", "master_gunner", "vulture",
    "seer", "swordswoman", "miser", "captain_hook", "safe_harbour", "fisherman", "beast_master",
    "misfire", "living_shield", "davy_jones_locker",
)
#: the extra character of the Mermaid-effect variant
SIREN = "siren"


def suit_of(card: int) -> int:
    return card // 10


def value_of(card: int) -> int:
    return card % 10


def names(cards: Iterable[int]) -> list[str]:
    return [CARD_NAME[card] for card in cards]


def parse(name: str) -> int:
    """The card int of a wire name such as ``"A5"``; raises ``KeyError`` if there is none."""
    return CARD_OF_NAME[name]


def one_set(mermaid_effect: bool) -> tuple[list[int], list[int]]:
    """One box of loot: ``(discard pile, draw pile)`` before shuffling.

    The discard pile holds the lowest card of every suit. With the Mermaid effect the
    Mermaids are 2..7 like every other suit, so the Mermaid 2 starts in the discard pile.
    """
    discard, draw = [], []
    for suit in SUITS:
        low = 4 if suit == MERMAID and not mermaid_effect else 2
        cards = [suit * 10 + value for value in range(low, low + 6)]
        discard.append(cards[0])
        draw.extend(cards[1:])
    return discard, draw


def deck(mermaid_effect: bool, party: bool) -> tuple[list[int], list[int]]:
    """All loot of a game (two sets for the Pirate Party): ``(discard pile, draw pile)``."""
    discard, draw = one_set(mermaid_effect)
    copies = 2 if party else 1
    return discard * copies, draw * copies


def character_pool(mermaid_effect: bool, party: bool) -> list[str]:
    """Every character card in the box(es), as a list with repeats for the Pirate Party."""
    pool = list(CHARACTERS) + ([SIREN] if mermaid_effect else [])
    return pool * (2 if party else 1)


def all_cards(mermaid_effect: bool, party: bool) -> list[int]:
    discard, draw = deck(mermaid_effect, party)
    return discard + draw
