"""Cards of Opito Bay: the notation, the deck and what each rank does.

A card is a short string: a rank character then a suit character.

- ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (``T`` is the 10);
- suits ``D S C H`` (diamonds, spades, clubs, hearts), which are also the compass points
  North, East, South, West in clockwise order: an Ace's suit is its player's point;
- a Joker is ``X`` (no suit; the three Jokers are indistinguishable).

A card played on the table also has the rank it was played *as* (a single rank character):
its own rank, or for a Joker the rank chosen when playing it.
"""

from __future__ import annotations

SUITS = "DSCH"
#: compass letter of each suit, in clockwise seating order N, E, S, W
POINTS = {"D": "N", "S": "E", "C": "S", "H": "W"}
JOKER = "X"
#: ranks a Joker may be played as (any but Ace and Queen), in play-menu order
JOKER_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "K")
TREASURE_RANKS = frozenset("2468T")
#: face value of each treasure rank (x 100 points)
TREASURE_VALUE = {"2": 2, "4": 4, "6": 6, "8": 8, "T": 10}
#: ranks that go to the graveyard after their effect
TO_GRAVEYARD = frozenset("59J")

#: the 51 cards that are shuffled each deal (no Aces), in a fixed order
DECK: tuple[str, ...] = tuple(
    rank + suit for suit in SUITS for rank in "23456789TJQK"
) + (JOKER, JOKER, JOKER)
ACES: tuple[str, ...] = tuple("A" + suit for suit in SUITS)


def suit_of(card: str) -> str | None:
    """The suit character of ``card``, or ``None`` for a Joker."""
    return card[1] if len(card) == 2 else None


def rank_of(card: str) -> str:
    """The printed rank of ``card`` (``X`` for a Joker)."""
    return card[0]


def is_card(value: object) -> bool:
    """True when ``value`` is the notation of a card that can be in a hand or on the table."""
    return value == JOKER or (isinstance(value, str) and len(value) == 2 and value[0] in "23456789TJQK"
                              and value[1] in SUITS)
