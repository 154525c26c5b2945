"""Replays: a game as (game id, players, seed, options, actions), and re-running one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._core import Action, State
from ._registry import get_game


@dataclass(frozen=True)
class Replay:
    """Everything needed to reproduce a game exactly.

    ``steps`` holds one ``{seat: action}`` map per applied step, as in ``State.history``.
    """

    game: str
    num_players: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    steps: Sequence[Mapping[int, Action]] = ()

    @classmethod
    def of(cls, state: State, game_id: str, seed: int) -> Replay:
        return cls(game_id, state.num_players, seed, dict(state.options), list(state.history))

    def as_dict(self) -> dict[str, Any]:
        """A msgpack/JSON-able form; seats become string keys for JSON."""
        return {
            "game": self.game,
            "players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "steps": [[[seat, action] for seat, action in step.items()] for step in self.steps],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Replay:
        steps = [{int(seat): action for seat, action in step} for step in data["steps"]]
        return cls(data["game"], int(data["players"]), int(data["seed"]), dict(data["options"]), steps)

    def states(self) -> list[State]:
        """Re-run the game; return the initial state and the state after every step (copies)."""
        state = get_game(self.game).new_state(self.num_players, self.seed, self.options)
        states = [state.clone()]
        for step in self.steps:
            state.apply(step)
            states.append(state.clone())
        return states

    def final_state(self) -> State:
        """Re-run the game and return its last state."""
        state = get_game(self.game).new_state(self.num_players, self.seed, self.options)
        for step in self.steps:
            state.apply(step)
        return state
