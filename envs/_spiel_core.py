"""What one OpenSpiel state of a game holds, apart from OpenSpiel's own object: the engine
state (or the seed still being drawn at chance nodes), its kept tensors, and how it moves by
action ids (:class:`Core`); and what every state of one game object shares (:class:`Spec`).
:class:`~._spiel_state.PirateState` wraps a core.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from engines import IllegalAction, State, game_package

from ._codec import Codec
from ._games import SHORT_NAMES, codec, resolve
from ._kept import KeptTensors

#: a random deal's seed is drawn at chance nodes, one byte (big-endian) per node: the deal of
#: ``arena match --seed`` that 32-bit number
SEED_DRAWS = 4
SEED_OUTCOMES = 256
SEED_CHANCE = [(outcome, 1.0 / SEED_OUTCOMES) for outcome in range(SEED_OUTCOMES)]
SEED_IDS = list(range(SEED_OUTCOMES))


class Spec:
    """What every state of one game object shares (never copied with a state)."""

    def __init__(self, short_name: str, params: Mapping[str, Any]) -> None:
        self.short_name = short_name
        self.game_id = SHORT_NAMES[short_name]
        self.params = dict(params)
        options = {key: value for key, value in params.items() if key not in ("players", "seed", "turn_based")}
        try:
            self.game, self.num_players, self.options = resolve(self.game_id, params["players"], options)
        except ValueError as error:
            raise pyspiel.SpielError(f"{short_name}: {error}") from None
        if isinstance(params["seed"], bool) or not isinstance(params["seed"], int) or params["seed"] < -1:
            raise pyspiel.SpielError(f"{short_name}: seed must be an integer >= -1, got {params['seed']!r}")
        self.seed = params["seed"]
        self.turn_based = bool(params["turn_based"])
        self.codec: Codec = codec(self.game_id, self.num_players, self.options)
        self.view = game_package(self.game_id).omniscient_view
        self.rng = random.Random()

    def new_engine(self, seed: int) -> State:
        return self.game.new_state(self.num_players, seed, self.options)

    def __deepcopy__(self, memo: dict) -> Spec:
        return self

    def __reduce__(self):
        return (spec_of, (self.short_name, tuple(sorted(self.params.items()))))


#: (short name, sorted parameters) -> the spec every game object with them shares; a cache
#: filled once per parameter set (OpenSpiel loads a game again to deserialize a state)
_SPECS: dict[tuple[str, tuple], Spec] = {}


def spec_of(short_name: str, params: tuple) -> Spec:
    """The shared spec of a game (for unpickling a serialized state)."""
    key = (short_name, params)
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = Spec(short_name, dict(params))
    return spec


class Core:
    """Everything one OpenSpiel state holds, in one attribute.

    OpenSpiel copies a Python state by making a new initial state and deep-copying each
    attribute; this one copies itself with the engine's fast ``clone`` and shares the spec.
    The engine state is made on first use (once the seed is known), so the initial state
    OpenSpiel makes inside every copy deals nothing.
    """

    __slots__ = ("spec", "seed", "draws", "_engine", "replayable", "buffer", "first", "_legal", "_events", "_kept",
                 "moves")

    def __init__(self, spec: Spec, seed: int | None, engine: State | None = None) -> None:
        self.spec = spec
        #: the engine's seed; None while chance nodes are still drawing it
        self.seed = seed
        #: the seed's bytes drawn so far at chance nodes
        self.draws: list[int] = []
        self._engine = engine
        #: the engine is the seed's deal plus its history (not one set from outside, e.g. a
        #: determinized engine): then a pickle holds the seed and the actions, not the engine
        self.replayable = engine is None
        #: turn-based rollout of a simultaneous decision: seat -> chosen action id
        self.buffer: dict[int, int] = {}
        #: the seat a turn-based rollout starts from (then the others in seat order after it)
        self.first = 0
        #: per seat, ``{id: engine action}`` of the current step (built on demand)
        self._legal: dict[int, dict[int, Any]] = {}
        #: per seat, (log entries read, JSON of each event it saw): information-state strings
        #: grow with the game, so the events are encoded once each (not copied with the state)
        self._events: dict[int, tuple[int, list[str]]] = {}
        #: every seat's observation tensor kept up to date with the engine (``envs._kept``),
        #: made on the second use (False: used once) and not copied with the state
        self._kept: KeptTensors | bool | None = None
        #: after an undo, OpenSpiel's history of the state, ``(player, action)`` per move (the
        #: C++ history cannot be shortened from Python; see ``envs._spiel_undo``); else None
        self.moves: list[tuple[int, int]] | None = None

    @property
    def dealt(self) -> bool:
        """The deal is known (past the seed's chance nodes)."""
        return self.seed is not None or self._engine is not None

    @property
    def engine(self) -> State:
        if self._engine is None:
            if self.seed is None:
                raise pyspiel.SpielError(f"{self.spec.short_name}: the deal is still being drawn at chance nodes")
            self._engine = self.spec.new_engine(self.seed)
        return self._engine

    def set_engine(self, engine: State) -> None:
        self._engine = engine
        self.replayable = False
        self._legal = {}
        self._events = {}
        self._kept = None

    def tensor(self, seat: int) -> np.ndarray:
        """``seat``'s observation tensor now (possibly the kept array: copy it to keep it).

        The first time a state is asked, the codec writes it from the observation; from the
        second, the state keeps every seat's tensor up to date (``envs._kept``): a kept
        tensor's first sync costs about what the observation does (Dead Man's Draw's more),
        and a search asks most of its copies once, if at all.
        """
        kept = self._kept
        if kept is None:
            self._kept = False
            return self.spec.codec.tensor(self.engine.observation(seat))
        if kept is False:
            kept = self._kept = KeptTensors(self.spec.codec, self.engine)
        return kept.tensor(seat)

    def draw(self, outcome: int) -> None:
        """Apply one chance outcome: the next byte of the seed."""
        if not 0 <= outcome < SEED_OUTCOMES:
            raise pyspiel.SpielError(f"{self.spec.short_name}: chance outcome {outcome} is not in 0..{SEED_OUTCOMES - 1}")
        self.draws.append(outcome)
        if len(self.draws) == SEED_DRAWS:
            self.seed = int.from_bytes(bytes(self.draws), "big")

    def events_json(self, seat: int) -> str:
        """The JSON list of every event ``seat`` was shown so far, in order."""
        log = self.engine.log
        read, parts = self._events.get(seat, (0, []))
        if read > len(log):
            read, parts = 0, []
        for event in log[read:]:
            if event.audience is None or seat in event.audience:
                parts.append(json.dumps(event.data, separators=(",", ":")))
        self._events[seat] = (len(log), parts)
        return "[" + ",".join(parts) + "]"

    def __deepcopy__(self, memo: dict) -> Core:
        other = Core.__new__(Core)
        other.spec = self.spec
        other.seed = self.seed
        other.draws = list(self.draws)
        other._engine = None if self._engine is None else self._engine.clone()
        other.replayable = self.replayable
        other.buffer = dict(self.buffer)
        other.first = self.first
        other._legal = {}
        other._events = {}
        other._kept = None
        other.moves = None if self.moves is None else list(self.moves)
        return other

    def __getstate__(self):
        """The seed and the engine's history (the actions) when they make the engine, which
        is then replayed on loading; the pickled engine otherwise."""
        if self._engine is None:
            engine = None
        elif self.replayable:
            engine = ("history", self._engine.history)
        else:
            engine = ("engine", pickle.dumps(self._engine))
        return (self.spec, self.seed, self.draws, engine, self.buffer, self.first, self.moves)

    def __setstate__(self, data) -> None:
        self.spec, self.seed, self.draws, engine, self.buffer, self.first, self.moves = data
        self._legal = {}
        self._events = {}
        self._kept = None
        self._engine = None
        self.replayable = engine is None or engine[0] == "history"
        if engine is not None and engine[0] == "history":
            replay = self.spec.new_engine(self.seed)
            for step in engine[1]:
                replay.apply_checked(step)  # the steps this engine applied, from the same deal
            self._engine = replay
        elif engine is not None:
            self._engine = pickle.loads(engine[1])

    def legal(self, seat: int) -> dict[int, Any]:
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = self.spec.codec.legal(self.engine, seat)
        return legal

    def rollout_order(self) -> list[int]:
        n = self.spec.num_players
        return sorted(self.engine.acting, key=lambda seat: (seat - self.first) % n)

    def to_move(self) -> int:
        """The seat to move in a turn-based rollout of the current decision."""
        return next(seat for seat in self.rollout_order() if seat not in self.buffer)

    def apply(self, ids: Mapping[int, int]) -> None:
        """Apply one action id per acting seat through the engine."""
        engine = self.engine
        actions = {}
        listed = True
        for seat in engine.acting:
            number = ids[seat]
            legal = self.legal(seat)
            if number not in legal:
                raise pyspiel.SpielError(self._illegal(seat, number))
            action = legal[number]
            if action is None:  # a kind the engine does not list (Karibik's bribes): it checks
                action = self.spec.codec.decode(engine, seat, number)
                listed = False
            actions[seat] = action
        try:
            if listed:
                engine.apply_checked(actions)  # every action is one the engine listed just now
            else:
                engine.apply(actions)
        except IllegalAction as error:
            raise pyspiel.SpielError(f"{self.spec.short_name}: {error}") from None
        self._legal = {}
        self.buffer = {}

    def apply_one(self, seat: int, number: int) -> None:
        """:meth:`apply` when ``seat`` alone decides (most steps), without its loop."""
        legal = self._legal.get(seat)
        if legal is None:
            legal = self.legal(seat)
        action = legal.get(number, legal)  # the dict itself: absent (None is an unlisted kind's)
        if action is legal:
            raise pyspiel.SpielError(self._illegal(seat, number))
        try:
            if action is None:  # a kind the engine does not list: it checks
                self._engine.apply({seat: self.spec.codec.decode(self._engine, seat, number)})
            else:
                self._engine.apply_checked({seat: action})  # one the engine listed just now
        except IllegalAction as error:
            raise pyspiel.SpielError(f"{self.spec.short_name}: {error}") from None
        self._legal = {}

    def _illegal(self, seat: int, number: int) -> str:
        codec = self.spec.codec
        name = codec.text(number) if 0 <= number < codec.num_actions else "out of range"
        return (f"{self.spec.short_name}: action {number} ({name}) is not legal for player {seat} now; "
                f"legal: {sorted(self.legal(seat))[:20]}")
