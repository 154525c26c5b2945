"""The policy: determinize, wrap as an OpenSpiel state, search with OpenSpiel's IS-MCTS or MCTS."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import envs.openspiel as adapter
from bots._budget import budget
from bots.sdk import Request
from engines import get_game

UCT_C = 2.0
#: MCTS on determinized states: simulations on one sampled world before the next
MCTS_SIMULATIONS_PER_WORLD = 100


class _OutOfTime(Exception):
    pass


class EngineRolloutEvaluator(mcts.Evaluator):
    """OpenSpiel's random-rollout evaluator, with the playout played on the engine."""

    def __init__(self, rng: random.Random, deadline: float = float("inf")) -> None:
        self.rng = rng
        self.deadline = deadline

    def _late(self) -> bool:
        return self.deadline != math.inf and time.perf_counter() > self.deadline

    def evaluate(self, state):
        # A playout still running at the deadline is cut (zeros: a game not over), so a
        # long game (Opito Bay to 50,000 points) cannot hold the answer past the move limit.
        return np.array(adapter.random_playout_returns(state, self.rng, self._late))

    def prior(self, state):
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


class TimedISMCTS(ismcts.ISMCTSBot):
    """``ISMCTSBot`` that stops at a deadline and answers with its final policy of the tree
    so far (uniform over the legal actions if the root has no visited child yet)."""

    deadline = float("inf")

    def sample_root_state(self, state):
        if self.deadline != math.inf and time.perf_counter() > self.deadline:  # inf: never read the clock
            raise _OutOfTime
        return super().sample_root_state(state)

    def run_search(self, state):
        try:
            return super().run_search(state)
        except _OutOfTime:
            if self._root_node.total_visits > 0:
                return self.get_final_policy(state, self._root_node)
            legal = state.legal_actions()
            return [(action, 1.0 / len(legal)) for action in legal]


class TimedMCTS(mcts.MCTSBot):
    """``MCTSBot`` whose search stops at a deadline; ``root`` is the tree searched so far."""

    deadline = float("inf")

    def _apply_tree_policy(self, root, state):
        self.root = root
        if self.deadline != math.inf and time.perf_counter() > self.deadline:  # inf: never read the clock
            raise _OutOfTime
        return super()._apply_tree_policy(root, state)


class OpenSpielPolicy:
    """A policy for every game, searching with ``algorithm`` (``"ismcts"`` or ``"mcts"``)."""

    def __init__(self, algorithm: str = "ismcts", simulations: int | None = None) -> None:
        """``simulations``: that many a decision and no clock; ``None``: the clock's budget."""
        if algorithm not in ("ismcts", "mcts"):
            raise ValueError(f"unknown search {algorithm!r}; use 'ismcts' or 'mcts'")
        self.algorithm = algorithm
        self.simulations = simulations
        self.games: dict[tuple, pyspiel.Game] = {}

    def game(self, request: Request) -> pyspiel.Game:
        key = (request.game, request.players, tuple(sorted(request.options.items())))
        game = self.games.get(key)
        if game is None:
            short = request.game.replace("-", "_")
            # every option resolved by the engine: OpenSpiel's own defaults are shorter games
            options = get_game(request.game).resolve_options(request.options)
            params = {"players": request.players, "turn_based": True, **options}
            game = self.games[key] = pyspiel.load_game(short, params)
        return game

    def __call__(self, request: Request, rng: random.Random) -> Any:
        if self.simulations is not None:
            return self.act(request, rng, 0.0, self.simulations)
        return self.act(request, rng, budget(request))

    def act(self, request: Request, rng: random.Random, budget_s: float,
            simulations: int | None = None) -> Any:
        """Search for ``budget_s`` seconds (or ``simulations`` iterations) and return an action."""
        if request.legal is not None and len(request.legal) == 1:
            return request.legal[0]
        # A fixed number of simulations never reads the clock: the same seeds, the same action.
        deadline = time.perf_counter() + budget_s if simulations is None else float("inf")
        seed = rng.getrandbits(32)
        engine = get_game(request.game).piece("resampler")(request.observation, rng)
        engine.history, engine.log = [], []
        root = adapter.state_from_engine(self.game(request), engine, first=request.seat)
        if root.current_player() != request.seat:
            raise AssertionError(f"the rebuilt state has seat {root.current_player()} to move, not {request.seat}")
        evaluator = EngineRolloutEvaluator(rng, deadline if simulations is None else float("inf"))
        if self.algorithm == "ismcts":
            number = self._ismcts(root, evaluator, seed, deadline, simulations, rng)
        else:
            number = self._mcts(root, evaluator, seed, deadline, simulations)
        return adapter.action_of(root, request.seat, number)

    def _ismcts(self, root, evaluator, seed: int, deadline: float, simulations: int | None,
                rng: random.Random) -> int:
        bot = TimedISMCTS(root.get_game(), evaluator, UCT_C, simulations or 10**9,
                          random_state=np.random.RandomState(seed), use_observation_string=True)
        bot.deadline = deadline if simulations is None else float("inf")
        # OpenSpiel's own resampler draws from an unseeded sampler: seeded, the same seeds give
        # the same search (``--nodes N``).
        sampler = pyspiel.UniformProbabilitySampler(seed & 0x7FFFFFFF, 0.0, 1.0)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
        policy = bot.run_search(root)
        best = max(prob for _, prob in policy)
        candidates = sorted(action for action, prob in policy if prob == best)
        return candidates[rng.randrange(len(candidates))]

    def _mcts(self, root, evaluator, seed: int, deadline: float, simulations: int | None) -> int:
        random_state = np.random.RandomState(seed)
        visits: dict[int, int] = {}
        sampler = pyspiel.UniformProbabilitySampler(seed & 0x7FFFFFFF, 0.0, 1.0)  # seeded: the same seeds, the same worlds
        left = simulations
        while left is None or left > 0:
            world = root.resample_from_infostate(root.current_player(), sampler)
            count = MCTS_SIMULATIONS_PER_WORLD if left is None else min(left, MCTS_SIMULATIONS_PER_WORLD)
            bot = TimedMCTS(root.get_game(), UCT_C, count, evaluator, random_state=random_state)
            bot.deadline = deadline if simulations is None else float("inf")
            try:
                tree = bot.mcts_search(world)
                stop = False
            except _OutOfTime:
                tree, stop = bot.root, True
            for child in tree.children:
                visits[child.action] = visits.get(child.action, 0) + child.explore_count
            if not visits:  # out of time before the first child was visited
                visits = dict.fromkeys(root.legal_actions(), 0)
            if left is not None:
                left -= count
            if stop or (left is None and time.perf_counter() > deadline):
                break
        return max(sorted(visits), key=visits.__getitem__)
