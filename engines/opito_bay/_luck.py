"""How the arena's chance correction values an Opito Bay state for each seat
(:meth:`~._state.OpitoState.luck_features`): its total, what the table would score now, and
the worth of its hand."""

from __future__ import annotations

from collections.abc import Sequence

#: a rough worth of a card in hand, for :func:`luck_features` (treasures: face value)
_CARD_WORTH = {"X": 1500, "3": 900, "K": 800, "Q": 1200, "9": 500, "7": 400, "5": 300, "J": 200,
               "2": 200, "4": 400, "6": 600, "8": 800, "T": 1000}


_AVERAGE_WORTH = 650  # about the mean of _CARD_WORTH over a deck, own-suit treasures included


def _hand_worth(card: str, suit: str) -> int:
    worth = _CARD_WORTH.get(card[0], 0)
    return 2 * worth if card[0] in "2468T" and card[1:] == suit else worth


def luck_features(totals: Sequence[int], now: Sequence[int], aces: Sequence[str],
                  hands: Sequence[Sequence[str]], viewer: int | None = None) -> list[float]:
    """Per seat, its total so far, what the table would score now (``now``), and the worth of
    its hand (``aces``: each seat's Ace suit); with a ``viewer``, the other hands at an average
    worth per card (see the method)."""
    return [total + points + (sum(_hand_worth(card, aces[seat]) for card in hands[seat])
                              if viewer is None or seat == viewer else _AVERAGE_WORTH * len(hands[seat]))
            for seat, (total, points) in enumerate(zip(totals, now))]
