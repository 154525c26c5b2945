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
        self.areas = len(codec.board.areas)
        self.ports = codec.board.ports
        self.round = None
        self.scores: list[int] | None = None
        self.head: tuple | None = None
        self.head_hits: list[int] = []
        #: per ship: the area it is in and the chest it carries, as written (None: none)
        self.ship_area: list[int | None] = [None] * NUM_SHIPS
        self.ship_chest: list[int | None] = [None] * NUM_SHIPS
        self.chests: list[int | None] | None = None
        self.chests_hits: list[int] = []
        self.reserve = -1
        self.ship = -2
        self.bids: list[list[int] | None] = []
        self.cards_hits: list[int] = []
        self.shown: list[bool] = []
        self.tiebreaker: list[int | None] = []
        self.tb_hits: list[int] = []
        self.steps = self.transfers = None

    def _start(self, state: State) -> None:
        self.tensor += self.codec._static_part({"seat": self.seat, "board": state.board.as_dict()})
        self.out[self.off["max_rounds"]] = state.max_rounds / 100

    def _update(self, state: State) -> None:
        out = self.out
        off = self.off
        me = self.seat
        rel = self.rel
        if state.round != self.round:
            self.round = state.round
            out[off["round"]] = state.round / state.max_rounds
        scores = state.scores
        if scores != self.scores:
            self.scores = list(scores)
            self._seat_values(off["scores"], [score / state.target for score in scores])
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
        if state.ship_area != self.ship_area:
            self._ships(state.ship_area, self.ship_area, off["ship_area"], self.areas)
        if state.ship_chest != self.ship_chest:
            self._ships(state.ship_chest, self.ship_chest, off["ship_chest"], len(self.ports))
        status = state.chest_status
        if status != self.chests:
            base = off["chests"]
            hits = [base + index * _STATES + status[port] for index, port in enumerate(self.ports)]
            self._move(self.chests_hits, hits)
            self.chests, self.chests_hits = list(status), hits
        if len(state.reserve) != self.reserve:
            self.reserve = len(state.reserve)
            out[off["reserve_pairs"]] = self.reserve // 2 / 8
        # the cards: revealed bids and tie-breakers, the observer's own
        bids = state.bids
        if state.ship != self.ship or bids != self.bids:
            self._revealed(state.ship + 1, bids)
        shown = state.tb_revealed
        if shown != self.shown or state.tiebreaker != self.tiebreaker:
            base = off["tiebreakers"]
            hits = [base + rel[seat] * _WIDTH + card + 1 for seat, (card, flag) in
                    enumerate(zip(state.tiebreaker, shown)) if flag and card is not None]
            own = state.tiebreaker[me]
            if own is not None:
                hits.append(off["my_tiebreaker"] + own + 1)
            self._move(self.tb_hits, hits)
            self.tb_hits, self.shown, self.tiebreaker = hits, list(shown), list(state.tiebreaker)
        if state.steps_left != self.steps:
            self.steps = state.steps_left
            out[off["steps_left"]] = self.steps / 5
        if state.transfers_left != self.transfers:
            self.transfers = state.transfers_left
            out[off["transfers_left"]] = self.transfers / 12

    def _ships(self, now: list[int | None], kept: list[int | None], base: int, width: int) -> None:
        """Per ship, one-hot of ``width``: its area or its chest (None: no chest)."""
        out = self.out
        for ship, (value, old) in enumerate(zip(now, kept)):
            if value != old:
                if old is not None:
                    out[base + ship * width + old] = 0.0
                if value is not None:
                    out[base + ship * width + value] = 1.0
                kept[ship] = value

    def _revealed(self, revealed: int, bids: list[list[int] | None]) -> None:
        """Every seat's bids for the ships resolved so far (a round's bids only get revealed
        further, ship by ship), and the observer's own bids."""
        off = self.off
        rel = self.rel
        done = self.ship + 1
        if bids == self.bids and revealed >= done:  # the same round, further ships revealed
            out = self.out
            for seat, cards in enumerate(bids):
                if cards is not None:
                    base = off["revealed"] + rel[seat] * NUM_SHIPS * _WIDTH
                    for ship in range(done, min(revealed, NUM_SHIPS)):
                        index = base + ship * _WIDTH + cards[ship] + 1
                        out[index] = 1.0
                        self.cards_hits.append(index)
            self.ship = revealed - 1
            return
        hits = []
        for seat, cards in enumerate(bids):
            if cards is not None:
                base = off["revealed"] + rel[seat] * NUM_SHIPS * _WIDTH
                hits += [base + ship * _WIDTH + card + 1 for ship, card in enumerate(cards[:revealed])]
        own = bids[self.seat]
        if own is not None:
            hits += [off["my_bids"] + ship * _WIDTH + card + 1 for ship, card in enumerate(own)]
        self._move(self.cards_hits, hits)
        self.cards_hits = hits
        self.ship = revealed - 1
        self.bids = [None if cards is None else list(cards) for cards in bids]
