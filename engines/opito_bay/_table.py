"""The cards on the table: treasures and Queens in front of players, and what lies on them.

Every card on the table is a *node* with an id (0, 1, 2, ... in the order played during the
deal). A node is ``(card, rank, on, root)``: the card, the rank it was played as, the id of the
card it lies on (``None`` for a treasure or a Queen, which lie in front of a player) and the id
of the treasure or Queen at the bottom of its pile. Only roots have an owner; a 9 swaps the
owners of two treasure roots, which moves each pile with everything lying on it.

Scoring is exact (``fractions.Fraction``); only a player's deal total is rounded, down.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from ._cards import TREASURE_RANKS, TREASURE_VALUE

Node = tuple[str, str, "int | None", int]


class Table:
    """The table of one deal. ``aces[seat]`` is the suit of that seat's Ace."""

    __slots__ = ("nodes", "owner", "treasures")

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        #: node id -> owning seat (only meaningful for roots; ``None`` for other nodes)
        self.owner: list[int | None] = []
        #: ids of the treasure roots, in the order played
        self.treasures: list[int] = []

    def copy(self) -> Table:
        other = Table.__new__(Table)
        other.nodes = self.nodes.copy()
        other.owner = self.owner.copy()
        other.treasures = self.treasures.copy()
        return other

    # -- changes ------------------------------------------------------------------------------

    def place(self, card: str, rank: str, seat: int) -> int:
        """Put a treasure or a Queen in front of ``seat``; return its id."""
        node_id = len(self.nodes)
        self.nodes.append((card, rank, None, node_id))
        self.owner.append(seat)
        if rank in TREASURE_RANKS:
            self.treasures.append(node_id)
        return node_id

    def lay(self, card: str, rank: str, on: int) -> int:
        """Lay a 3, 7 or King on node ``on``; return its id."""
        node_id = len(self.nodes)
        self.nodes.append((card, rank, on, self.nodes[on][3]))
        self.owner.append(None)
        return node_id

    def swap(self, first: int, second: int) -> None:
        """Exchange the owners of two treasure piles (a 9)."""
        owner = self.owner
        owner[first], owner[second] = owner[second], owner[first]

    # -- queries ------------------------------------------------------------------------------

    def owner_of(self, node_id: int) -> int:
        return self.owner[self.nodes[node_id][3]]

    def is_treasure(self, node_id: int) -> bool:
        return 0 <= node_id < len(self.nodes) and self.nodes[node_id][2] is None and (
            self.nodes[node_id][1] in TREASURE_RANKS)

    def can_swap(self, seat: int) -> bool:
        """True when ``seat`` owns a treasure and another player owns one too."""
        owner = self.owner
        mine = theirs = False
        for node_id in self.treasures:
            if owner[node_id] == seat:
                mine = True
            else:
                theirs = True
        return mine and theirs

    def live(self) -> list[bool]:
        """Per node: False when a live King lies on it."""
        return live_nodes(self.nodes)

    def scores(self, aces: Sequence[str]) -> list[Fraction]:
        """The exact deal score of every seat."""
        return score_nodes(self.nodes, self.owner, aces)

    def points(self, aces: Sequence[str], live: Sequence[bool] | None = None) -> list[int]:
        """Every seat's deal score rounded down: ``deal_points(self.scores(aces))``, faster.

        ``live`` is ``self.live()`` when the caller has it already.
        """
        numerators, shift = scaled_scores(self.nodes, self.owner, aces, live)
        return [numerator >> shift for numerator in numerators]


def live_nodes(nodes: Sequence[Node]) -> list[bool]:
    """Per node: False when a live King lies on it (Kings only lie on older nodes)."""
    live = [True] * len(nodes)
    for node_id in range(len(nodes) - 1, -1, -1):
        _card, rank, on, _root = nodes[node_id]
        if rank == "K" and live[node_id]:
            live[on] = False
    return live


def scaled_scores(nodes: Sequence[Node], owner: Sequence[int | None], aces: Sequence[str],
                  live: Sequence[bool] | None = None) -> tuple[list[int], int]:
    """Every seat's exact deal score as ``(numerators, shift)``: score = numerator / 2**shift.

    Every value on the table is a whole number times a power of two, so one power-of-two
    denominator holds them all exactly; integers are an order of magnitude cheaper than
    ``Fraction`` arithmetic, and the observation scores the table on every decision.
    ``live`` is ``live_nodes(nodes)`` when the caller has it already.
    """
    if live is None:
        live = live_nodes(nodes)
    exponent = [0] * len(nodes)
    for node_id, (_card, rank, on, _root) in enumerate(nodes):
        if (rank == "3" or rank == "7") and on is not None and live[node_id]:
            exponent[on] += 1 if rank == "3" else -1
    numerators = [0] * len(aces)
    halvings: list[tuple[int, int, int]] = []  # (seat, value, power < 0): scaled once shift is known
    for node_id, (card, rank, on, _root) in enumerate(nodes):
        if on is not None or not live[node_id]:
            continue
        seat = owner[node_id]
        same_suit = card[1:] == aces[seat]  # a Joker ("X") has no suit
        if rank == "Q":
            numerators[seat] -= 4000 if same_suit else 2000
            continue
        power = exponent[node_id] + same_suit
        if power >= 0:
            numerators[seat] += (TREASURE_VALUE[rank] * 100) << power
        else:
            halvings.append((seat, TREASURE_VALUE[rank] * 100, power))
    if not halvings:
        return numerators, 0
    shift = -min(power for _seat, _value, power in halvings)
    numerators = [numerator << shift for numerator in numerators]
    for seat, value, power in halvings:
        numerators[seat] += value << (power + shift)
    return numerators, shift


def score_nodes(nodes: Sequence[Node], owner: Sequence[int | None], aces: Sequence[str]) -> list[Fraction]:
    """Exact deal scores: live treasures x 2^(Ace suit + live 3s - live 7s) minus live Queens."""
    numerators, shift = scaled_scores(nodes, owner, aces)
    return [Fraction(numerator, 1 << shift) for numerator in numerators]


def deal_points(scores: Sequence[Fraction]) -> list[int]:
    """Round each exact deal score down to an integer (totals may be negative)."""
    return [math.floor(score) for score in scores]

