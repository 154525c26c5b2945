"""High Card's rules: a deck of distinct numbered cards, a hand each, tricks of one card a seat.

Each seat is dealt ``hand`` cards from a shuffled deck of ``6 x players`` cards numbered 1 up;
the rest stay face down. ``hand`` tricks follow: the leader (seat 0 first, then each trick's
winner) and then the others in seat order each play one card face up; the highest card wins
the trick and a point. After the last trick, more points rank higher; equal points tie.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engines import IllegalAction, Outcome, State

#: cards in the deck per player
CARDS_PER_PLAYER = 6


class HighCardState(State):
    """One game of High Card; see the module docstring."""

    def __init__(self, num_players: int, rng: random.Random, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, rng, options)
        deck = list(range(1, CARDS_PER_PLAYER * num_players + 1))
        rng.shuffle(deck)
        size = self.options["hand"]
        self.hands = [sorted(deck[seat * size:(seat + 1) * size]) for seat in range(num_players)]
        self.deck = deck[num_players * size:]
        self.points = [0] * num_players
        self.played: list[int] = []
        self.trick: list[list[int]] = []
        self.leader = 0
        for seat in range(num_players):
            self.emit({"type": "deal", "seat": seat, "cards": list(self.hands[seat])}, frozenset({seat}))
        self.acting = (0,)

    def decision(self, player: int) -> str:
        return "play"

    def legal_actions(self, player: int) -> list[int] | None:
        return list(self.hands[player]) if player in self.acting else []

    def _check(self, player: int, action: Any) -> None:
        if type(action) is not int or action not in self.hands[player]:
            raise IllegalAction(player, f"{action!r:.100} is not a card in your hand; play one of {self.hands[player]}")

    def _apply(self, actions: Mapping[int, Any]) -> None:
        (seat, card), = actions.items()
        self.hands[seat].remove(card)
        self.played.append(card)
        self.trick.append([seat, card])
        self.emit({"type": "play", "seat": seat, "card": card})
        if len(self.trick) < self.num_players:
            self.acting = ((seat + 1) % self.num_players,)
            return
        winner = max(self.trick, key=lambda play: play[1])[0]
        self.points[winner] += 1
        self.emit({"type": "trick", "winner": winner})
        self.trick = []
        self.leader = winner
        self.acting = (winner,) if self.hands[winner] else ()

    def observation(self, player: int) -> dict[str, Any]:
        return {"seat": player, "players": self.num_players, "hand": list(self.hands[player]),
                "hand_sizes": [len(hand) for hand in self.hands], "trick": [list(play) for play in self.trick],
                "played": list(self.played), "points": list(self.points), "leader": self.leader}

    def outcome(self) -> Outcome:
        return Outcome.from_keys(self.points)

    def resample(self, player: int, rng: random.Random) -> HighCardState:
        other = self.clone()
        unseen = [card for seat, hand in enumerate(self.hands) if seat != player for card in hand] + self.deck
        rng.shuffle(unseen)
        for seat, hand in enumerate(other.hands):
            if seat != player:
                other.hands[seat], unseen = sorted(unseen[:len(hand)]), unseen[len(hand):]
        other.deck = unseen
        other.log = [event if event.audience is None or player in event.audience
                     else event._replace(data={**event.data, "cards": list(other.hands[event.data["seat"]])})
                     for event in self.log]
        return other


def determinize(observation: Mapping[str, Any], rng: random.Random) -> HighCardState:
    """A state consistent with ``observation``: the unseen cards dealt at random (the chance
    resampler the descriptor names)."""
    players, seat = observation["players"], observation["seat"]
    state = HighCardState.__new__(HighCardState)
    dealt = (sum(observation["hand_sizes"]) + len(observation["played"])) // players
    State.__init__(state, players, rng, {"hand": dealt})
    known = set(observation["hand"]) | set(observation["played"])
    unseen = [card for card in range(1, CARDS_PER_PLAYER * players + 1) if card not in known]
    rng.shuffle(unseen)
    state.hands = []
    for other, size in enumerate(observation["hand_sizes"]):
        mine = other == seat
        state.hands.append(sorted(observation["hand"]) if mine else sorted(unseen[:size]))
        unseen = unseen if mine else unseen[size:]
    state.deck, state.points = unseen, list(observation["points"])
    state.played, state.trick = list(observation["played"]), [list(play) for play in observation["trick"]]
    state.leader = observation["leader"]
    state.acting = ((state.leader + len(state.trick)) % players,) if any(observation["hand_sizes"]) else ()
    return state


def omniscient_view(state: HighCardState) -> dict[str, Any]:
    """What no seat knows: the cards left in the deck (for replay viewers)."""
    return {"undealt": list(state.deck)}
