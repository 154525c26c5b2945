"""The omniscient view: what no seat's observation shows, for replay viewers.

Pure data, like an observation; a viewer merges it with the public part of the
observations to show the whole table (see ``arena report``).
"""

from __future__ import annotations

from typing import Any

from ._cards import CARD_NAME


def omniscient_view(state) -> dict[str, Any]:
    """The hidden facts of ``state``: the draw pile in order, bottom first
    (the top card is the last, so a draw changes one entry of a viewer's delta) and, while the
    characters are being chosen, every seat's two dealt characters (else ``None``)."""
    return {
        "draw_pile": [CARD_NAME[card] for card in state.draw],
        "dealt_all": None if state.dealt is None else [list(pair) for pair in state.dealt],
    }
