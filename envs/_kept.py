"""Observation tensors kept up to date with an engine state, instead of rebuilt every step.

``codec.tensor(state.observation(seat))`` builds the seat's observation dict and then writes a
zeroed tensor from it: 2-5 times an engine step, most of what a PettingZoo step cost. A
:class:`Kept` holds one seat's tensor and, on :meth:`Kept.sync`, compares the engine state's
fields with the values it last wrote and rewrites only the segments whose values changed
(most steps change a hand, a pile, the turn). It reads the engine state directly, so nothing
stops it from reading what the seat may not see: ``tests/envs/test_kept.py`` checks, at every
step of many seeded random games of every game, player count and option, that the synced
tensor equals the codec's tensor of the seat's observation, which is what keeps it honest.

A kept tensor belongs to one engine state (the adapters make new ones with a new engine; a
clone gets none and builds them on first use). Where a list only grows in the engine (Opito
Bay's graveyard and table within a deal), the kept tensor adds its new tail by the list's
identity and length: a new list object (a new deal, another state) rewrites the segment.
Every other field is compared by value. Element stores go through a ``memoryview`` of the
tensor, less than half the cost of numpy's item assignment.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engines import State, get_game

from ._codec import Codec


class Kept:
    """One seat's observation tensor (``codec``'s layout), kept in step with an engine state.

    ``tensor`` is the array itself, valid after :meth:`sync`: copy it before handing it out.
    Subclasses implement :meth:`_start` (what is written once) and :meth:`_update` (what changed
    since, found from their own caches of what they last wrote).
    """

    def __init__(self, codec: Codec, seat: int) -> None:
        self.codec = codec
        self.seat = seat
        n = codec.num_players
        #: absolute seat -> the seat's block in the observer's order
        self.rel = [(other - seat) % n for other in range(n)]
        self.tensor = np.zeros(codec.layout.size, np.float32)
        #: the tensor's memory, element by element: a store through a memoryview costs
        #: less than half of numpy's ``tensor[i] = x`` (which makes a numpy scalar)
        self.out = memoryview(self.tensor)
        #: segment name -> its offset in the tensor
        self.off = codec.layout.offset
        self.first = True

    def sync(self, state: State) -> np.ndarray:
        """Bring the tensor up to date with ``state`` and return it (not a copy)."""
        if self.first:
            self.first = False
            self._start(state)
        self._update(state)
        return self.tensor

    def _start(self, state: State) -> None:
        """Write what stays the same for the whole game (options, the board, seats' suits)."""

    def _update(self, state: State) -> None:
        """Rewrite the segments whose values changed since the last sync."""
        raise NotImplementedError

    def _seat_values(self, at: int, values: Sequence[float]) -> None:
        """Write one value per seat (absolute order) from offset ``at``, in the observer's order."""
        out = self.out
        rel = self.rel
        for seat, value in enumerate(values):
            out[at + rel[seat]] = value

    def _one_hot(self, old: int, new: int) -> int:
        """Move a one-hot from index ``old`` to ``new`` (-1: none) and return ``new`` (call it
        only when they differ)."""
        if old >= 0:
            self.out[old] = 0.0
        if new >= 0:
            self.out[new] = 1.0
        return new

    def _move(self, old: list[int], new: list[int]) -> None:
        """Take 1 off every index of ``old`` and add 1 at every index of ``new`` (repeats
        count), skipping the indices in both: a numpy element costs several list operations."""
        out = self.out
        if len(old) + len(new) > 16:  # list.remove would be quadratic
            delta: dict[int, int] = {}
            for index in old:
                delta[index] = delta.get(index, 0) - 1
            for index in new:
                delta[index] = delta.get(index, 0) + 1
            for index, change in delta.items():
                if change:
                    out[index] += change
            return
        rest = new.copy()
        for index in old:
            if index in rest:
                rest.remove(index)
            else:
                out[index] -= 1.0
        for index in rest:
            out[index] += 1.0


class Rebuilt(Kept):
    """The kept tensor of a game whose descriptor names none: the codec's tensor of the seat's
    observation, rebuilt at every sync (correct, only slower)."""

    def sync(self, state: State) -> np.ndarray:
        self.tensor[:] = self.codec.tensor(state.observation(self.seat))
        return self.tensor


class KeptTensors:
    """Every seat's kept tensor of one engine state, made on first use (the class the game's
    descriptor names as its ``kept`` piece, else :class:`Rebuilt`)."""

    def __init__(self, codec: Codec, state: State) -> None:
        game = get_game(codec.game_id)
        self._class = game.piece("kept") if game.pieces.has("kept") else Rebuilt
        self.codec = codec
        self.state = state
        self._seats: list[Kept | None] = [None] * codec.num_players

    def tensor(self, seat: int) -> np.ndarray:
        """``seat``'s tensor, up to date (the kept array: copy it before handing it out)."""
        kept = self._seats[seat]
        if kept is None:
            kept = self._seats[seat] = self._class(self.codec, seat)
        return kept.sync(self.state)
