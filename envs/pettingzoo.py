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

- ``render()``: ``render_mode="ansi"`` returns the seat-free view as text (what every seat
  sees: no hand, no private look, no secret bribe; Karibik's map drawn), ``"human"`` prints
  it and returns None, ``"rgb_array"`` returns it drawn (the engine's SVG drawing where it
  has one, Karibik's map, above the view's text) as an ``(h, w, 3)`` uint8 array.
- An action the mask does not allow ends the game at once: the agent that sent it gets -1,
  every other agent 0, every agent is terminated, and every agent's ``info`` holds
  ``illegal_action`` (who, which id, why); ``render()`` says so too. An action outside the
  action space, or ``step`` before ``reset``, is a ``ValueError``/``AssertionError`` naming
  it. These checks are inside :class:`raw_env` (``env()`` is the same class: no
  PettingZoo wrappers around it, which tripled the cost of a step).
- :func:`parallel_env` is PettingZoo's parallel API over the same games (``envs._parallel``).

Bad input (unknown game, bad option, player count) raises ``ValueError`` with the engine's
message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from engines import State

from ._games import returns_of
from ._kept import KeptTensors
from ._parallel import ParallelPirateEnv
from ._render import seat_free_view
from ._table import RENDER_MODES, Table

__all__ = ["RENDER_MODES", "env", "parallel_env", "raw_env", "returns_of", "seat_free_view"]


def env(game: str, players: int | None = None, render_mode: str | None = None, **options: Any) -> AECEnv:
    """An AEC environment of ``game`` (``"karibik"``, ``"opito_bay"`` or ``"opito-bay"``, ...)
    for ``players`` seats (default: the game's minimum) with the game's ``options``."""
    return raw_env(game, players=players, render_mode=render_mode, **options)


def parallel_env(game: str, players: int | None = None, render_mode: str | None = None,
                 **options: Any) -> ParallelPirateEnv:
    """A PettingZoo ``ParallelEnv`` of ``game``; see ``envs._parallel``."""
    return ParallelPirateEnv(game, players=players, render_mode=render_mode, **options)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped environment)
    """The environment (``env()`` returns one); see the module docstring."""

    metadata = {"render_modes": RENDER_MODES, "name": "pirate_arena_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        self.table = table = Table(game, players, render_mode, options)
        self.render_mode = render_mode
        self.game, self.num_players, self.game_options = table.game, table.num_players, table.game_options
        self.game_id = table.game_id
        self.metadata = {**self.metadata, "name": f"{table.game_id.replace('-', '_')}_v0"}
        self.codec = table.codec
        self.possible_agents = table.agents[:]
        self.agents = self.possible_agents[:]
        self.observation_spaces = table.observation_spaces
        self.action_spaces = table.action_spaces
        self._buffer: dict[int, int] = {}
        #: ``{id: engine action}`` of the seat to move (cached until the next step)
        self._legal: dict[int, Any] | None = None
        self._kept: KeptTensors | None = None
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}

    @property
    def engine(self) -> State | None:  # not `state`: AECEnv.state() is PettingZoo's global-state method
        return self.table.engine

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- episodes -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        self.seed_used = self.table.new_engine(seed)
        self._kept = KeptTensors(self.codec, self.table.engine)
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
        acting = self.table.engine.acting
        if len(acting) == 1:
            return acting[0]
        return next(seat for seat in acting if seat not in self._buffer)

    def _started(self) -> State:
        engine = self.table.engine
        if engine is None:
            raise AssertionError("reset() must be called before observe(), step(), last() or render()")
        return engine

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        engine = self.table.engine
        if engine is None:
            self._started()  # raises
        seat = self._seat_of[agent]
        observation = self._kept.tensor(seat).copy()  # == codec.tensor(engine.observation(seat))
        if engine.acting and agent == self.agent_selection and self.table.illegal is None:
            legal = self._legal  # of the seat to move: this one
            if legal is None:
                legal = self._legal = self.codec.legal(engine, seat)
            mask = self.table.mask(seat, legal)
        else:
            mask = self.table.no_mask.copy()
        return {"observation": observation, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, without its extra call (it is once a step)."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: int | None) -> None:
        engine = self.table.engine
        if engine is None:
            self._started()  # raises
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = action if type(action) is int and 0 <= action < self.codec.num_actions \
            else self.table.check_action(agent, action)
        seat = self._seat_of[agent]  # the seat to move
        legal = self._legal
        if legal is None:
            legal = self.codec.legal(engine, seat)
        self._cumulative_rewards[agent] = 0.0
        if number not in legal:
            self._end(self.table.illegal_outcome(agent, number, legal))
            self.infos = {a: {"illegal_action": dict(self.table.illegal)} for a in self.agents}
            return
        self._legal = None
        # Every action applied is one the engine listed just now, or an id the codec answered
        # by the engine's own rule (Karibik's bribes, each passed once through the engine's
        # check and legal in every state; Opito Bay's spyglass orders, every order of the
        # looked-at cards): the engine need not check it again.
        if len(engine.acting) == 1:
            value = legal[number]
            engine.apply_checked({seat: self.codec.decode(engine, seat, number) if value is None else value})
        else:
            self._buffer[seat] = number
            if len(self._buffer) == len(engine.acting):
                step = {}
                for player, chosen in self._buffer.items():
                    value = self.codec.legal(engine, player).get(chosen) if player != seat else legal[chosen]
                    step[player] = self.codec.decode(engine, player, chosen) if value is None else value
                self._buffer = {}
                engine.apply_checked(step)
        acting = engine.acting
        if not acting:
            self._end(self.table.final_rewards())
        else:
            self.agent_selection = self.possible_agents[acting[0] if len(acting) == 1 else self._to_move()]

    def _end(self, rewards: dict[str, float]) -> None:
        self.rewards = {a: rewards[a] for a in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    # -- display ------------------------------------------------------------------------------

    def render(self) -> Any:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        pass
