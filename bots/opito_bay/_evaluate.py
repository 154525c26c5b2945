"""Reading an Opito Bay observation: the table as the engine's nodes, and what a play is worth.

A play is judged by the standing it leaves: ``my total + my deal score - the mean of the
other seats'``, scored exactly with the engine's own ``score_nodes``. With two players that is
the lead over the opponent. With more, every other seat counts alike, as it does in the
ratings (each pair of players is compared): a play that costs the leader 1000 is worth as much
as one that costs the last seat 1000. Playing against the best other seat alone, as this
module once did, spent every 7, Queen and Kraken on the leader and let the others run; in
4-player single deals the heuristic then placed barely above random play (bots/README.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.opito_bay import score_nodes

#: what a card in hand is worth to its holder, roughly (treasures: face value, doubled in suit)
CARD_WORTH = {"X": 1500, "3": 900, "K": 800, "Q": 1200, "9": 500, "7": 400, "5": 300, "J": 200}
TREASURES = {"2": 200, "4": 400, "6": 600, "8": 800, "T": 1000}


def card_worth(card: str, suit: str) -> int:
    """What ``card`` in hand is worth to a player whose Ace suit is ``suit``."""
    base = TREASURES.get(card[0])
    if base is None:
        return CARD_WORTH[card[0]]
    return base * 2 if card[1:] == suit else base



def order_look(cards: Sequence[str], me: int, order: Sequence[int], hand_sizes: Sequence[int],
               suits: Sequence[str]) -> list[str]:
    """A 5's look, top first: the best card (``card_worth``) where I draw, the worst for each
    other seat where it draws, in turn ``order`` (a seat with no cards left draws no more)."""
    drawers = [seat for seat in order if hand_sizes[seat] or seat == me]
    start = drawers.index(me)
    cards = list(cards)
    result = []
    for position in range(len(cards)):
        drawer = drawers[(start + position) % len(drawers)]
        pick = (max if drawer == me else min)(cards, key=lambda card: card_worth(card, suits[drawer]))
        cards.remove(pick)
        result.append(pick)
    return result

class Board:
    """The table of an observation, ready for trying plays on."""

    __slots__ = ("me", "aces", "totals", "nodes", "owner")

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self.me: int = obs["seat"]
        self.aces: list[str] = [ace[1] for ace in obs["aces"]]
        self.totals: list[int] = list(obs["totals"])
        self.nodes: list[tuple] = []
        self.owner: list[int | None] = []
        for node in obs["table"]:
            on = node["on"]
            root = len(self.nodes) if on is None else self.nodes[on][3]
            self.nodes.append((node["card"], node["as"], on, root))
            self.owner.append(node["owner"] if on is None else None)

    def standing(self, nodes: Sequence[tuple] | None = None, owner: Sequence[int | None] | None = None) -> float:
        """My total and deal score minus the mean of the other seats'."""
        scores = score_nodes(self.nodes if nodes is None else nodes, self.owner if owner is None else owner,
                             self.aces)
        mine = self.totals[self.me] + scores[self.me]
        others = sum(self.totals[seat] + scores[seat] for seat in range(len(scores)) if seat != self.me)
        return float(mine - others / (len(scores) - 1))

    def after_place(self, card: str, rank: str, seat: int) -> float:
        return self.standing(self.nodes + [(card, rank, None, len(self.nodes))], self.owner + [seat])

    def after_lay(self, card: str, rank: str, on: int) -> float:
        return self.standing(self.nodes + [(card, rank, on, self.nodes[on][3])], self.owner + [None])

    def after_swap(self, mine: int, theirs: int) -> float:
        owner = list(self.owner)
        owner[mine], owner[theirs] = owner[theirs], owner[mine]
        return self.standing(owner=owner)

    def treasures(self) -> list[int]:
        return [node_id for node_id, (_card, rank, on, _root) in enumerate(self.nodes)
                if on is None and rank != "Q"]


def best_completion(board: Board, obs: Mapping[str, Any], card: str, rank: str) -> tuple[float, Any]:
    """The best standing reachable by playing ``card`` as ``rank``, and the target giving it.

    The target is a node id (3, 7, K), a seat (Q, J), a ``(mine, theirs)`` pair (9) or
    ``None``. A 5 and a Jack are valued with rough estimates, not by the table.
    """
    me = board.me
    if rank in TREASURES:
        return board.after_place(card, rank, me), None
    if rank in "37":
        return max((board.after_lay(card, rank, node), node) for node in board.treasures())
    if rank == "K":
        return max((board.after_lay(card, rank, node), node) for node in range(len(board.nodes)))
    if rank == "Q":
        return max((board.after_place(card, rank, seat), seat) for seat in range(len(board.aces)))
    if rank == "9":
        treasures = board.treasures()
        pairs = [(a, b) for a in treasures if board.owner[a] == me for b in treasures if board.owner[b] != me]
        return max((board.after_swap(a, b), (a, b)) for a, b in pairs)
    now = board.standing()
    if rank == "5":
        return now + (250 if obs["library"] > 1 else 0), None
    return kraken_choice(board, obs, now, card)


def kraken_choice(board: Board, obs: Mapping[str, Any], now: float, card: str) -> tuple[float, Any]:
    """A Jack: hit myself when the known top of the library beats my hand, else the other seat
    it hurts most (an unknown card counts 600; ties go to the leader, then the lower seat).

    Harm to another seat counts for a share of it, as in ``Board.standing``.
    """
    if obs["library"] < 5:
        return now, None
    me, aces = board.me, board.aces
    top = (list(obs["library_top"]) + [None] * 5)[:5]
    mine_new = sum(600 if seen is None else card_worth(seen, aces[me]) for seen in top)
    hand = list(obs["hand"])
    if obs["pending"] is None:
        hand.remove(card)  # judging the Jack while it is still in the hand
    mine_old = sum(card_worth(held, aces[me]) for held in hand)
    others = [seat for seat in range(len(aces)) if seat != me]

    def harm(seat: int) -> float:
        theirs_new = sum(600 if seen is None else card_worth(seen, aces[seat]) for seen in top)
        return (600 * obs["hand_sizes"][seat] - theirs_new) / len(others)

    victim = max(others, key=lambda seat: (harm(seat), board.totals[seat], -seat))
    self_gain = mine_new - mine_old
    other_gain = harm(victim)
    if self_gain > other_gain and self_gain > 0:
        return now + self_gain / 2, me
    return now + max(other_gain, 0) / 2, victim
