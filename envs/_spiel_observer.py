"""OpenSpiel's observer of the three games (``make_py_observer``): the observation and the
information state of one seat, as strings and tensors."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ._codec import Codec

if TYPE_CHECKING:
    from ._spiel_core import Spec
    from ._spiel_state import PirateState


def _strip(codec: Codec, obs: Mapping[str, Any]) -> dict[str, Any]:
    static = codec.static_keys
    return {k: v for k, v in obs.items() if k not in static} if static else dict(obs)


class _Observer:
    """OpenSpiel's observer interface (``set_from``, ``string_from``, ``tensor``, ``dict``).

    Without perfect recall: the codec's observation tensor and the observation as JSON. With
    it (the information state): the string adds every event the seat was shown, and the
    tensor adds a ``my_choice`` segment, the one-hot id of the seat's own pending choice in a
    turn-based rollout (what the observation does not yet show). The tensor is not a full
    recall of the game: the observation's counts (discard pile, banks, seen cards) summarize
    what was seen, as the bots' own state does.
    """

    def __init__(self, spec: Spec, perfect_recall: bool) -> None:
        self.codec = codec = spec.codec
        self.perfect_recall = perfect_recall
        self.size = codec.layout.size
        rows = [(name, offset, size) for name, offset, size, _ in codec.layout.rows()]
        if perfect_recall:
            rows.append(("my_choice", self.size, codec.num_actions))
        self.tensor = np.zeros(sum(size for _, _, size in rows), np.float32)
        self.dict = {name: self.tensor[offset:offset + size] for name, offset, size in rows}
        self._observation = self.tensor[:self.size]  # a view: the codec writes its own size

    def set_from(self, state: PirateState, player: int) -> None:
        tensor = self.tensor
        core = state._core
        if not core.dealt:
            tensor.fill(0.0)
            return  # before the deal: nothing is known
        self._observation[:] = core.tensor(player)  # == codec.tensor(engine.observation(player))
        if self.perfect_recall:
            tensor[self.size:] = 0.0
            if player in core.buffer:
                tensor[self.size + core.buffer[player]] = 1.0

    def string_from(self, state: PirateState, player: int) -> str:
        core = state._core
        if not core.dealt:
            return "before the deal"
        engine = core.engine
        text = json.dumps(_strip(self.codec, engine.observation(player)), separators=(",", ":"))
        if self.perfect_recall:
            text = core.events_json(player) + "\n" + text
        if player in core.buffer:
            text += "\nmy choice: " + self.codec.text(core.buffer[player])
        return text
