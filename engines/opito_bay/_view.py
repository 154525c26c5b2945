"""The omniscient view: what no seat's observation shows, for replay viewers.

Pure data, like an observation; a viewer shows it with every seat's observation to show
the whole table (see ``arena report``).
"""

from __future__ import annotations

from typing import Any


def omniscient_view(state) -> dict[str, Any]:
    """What no seat knows in ``state``: the library in order, bottom first (the top card is
    the last, so a draw changes one entry of a viewer's delta). Each hand is in its seat's
    observation."""
    return {"library_order": list(state.library)}
