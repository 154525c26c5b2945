"""What each player privately knows beyond their hand: the cards they saw with a 5.

``top[seat]`` lists what ``seat`` knows about the library from the top down: a card, or
``None`` for a position whose card (or order) they do not know; it never ends in ``None``.
``hands[seat][other]`` lists the cards ``seat`` knows are in ``other``'s hand because
``seat`` saw them on top of the library before ``other`` drew them.

Deliberately not tracked (a player may remember it, the observation does not carry it):
which cards lie at the bottom of the library after a Kraken, and the *set* of cards in a
window that another player's 5 has reordered.
"""

from __future__ import annotations


class Knowledge:
    __slots__ = ("top", "hands")

    def __init__(self, num_players: int) -> None:
        self.top: list[list[str | None]] = [[] for _ in range(num_players)]
        self.hands: list[list[list[str]]] = [[[] for _ in range(num_players)] for _ in range(num_players)]

    def copy(self) -> Knowledge:
        other = Knowledge.__new__(Knowledge)
        other.top = [known.copy() for known in self.top]
        other.hands = [[cards.copy() for cards in row] for row in self.hands]
        return other

    def drew(self, drawer: int) -> None:
        """The top card of the library went into ``drawer``'s hand."""
        for seat, known in enumerate(self.top):
            if known:
                card = known.pop(0)
                if card is not None and seat != drawer:
                    self.hands[seat][drawer].append(card)
                while known and known[-1] is None:
                    known.pop()

    def left_hand(self, seat: int, card: str) -> None:
        """``seat`` played or discarded ``card`` (now public)."""
        for row in self.hands:
            if card in row[seat]:
                row[seat].remove(card)

    def hand_gone(self, seat: int) -> None:
        """``seat``'s hand went to the bottom of the library (a Kraken)."""
        for row in self.hands:
            row[seat] = []

    def looked(self, seat: int, cards: list[str]) -> None:
        """``seat`` put ``cards`` (top first) back on top in this order; others lose that order."""
        window = len(cards)
        self.top[seat] = cards + self.top[seat][window:]
        for other, known in enumerate(self.top):
            if other != seat and known:
                known[:window] = [None] * min(window, len(known))
                while known and known[-1] is None:
                    known.pop()

    def clear(self) -> None:
        for known in self.top:
            known.clear()
        for row in self.hands:
            for cards in row:
                cards.clear()
