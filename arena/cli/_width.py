"""Tables that fit the terminal: the width to fit (``COLUMNS``, else the terminal's, else
none: output piped to a file or a program keeps whole lines) and the column widths that make
tabulate's table fit it, wrapping the widest columns' text first."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

#: tabulate's plain tables put two spaces between columns
GAP = 2
HEADER_PADDING = 2
#: no column is wrapped narrower than this, whatever the width: a table a few words wide
#: reads worse than one that runs past the edge
MIN_COLUMN = 10


def terminal_columns() -> int | None:
    """The width to fit: ``COLUMNS`` when set (as rich and the help do), else the terminal's
    when stdout is one, else ``None``."""
    text = os.environ.get("COLUMNS", "")
    if text.isdigit() and int(text) > 0:
        return int(text)
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else None
    except (OSError, ValueError):
        return None


def fit_widths(rows: Sequence[Sequence[Any]], headers: Sequence[str], width: int | None) -> list[int | None] | None:
    """tabulate's ``maxcolwidths`` for a table of ``rows`` under ``headers`` at most ``width``
    characters wide: ``None`` when it fits as it is (or no width is given); else the largest
    cap, the same for every column wider than it, at which the columns fit (at least
    :data:`MIN_COLUMN`), and ``None`` for the columns already narrower."""
    if width is None:
        return None
    cells = [max([0] + [len(line) for row in rows for line in str(row[index]).splitlines()])
             for index in range(len(headers))]
    # tabulate makes a column at least its header and two more characters wide
    floors = [len(str(header)) + HEADER_PADDING for header in headers]
    room = width - GAP * (len(headers) - 1)

    def total(cap: int) -> int:
        return sum(max(min(cell, cap), floor) for cell, floor in zip(cells, floors))

    cap = max(cells)
    if total(cap) <= room:
        return None
    while cap > MIN_COLUMN and total(cap) > room:
        cap -= 1
    return [cap if cell > cap else None for cell in cells]


def fill_line(text: str, width: int | None) -> str:
    """``text`` broken between words to lines of at most ``width`` (whole without a width)."""
    if width is None:
        return text
    import textwrap

    return textwrap.fill(text, width, break_on_hyphens=False)
