"""OpenSpiel states of the three games: who moves, what is legal, what a state shows (what it
holds and how it moves by action ids: :mod:`._spiel_core`).

``envs.openspiel`` is the public surface (and registers the games); see its docstring.
"""

from __future__ import annotations

import json
import random

import pyspiel

from . import _spiel_undo
from ._games import returns_of
from ._spiel_core import SEED_CHANCE, SEED_IDS, Core

_TERMINAL = pyspiel.PlayerId.TERMINAL
_SIMULTANEOUS = pyspiel.PlayerId.SIMULTANEOUS
_CHANCE = pyspiel.PlayerId.CHANCE

class PirateState(_spiel_undo.Undoable, pyspiel.State):
    """A state of one of the three games; wraps an engine state (``engine_state(state)``)."""

    def __init__(self, game: pyspiel.Game, core: Core) -> None:
        super().__init__(game)
        self._core = core

    # -- who moves, what is legal -------------------------------------------------------------

    def current_player(self) -> int:
        core = self._core
        engine = core._engine  # the attribute, not the property: this runs several times a step
        if engine is None:
            if core.seed is None:
                return _CHANCE
            engine = core.engine
        acting = engine.acting
        if not acting:
            return _TERMINAL
        if len(acting) == 1:
            return acting[0]
        if core.spec.turn_based:
            return core.to_move()
        return _SIMULTANEOUS

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        if not core.dealt:
            return list(SEED_IDS) if player == _CHANCE else []
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
        core = self._core
        engine = core._engine
        if engine is not None and len(engine.acting) == 1 and (player is None or player == engine.acting[0]):
            # the common case (one seat decides, so nothing is buffered), inline
            seat = engine.acting[0]
            legal = core._legal.get(seat)
            if legal is None:
                legal = core._legal[seat] = core.spec.codec.legal(engine, seat)
            if len(legal) > 64 and legal is core.spec.codec.unlisted_legal.get(engine.decision(seat)):
                return list(core.spec.codec.unlisted[engine.decision(seat)])  # already sorted
            return sorted(legal)
        current = self.current_player()
        if player is None:
            player = current
        if current == _CHANCE:
            return list(SEED_IDS) if player == _CHANCE else []
        if current == _TERMINAL or player < 0 or (player != current and current != _SIMULTANEOUS):
            return []
        return self._legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next byte of the deal's seed, uniformly (only before the deal)."""
        return list(SEED_CHANCE) if not self._core.dealt else []

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == _CHANCE:
            return f"seed byte {action}"
        engine = core.engine
        seat = player if player >= 0 and player in engine.acting else None
        return core.spec.codec.text(action, engine if seat is not None else None, seat)

    # -- moves --------------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.moves is not None:  # after an undo: OpenSpiel's history is kept here
            core.moves.append((self.current_player(), action))
        if core._engine is None and core.seed is None:
            core.draw(action)
            return
        acting = core.engine.acting
        if len(acting) == 1:
            core.apply_one(acting[0], action)
            return
        if not core.spec.turn_based:
            raise pyspiel.SpielError(f"{core.spec.short_name}: seats {list(acting)} decide at once here: use "
                                     "apply_actions (the game was loaded with turn_based=false)")
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
        engine = self._core._engine
        if engine is not None:
            return not engine.acting
        return self._core.dealt and not self._core.engine.acting

    def returns(self) -> list[float]:
        if not self._core.dealt:
            return [0.0] * self._core.spec.num_players
        engine = self._core.engine
        if engine.acting:
            return [0.0] * engine.num_players
        return returns_of(engine.outcome().ranks)

    def __str__(self) -> str:
        core = self._core
        if not core.dealt:
            return f"dealing: seed bytes {core.draws}"
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
        if not self._core.dealt:
            return other  # before the deal nobody knows anything to keep
        core = other._core
        core.set_engine(self._core.engine.resample(player_id, rng))
        for seat in list(core.buffer):
            if seat != player_id:  # another seat's hidden choice: any of its legal actions
                choices = sorted(core.legal(seat))
                core.buffer[seat] = choices[rng.randrange(len(choices))]
        return other
