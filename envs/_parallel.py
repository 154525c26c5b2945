"""The three games as PettingZoo ``ParallelEnv``s: every deciding seat acts in one step.

    from envs.pettingzoo import parallel_env
    e = parallel_env("dead_mans_draw", players=3)
    observations, infos = e.reset(seed=7)
    while e.agents:
        actions = {agent: e.action_space(agent).sample(observations[agent]["action_mask"])
                   for agent in e.agents}
        observations, rewards, terminations, truncations, infos = e.step(actions)

A step applies one action of every seat deciding now (``infos[agent]["acting"]`` is true for
them, and only their masks are non-zero): several at a simultaneous decision (Dead Man's
Draw's characters, Karibik's bribes and tie-breaks), one otherwise. The other agents' actions
are ignored (any id, or none, will do; a masked sample of an all-zero mask gives 0). The
observations, spaces, rewards, seeds and the illegal-move outcome are those of the AEC
environment (``envs.pettingzoo``); when the game ends every agent is terminated with its
reward and ``agents`` becomes empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.env import ParallelEnv

from ._kept import KeptTensors
from ._table import RENDER_MODES, Table


class ParallelPirateEnv(ParallelEnv):
    """PettingZoo's parallel API over one game; see the module docstring."""

    metadata = {"render_modes": RENDER_MODES, "name": "pirate_arena_parallel_v0"}

    def __init__(self, game: str, players: int | None = None, render_mode: str | None = None,
                 **options: Any) -> None:
        self.table = table = Table(game, players, render_mode, options)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"{table.game_id.replace('-', '_')}_parallel_v0"}
        self.codec = table.codec
        self.possible_agents = table.agents[:]
        self.agents: list[str] = []
        self.observation_spaces = table.observation_spaces
        self.action_spaces = table.action_spaces

    @property
    def engine(self):
        return self.table.engine

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None):
        self.seed_used = self.table.new_engine(seed)
        self._kept = KeptTensors(self.codec, self.table.engine)
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos()

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        table = self.table
        engine = table.engine
        out = {}
        for seat, agent in enumerate(self.possible_agents):
            acting = seat in engine.acting and table.illegal is None
            mask = table.mask(seat, self.codec.legal(engine, seat)) if acting else table.no_mask.copy()
            out[agent] = {"observation": self._kept.tensor(seat).copy(), "action_mask": mask}
        return out

    def _infos(self) -> dict[str, dict[str, Any]]:
        acting = self.table.engine.acting
        infos = {agent: {"acting": seat in acting} for seat, agent in enumerate(self.possible_agents)}
        if self.table.illegal is not None:
            for info in infos.values():
                info["illegal_action"] = dict(self.table.illegal)
        return infos

    def step(self, actions: Mapping[str, Any]):
        table = self.table
        engine = table.engine
        if engine is None or not self.agents:
            raise AssertionError("reset() must be called before step() (and again after the game ended)")
        step = {}
        rewards = dict.fromkeys(self.agents, 0.0)
        checked = True
        for seat in engine.acting:
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} decides now (a {engine.decision(seat)!r} decision) but has no action; "
                                 f"deciding: {[self.possible_agents[s] for s in engine.acting]}")
            number = table.check_action(agent, actions[agent])
            legal = self.codec.legal(engine, seat)
            if number not in legal:
                rewards = table.illegal_outcome(agent, number, legal)
                break
            value = legal[number]
            if value is None:  # a kind the engine does not list (Karibik's bribes)
                value = self.codec.decode(engine, seat, number)
                checked = False
            step[seat] = value
        else:
            if checked:
                engine.apply_checked(step)  # every action is one the engine listed just now
            else:
                engine.apply(step)
            if not engine.acting:
                rewards = table.final_rewards()
        observations, infos = self._observations(), self._infos()
        over = table.illegal is not None or not engine.acting
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Any:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        pass
