"""Train a small policy on the PettingZoo environment with numpy alone, and save it.

    python examples/learn/train.py                 # about 90 s on one core; writes policy.npz
    python examples/learn/train.py --seconds 30 --game dead_mans_draw --out /tmp/p.npz

The learner is REINFORCE with a running-mean baseline on a linear softmax policy over the
legal actions (``observation["action_mask"]``): logits ``W[a] . f(x) + b[a]`` of features of
the observation tensor ``x`` (``model.py``). Each episode it plays one seat (alternating) against uniformly random
opponents, and is rewarded at the end with the environment's reward (the pairwise rank
score: +1 win, -1 loss with two players). Swap ``Learner`` for your own: ``act`` picks an
action from an observation, ``finish`` learns from an episode, ``save`` writes the file the
bot (``policy_bot.py``) reads.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

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

    def save(self, path: Path, game: str, players: int) -> None:
        np.savez_compressed(path, weights=self.weights, bias=self.bias, game=game, players=players)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="dead_mans_draw")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=90.0, help="training time (default 90)")
    parser.add_argument("--rate", type=float, default=0.01, help="learning rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("policy.npz"))
    args = parser.parse_args()

    environment = env(args.game, players=args.players)
    features = Features(environment.unwrapped.codec.layout)
    learner = Learner(features, environment.action_space("player_0").n, args.rate, args.seed)
    opponents = np.random.default_rng(args.seed + 1)
    start = time.perf_counter()
    episodes, recent = 0, []
    while time.perf_counter() - start < args.seconds:
        environment.reset(seed=args.seed * 1_000_003 + episodes)
        me = environment.possible_agents[episodes % args.players]
        for agent in environment.agent_iter():
            observation, reward, termination, truncation, _ = environment.last()
            if termination or truncation:
                if agent == me:
                    learner.finish(reward)
                    recent.append(reward)
                environment.step(None)
            elif agent == me:
                environment.step(learner.act(observation))
            else:
                environment.step(int(opponents.choice(np.flatnonzero(observation["action_mask"]))))
        episodes += 1
        if episodes % 500 == 0:
            print(f"{episodes} episodes, {time.perf_counter() - start:.0f} s: mean reward of the last 500 "
                  f"{np.mean(recent[-500:]):+.3f}", flush=True)
    learner.save(args.out, args.game, args.players)
    print(f"trained on {episodes} episodes in {time.perf_counter() - start:.0f} s; saved {args.out}")


if __name__ == "__main__":
    main()
