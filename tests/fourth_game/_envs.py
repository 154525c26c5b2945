"""High Card's pieces for the environments (the tests' fourth game): its codec and its
OpenSpiel bound, named by its descriptor as ``tests.fourth_game._envs:...``. It has no kept
tensor: the environments rebuild the codec's tensor (``envs._kept.Rebuilt``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from envs._codec import Codec, Layout, Segment, seats_segment

#: the deck's size per player (``engines.high_card._state.CARDS_PER_PLAYER``)
CARDS_PER_PLAYER = 6


def max_game_length(options: Mapping[str, Any], num_players: int) -> int:
    """Every seat plays each card of its hand once."""
    return options["hand"] * num_players


class HighCardCodec(Codec):
    game_id = "high-card"
    private_keys = ("hand",)

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, options)
        n, cards = num_players, CARDS_PER_PLAYER * num_players
        self.cards = cards
        self.table = [("play", card) for card in range(1, cards + 1)]
        self._finish()
        self.layout = Layout([
            Segment("hand", cards, "the observer's cards"),
            Segment("played", cards, "the cards played so far"),
            seats_segment("trick", n, "one-hot: the card the seat played in this trick", cards),
            seats_segment("points", n, "tricks won / hand", high=1.0),
            seats_segment("hand_sizes", n, "cards in hand / hand", high=1.0),
            seats_segment("to_play", n, "the seat plays now"),
        ])
        self._off = self.layout.offset

    def write(self, obs: Mapping[str, Any], out: np.ndarray) -> None:
        off, n, hand = self._off, self.num_players, self.options["hand"]
        for card in obs["hand"]:
            out[off["hand"] + card - 1] = 1.0
        for card in obs["played"]:
            out[off["played"] + card - 1] = 1.0
        for seat, card in obs["trick"]:
            out[off["trick"] + self.rel(obs, seat) * self.cards + card - 1] = 1.0
        for seat in range(n):
            out[off["points"] + self.rel(obs, seat)] = obs["points"][seat] / hand
            out[off["hand_sizes"] + self.rel(obs, seat)] = obs["hand_sizes"][seat] / hand
        if any(obs["hand_sizes"]):
            out[off["to_play"] + self.rel(obs, (obs["leader"] + len(obs["trick"])) % n)] = 1.0
