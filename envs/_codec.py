"""What both adapters share: a fixed action numbering and an observation tensor per game.

A :class:`Codec` is made for one game, player count and resolved options. It knows nothing
of the rules: every legal action comes from the engine's ``legal_actions`` (or, for a kind
the engine documents as not enumerated, from a fixed candidate list filtered once through
the engine's own check), every applied action goes through the engine, and the tensor is a
function of one seat's observation dict alone (``State.observation(seat)``), so it can hold
nothing that the seat's wire observation does not.

The numbering is a table of ``(kind, action)`` pairs, the same for every state of a game
with those players and options: action id ``i`` is ``table[i]``. Seats in actions are
absolute (as the engine has them); seats in the tensor are relative to the observer
(block 0 is the observer, block 1 the next seat, ...), so one policy can play every seat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engines import State


def freeze(action: Any) -> Any:
    """A hashable key of a msgpack-able action (lists become tuples, recursively)."""
    if type(action) is list:
        return tuple(freeze(part) for part in action)
    return action


def thaw(key: Any) -> Any:
    """The action of a key made by :func:`freeze` (a fresh list each time)."""
    if type(key) is tuple:
        return [thaw(part) for part in key]
    return key


@dataclass(frozen=True)
class Segment:
    """A named block of the observation tensor: ``size`` floats in ``[low, high]``."""

    name: str
    size: int
    doc: str
    low: float = 0.0
    high: float = 1.0


class Layout:
    """The observation tensor's segments in order, with their offsets."""

    def __init__(self, segments: Iterable[Segment]) -> None:
        self.segments = tuple(segments)
        self.offset: dict[str, int] = {}
        size = 0
        for segment in self.segments:
            if segment.name in self.offset:
                raise ValueError(f"segment {segment.name!r} twice in a layout")
            self.offset[segment.name] = size
            size += segment.size
        self.size = size

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-element lower and upper bounds (float32), for a Gymnasium ``Box``."""
        low = np.concatenate([np.full(s.size, s.low, np.float32) for s in self.segments])
        high = np.concatenate([np.full(s.size, s.high, np.float32) for s in self.segments])
        return low, high

    def rows(self) -> list[tuple[str, int, int, str]]:
        """(name, offset, size, doc) per segment, for documentation."""
        return [(s.name, self.offset[s.name], s.size, s.doc) for s in self.segments]


class Codec:
    """Action numbering and observation tensor of one game at one player count and options.

    Subclasses fill ``table`` (the numbering: ``(kind, frozen action)`` per id), ``layout``
    and :meth:`write`; a kind whose actions depend on the position (Opito Bay's spyglass)
    overrides :meth:`key_of` and :meth:`action_of`; a kind the engine does not enumerate
    lists its actions in ``unlisted``.
    """

    game_id: str = ""
    #: observation keys that are a function of the game's parameters only (sent once per game
    #: on the wire): left out of the observation string, since they never change
    static_keys: tuple[str, ...] = ()
    #: observation keys private to the observing seat (left out of the seat-free render)
    private_keys: tuple[str, ...] = ()
    #: whether several seats ever decide at once (then OpenSpiel's dynamics are simultaneous)
    simultaneous = False
    #: kinds whose table key depends on the position (:meth:`key_of` is called for them only)
    contextual: frozenset[str] = frozenset()
    #: contextual kinds whose legal actions :meth:`legal_in_context` finds by the engine's own
    #: rule without the engine's list (``actions`` is then None): Opito Bay's spyglass, whose
    #: every order of the looked-at cards is legal (the engine lists up to 120 orders as lists
    #: only to have them numbered again); ``tests/envs`` checks the two agree
    self_listed: frozenset[str] = frozenset()

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        self.num_players = num_players
        self.options = dict(options)
        self.table: list[tuple[str, Any]] = []
        self.layout = Layout(())
        #: kind -> sorted ids of every action of that kind, for kinds the engine does not list
        self.unlisted: dict[str, list[int]] = {}

    def _finish(self, check: Callable[[str, Any], bool] | None = None) -> None:
        """Index the table; ``check(kind, action)`` filters candidates of unlisted kinds."""
        self.index = {entry: number for number, entry in enumerate(self.table)}
        if len(self.index) != len(self.table):
            raise AssertionError(f"{self.game_id}: the action table has duplicates")
        #: kind -> {key: id}
        self.kind_index: dict[str, dict[Any, int]] = {}
        for number, (kind, key) in enumerate(self.table):
            self.kind_index.setdefault(kind, {})[key] = number
        #: kind -> the shared ``{id: None}`` of an unlisted kind (read-only: it is every state's)
        self.unlisted_legal: dict[str, dict[int, None]] = {}
        for kind in list(self.unlisted):
            ids = [number for number, (k, key) in enumerate(self.table)
                   if k == kind and (check is None or check(kind, thaw(key)))]
            self.unlisted[kind] = ids
            self.unlisted_legal[kind] = dict.fromkeys(ids)
        self.num_actions = len(self.table)
        #: kind -> the action mask of an unlisted kind (int8; copy before changing it)
        self.unlisted_mask: dict[str, np.ndarray] = {}
        for kind, ids in self.unlisted.items():
            mask = np.zeros(self.num_actions, np.int8)
            mask[ids] = 1
            self.unlisted_mask[kind] = mask

    # -- actions ------------------------------------------------------------------------------

    def key_of(self, state: State, seat: int, kind: str, action: Any) -> Any:
        """The table key of an engine action (the frozen action, unless a kind needs context)."""
        return freeze(action)

    def legal_in_context(self, state: State, seat: int, kind: str, actions: list[Any] | None) -> dict[int, Any]:
        """:meth:`legal` for a kind in ``contextual``: each listed action by :meth:`key_of`
        (``actions`` is None for a kind in ``self_listed``)."""
        index = self.kind_index[kind]
        legal: dict[int, Any] = {}
        for action in actions:
            legal.setdefault(index[self.key_of(state, seat, kind, action)], action)
        return legal

    def action_of(self, state: State, seat: int, kind: str, key: Any) -> Any:
        """The engine action of a table key (inverse of :meth:`key_of` in ``state``)."""
        return thaw(key)

    def legal(self, state: State, seat: int) -> dict[int, Any]:
        """``{id: engine action}`` of every legal action of ``seat`` now (empty if not acting).

        For a kind the engine does not list (and where ``legal_in_context`` says so), the
        values are ``None`` (decode the id) and the dict is shared: do not change it.
        """
        if seat not in state.acting:
            return {}
        kind = state.decision(seat)
        if kind in self.self_listed:
            return self.legal_in_context(state, seat, kind, None)
        actions = state.legal_actions(seat)
        if actions is None:
            return self.unlisted_legal[kind]
        index = self.kind_index[kind]
        legal = {}
        if kind in self.contextual:
            return self.legal_in_context(state, seat, kind, actions)
        for action in actions:  # every listed action of every game is a scalar or a flat list
            legal[index[tuple(action) if type(action) is list else action]] = action
        return legal

    def request_key(self, observation: Mapping[str, Any], kind: str, action: Any) -> Any:
        """:meth:`key_of` for a bot, which has its observation instead of the state."""
        return freeze(action)

    def request_legal(self, kind: str, legal: Sequence[Any] | None,
                      observation: Mapping[str, Any]) -> dict[int, Any]:
        """``{id: action}`` of a protocol request's legal actions (``legal: nil``: every action
        of that kind), for a bot playing with a policy trained on these ids."""
        if legal is None:
            return {number: thaw(self.table[number][1]) for number in self.unlisted[kind]}
        index = self.kind_index[kind]
        ids = {}
        for action in legal:
            ids.setdefault(index[self.request_key(observation, kind, action)], action)
        return ids

    def decode(self, state: State, seat: int, number: int) -> Any:
        """The engine action of id ``number`` for ``seat`` now; ``ValueError`` if it has none."""
        if not 0 <= number < self.num_actions:
            raise ValueError(f"action {number} is out of range 0..{self.num_actions - 1} for {self.game_id}")
        if seat not in state.acting:
            raise ValueError(f"seat {seat} has no decision now; acting: {list(state.acting)}")
        kind, key = self.table[number]
        current = state.decision(seat)
        if kind != current:
            raise ValueError(f"action {number} ({self.text(number)}) is a {kind!r} action, "
                             f"but seat {seat}'s decision is {current!r}")
        return self.action_of(state, seat, kind, key)

    def text(self, number: int, state: State | None = None, seat: int | None = None) -> str:
        """A person's name for action ``number`` (with the position's context where it helps)."""
        kind, key = self.table[number]
        return f"{kind} {describe(key)}"

    # -- observations -------------------------------------------------------------------------

    def write(self, obs: Mapping[str, Any], out: np.ndarray) -> None:
        """Fill the zeroed ``out`` (``layout.size`` floats) from one seat's observation."""
        raise NotImplementedError

    def tensor(self, obs: Mapping[str, Any]) -> np.ndarray:
        out = np.zeros(self.layout.size, np.float32)
        self.write(obs, out)
        return out

    def add_hits(self, out: np.ndarray, hits: list[int]) -> None:
        """Add 1 at every index of ``hits`` (repeats add up): one numpy call instead of one
        Python-level store per card, most of what writing a tensor costs."""
        if hits:
            np.add(out, np.bincount(hits, minlength=out.size), out=out, casting="unsafe")

    def rel(self, obs: Mapping[str, Any], seat: int) -> int:
        """The block of absolute ``seat`` in the observer's relative seat order."""
        return (seat - obs["seat"]) % self.num_players


def describe(key: Any) -> str:
    if type(key) is tuple:
        return " ".join(describe(part) for part in key)
    return str(key)


def one_hot(out: np.ndarray, offset: int, index: int | None) -> None:
    if index is not None:
        out[offset + index] = 1.0


def counts(out: np.ndarray, offset: int, indices: Iterable[int]) -> None:
    for index in indices:
        out[offset + index] += 1.0


def seats_segment(name: str, num_players: int, doc: str, width: int = 1, low: float = 0.0,
                  high: float = 1.0) -> Segment:
    """A block of ``width`` floats per seat, observer first."""
    return Segment(name, num_players * width, doc + " (per seat, observer first)", low, high)


def check_size(name: str, items: Sequence[Any], limit: int) -> None:
    if len(items) > limit:
        raise AssertionError(f"observation field {name!r} has {len(items)} entries; the tensor holds {limit}")
