"""Train a small policy on the PettingZoo environment with numpy alone, and save it.

    python examples/learn/train.py                          # Dead Man's Draw, 2 players, 3000 episodes
    python examples/learn/train.py --game karibik --players 3 --option max_rounds=5 --episodes 500
    python examples/learn/train.py --game opito_bay --option deals=1 --evaluate 400 --out /tmp/p.npz

The learner is REINFORCE with a running-mean baseline on a linear softmax policy over the
legal actions (``observation["action_mask"]``): logits ``W[a] . f(x) + b[a]`` of features of
the observation tensor ``x`` (``model.py``). Each episode it plays one seat (in turn) against
uniformly random opponents, and is rewarded at the end with the environment's reward (the
pairwise rank score: +1 win, -1 loss with two players). Training is by episode count and
every random choice comes from ``--seed`` (the deals, the policy's samples, the opponents'),
so the same command writes the same policy on any machine, at any load. ``--evaluate N``
then plays N games of the greedy policy (as ``policy_bot.py`` plays it) against random
opponents on deals training never saw and prints its mean reward with a 95% interval. Swap
``Learner`` for your own: ``act`` picks an action from an observation, ``finish`` learns from
an episode, ``save`` writes the file the bot reads.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from envs.pettingzoo import env
from model import Features, probabilities


class Learner:
    """REINFORCE on a linear softmax policy."""

    def __init__(self, features: Features, actions: int, rate: float, seed: int) -> None:
        self.features = features
        self.weights = np.zeros((actions, features.size), np.float32)
        self.bias = np.zeros(actions, np.float32)
        self.rate = rate
        self.baseline = 0.0
        self.rng = np.random.default_rng(seed)
        self.episode: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []

    def act(self, observation: dict[str, np.ndarray]) -> int:
        x = self.features(observation["observation"])
        legal = np.flatnonzero(observation["action_mask"])
        p = probabilities(self.weights, self.bias, legal, x)
        choice = int(self.rng.choice(len(legal), p=p))
        self.episode.append((x, legal, p, choice))
        return int(legal[choice])

    def finish(self, reward: float) -> None:
        advantage = reward - self.baseline
        self.baseline += 0.02 * (reward - self.baseline)
        for x, legal, p, choice in self.episode:
            grad = -p
            grad[choice] += 1.0  # d log p(choice) / d logits
            step = (self.rate * advantage) * grad
            self.weights[legal] += np.outer(step, x)
            self.bias[legal] += step
        self.episode = []

    def greedy(self, observation: dict[str, np.ndarray]) -> int:
        """The legal action the policy likes best (what the bot plays)."""
        legal = np.flatnonzero(observation["action_mask"])
        x = self.features(observation["observation"])
        return int(legal[int(np.argmax(self.weights[legal] @ x + self.bias[legal]))])

    def save(self, path: Path, game: str, players: int, options: dict[str, Any]) -> None:
        np.savez_compressed(path, weights=self.weights, bias=self.bias, game=game, players=players,
                            options=repr(sorted(options.items())))


def option(text: str) -> tuple[str, Any]:
    """``name=value`` of a game option; the value as an int, a bool (true/false) or a string."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"an option is name=value, got {text!r}")
    if value.lower() in ("true", "false"):
        return name, value.lower() == "true"
    try:
        return name, int(value)
    except ValueError:
        return name, value


def play(environment, seed: int, me: str, choose, opponents: np.random.Generator) -> float:
    """One game from the deal of ``seed``: ``choose(observation)`` for ``me``, uniformly random
    legal actions for the others; ``me``'s reward."""
    environment.reset(seed=seed)
    result = 0.0
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, _ = environment.last()
        if termination or truncation:
            if agent == me:
                result = reward
            environment.step(None)
        elif agent == me:
            environment.step(choose(observation))
        else:
            environment.step(int(opponents.choice(np.flatnonzero(observation["action_mask"]))))
    return result


def evaluate(environment, learner: Learner, games: int, seed: int) -> tuple[float, float, float]:
    """Mean reward of the greedy policy against random opponents over ``games`` games (every
    seat in turn, deals from ``seed``, none of them a training deal), and its 95% interval."""
    opponents = np.random.default_rng(seed)
    players = len(environment.possible_agents)
    rewards = [play(environment, 2 ** 40 + seed * 1_000_003 + game, environment.possible_agents[game % players],
                    learner.greedy, opponents) for game in range(games)]
    mean = float(np.mean(rewards))
    half = 1.96 * float(np.std(rewards, ddof=1)) / math.sqrt(games) if games > 1 else float("inf")
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="dead_mans_draw", help="dead_mans_draw, opito_bay or karibik")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--option", type=option, action="append", default=[], metavar="NAME=VALUE",
                        help="a game option (repeatable), e.g. deals=1 or max_rounds=5")
    parser.add_argument("--episodes", type=int, default=3000, help="training episodes (default 3000)")
    parser.add_argument("--rate", type=float, default=0.01, help="learning rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--evaluate", type=int, default=0, metavar="GAMES",
                        help="then play GAMES games of the greedy policy against random and print the result")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("policy.npz"))
    args = parser.parse_args()
    if args.episodes < 1:
        parser.error(f"--episodes must be at least 1, got {args.episodes}")
    options = dict(args.option)
    try:
        environment = env(args.game, players=args.players, **options)
    except ValueError as error:
        parser.error(str(error))

    features = Features(environment.codec.layout)
    learner = Learner(features, environment.action_space("player_0").n, args.rate, args.seed)
    opponents = np.random.default_rng(args.seed + 1)
    start = time.perf_counter()
    recent = []
    for episode in range(args.episodes):
        me = environment.possible_agents[episode % args.players]
        recent.append(play(environment, args.seed * 1_000_003 + episode, me, learner.act, opponents))
        learner.finish(recent[-1])
        if (episode + 1) % 500 == 0:
            print(f"{episode + 1} episodes, {time.perf_counter() - start:.0f} s: mean reward of the last 500 "
                  f"{np.mean(recent[-500:]):+.3f}", flush=True)
    learner.save(args.out, args.game, args.players, options)
    print(f"trained on {args.episodes} episodes in {time.perf_counter() - start:.0f} s; saved {args.out}")
    if args.evaluate:
        mean, low, high = evaluate(environment, learner, args.evaluate, args.seed + 2)
        print(f"greedy policy against random, {args.evaluate} games: mean reward {mean:+.3f} "
              f"[{low:+.3f}, {high:+.3f}] (95%); points {(1 + mean) / 2:.1%}")


if __name__ == "__main__":
    main()
