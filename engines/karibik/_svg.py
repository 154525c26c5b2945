"""Drawing a board and, optionally, a state as a standalone SVG document.

A pure function of (board, state): no I/O. Layout, top to bottom: a title, the map (borders,
one circle per area with its id inside, the area's name beside it), then a legend and, with
a state, the round and the scores. Names are placed, one area after another, at the first of
fourteen spots around the circle whose estimated text box overlaps no circle, no reserved
marker spot and no name placed before; the ids are white on the dark hideout colours.
"""

from __future__ import annotations

import html
from typing import Any

from ._board import COLOURS, HIDEOUT, PORT, START, Board
from ._rules import CHEST_STATES, SHIPS

SCALE = 10  #: pixels per board unit (the board frame is 100 x 55)
RADIUS = 13  #: of an area's circle
FONT = 9  #: size of the names (pixels)
CHAR_WIDTH = 0.62  #: estimated width of a character, in font sizes (sans-serif, generous)
MAP_TOP = 50  #: the map starts below the title
WIDTH, MAP_HEIGHT = 100 * SCALE + 40, 55 * SCALE + 40

_FILL = {PORT: "#c8a165", START: "#9fd3f0", "sea": "#cfe9f7"}
_HIDEOUT_FILL = {"red": "#c0392b", "blue": "#1f4e9c", "green": "#1e7b3a", "yellow": "#f1c40f"}
_DARK = {"red", "blue", "green"}
#: Where a name may go, tried in order: (dx, dy of the text's anchor point, text-anchor); the
#: first eight touch the circle, the rest stand a line further off.
_SPOTS = ((0, RADIUS + FONT + 1, "middle"), (RADIUS + 3, FONT // 3, "start"), (-RADIUS - 3, FONT // 3, "end"),
          (0, -RADIUS - 4, "middle"), (RADIUS + 1, RADIUS + FONT - 2, "start"),
          (-RADIUS - 1, RADIUS + FONT - 2, "end"), (RADIUS + 1, -RADIUS + 1, "start"),
          (-RADIUS - 1, -RADIUS + 1, "end"), (0, RADIUS + 2 * FONT + 4, "middle"), (0, -RADIUS - FONT - 6, "middle"),
          (RADIUS + 3, FONT // 3 + FONT + 3, "start"), (-RADIUS - 3, FONT // 3 + FONT + 3, "end"),
          (RADIUS + 3, FONT // 3 - FONT - 3, "start"), (-RADIUS - 3, FONT // 3 - FONT - 3, "end"))


def text_box(x: float, y: float, text: str, anchor: str, size: float = FONT) -> tuple[float, float, float, float]:
    """The estimated box (left, top, right, bottom) of ``text`` drawn at baseline point (x, y)."""
    width = CHAR_WIDTH * size * len(text)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return left, y - 0.8 * size, left + width, y + 0.25 * size


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _centre(board: Board, area: int) -> tuple[float, float]:
    a = board.areas[area]
    return 20 + a.x * SCALE, MAP_TOP + 20 + a.y * SCALE


def _label(board: Board, area: int) -> str:
    a = board.areas[area]
    return a.name + (f" {a.chest // 1000}k" if a.kind == PORT else "")


def place_labels(board: Board) -> list[tuple[float, float, str]]:
    """Per area: (x, y, text-anchor) of its name, avoiding circles, marker spots and other names.

    An area's circle and the spots of its ship marker (top left) and chest marker (top right)
    are reserved. When no spot is free the first one is used (the test of the shipped board
    checks that this does not happen).
    """
    reserved = []
    for area in range(len(board.areas)):
        x, y = _centre(board, area)
        reserved += [(x - RADIUS - 1, y - RADIUS - 1, x + RADIUS + 1, y + RADIUS + 1),  # the circle
                     (x - 23, y - 23, x - 7, y - 9), (x + 8, y - 18, x + 19, y - 7)]  # ship, chest marker
    placed: list[tuple[float, float, str]] = []
    boxes: list[tuple[float, ...]] = []
    for area in range(len(board.areas)):
        x, y = _centre(board, area)
        text = _label(board, area)
        choice = None
        for dx, dy, anchor in _SPOTS:
            box = text_box(x + dx, y + dy, text, anchor)
            inside = box[0] >= 0 and box[2] <= WIDTH and box[1] >= MAP_TOP and box[3] <= MAP_TOP + MAP_HEIGHT
            if inside and not any(_overlap(box, other) for other in reserved + boxes):
                choice = (x + dx, y + dy, anchor)
                break
        if choice is None:
            dx, dy, anchor = _SPOTS[0]
            choice = (x + dx, y + dy, anchor)
        placed.append(choice)
        boxes.append(text_box(choice[0], choice[1], text, choice[2]))
    return placed


def render_svg(board: Board, state: Any = None) -> str:
    """The map as a standalone SVG document (title, areas, borders, names, legend; with a
    state also ships, chests and scores)."""
    legend_top = MAP_TOP + MAP_HEIGHT
    height = legend_top + (90 if state is not None else 65)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="{FONT}">',
           f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#eaf6fb"/>',
           f'<text class="title" x="20" y="32" font-size="20" font-weight="bold">'
           f'Karibik: board {html.escape(repr(board.name), quote=False)}</text>']
    point = [_centre(board, area) for area in range(len(board.areas))]
    for area, near in enumerate(board.neighbours):
        for other in near:
            if other > area:
                (x0, y0), (x1, y1) = point[area], point[other]
                out.append(f'<line x1="{x0:.0f}" y1="{y0:.0f}" x2="{x1:.0f}" y2="{y1:.0f}" stroke="#7aa6c2"/>')
    for a, (lx, ly, anchor) in zip(board.areas, place_labels(board)):
        x, y = point[a.id]
        fill = _HIDEOUT_FILL[a.colour] if a.kind == HIDEOUT else _FILL.get(a.kind, _FILL["sea"])
        ink = "white" if a.kind == HIDEOUT and a.colour in _DARK else "black"
        out.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{RADIUS}" fill="{fill}" stroke="#345"/>')
        out.append(f'<text class="id" x="{x:.0f}" y="{y + 3:.0f}" text-anchor="middle" fill="{ink}">{a.id}</text>')
        out.append(f'<text class="name" x="{lx:.0f}" y="{ly:.0f}" text-anchor="{anchor}" stroke="#eaf6fb" '
                   f'stroke-width="3" paint-order="stroke">{html.escape(_label(board, a.id), quote=False)}</text>')
        if state is not None and a.kind == PORT and CHEST_STATES[state.chest_status[a.id]] == "port":
            out.append(f'<rect x="{x + 9:.0f}" y="{y - 17:.0f}" width="9" height="9" fill="gold" stroke="#540"/>')
    out.extend(_legend(legend_top))
    if state is not None:
        out.extend(_svg_state(board, state, point, legend_top + 75))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(top: int) -> list[str]:
    """Two rows: a swatch and words per area kind and hideout colour; the ship and chest markers."""
    entries = [(_FILL[PORT], "port (chest value)"), (_FILL[START], "ship start"), (_FILL["sea"], "open sea")]
    entries += [(_HIDEOUT_FILL[colour], f"{colour} hideout") for colour in COLOURS]
    out = [f'<g class="legend" font-size="11">']
    x = 20
    for fill, words in entries:
        out.append(f'<circle cx="{x + 7}" cy="{top + 16}" r="7" fill="{fill}" stroke="#345"/>'
                   f'<text x="{x + 18}" y="{top + 20}">{words}</text>')
        x += 26 + round(CHAR_WIDTH * 11 * len(words))
    out.append(f'<rect x="20" y="{top + 29}" width="14" height="12" fill="white" stroke="black"/>'
               f'<text x="40" y="{top + 40}">ship (gold: carries a chest)</text>'
               f'<rect x="240" y="{top + 31}" width="9" height="9" fill="gold" stroke="#540"/>'
               f'<text x="255" y="{top + 40}">chest on its port</text></g>')
    return out


def _svg_state(board: Board, state: Any, point: list[tuple[float, float]], baseline: int) -> list[str]:
    out = []
    for ship, name in enumerate(SHIPS):
        x, y = point[state.ship_area[ship]]
        chest = state.ship_chest[ship]
        title = name if chest is None else f"{name} carrying {board.areas[chest].name}"
        fill = "gold" if chest is not None else "white"
        out.append(f'<g><title>{html.escape(title, quote=False)}</title><rect x="{x - 22:.0f}" y="{y - 22:.0f}" width="14" '
                   f'height="12" fill="{fill}" stroke="black"/><text x="{x - 15:.0f}" y="{y - 13:.0f}" '
                   f'text-anchor="middle" font-weight="bold">{name[0]}</text></g>')
    status = f"Round {state.round}, phase {state.phase}; " + ", ".join(
        f"{COLOURS[seat]} {score}" for seat, score in enumerate(state.scores))
    out.append(f'<text x="20" y="{baseline}" font-size="14" data-status="{html.escape(status)}">{html.escape(status, quote=False)}</text>')
    return out
