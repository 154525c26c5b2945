"""The three games as PettingZoo AEC environments, in the style of PettingZoo's classic games.

    from envs.pettingzoo import env
    e = env("karibik", players=3, render_mode="ansi")
    e.reset(seed=7)                      # the deal of `arena match karibik ... --seed 7`
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else \\
            e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

- Agents are ``player_0`` .. ``player_{n-1}``, seat ``i`` of the engine.
- ``observation_space(agent)``: a ``Dict`` of ``observation``, a float32 ``Box`` (the codec's
  tensor of that seat's observation, observer first; layout in ``docs/environments.md``) and
  ``action_mask``, an int8 ``Box`` over the actions; ``action_space(agent)``: ``Discrete``
  over the same numbering as ``envs.openspiel``. Only the agent to move has a non-zero mask.
- A simultaneous decision (Dead Man's Draw's characters, Karibik's bribes and tie-breaks) is
  asked seat by seat; a seat's choice is applied, and shown to anyone, only once every
  deciding seat has chosen.
- Rewards come at the end: each agent's pairwise rank score (+1 for every opponent behind,
  -1 for every one ahead, averaged over the opponents; ``envs.openspiel.returns_of``). No
  truncation: every game ends by its rules.
- ``reset(seed=S)`` deals exactly as ``arena match --seed S`` (the engine's seed); ``reset()``
  without a seed draws the next deal from the last seed given (or from the system).
  ``reset``'s ``options`` are ignored: game options are fixed when the environment is made.
- ``render()`` with ``render_mode="ansi"`` returns the seat-free view as text: what every seat
  sees (no hand, no private look, no secret bribe), with Karibik's map drawn.

``env`` wraps :class:`raw_env` as PettingZoo's classic games do (``TerminateIllegalWrapper``:
an illegal action ends the game with reward -1 for the agent that sent it,
``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``). Bad input (unknown game, bad option,
player count) raises ``ValueError`` with the engine's message.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from engines import State, get_game

from ._codec import Codec
from ._games import codec, game_id_of, resolve, returns_of

__all__ = ["env", "raw_env", "returns_of"]


def env(game: str, players: int | None = None, render_mode: str | None = None, **options: Any) -> AECEnv:
    """An AEC environment of ``game`` (``"karibik"``, ``"opito_bay"`` or ``"opito-bay"``, ...)
    for ``players`` seats (default: the game's minimum) with the game's ``options``."""
    environment: AECEnv = raw_env(game, players=players, render_mode=render_mode, **options)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped environment)
    """The unwrapped environment; see the module docstring."""

    metadata = {"render_modes": ["ansi"], "name": "pirate_arena_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        game_id = game_id_of(game)
        engine_game = get_game(game_id)
        if players is None:
            players = engine_game.min_players
        self.game, self.num_players, self.game_options = resolve(game_id, players, options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.game_id = game_id
        self.metadata = {**self.metadata, "name": f"{game_id.replace('-', '_')}_v0"}
        self.codec: Codec = codec(game_id, self.num_players, self.game_options)
        self.possible_agents = [f"player_{seat}" for seat in range(self.num_players)]
        self.agents = self.possible_agents[:]
        low, high = self.codec.layout.bounds()
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), dtype=np.int8),
        }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.codec.num_actions) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.engine: State | None = None  # not `state`: AECEnv.state() is PettingZoo's global-state method
        self._buffer: dict[int, int] = {}
        self._legal: dict[int, Any] | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- episodes -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be a non-negative integer (as arena match --seed), got {seed!r}")
            seed = int(seed)
            self._seeds = random.Random(seed)
        else:
            seed = self._seeds.getrandbits(63)
        self.seed_used = seed
        self.engine = self.game.new_state(self.num_players, seed, self.game_options)
        self._buffer = {}
        self._legal = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._to_move()]

    def _to_move(self) -> int:
        acting = self.engine.acting
        if len(acting) == 1:
            return acting[0]
        return next(seat for seat in acting if seat not in self._buffer)

    def _legal_now(self) -> dict[int, Any]:
        """``{id: engine action}`` of the seat to move (cached until the next step)."""
        if self._legal is None:
            self._legal = self.codec.legal(self.engine, self._to_move())
        return self._legal

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        observation = self.codec.tensor(self.engine.observation(seat))
        if self.engine.acting and agent == self.agent_selection:
            legal = self._legal_now()
            kind = self.engine.decision(seat)
            if legal is self.codec.unlisted_legal.get(kind):  # all 5,040 Karibik bribes: one copy
                mask = self.codec.unlisted_mask[kind].copy()
            else:
                mask = np.zeros(self.codec.num_actions, np.int8)
                mask[list(legal)] = 1
        else:
            mask = np.zeros(self.codec.num_actions, np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        number = int(action)
        legal = self._legal_now()
        if number not in legal:
            raise ValueError(f"action {number} is not legal for {agent} now; legal: {sorted(legal)[:20]}")
        self._cumulative_rewards[agent] = 0.0
        state = self.engine
        self._buffer[seat] = number
        self._legal = None
        if len(self._buffer) == len(state.acting):
            step = {}
            checked = True
            for player, chosen in self._buffer.items():
                value = self.codec.legal(state, player).get(chosen) if player != seat else legal[chosen]
                if value is None:  # a kind the engine does not list (Karibik's bribes)
                    value = self.codec.decode(state, player, chosen)
                    checked = False
                step[player] = value
            self._buffer = {}
            if checked:
                state.apply_checked(step)  # every action is one the engine listed just now
            else:
                state.apply(step)
        if not state.acting:
            scores = returns_of(state.outcome().ranks)
            self.rewards = {a: scores[self.possible_agents.index(a)] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[self._to_move()]

    # -- display ------------------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return seat_free_view(self.codec, self.engine, self.game_options)

    def close(self) -> None:
        pass


def seat_free_view(codec: Codec, state: State, options: Mapping[str, Any]) -> str:
    """What every seat sees of ``state``, as text (Karibik: with its map drawn)."""
    obs = state.observation(0)
    hidden = set(codec.private_keys) | set(codec.static_keys) | {"seat"}
    lines = [f"{codec.game_id}, {state.num_players} players"]
    text = state.game.renderers.get("text")
    if text is not None:
        lines.append(text(state, options))
    for key, value in obs.items():
        if key not in hidden:
            lines.append(f"{key}: {json.dumps(value, separators=(',', ':'))}")
    return "\n".join(lines)
