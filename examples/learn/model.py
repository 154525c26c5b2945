"""The policy's model, shared by the trainer and the bot: features and a linear softmax.

The features are the environment's observation tensor plus, for each of its named segments
(``codec.layout``; ``docs/environments.md``), the segment's sum / 10: how many cards are in the
play area, in each bank, in the hand, ... which a linear policy could otherwise only learn
slot by slot.
"""

from __future__ import annotations

import numpy as np


class Features:
    def __init__(self, layout) -> None:
        self.starts = np.array([offset for _, offset, _, _ in layout.rows()])
        self.size = layout.size + len(self.starts)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return np.concatenate([x, np.add.reduceat(x, self.starts) / 10.0]).astype(np.float32)


def probabilities(weights: np.ndarray, bias: np.ndarray, legal: np.ndarray, features: np.ndarray) -> np.ndarray:
    """The policy over the ``legal`` action ids."""
    logits = weights[legal] @ features + bias[legal]
    p = np.exp(logits - logits.max())
    return p / p.sum()
