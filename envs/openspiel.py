"""The three games as OpenSpiel games: ``import envs.openspiel`` registers them.

    import pyspiel
    import envs.openspiel  # registers dead_mans_draw, opito_bay, karibik
    game = pyspiel.load_game("karibik", {"players": 3})
    state = game.new_initial_state()

Each game is a thin adapter over the engine in ``engines/``: the legal actions, their effect,
chance, the observations and the outcome all come from the engine (``docs/environments.md``
documents the numbering and the tensors). What OpenSpiel sees:

- **Parameters**: ``players`` (default: the game's minimum) and every option ``arena games``
  lists, with the same defaults and ranges; ``seed`` (default -1: every initial state is a new
  random deal; ``seed >= 0``: every initial state is the deal of ``arena match --seed SEED``);
  ``turn_based`` (default false; see below).
- **Chance** is *sampled stochastic*: the engines draw every random event (the deal, a Map's
  cards, Opito Bay's next deal) from the state's own generator inside a move, and expose no
  draw as a separate step, so there are no chance nodes; a copy of a state copies its
  generator, so the same actions give the same states. Algorithms that need explicit chance
  (CFR and other full-tree methods) do not apply; sampling methods (MCTS on determinized
  states, IS-MCTS, policy evaluation by sampling) do.
- **Simultaneous decisions** (Dead Man's Draw's character choice, Karibik's bribes and
  tie-breaks) are simultaneous nodes when more than one seat decides; a seat with nothing to
  decide there has no legal actions (pass 0 for it). With ``turn_based=true`` they are
  played out seat by seat instead, each seat's choice hidden from the others until all have
  chosen (as ``pyspiel.convert_to_turn_based`` does, but with ``resample_from_infostate``,
  which OpenSpiel's IS-MCTS needs).
- **Returns** are the arena's scoring of the finishing order: each seat gets, against every
  other seat, +1 for finishing ahead, -1 behind, 0 tied, averaged over the opponents; so they
  lie in [-1, 1] and sum to 0 (zero-sum), and a 2-player game is +1/-1/0. (The arena's
  ``points %`` of a seat is ``(1 + return) / 2``.) Rewards come at the end only.
- **Observations** are a function of the engine's observation of that seat and nothing else:
  ``observation_string`` is that observation as JSON (without the map, which Karibik's
  parameters fix), ``information_state_string`` adds every event the seat was shown, in
  order (what the wire protocol sends it over the game), and ``observation_tensor`` is the
  codec's encoding of the same observation. With ``turn_based=true`` a seat's own pending
  choice is appended to its strings.
- ``resample_from_infostate(player, sampler)`` is the engine's ``resample``: everything the
  seat cannot know is redrawn consistently with what it knows (other seats' choices pending
  in a turn-based rollout are redrawn uniformly among their legal actions).

Bad input raises ``pyspiel.SpielError``: an unknown parameter (OpenSpiel's own check), and a
bad player count or option value with the engine's message.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

from engines import IllegalAction, State, game_package

from ._codec import Codec
from ._games import CODECS, SHORT_NAMES, codec, resolve, returns_of

__all__ = ["SHORT_NAMES", "action_of", "engine_state", "random_playout_returns", "returns_of", "state_from_engine"]

_TERMINAL = pyspiel.PlayerId.TERMINAL
_SIMULTANEOUS = pyspiel.PlayerId.SIMULTANEOUS


def _max_game_length(game_id: str, options: Mapping[str, Any], num_players: int) -> int:
    """A bound on decisions per game (OpenSpiel requires one; none is ever near it).

    Dead Man's Draw: every turn draws a card and holds at most ~10 placements, each with a
    few decisions; Opito Bay: per deal at most 51 cards plus the hands 7 Krakens send back,
    3 decisions a turn; Karibik: per round a bribe and per ship a tie-break and a move of at
    most 5 steps, a loot, 12 transfers and a delivery.
    """
    if game_id == "dead-mans-draw":
        party = options["party"] or num_players > 4
        return 100 * (100 if party else 50) + 2 * num_players
    if game_id == "opito-bay":
        return 300 * (options["deals"] or 40)
    return 160 * options["max_rounds"]


class _Spec:
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

    def __deepcopy__(self, memo: dict) -> _Spec:
        return self

    def __reduce__(self):
        return (_spec_of, (self.short_name, tuple(sorted(self.params.items()))))


_SPECS: dict[tuple[str, tuple], _Spec] = {}


def _spec_of(short_name: str, params: tuple) -> _Spec:
    """The shared spec of a game (for unpickling a serialized state)."""
    key = (short_name, params)
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = _Spec(short_name, dict(params))
    return spec


class _Core:
    """Everything one OpenSpiel state holds, in one attribute.

    OpenSpiel copies a Python state by making a new initial state and deep-copying each
    attribute; this one copies itself with the engine's fast ``clone`` and shares the spec.
    The engine state is made on first use, so the initial state OpenSpiel makes inside every
    copy deals nothing.
    """

    __slots__ = ("spec", "seed", "_engine", "buffer", "first", "_legal", "_events")

    def __init__(self, spec: _Spec, seed: int, engine: State | None = None) -> None:
        self.spec = spec
        self.seed = seed
        self._engine = engine
        #: turn-based rollout of a simultaneous decision: seat -> chosen action id
        self.buffer: dict[int, int] = {}
        #: the seat a turn-based rollout starts from (then the others in seat order after it)
        self.first = 0
        #: per seat, ``{id: engine action}`` of the current step (built on demand)
        self._legal: dict[int, dict[int, Any]] = {}
        #: per seat, (log entries read, JSON of each event it saw): information-state strings
        #: grow with the game, so the events are encoded once each (not copied with the state)
        self._events: dict[int, tuple[int, list[str]]] = {}

    @property
    def engine(self) -> State:
        if self._engine is None:
            self._engine = self.spec.new_engine(self.seed)
        return self._engine

    def set_engine(self, engine: State) -> None:
        self._engine = engine
        self._legal = {}
        self._events = {}

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

    def __deepcopy__(self, memo: dict) -> _Core:
        other = _Core.__new__(_Core)
        other.spec = self.spec
        other.seed = self.seed
        other._engine = None if self._engine is None else self._engine.clone()
        other.buffer = dict(self.buffer)
        other.first = self.first
        other._legal = {}
        other._events = {}
        return other

    def __getstate__(self):
        return (self.spec, self.seed, None if self._engine is None else pickle.dumps(self.engine), self.buffer,
                self.first)

    def __setstate__(self, data) -> None:
        self.spec, self.seed, engine, self.buffer, self.first = data
        self._engine = None if engine is None else pickle.loads(engine)
        self._legal = {}
        self._events = {}

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

    def _illegal(self, seat: int, number: int) -> str:
        codec = self.spec.codec
        name = codec.text(number) if 0 <= number < codec.num_actions else "out of range"
        return (f"{self.spec.short_name}: action {number} ({name}) is not legal for player {seat} now; "
                f"legal: {sorted(self.legal(seat))[:20]}")


class PirateState(pyspiel.State):
    """A state of one of the three games; wraps an engine state (``engine_state(state)``)."""

    def __init__(self, game: PirateGame, core: _Core) -> None:
        super().__init__(game)
        self._core = core

    # -- who moves, what is legal -------------------------------------------------------------

    def current_player(self) -> int:
        core = self._core
        acting = core.engine.acting
        if not acting:
            return _TERMINAL
        if len(acting) == 1:
            return acting[0]
        if core.spec.turn_based:
            return core.to_move()
        return _SIMULTANEOUS

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        if core.spec.turn_based and player in core.buffer:
            return []
        legal = core.legal(player)
        if len(legal) > 64 and legal is core.spec.codec.unlisted_legal.get(core.engine.decision(player)):
            return list(core.spec.codec.unlisted[core.engine.decision(player)])  # already sorted
        return sorted(legal)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``legal_actions``, answered in Python for Python callers.

        The same contract as the C++ method (the current player's legal actions; a player's
        own at a simultaneous node; none when terminal or not the player's turn), without
        pybind's round trip through C++ and back into ``_legal_actions`` (four trampoline
        calls, ~15 us of the ~30 us a random-play step takes). C++ callers still take that way.
        """
        current = self.current_player()
        if player is None:
            player = current
        if current == _TERMINAL or player < 0 or (player != current and current != _SIMULTANEOUS):
            return []
        return self._legal_actions(player)

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        engine = core.engine
        seat = player if player >= 0 and player in engine.acting else None
        return core.spec.codec.text(action, engine if seat is not None else None, seat)

    # -- moves --------------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        core = self._core
        acting = core.engine.acting
        if len(acting) == 1:
            core.apply({acting[0]: action})
            return
        if not core.spec.turn_based:
            raise pyspiel.SpielError(f"{core.spec.short_name}: seats {list(acting)} decide at once here: use "
                                     "apply_actions, or load the game with turn_based=true")
        seat = core.to_move()  # a turn-based rollout of a simultaneous decision
        if action not in core.legal(seat):
            raise pyspiel.SpielError(core._illegal(seat, action))
        core.buffer[seat] = action
        if len(core.buffer) == len(acting):
            core.apply(core.buffer)

    def _apply_actions(self, actions: list[int]) -> None:
        core = self._core
        core.apply({seat: actions[seat] for seat in core.engine.acting})

    # -- the end ------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return not self._core.engine.acting

    def returns(self) -> list[float]:
        engine = self._core.engine
        if engine.acting:
            return [0.0] * engine.num_players
        return returns_of(engine.outcome().ranks)

    def __str__(self) -> str:
        core = self._core
        engine = core.engine
        static = core.spec.codec.static_keys
        views = [{k: v for k, v in engine.observation(seat).items() if k not in static}
                 for seat in range(engine.num_players)]
        return json.dumps({"observations": views, "hidden": core.spec.view(engine),
                           "pending": sorted(core.buffer.items())}, separators=(",", ":"))

    # -- information --------------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler) -> PirateState:
        """A copy in which everything ``player_id`` cannot know is redrawn (engine ``resample``)."""
        rng = random.Random(int(probability_sampler() * 2.0 ** 53) ^ int(probability_sampler() * 2.0 ** 53) << 11)
        other = self.clone()
        core = other._core
        core.set_engine(self._core.engine.resample(player_id, rng))
        for seat in list(core.buffer):
            if seat != player_id:  # another seat's hidden choice: any of its legal actions
                choices = sorted(core.legal(seat))
                core.buffer[seat] = choices[rng.randrange(len(choices))]
        return other


def _strip(codec: Codec, obs: Mapping[str, Any]) -> dict[str, Any]:
    static = codec.static_keys
    return {k: v for k, v in obs.items() if k not in static} if static else dict(obs)


class _Observer:
    """OpenSpiel's observer interface (``set_from``, ``string_from``, ``tensor``, ``dict``)."""

    def __init__(self, codec: Codec, perfect_recall: bool) -> None:
        self.codec = codec
        self.perfect_recall = perfect_recall
        if perfect_recall:
            self.tensor = None  # no information-state tensor: the string has the history
            self.dict = {}
        else:
            self.tensor = np.zeros(codec.layout.size, np.float32)
            self.dict = {name: self.tensor[offset:offset + size] for name, offset, size, _ in codec.layout.rows()}

    def set_from(self, state: PirateState, player: int) -> None:
        if self.tensor is not None:
            self.tensor.fill(0.0)
            self.codec.write(state._core.engine.observation(player), self.tensor)

    def string_from(self, state: PirateState, player: int) -> str:
        core = state._core
        engine = core.engine
        text = json.dumps(_strip(self.codec, engine.observation(player)), separators=(",", ":"))
        if self.perfect_recall:
            text = core.events_json(player) + "\n" + text
        if player in core.buffer:
            text += "\nmy choice: " + self.codec.text(core.buffer[player])
        return text


class PirateGame(pyspiel.Game):
    """One of the three games with its parameters; see the module docstring."""

    short_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = {**_DEFAULTS[self.short_name], **(params or {})}
        spec = _spec_of(self.short_name, tuple(sorted(params.items())))
        game_type = _GAME_TYPES[self.short_name]
        if spec.turn_based and game_type.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            game_type = _game_type(self.short_name, pyspiel.GameType.Dynamics.SEQUENTIAL)
        length = _max_game_length(spec.game_id, spec.options, spec.num_players)
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.codec.num_actions,
            max_chance_outcomes=0,
            num_players=spec.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=length * (spec.num_players if spec.turn_based else 1),
        )
        super().__init__(game_type, info, params)
        self._spec = spec

    def new_initial_state(self) -> PirateState:
        spec = self._spec
        seed = spec.seed if spec.seed >= 0 else spec.rng.getrandbits(63)
        return PirateState(self, _Core(spec, seed))

    def make_py_observer(self, iig_obs_type=None, params=None) -> _Observer:
        if params:
            raise ValueError(f"{self.short_name}: observation parameters are not supported; got {params}")
        if iig_obs_type is None:
            return _Observer(self._spec.codec, perfect_recall=False)
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(f"{self.short_name}: only the observing seat's own observation (public and its "
                             "private information) is provided, not public-only or all-seats views")
        return _Observer(self._spec.codec, perfect_recall=iig_obs_type.perfect_recall)


def state_from_engine(game: PirateGame, engine: State, first: int | None = None) -> PirateState:
    """An OpenSpiel state of ``game`` wrapping ``engine`` (e.g. a determinized one).

    ``first``: the seat a turn-based rollout of a simultaneous decision starts from (a
    searching seat puts itself first, so the others decide without knowing its choice).
    Its OpenSpiel history is empty.
    """
    state = game.new_initial_state()
    state._core.set_engine(engine)
    if first is not None:
        state._core.first = first
    return state


def action_of(state: PirateState, player: int, action: int) -> Any:
    """The engine action (as a bot sends it on the wire) of OpenSpiel action id ``action`` of
    ``player`` in ``state``; ``pyspiel.SpielError`` if it is not legal there."""
    core = state._core
    legal = core.legal(player)
    if action not in legal:
        raise pyspiel.SpielError(core._illegal(player, action))
    value = legal[action]
    return core.spec.codec.decode(core.engine, player, action) if value is None else value


def random_playout_returns(state: PirateState, rng: random.Random, stop: Callable[[], bool] | None = None,
                           max_steps: int | None = None) -> list[float]:
    """The returns of one uniformly random playout from ``state``, played on a copy of the
    engine state (an order of magnitude faster than through OpenSpiel's API); choices
    already made in a turn-based rollout are kept.

    A playout cut short, after ``max_steps`` engine steps or when ``stop()`` is true (checked
    every 16 steps), returns zeros, as OpenSpiel's ``RandomRolloutEvaluator`` does at its
    ``max_length``: the returns of a game not over.
    """
    core = state._core
    engine = core.engine.clone()
    if core.buffer:
        step = {seat: action_of(state, seat, number) for seat, number in core.buffer.items()}
        for seat in engine.acting:
            if seat not in step:
                step[seat] = engine.random_action(seat, rng)
        engine.apply_checked(step)  # legal: listed by the engine, or drawn by its random_action
    steps = 0
    while engine.acting:
        engine.apply_checked({seat: engine.random_action(seat, rng) for seat in engine.acting})
        steps += 1
        if (max_steps is not None and steps >= max_steps) or (stop is not None and steps % 16 == 0 and stop()):
            return [0.0] * engine.num_players
    return returns_of(engine.outcome().ranks)


def engine_state(state: PirateState) -> State:
    """The engine state inside an OpenSpiel state (do not change it)."""
    return state._core.engine


def _game_type(short_name: str, dynamics) -> pyspiel.GameType:
    game = SHORT_NAMES[short_name]
    from engines import get_game

    engine_game = get_game(game)
    return pyspiel.GameType(
        short_name=short_name,
        long_name=engine_game.name,
        dynamics=dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=engine_game.max_players,
        min_num_players=engine_game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=_DEFAULTS[short_name],
    )


def _codec_class(short_name: str) -> type[Codec]:
    import importlib

    module, _, name = CODECS[SHORT_NAMES[short_name]].partition(":")
    return getattr(importlib.import_module(module), name)


def _defaults(short_name: str) -> dict[str, Any]:
    from engines import get_game

    engine_game = get_game(SHORT_NAMES[short_name])
    params: dict[str, Any] = {"players": engine_game.min_players}
    params.update({option.name: option.default for option in engine_game.options})
    params.update({"seed": -1, "turn_based": False})
    return params


_DEFAULTS = {short: _defaults(short) for short in SHORT_NAMES}
#: simultaneous dynamics for the games that have simultaneous decisions (Opito Bay has none)
_GAME_TYPES = {short: _game_type(short, pyspiel.GameType.Dynamics.SIMULTANEOUS if _codec_class(short).simultaneous
                                 else pyspiel.GameType.Dynamics.SEQUENTIAL) for short in SHORT_NAMES}
GAME_CLASSES: dict[str, type[PirateGame]] = {}
for _short in SHORT_NAMES:
    GAME_CLASSES[_short] = type(f"{_short.title().replace('_', '')}Game", (PirateGame,), {"short_name": _short})
    pyspiel.register_game(_GAME_TYPES[_short], GAME_CLASSES[_short])
