"""Drawing a board and, optionally, a state as text for the terminal (SVG: :mod:`._svg`).

Pure functions of (board, state): no I/O. ``state`` is a :class:`~._state.KaribikState`
or ``None`` for the empty board. Area markers in the text map: ``#`` port, ``R``/``B``/
``G``/``Y`` hideout of that colour, ``*`` ship start, ``~`` open sea, followed by the area
id; a ship's initial letter (``A``..``F``) is put in front of the area it stands on.
"""

from __future__ import annotations

from typing import Any

from ._board import COLOURS, HIDEOUT, PORT, START, Board
from ._rules import CHEST_STATES, SHIPS

_MARK = {PORT: "#", START: "*"}
_COLS, _ROWS = 104, 30  # text frame; board x is 0..100, y is 0..55


def _mark(board: Board, area: int) -> str:
    a = board.areas[area]
    if a.kind == HIDEOUT:
        return a.colour[0].upper()
    return _MARK.get(a.kind, "~")


def _cell(x: float, y: float) -> tuple[int, int]:
    return round(y * (_ROWS - 2) / 55), round(x)


def render_text(board: Board, state: Any = None) -> str:
    """The map as text (edges dotted), then a legend of every area and the state."""
    grid = [[" "] * _COLS for _ in range(_ROWS)]
    where = [_cell(a.x, a.y) for a in board.areas]
    for area, near in enumerate(board.neighbours):
        for other in near:
            if other > area:
                (r0, c0), (r1, c1) = where[area], where[other]
                steps = max(abs(r1 - r0), abs(c1 - c0))
                for i in range(1, steps):
                    grid[round(r0 + (r1 - r0) * i / steps)][round(c0 + (c1 - c0) * i / steps)] = "."
    ships_at = {} if state is None else {area: SHIPS[s][0] for s, area in enumerate(state.ship_area)}
    for area, (row, col) in enumerate(where):
        label = ships_at.get(area, "") + _mark(board, area) + str(area)
        start = max(0, min(_COLS - len(label), col - len(label) // 2))
        grid[row][start:start + len(label)] = label
    lines = ["".join(row).rstrip() for row in grid]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    lines.append("")
    lines.extend(_legend(board, state))
    return "\n".join(lines) + "\n"


def _legend(board: Board, state: Any) -> list[str]:
    lines = [f"Board {board.name!r}: # port (chest value), R/B/G/Y hideout, * start, ~ sea"]
    for area in board.areas:
        extra = {PORT: f"chest {area.chest}", HIDEOUT: f"{area.colour} hideout"}.get(area.kind, area.kind)
        if state is not None and area.kind == PORT:
            extra += f", {CHEST_STATES[state.chest_status[area.id]]}"
        lines.append(f"  {_mark(board, area.id)}{area.id:<3} {area.name:<20} {extra}")
    if state is None:
        return lines
    lines.append(f"Round {state.round}/{state.max_rounds}, phase {state.phase}, "
                 f"{len(state.reserve) // 2} reserve pairs, target {state.target}")
    for ship, name in enumerate(SHIPS):
        area, chest = state.ship_area[ship], state.ship_chest[ship]
        cargo = "empty" if chest is None else f"chest of {board.areas[chest].name} ({board.chest_value[chest]})"
        lines.append(f"  {name[0]} {name:<8} at {board.areas[area].name:<20} {cargo}")
    for seat, score in enumerate(state.scores):
        lines.append(f"  seat {seat} ({COLOURS[seat]}): {score}")
    return lines
