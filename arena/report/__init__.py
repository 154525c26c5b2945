"""Reports: the HTML pages (the tournament report, ``arena report``, and the replay viewer,
``arena view``), the text tables (``arena standings``, exports) and replays as text
(``arena replay``).

One self-contained, offline page each. The arena stays game-agnostic: a game's views are
its engine's observations plus its ``omniscient_view``, and its drawing is the
``viewer.js`` beside the engine.

The names below are loaded on first use: the text tables and replays do not pay for the
HTML page's modules.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._frames import ViewError as ViewError
    from ._frames import game_frames as game_frames
    from ._page import REPLAY_BUDGET as REPLAY_BUDGET
    from ._page import report_html as report_html
    from ._page import viewer_html as viewer_html
    from ._page import write_report as write_report

#: each public name and the module that defines it
_PUBLIC = {"ViewError": "_frames", "game_frames": "_frames", "REPLAY_BUDGET": "_page", "report_html": "_page",
           "viewer_html": "_page", "write_report": "_page"}
__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
