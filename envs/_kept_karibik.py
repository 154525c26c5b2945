"""Karibik's kept observation tensor (``envs._kept``): the codec's layout, written from the
engine's own fields as they change.

A move step changes a ship's area or cargo, a chest, the steps left; the bids, revealed
cards and tie-breakers change once per ship or round. The map's segments are written once.
"""

from __future__ import annotations

from engines import State
from engines.karibik import CARDS

from ._codec import Codec
from ._karibik import CHEST_STATES, NUM_SHIPS, PHASES
from ._kept import Kept

_PHASE = {phase: index for index, phase in enumerate(PHASES)}
_WIDTH = len(CARDS)
_STATES = len(CHEST_STATES)


class KeptKaribik(Kept):
    def __init__(self, codec: Codec, seat: int) -> None:
        super().__init__(codec, seat)
        self.off = codec._off
        self.areas = len(codec.board.areas)
        self.ports = codec.board.ports
        self.first = True
        self.round = None
        self.scores: list[int] | None = None
        self.head: tuple | None = None
        self.head_hits: list[int] = []
        self.ships: tuple | None = None
        self.ships_hits: list[int] = []
        self.chests: list[int | None] | None = None
        self.chests_hits: list[int] = []
        self.reserve = -1
        self.cards: tuple | None = None
        self.cards_hits: list[int] = []
        self.steps = self.transfers = None

    def sync(self, state: State) -> object:
        out = self.tensor
        off = self.off
        me = self.seat
        rel = self.rel
        if self.first:
            self.first = False
            out += self.codec._static_part({"seat": me, "board": state.board.as_dict()})
            out[off["max_rounds"]] = state.max_rounds / 100
        if state.round != self.round:
            self.round = state.round
            out[off["round"]] = state.round / state.max_rounds
        scores = state.scores
        if scores != self.scores:
            self.scores = list(scores)
            base = off["scores"]
            for seat, score in enumerate(scores):
                out[base + rel[seat]] = score / state.target
        # who decides what now: phase, acting seats, ship, tied seats, controller
        phase = state.phase
        ship = state.ship if 0 <= state.ship < NUM_SHIPS and phase != "over" else None
        head = (phase, state.acting, ship, state.tied, state.controller)
        if head != self.head:
            hits = [off["phase"] + _PHASE[phase]]
            hits += [off["acting"] + rel[seat] for seat in state.acting]
            if ship is not None:
                hits.append(off["ship"] + ship)
            hits += [off["tied"] + rel[seat] for seat in state.tied]
            if state.controller is not None:
                hits.append(off["controller"] + rel[state.controller])
            self._move(self.head_hits, hits)
            self.head, self.head_hits = head, hits
        ships = (tuple(state.ship_area), tuple(state.ship_chest))
        if ships != self.ships:
            areas, ports = self.areas, len(self.ports)
            hits = [off["ship_area"] + index * areas + area for index, area in enumerate(ships[0])]
            hits += [off["ship_chest"] + index * ports + chest for index, chest in enumerate(ships[1])
                     if chest is not None]
            self._move(self.ships_hits, hits)
            self.ships, self.ships_hits = ships, hits
        status = state.chest_status
        if status != self.chests:
            base = off["chests"]
            hits = [base + index * _STATES + status[port] for index, port in enumerate(self.ports)]
            self._move(self.chests_hits, hits)
            self.chests, self.chests_hits = list(status), hits
        if len(state.reserve) != self.reserve:
            self.reserve = len(state.reserve)
            out[off["reserve_pairs"]] = self.reserve // 2 / 8
        # the cards: revealed bids, revealed tie-breakers, the observer's own
        cards = (state.ship, state.bids[me] is not None and tuple(state.bids[me]), tuple(state.tb_revealed),
                 tuple(state.tiebreaker), tuple(bids is not None for bids in state.bids))
        if cards != self.cards:
            self._cards(state)
            self.cards = cards
        if state.steps_left != self.steps:
            self.steps = state.steps_left
            out[off["steps_left"]] = self.steps / 5
        if state.transfers_left != self.transfers:
            self.transfers = state.transfers_left
            out[off["transfers_left"]] = self.transfers / 12
        return out

    def _cards(self, state: State) -> None:
        off = self.off
        rel = self.rel
        me = self.seat
        revealed = state.ship + 1
        hits = []
        for seat, bids in enumerate(state.bids):
            if bids is not None:
                base = off["revealed"] + rel[seat] * NUM_SHIPS * _WIDTH
                hits += [base + ship * _WIDTH + card + 1 for ship, card in enumerate(bids[:revealed])]
        for seat, (card, shown) in enumerate(zip(state.tiebreaker, state.tb_revealed)):
            if shown and card is not None:
                hits.append(off["tiebreakers"] + rel[seat] * _WIDTH + card + 1)
        own = state.bids[me]
        if own is not None:
            hits += [off["my_bids"] + ship * _WIDTH + card + 1 for ship, card in enumerate(own)]
        if state.tiebreaker[me] is not None:
            hits.append(off["my_tiebreaker"] + state.tiebreaker[me] + 1)
        self._move(self.cards_hits, hits)
        self.cards_hits = hits
