"""The omniscient view: what no seat's observation shows, for replay viewers.

Pure data, like an observation; a viewer merges it with the public part of the
observations to show the whole table (see ``arena report``).
"""

from __future__ import annotations

from typing import Any


def omniscient_view(state) -> dict[str, Any]:
    """The hidden facts of ``state``: every seat's bribe cards for the six ships and its
    tie-breaker (``None`` before the seat bribed), and the reserve chests in draw order."""
    return {
        "bids_all": [None if bids is None else list(bids) for bids in state.bids],
        "tiebreakers_all": list(state.tiebreaker),
        "reserve_order": list(state.reserve),
    }
