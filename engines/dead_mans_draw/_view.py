"""The omniscient view: what no seat's observation shows, for replay viewers.

Pure data, like an observation; a viewer shows it with every seat's observation to show
the whole table (see ``arena report``).
"""

from __future__ import annotations

from typing import Any

from ._cards import CARD_NAME


def omniscient_view(state) -> dict[str, Any]:
    """What no seat knows in ``state``: the draw pile in order, bottom first (the top card
    is the last, so a draw changes one entry of a viewer's delta). What some seat knows (its
    dealt characters, a Seer's look) is in that seat's observation."""
    return {"draw_pile": [CARD_NAME[card] for card in state.draw]}
