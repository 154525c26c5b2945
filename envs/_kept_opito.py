"""Opito Bay's kept observation tensor (``envs._kept``): the codec's layout, written from
the engine's own fields as they change.

A step changes one hand, the hand sizes, the library and either the graveyard or the table,
and the turn. This deal's points (``Table.points``, the observation's most expensive field)
are kept per pile instead of scoring the table: a treasure or a Queen adds its pile's term, a
3 or a 7 doubles or halves one, and only a King (what is live) or a 9 (who owns what) makes
the terms of the piles it touched be computed again.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary


from engines import State
from engines.opito_bay._cards import TREASURE_VALUE

from ._codec import Codec
from ._kept import Kept
from ._opito_bay import CARD_SLOT, CARDS, DECISIONS, NODES, RANKS, WINDOW, squash

_RANK = {rank: index for index, rank in enumerate(RANKS)}
_RANKS = len(RANKS)
_DECISION = {decision: index for index, decision in enumerate(DECISIONS)}
_MISSING = object()
#: deal points are kept as integers times 2**_SCALE: a 7 halves a treasure, and no treasure
#: lies under more than the 4 Sevens and 3 Jokers (its own Ace suit doubling it once more)
_SCALE = 16


#: codec -> its seat-independent index tables (a kept tensor is made for every seat of every
#: game: building them each time was half of its making)
_TABLES: WeakKeyDictionary = WeakKeyDictionary()


def _tables(codec: Codec) -> tuple[dict[str, int], dict[str, int], list[int], tuple[int, int, int, int]]:
    """``codec``'s decision and hand indices, each node's owner block and the table's
    segments, made once per codec."""
    tables = _TABLES.get(codec)
    if tables is None:
        off = codec._off
        n = codec.num_players
        tables = _TABLES[codec] = (
            {decision: off["decision"] + index for decision, index in _DECISION.items()},
            {card: off["hand"] + slot for card, slot in CARD_SLOT.items()},
            [off["table_owner"] + node * n for node in range(NODES)],
            (off["table_card"], off["table_as"], off["table_on"], off["table_live"]))
    return tables


class KeptOpitoBay(Kept):
    def __init__(self, codec: Codec, seat: int) -> None:
        super().__init__(codec, seat)
        off = self.off
        n = codec.num_players
        self.turn_at = [off["turn"] + rel for rel in self.rel]
        self.decision_at, self.hand_at, self.owner_base, self.table_bases = _tables(codec)
        #: the one-hot indices written (-1: none)
        self.turn = self.decision = -1
        self.deal = self.library = self.window = None
        self.totals: list[int] | None = None
        self.sizes: list[int] | None = None
        self.hand: list[str] = []
        self.grave: list[str] | None = None
        self.grave_len = 0
        self.nodes: list | None = None
        self.nodes_len = 0
        self.owners: list[int | None] = []
        self.node_owner: list[int] = []
        self.node_live: list[bool] = []
        self.pending: object = _MISSING
        self.swap_from: object = _MISSING
        self.looking: list[str] = []
        self.looking_hits: list[int] = []
        self.top: list[str | None] | None = None
        self.top_hits: list[int] = []
        self.seen: list[list[str]] | None = None
        self.seen_hits: list[int] = []
        self.table_from = off["table_card"]
        self.table_to = off["table_live"] + NODES  # table_card .. table_live are contiguous
        #: per seat, the deal points written (the tensor starts at squash(0) = 0)
        self.points = [0] * n
        self.points_at = [off["deal_points"] + rel for rel in self.rel]
        self.aces: list[str] = []
        #: pile bottom -> live 3s less live 7s on it; per seat, its deal score times 2**_SCALE
        self.exponent: dict[int, int] = {}
        self.scaled = [0] * n

    def _start(self, state: State) -> None:
        out = self.out
        off = self.off
        rel = self.rel
        max_deals = state.max_deals
        options = state.options
        out[off["deals"]] = options["deals"] / max_deals
        out[off["target"]] = options["target"] / (options["target"] + 50000)
        self.aces = state.aces
        for seat, suit in enumerate(state.aces):
            out[off["aces"] + rel[seat] * 4 + "DSCH".index(suit)] = 1.0

    def _update(self, state: State) -> None:
        out = self.out
        off = self.off
        me = self.seat
        rel = self.rel
        if state.deal != self.deal:
            self.deal = state.deal
            out[off["deal"]] = state.deal / state.max_deals
        totals = state.totals
        if totals != self.totals:
            self.totals = list(totals)
            self._seat_values(off["totals"], [squash(total, 10000) for total in totals])
        # turn and decision (none once the game is over): two one-hots, each an index or -1
        turn, decision = (self.turn_at[state.turn], self.decision_at[state.phase]) if state.acting else (-1, -1)
        if turn != self.turn:
            self.turn = self._one_hot(self.turn, turn)
        if decision != self.decision:
            self.decision = self._one_hot(self.decision, decision)
        hands = state.hands
        hand = hands[me]
        if hand != self.hand:  # a card or two played and drawn: count only those
            at = self.hand_at
            rest = self.hand
            for card in hand:
                if card in rest:
                    rest.remove(card)
                else:
                    out[at[card]] += 1.0
            for card in rest:
                out[at[card]] -= 1.0
            self.hand = hand.copy()
        sizes = list(map(len, hands))
        if sizes != self.sizes:
            self.sizes = sizes
            base = off["hand_sizes"]
            for seat, size in enumerate(sizes):
                out[base + rel[seat]] = size / 5
        if len(state.library) != self.library:
            self.library = len(state.library)
            out[off["library"]] = self.library / NODES
        grave = state.graveyard
        if grave is not self.grave or len(grave) != self.grave_len:
            self._graveyard(grave)
        table = state.table
        if table.nodes is not self.nodes or len(table.nodes) != self.nodes_len or table.owner != self.owners:
            self._table(state)
        pending = state.pending
        if pending != self.pending:
            old = self.pending
            if old is not None and old is not _MISSING:
                out[off["pending_card"] + CARD_SLOT[old[0]]] = 0.0
                out[off["pending_as"] + _RANK[old[1]]] = 0.0
            if pending is not None:
                out[off["pending_card"] + CARD_SLOT[pending[0]]] = 1.0
                out[off["pending_as"] + _RANK[pending[1]]] = 1.0
            self.pending = pending
        if state.swap_from != self.swap_from:
            if self.swap_from is not None and self.swap_from is not _MISSING:
                out[off["swap_from"] + self.swap_from] = 0.0
            self.swap_from = state.swap_from
            if self.swap_from is not None:
                out[off["swap_from"] + self.swap_from] = 1.0
        if state.window != self.window:
            self.window = state.window
            out[off["window"]] = self.window / WINDOW
        looking = state.looking() if state.phase == "spyglass" and state.turn == me else []
        if looking != self.looking:
            base = off["looking"]
            hits = [base + i * CARDS + CARD_SLOT[card] for i, card in enumerate(looking)]
            self._move(self.looking_hits, hits)
            self.looking, self.looking_hits = looking, hits
        know = state.know
        top = know.top[me]
        if top != self.top:
            base = off["library_top"]
            hits = [base + i * (CARDS + 1) + (CARDS if card is None else CARD_SLOT[card]) for i, card in enumerate(top)]
            self._move(self.top_hits, hits)
            self.top, self.top_hits = list(top), hits
        seen = know.hands[me]
        if seen != self.seen:
            hits = []
            for seat, cards in enumerate(seen):
                base = off["seen_in_hands"] + rel[seat] * CARDS
                hits += [base + CARD_SLOT[card] for card in cards]
            self._move(self.seen_hits, hits)
            self.seen, self.seen_hits = [list(cards) for cards in seen], hits

    def _graveyard(self, grave: list[str]) -> None:
        """The graveyard only grows within a deal (a new deal is a new list)."""
        size = len(grave)
        if grave is self.grave and size == self.grave_len:
            return
        out = self.out
        base = self.off["graveyard"]
        if grave is not self.grave or size < self.grave_len:
            self.tensor[base:base + CARDS] = 0.0
            self.grave, self.grave_len = grave, 0
        for card in grave[self.grave_len:]:
            out[base + CARD_SLOT[card]] += 1.0
        self.grave_len = size

    def _table(self, state: State) -> None:
        """Nodes only get added within a deal (a new deal is a new table); a 9 swaps two pile
        owners in place; a King changes what is live. The deal's points change by the terms
        of the piles whose bottom, owner, liveness or 3s and 7s changed."""
        table = state.table
        nodes = table.nodes
        owners = table.owner
        size = len(nodes)
        done = self.nodes_len
        if nodes is self.nodes and size >= done and owners[:done] == self.owners:
            if size == done:
                return
            for i in range(done, size):
                if nodes[i][1] == "K":
                    break
            else:
                return self._add(nodes, owners, done, size)
        out = self.out
        off = self.off
        if nodes is not self.nodes or size < done:  # a new deal: start from an empty table
            self.tensor[self.table_from:self.table_to] = 0.0
            self.nodes, self.nodes_len, done = nodes, 0, 0
            self.owners, self.node_owner, self.node_live = [], [], []
            self.exponent, self.scaled = {}, [0] * len(self.rel)
        rel = self.rel
        old_owners = self.owners
        node_owner, old_live = self.node_owner, self.node_live
        #: pile bottoms whose term of the score may change, with their term before the change
        affected = {}
        if owners[:done] != old_owners:  # a 9 swapped two piles: their nodes change owner
            for i in range(done):
                if owners[i] != old_owners[i]:
                    affected[i] = self._term(i, old_owners[i])
            owner_base = self.owner_base
            for i in range(done):
                owner = rel[owners[nodes[i][3]]]
                if owner != node_owner[i]:
                    out[owner_base[i] + node_owner[i]] = 0.0
                    out[owner_base[i] + owner] = 1.0
                    node_owner[i] = owner
        king = False
        card_base, as_base, on_base = off["table_card"], off["table_as"], off["table_on"]
        owner_base = self.owner_base
        for i in range(done, size):
            card, rank, on, root = nodes[i]
            out[card_base + i * CARDS + CARD_SLOT[card]] = 1.0
            out[as_base + i * len(RANKS) + _RANK[rank]] = 1.0
            if on is not None:
                out[on_base + i * NODES + on] = 1.0
            owner = rel[owners[root]]
            out[owner_base[i] + owner] = 1.0
            node_owner.append(owner)
            king = king or rank == "K"
        changes = []  # (node, was live) of every node whose liveness is new or changed
        if king:  # a King kills what it lies on, which may revive what that lay on, ...
            live = table.live()
            changes = [(i, was) for i, (now, was) in enumerate(zip(live, old_live)) if now != was]
        else:
            live = old_live + [True] * (size - done)
        changes += [(i, False) for i in range(done, size)]
        exponent = self.exponent
        for i, _was in changes:  # note the terms before any change
            _card, rank, on, _root = nodes[i]
            bottom = i if on is None else on if rank == "3" or rank == "7" else None
            if bottom is not None and bottom not in affected:
                affected[bottom] = self._term(bottom, old_owners[bottom]) if bottom < done else 0
        live_base = off["table_live"]
        for i, was in changes:
            now = live[i]
            if now != was or i >= done:
                out[live_base + i] = 1.0 if now else 0.0
            _card, rank, on, _root = nodes[i]
            if on is not None and now != was and (rank == "3" or rank == "7"):
                exponent[on] = exponent.get(on, 0) + (now - was) * (1 if rank == "3" else -1)
        self.nodes_len = size
        self.owners = list(owners)
        self.node_live = live
        scaled = self.scaled
        for bottom, before in affected.items():
            seat = owners[bottom]
            scaled[old_owners[bottom] if bottom < done else seat] -= before
            scaled[seat] += self._term(bottom, seat)
        self._write_points()

    def _add(self, nodes: list, owners: list, done: int, size: int) -> None:
        """The common case of :meth:`_table`: nodes added, none of them a King, no swap. A
        treasure or Queen adds its term to its owner's score; a 3 or 7 changes its pile's."""
        out = self.out
        rel = self.rel
        card_base, as_base, on_base, live_base = self.table_bases
        owner_base = self.owner_base
        exponent, scaled, aces, live = self.exponent, self.scaled, self.aces, self.node_live
        for i in range(done, size):
            card, rank, on, root = nodes[i]
            out[card_base + i * CARDS + CARD_SLOT[card]] = 1.0
            out[as_base + i * _RANKS + _RANK[rank]] = 1.0
            seat = owners[root]
            out[owner_base[i] + rel[seat]] = 1.0
            out[live_base + i] = 1.0
            self.node_owner.append(rel[seat])
            live.append(True)
            if on is None:
                same = card[1:] == aces[seat]
                if rank == "Q":
                    scaled[seat] -= (4000 if same else 2000) << _SCALE
                else:
                    scaled[seat] += (TREASURE_VALUE[rank] * 100) << (exponent.get(i, 0) + same + _SCALE)
            else:  # a 3 or a 7 on a treasure: its pile's term doubles or halves (if it is live)
                out[on_base + i * NODES + on] = 1.0
                if live[on]:
                    term = (TREASURE_VALUE[nodes[on][1]] * 100) << (
                        exponent.get(on, 0) + (nodes[on][0][1:] == aces[seat]) + _SCALE)
                    scaled[seat] += term if rank == "3" else -(term >> 1)
                exponent[on] = exponent.get(on, 0) + (1 if rank == "3" else -1)
        self.nodes_len = size
        self.owners += owners[done:size]
        self._write_points()

    # -- this deal's points, kept as exact numbers scaled by 2**_SCALE -------------------------
    # (the engine's Table.scaled_scores, per pile: a live treasure is worth its value times
    # 2**(its suit is its owner's Ace's + live 3s - live 7s on it), a live Queen -2000 or -4000)

    def _term(self, bottom: int, owner: int) -> int:
        """The pile with bottom node ``bottom``'s part of ``owner``'s scaled score now."""
        if not self.node_live[bottom]:
            return 0
        card, rank, _on, _root = self.nodes[bottom]
        same = card[1:] == self.aces[owner]
        if rank == "Q":
            return -(4000 if same else 2000) << _SCALE
        return (TREASURE_VALUE[rank] * 100) << (self.exponent.get(bottom, 0) + same + _SCALE)

    def _write_points(self) -> None:
        """Write the deal points (the scaled scores rounded down) that changed."""
        points = self.points
        for seat, value in enumerate(self.scaled):
            value >>= _SCALE
            if value != points[seat]:
                self.out[self.points_at[seat]] = value / (abs(value) + 1000)  # squash(value, 1000)
                points[seat] = value
