"""What the AEC and the parallel PettingZoo environments share: one game's engine, codec,
options and spaces, the checked construction, masks, the illegal-move outcome, rendering."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from engines import State, get_game

from ._codec import Codec
from ._games import codec, game_id_of, resolve, returns_of
from ._render import rasterize, seat_free_svg, seat_free_view

RENDER_MODES = ["ansi", "human", "rgb_array"]


class Table:
    """One game's engine, codec and options, shared by the AEC and the parallel environment:
    the checked construction, the observation of a seat and the illegal-move outcome."""

    def __init__(self, game: str, players: int | None, render_mode: str | None, options: Mapping[str, Any]) -> None:
        game_id = game_id_of(game)
        if players is None:
            players = get_game(game_id).min_players
        self.game, self.num_players, self.game_options = resolve(game_id, players, options)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
        self.game_id = game_id
        self.codec: Codec = codec(game_id, self.num_players, self.game_options)
        self.agents = [f"player_{seat}" for seat in range(self.num_players)]
        low, high = self.codec.layout.bounds()
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), dtype=np.int8),
        }) for agent in self.agents}
        self.action_spaces = {agent: spaces.Discrete(self.codec.num_actions) for agent in self.agents}
        self.no_mask = np.zeros(self.codec.num_actions, np.int8)
        self.seeds = random.Random()
        self.engine: State | None = None
        self.illegal: dict[str, Any] | None = None

    def new_engine(self, seed: Any) -> int:
        """Deal the next game (``seed``: as ``arena match --seed``, or None: the next one)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be a non-negative integer (as arena match --seed), got {seed!r}")
            seed = int(seed)
            self.seeds = random.Random(seed)
        else:
            seed = self.seeds.getrandbits(63)
        self.engine = self.game.new_state(self.num_players, seed, self.game_options)
        self.illegal = None
        return seed

    def mask(self, seat: int, legal: dict[int, Any]) -> np.ndarray:
        """The int8 action mask of ``legal`` (``{id: action}``) of ``seat``."""
        mask = np.zeros(self.codec.num_actions, np.int8)
        if len(legal) <= 16:  # element by element through a memoryview: cheaper than numpy's indexing for a few
            view = memoryview(mask)
            for number in legal:
                view[number] = 1
            return mask
        kind = self.engine.decision(seat)
        if legal is self.codec.unlisted_legal.get(kind):  # all 5,040 Karibik bribes: one copy
            return self.codec.unlisted_mask[kind].copy()
        mask[list(legal)] = 1
        return mask

    def check_action(self, agent: str, action: Any) -> int:
        """``action`` as an id, or ``ValueError`` naming it if it is outside the action space."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) \
                or not 0 <= action < self.codec.num_actions:
            raise ValueError(f"{agent}: action {action!r} is outside the action space "
                             f"Discrete({self.codec.num_actions})")
        return int(action)

    def illegal_outcome(self, agent: str, number: int, legal: Mapping[int, Any]) -> dict[str, float]:
        """End the game for an illegal ``number`` of ``agent``: the rewards (-1 for it, 0 for
        the others); ``illegal`` records what happened for infos and the render."""
        kind = self.engine.decision(self.agents.index(agent))
        self.illegal = {"agent": agent, "action": number, "text": self.codec.text(number),
                        "reason": f"{agent} sent action {number} ({self.codec.text(number)}), not legal for its "
                                  f"{kind!r} decision (legal ids: {sorted(legal)[:10]}"
                                  f"{' ...' if len(legal) > 10 else ''}); the game ends: -1 for {agent}, 0 for "
                                  "the others"}
        return {other: (-1.0 if other == agent else 0.0) for other in self.agents}

    def final_rewards(self) -> dict[str, float]:
        scores = returns_of(self.engine.outcome().ranks)
        return dict(zip(self.agents, scores))

    def render(self, render_mode: str | None) -> Any:
        if render_mode is None or self.engine is None:
            return None
        note = f"illegal move: {self.illegal['reason']}" if self.illegal else ""
        if render_mode == "rgb_array":
            return rasterize(seat_free_svg(self.codec, self.engine, self.game_options, note))
        text = seat_free_view(self.codec, self.engine, self.game_options) + (f"\n{note}" if note else "")
        if render_mode == "human":
            print(text)
            return None
        return text
