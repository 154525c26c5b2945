"""OpenSpiel game objects of the three games, their types and parameters, and the helpers for
code that holds engine states. ``envs.openspiel`` re-exports and registers them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pyspiel

from engines import State, get_game

from ._games import SHORT_NAMES, returns_of
from ._spiel_observer import _Observer
from ._spiel_core import SEED_DRAWS, SEED_OUTCOMES, Core, spec_of
from ._spiel_state import PirateState

def _max_game_length(game_id: str, options: Mapping[str, Any], num_players: int) -> int:
    """A bound on decisions per game (OpenSpiel requires one; none is ever near it): the game's
    ``max_length`` piece (its descriptor's), else :class:`~engines.MissingPiece` saying so."""
    return get_game(game_id).piece("max_length")(options, num_players)


class PirateGame(pyspiel.Game):
    """One of the three games with its parameters; see the module docstring."""

    short_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = {**_DEFAULTS[self.short_name], **(params or {})}
        spec = spec_of(self.short_name, tuple(sorted(params.items())))
        game_type = GAME_TYPES[self.short_name]
        if not spec.turn_based and spec.codec.simultaneous:
            game_type = _game_type(self.short_name, pyspiel.GameType.Dynamics.SIMULTANEOUS)
        length = _max_game_length(spec.game_id, spec.options, spec.num_players)
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.codec.num_actions,
            max_chance_outcomes=SEED_OUTCOMES,
            num_players=spec.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=length * (spec.num_players if spec.turn_based else 1) + SEED_DRAWS,
        )
        super().__init__(game_type, info, params)
        self._spec = spec

    def new_initial_state(self) -> PirateState:
        spec = self._spec
        return PirateState(self, Core(spec, spec.seed if spec.seed >= 0 else None))

    def make_py_observer(self, iig_obs_type=None, params=None) -> _Observer:
        if params:
            raise ValueError(f"{self.short_name}: observation parameters are not supported; got {params}")
        if iig_obs_type is None:
            return _Observer(self._spec, perfect_recall=False)
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(f"{self.short_name}: only the observing seat's own observation (public and its "
                             "private information) is provided, not public-only or all-seats views")
        return _Observer(self._spec, perfect_recall=iig_obs_type.perfect_recall)


def state_from_engine(game: PirateGame, engine: State, first: int | None = None) -> PirateState:
    """An OpenSpiel state of ``game`` wrapping ``engine`` (e.g. a determinized one).

    ``first``: the seat a turn-based rollout of a simultaneous decision starts from (a
    searching seat puts itself first, so the others decide without knowing its choice).
    Its OpenSpiel history is empty.
    """
    state = game.new_initial_state()
    state._core.set_engine(engine)  # also past the seed's chance nodes: the deal is this one
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
    engine_game = get_game(SHORT_NAMES[short_name])
    return pyspiel.GameType(
        short_name=short_name,
        long_name=engine_game.name,
        dynamics=dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=engine_game.max_players,
        min_num_players=engine_game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=_DEFAULTS[short_name],
    )


def _defaults(short_name: str) -> dict[str, Any]:
    engine_game = get_game(SHORT_NAMES[short_name])
    params: dict[str, Any] = {"players": engine_game.min_players}
    params.update({option.name: option.default for option in engine_game.options})
    params.update(engine_game.pieces.short_options)
    params.update({"seed": -1, "turn_based": True})
    return params


#: OpenSpiel's defaults that differ from the arena's, from each game's descriptor
#: (``short_options``): a short game, so that a whole game of OpenSpiel's own IS-MCTS or MCTS at
#: 30 simulations a move takes seconds, not minutes (the full game is a parameter away:
#: ``{"deals": 0}``, ``{"max_rounds": 30}``)
SHORT_DEFAULTS = {short: dict(get_game(game_id).pieces.short_options) for short, game_id in SHORT_NAMES.items()
                  if get_game(game_id).pieces.short_options}
_DEFAULTS = {"opito_bay": {"deals": 1}, "karibik": {"max_rounds": 5}}
_DEFAULTS = {short: _defaults(short) for short in SHORT_NAMES}
#: every game is registered sequential (turn-based presentation, the default); a game loaded
#: with ``turn_based=false`` whose decisions can be simultaneous gets simultaneous dynamics
GAME_TYPES = {short: _game_type(short, pyspiel.GameType.Dynamics.SEQUENTIAL) for short in SHORT_NAMES}
