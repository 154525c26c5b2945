"""The omniscient view: what no seat's observation shows, for replay viewers.

Pure data, like an observation; a viewer shows it with every seat's observation to show
the whole table (see ``arena report``).
"""

from __future__ import annotations

from typing import Any


def omniscient_view(state) -> dict[str, Any]:
    """What no seat knows in ``state``: the reserve chests in draw order. Each seat's bribes
    and tie-breaker are in its own observation."""
    return {"reserve_order": list(state.reserve)}
