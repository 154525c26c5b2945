"""Karibik: action numbering and observation tensor (see ``docs/environments.md``).

A bribe (the engine lists no legal bribes: every assignment is legal) is numbered as the
6-card permutation of the 7 rum cards it is, in ``itertools.permutations`` order: 5,040
ids, every one passed once through the engine's own ``bribe_problem``. Areas and chests are
numbered as the engine's board numbers them (a chest by its home port's area id).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from typing import Any

import numpy as np

from engines.karibik import BOARDS, CARDS, COLOURS, SHIPS, bribe_problem

from ._codec import Codec, Layout, Segment, seats_segment

PHASES = ("bribe", "tiebreak", "move", "over")
CHEST_STATES = ("reserve", "port", "ship", "delivered")
NUM_SHIPS = len(SHIPS)
VERBS = ("rob", "exchange", "hand")


def max_game_length(options: Mapping[str, Any], num_players: int) -> int:
    """A bound on decisions per game for OpenSpiel (none is ever near it): per round a bribe and
    per ship a tie-break and a move of at most 5 steps, a loot, 12 transfers and a delivery."""
    return 160 * options["max_rounds"]


class KaribikCodec(Codec):
    game_id = "karibik"
    static_keys = ("board",)
    simultaneous = True
    private_keys = ("my_bids", "my_tiebreaker")

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, options)
        n = num_players
        board = BOARDS[options["board"]]
        areas = len(board.areas)
        ports = len(board.ports)
        table: list[tuple[str, Any]] = [("bribe", perm) for perm in permutations(CARDS, NUM_SHIPS)]
        table += [("tiebreak", "reveal"), ("tiebreak", "keep")]
        table += [("move", ("move", area)) for area in range(areas)]
        table += [("move", ("loot",))]
        table += [("move", (verb, ship)) for verb in VERBS for ship in range(NUM_SHIPS)]
        table += [("move", ("deliver",)), ("move", ("end",))]
        self.table = table
        self.unlisted = {"bribe": []}
        self._finish(lambda kind, action: bribe_problem(action) is None)
        self.board = board
        cards = len(CARDS)
        self.layout = Layout([
            Segment("round", 1, "round / max_rounds"),
            Segment("max_rounds", 1, "the `max_rounds` option / 100"),
            seats_segment("scores", n, "score / the target score", high=5.0),
            Segment("phase", len(PHASES), "one-hot: bribe, tiebreak, move, over"),
            seats_segment("acting", n, "the seat must decide now"),
            Segment("ship", NUM_SHIPS, "one-hot: the ship being resolved"),
            Segment("ship_area", NUM_SHIPS * areas, "per ship: one-hot area it is in"),
            Segment("ship_chest", NUM_SHIPS * ports, "per ship: one-hot chest it carries (by home port)"),
            Segment("chests", ports * len(CHEST_STATES), "per chest: one-hot reserve, port, ship, delivered"),
            Segment("reserve_pairs", 1, "chest pairs left in the reserve / 8"),
            seats_segment("revealed", n, "per ship: one-hot revealed bribe card (-1..5)", NUM_SHIPS * cards),
            seats_segment("tiebreakers", n, "one-hot revealed tie-breaker card", cards),
            Segment("my_bids", NUM_SHIPS * cards, "per ship: one-hot card the observer bid this round"),
            Segment("my_tiebreaker", cards, "one-hot: the observer's tie-breaker card this round"),
            seats_segment("tied", n, "the seat is tied for the ship being resolved"),
            seats_segment("controller", n, "one-hot: the seat moving the ship"),
            Segment("steps_left", 1, "steps left to move / 5"),
            Segment("transfers_left", 1, "ship-to-ship transfers left / 12"),
            seats_segment("hideouts", n, "per area: it is a hideout of the seat", areas),
            Segment("chest_value", ports, "per port: its chest's value / 8000", high=2.0),
        ])
        self._off = self.layout.offset
        self._static: dict[int, np.ndarray] = {}

    def text(self, number: int, state=None, seat=None) -> str:
        kind, key = self.table[number]
        if kind == "bribe":
            return "bribe " + " ".join(f"{ship}:{card}" for ship, card in zip(SHIPS, key))
        if kind == "tiebreak":
            return f"tiebreak {key}"
        if key[0] == "move":
            return f"move to {self.board.areas[key[1]].name}"
        if len(key) == 2:
            return f"{key[0]} {SHIPS[key[1]]}"
        return key[0]

    def _static_part(self, obs: Mapping[str, Any]) -> np.ndarray:
        """The map's segments for this observer (they never change in a game)."""
        seat = obs["seat"]
        part = self._static.get(seat)
        if part is None:
            part = np.zeros(self.layout.size, np.float32)
            off, n, areas = self._off, self.num_players, len(obs["board"]["areas"])
            for area, (_name, kind, extra, _x, _y) in enumerate(obs["board"]["areas"]):
                if kind == "hideout" and COLOURS.index(extra) < n:
                    part[off["hideouts"] + self.rel(obs, COLOURS.index(extra)) * areas + area] = 1.0
                elif kind == "port":
                    part[off["chest_value"] + area] = extra / 8000
            self._static[seat] = part
        return part

    def write(self, obs: Mapping[str, Any], out: np.ndarray) -> None:
        off = self._off
        n = self.num_players
        me = obs["seat"]
        areas = len(self.board.areas)
        ports = len(self.board.ports)
        cards = len(CARDS)
        out += self._static_part(obs)
        hits = [off["phase"] + PHASES.index(obs["phase"])]
        out[off["round"]] = obs["round"] / obs["max_rounds"]
        out[off["max_rounds"]] = obs["max_rounds"] / 100
        for seat, score in enumerate(obs["scores"]):
            out[off["scores"] + (seat - me) % n] = score / obs["target"]
        hits += [off["acting"] + (seat - me) % n for seat in obs["acting"]]
        if obs["ship"] is not None:
            hits.append(off["ship"] + obs["ship"])
        for ship, (area, chest) in enumerate(obs["ships"]):
            hits.append(off["ship_area"] + ship * areas + area)
            if chest is not None:
                hits.append(off["ship_chest"] + ship * ports + chest)
        base = off["chests"]
        hits += [base + port * len(CHEST_STATES) + CHEST_STATES.index(status)
                 for port, status in enumerate(obs["chests"])]
        out[off["reserve_pairs"]] = obs["reserve_pairs"] / 8
        for seat, shown in enumerate(obs["revealed"]):
            if shown is not None:
                base = off["revealed"] + (seat - me) % n * NUM_SHIPS * cards
                hits += [base + ship * cards + card + 1 for ship, card in enumerate(shown)]
        for seat, card in enumerate(obs["tiebreakers"]):
            if card is not None:
                hits.append(off["tiebreakers"] + (seat - me) % n * cards + card + 1)
        if obs["my_bids"] is not None:
            hits += [off["my_bids"] + ship * cards + card + 1 for ship, card in enumerate(obs["my_bids"])]
        if obs["my_tiebreaker"] is not None:
            hits.append(off["my_tiebreaker"] + obs["my_tiebreaker"] + 1)
        hits += [off["tied"] + (seat - me) % n for seat in obs["tied"]]
        if obs["controller"] is not None:
            hits.append(off["controller"] + (obs["controller"] - me) % n)
        out[off["steps_left"]] = obs["steps_left"] / 5
        out[off["transfers_left"]] = obs["transfers_left"] / 12
        self.add_hits(out, hits)
