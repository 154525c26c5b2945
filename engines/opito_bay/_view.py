"""The omniscient view: what no seat's observation shows, for replay viewers.

Pure data, like an observation; a viewer merges it with the public part of the
observations to show the whole table (see ``arena report``).
"""

from __future__ import annotations

from typing import Any


def omniscient_view(state) -> dict[str, Any]:
    """The hidden facts of ``state``: every hand, and the library in order, bottom
    first (the top card is the last, so a draw changes one entry of a viewer's delta)."""
    return {
        "hands": [list(hand) for hand in state.hands],
        "library_order": list(state.library),
    }
