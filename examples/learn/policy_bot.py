"""The trained policy as a protocol bot: the SDK's PolicyBot around ``policy.npz``.

    arena check-bot examples/learn/policy-bot.toml

The bot turns each request into what the policy was trained on, with the same codec as the
environment (``envs.codec_for``): the observation tensor of its seat, and the ids of the
request's legal actions; through the same features (``model.py``) it plays the legal action
the policy likes best. At a player count it was not trained for (its tensor and numbering
have other sizes) it plays a random legal action.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np

from bots.sdk import PolicyBot, Request, run
from envs import codec_for
from model import Features

POLICY = Path(os.environ.get("POLICY", Path(__file__).with_name("policy.npz")))


def load(path: Path = POLICY):
    data = np.load(path)
    game, players = str(data["game"]), int(data["players"])
    weights, bias = data["weights"], data["bias"]

    def policy(request: Request, rng: random.Random):
        codec = codec_for(request.game, request.players, **request.options)
        legal = codec.request_legal(request.kind, request.legal, request.observation)
        if request.players != players:
            return legal[rng.choice(list(legal))]
        ids = np.fromiter(legal, dtype=np.int64)
        logits = weights[ids] @ Features(codec.layout)(codec.tensor(request.observation)) + bias[ids]
        return legal[int(ids[int(np.argmax(logits))])]

    return codec_for(game, players).game_id, policy


if __name__ == "__main__":
    game_id, policy = load()
    run(PolicyBot("learned-policy", {game_id: policy}))
