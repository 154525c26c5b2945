"""Hand-written SVG charts for the report: ratings with error bars, and ratings as the
tournament went on (with bands). Pure functions of report data to SVG text."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from ..ratings import RatingMethod

#: one colour per entrant, cycled (Okabe-Ito, readable by colour-blind readers)
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#000000")


def _ticks(low: float, high: float, count: int = 6) -> list[float]:
    span = max(high - low, 1e-9)
    raw = span / count
    step = 10 ** math.floor(math.log10(raw))
    step *= next(m for m in (1, 2, 5, 10) if step * m >= raw)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step) + 1)]


def _extent(rows: Sequence[dict[str, Any]], key: str, minus: str, plus: str) -> tuple[float, float]:
    return (min(row[key] - row.get(minus, 0) for row in rows), max(row[key] + row.get(plus, 0) for row in rows))


def error_bar_chart(rows: Sequence[dict[str, Any]], key: str = "elo",
                    title: str = "Bradley-Terry Elo (95% interval)", minus: str = "minus", plus: str = "plus",
                    domain: tuple[float, float] | None = None) -> str:
    """Horizontal chart, one line per entrant: point and, where rows have ``minus``/``plus``,
    the interval. ``domain``: the values the axis spans (default: the rows'), so that charts
    drawn side by side share one scale."""
    if not rows:
        return ""
    low, high = domain if domain is not None else _extent(rows, key, minus, plus)
    pad = max(10.0, (high - low) * 0.05)
    low, high = low - pad, high + pad
    label_w, width, line_h = 170, 640, 22
    height = 40 + line_h * len(rows)

    def x(value: float) -> float:
        return label_w + (value - low) / (high - low) * (width - label_w - 20)

    out = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}">',
           f'<text x="{label_w}" y="14" class="title">{escape(title)}</text>']
    for tick in _ticks(low, high):
        out.append(f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="22" y2="{height - 14}" class="grid"/>'
                   f'<text x="{x(tick):.1f}" y="{height - 2}" class="tick">{tick:g}</text>')
    for i, row in enumerate(rows):
        y = 34 + i * line_h
        lo, hi = row[key] - row.get(minus, 0), row[key] + row.get(plus, 0)
        colour = PALETTE[i % len(PALETTE)]
        out.append(f'<text x="{label_w - 8}" y="{y + 4}" class="label">{escape(row["name"])}</text>'
                   f'<line x1="{x(lo):.1f}" x2="{x(hi):.1f}" y1="{y}" y2="{y}" stroke="{colour}" stroke-width="3"/>'
                   f'<circle cx="{x(row[key]):.1f}" cy="{y}" r="5" fill="{colour}">'
                   f'<title>{escape(row["name"])}: {row[key]:.1f} [{lo:.1f}, {hi:.1f}]</title></circle>')
    out.append("</svg>")
    return "".join(out)


def standings_charts(rows: Sequence[dict[str, Any]], methods: Sequence[RatingMethod] = ()) -> str:
    """The standings' Bradley-Terry chart and below it one chart per other method that says
    more for these games (``methods``: Plackett-Luce where tables have more than two seats),
    each with its 95% intervals (``KEY_minus``, ``KEY_plus``) and all on one scale, so that a
    bar's length and a point's place compare between them."""
    if not methods:
        return error_bar_chart(rows)
    extents = [_extent(rows, "elo", "minus", "plus"),
               *(_extent(rows, method.key, f"{method.key}_minus", f"{method.key}_plus") for method in methods)]
    domain = (min(low for low, _ in extents), max(high for _, high in extents))
    return error_bar_chart(rows, domain=domain) + "".join(
        error_bar_chart(rows, method.key, method.title, f"{method.key}_minus", f"{method.key}_plus", domain)
        for method in methods)


def _spread(positions: dict[str, float], gap: float = 12.0) -> dict[str, float]:
    """Label heights moved apart (top to bottom) so that no two are closer than ``gap``."""
    out: dict[str, float] = {}
    last = float("-inf")
    for name, value in sorted(positions.items(), key=lambda item: item[1]):
        last = max(value, last + gap)
        out[name] = last
    return out


def progress_chart(progress: dict[str, Any], names: Sequence[str]) -> str:
    """Each entrant's rating after the first m games, with its 95% band, against m."""
    marks = progress["games"]
    points = [value for name in names for value in progress["series"][name] if value is not None]
    if len(marks) < 2 or not points:
        return "<p>Too few games to show how the ratings settled.</p>"
    low = min(p[1] for p in points)
    high = max(p[2] for p in points)
    width, height, left, bottom = 640, 300, 50, 30

    def x(m: float) -> float:
        return left + (m - marks[0]) / max(1, marks[-1] - marks[0]) * (width - left - 110)

    def y(value: float) -> float:
        return 10 + (high - value) / max(1e-9, high - low) * (height - bottom - 10)

    out = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" role="img" aria-label="ratings as the tournament went on">']
    for tick in _ticks(low, high):
        out.append(f'<line x1="{left}" x2="{width - 110}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" class="grid"/>'
                   f'<text x="{left - 4}" y="{y(tick) + 4:.1f}" class="label">{tick:g}</text>')
    for tick in _ticks(marks[0], marks[-1], 5):
        out.append(f'<text x="{x(tick):.1f}" y="{height - 12}" class="tick">{tick:g}</text>')
    out.append(f'<text x="{(width - 110 + left) / 2}" y="{height - 1}" class="tick">games played</text>')
    label_y = _spread({name: y(series[-1][0]) for name, series in
                       ((name, [p for p in progress["series"][name] if p is not None]) for name in names) if series})
    for i, name in enumerate(names):
        colour = PALETTE[i % len(PALETTE)]
        known = [(m, p) for m, p in zip(marks, progress["series"][name]) if p is not None]
        if not known:
            continue
        band = ([f"{x(m):.1f},{y(p[2]):.1f}" for m, p in known]
                + [f"{x(m):.1f},{y(p[1]):.1f}" for m, p in reversed(known)])
        line = " ".join(f"{x(m):.1f},{y(p[0]):.1f}" for m, p in known)
        out.append(f'<polygon points="{" ".join(band)}" fill="{colour}" fill-opacity="0.15"/>'
                   f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>'
                   f'<text x="{width - 104}" y="{label_y[name] + 4:.1f}" fill="{colour}" '
                   f'class="name">{escape(name)}</text>')
    out.append("</svg>")
    return "".join(out)
