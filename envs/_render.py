"""What the PettingZoo environments render: the seat-free view as text, as SVG and as pixels.

The seat-free view is what every seat sees (no hand, no private look, no secret bribe). As
SVG it is the engine's own drawing where the game has one (Karibik's map with its ships,
chests and scores), followed by the view's text in a monospaced panel; a game without an SVG
drawing (Dead Man's Draw, Opito Bay) is the panel alone. Pixels come from rasterizing that
SVG with CairoSVG (over the system's libcairo), imported on the first ``rgb_array`` render
only, so the other modes need neither.
"""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from engines import State

from ._codec import Codec

#: characters per panel line (longer lines wrap), font size and line height in pixels
COLUMNS = 120
FONT = 12
LINE = 15


def seat_free_view(codec: Codec, state: State, options: Mapping[str, Any]) -> str:
    """What every seat sees of ``state``, as text (Karibik: with its map drawn)."""
    obs = state.observation(0)
    hidden = set(codec.private_keys) | set(codec.static_keys) | {"seat"}
    lines = [f"{codec.game_id}, {state.num_players} players"]
    text = state.game.renderers.get("text")
    if text is not None:
        lines.append(text(state, options))
    for key, value in obs.items():
        if key not in hidden:
            lines.append(f"{key}: {json.dumps(value, separators=(',', ':'))}")
    return "\n".join(lines)


def seat_free_svg(codec: Codec, state: State, options: Mapping[str, Any], note: str = "") -> str:
    """The seat-free view as one SVG document: the engine's drawing (if any) above the text
    panel of the view's fields (and ``note``, e.g. how the game ended)."""
    obs = state.observation(0)
    hidden = set(codec.private_keys) | set(codec.static_keys) | {"seat"}
    lines = [f"{codec.game_id}, {state.num_players} players"] + ([note] if note else [])
    for key, value in obs.items():
        if key not in hidden:
            text = f"{key}: {json.dumps(value, separators=(',', ':'))}"
            lines += [text[i:i + COLUMNS] for i in range(0, len(text), COLUMNS)] or [""]
    drawing = state.game.renderers.get("svg")
    top, width, inner = 0, int(COLUMNS * FONT * 0.62) + 20, ""
    if drawing is not None:
        svg = drawing(state, options)
        size = re.search(r'width="(\d+)" height="(\d+)"', svg)
        width, top = max(width, int(size.group(1))), int(size.group(2))
        inner = f'<g>{svg}</g>'  # a nested <svg> keeps its own viewport
    height = top + 20 + LINE * len(lines)
    panel = "".join(f'<text x="10" y="{top + 15 + LINE * (i + 1)}">{html.escape(line, quote=False)}</text>'
                    for i, line in enumerate(lines))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" fill="#ffffff"/>{inner}'
            f'<g font-family="DejaVu Sans Mono, monospace" font-size="{FONT}" fill="#111">{panel}</g></svg>')


def rasterize(svg: str) -> np.ndarray:
    """An SVG document as an ``(height, width, 3)`` uint8 RGB array."""
    try:
        import cairosvg
        from PIL import Image
    except ImportError as error:  # an extra not installed: say which
        raise ImportError(f"render_mode='rgb_array' needs {error.name}: pip install -e '.[pettingzoo]'") from None
    png = cairosvg.svg2png(bytestring=svg.encode())
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
