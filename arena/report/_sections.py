"""The static sections of the report as HTML: standings, head-to-head, progress, faults."""

from __future__ import annotations

from html import escape
from typing import Any

from ..ratings import METHODS
from ._charts import progress_chart, standings_charts


def _table(headers: list[str], rows: list[list[Any]], cls: str = "") -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def standings_section(data: dict[str, Any]) -> str:
    methods = [method for method in METHODS if method.applies(data["players"])]
    headers = ["#", "bot", "Elo", "95% interval", "games", "points %", "first places", "avg rank",
               *(method.heading for method in methods), "faults"]
    rows = []
    for number, row in enumerate(data["rows"], 1):
        line = [number, escape(row["name"]), f'{row["elo"]:.1f}',
                f'{row["elo"] - row["minus"]:.1f} .. {row["elo"] + row["plus"]:.1f}', row["games"],
                f'{row["points_percent"]:.1f}', row["first_places"], f'{row["average_rank"]:.2f}']
        line += [f'{row[method.key]:.1f}' for method in methods]
        line.append(row["faults"])
        rows.append(line)
    charts = standings_charts(data["rows"], methods)
    return (f'<section id="standings"><h2>Standings</h2>{_table(headers, rows, "num")}{charts}'
            f'<p class="note">Elo: Bradley-Terry on pairwise results, 95% intervals {_method(data["n_boot"])}, '
            f'as <code>arena standings</code> shows them. Rows: best first.</p></section>')


def _method(n_boot: int | None) -> str:
    """How the intervals were drawn (the same words as the text tables' captions)."""
    if n_boot is None:
        return "cluster-robust (each duplicate block, or game, one observation; see docs/ratings.md)"
    return f"from {n_boot} bootstrap replicates of whole games or duplicate blocks (--bootstrap {n_boot})"


def head_to_head_section(data: dict[str, Any]) -> str:
    """Row bot against column bot: points/games, W-D-L, coloured by the row's score share."""
    names = data["names"]
    cells = []
    for i, name in enumerate(names):
        line = [f"<b>{escape(name)}</b>"]
        for j in range(len(names)):
            score, wdl = data["score"][i][j], data["wdl"][i][j]
            if i == j or score is None:
                line.append("")
                continue
            share = score[0] / score[1] if score[1] else 0.5
            hue = round(120 * share)  # red (0) .. yellow .. green (120)
            line.append(f'<span class="cell" style="background:hsl({hue},70%,80%)" '
                        f'title="{escape(name)} vs {escape(names[j])}">{score[0]:g}/{score[1]}<br>'
                        f'<small>{wdl[0]}-{wdl[1]}-{wdl[2]}</small></span>')
        cells.append(line)
    table = _table(["", *names], cells, "matrix")
    return (f'<section id="head-to-head"><h2>Head to head</h2>{table}<p class="note">Row against column: '
            f'points/pairwise games, then wins-draws-losses. Green: the row bot scored more.</p></section>')


def progress_section(progress: dict[str, Any], names: list[str], n_boot: int | None = None) -> str:
    return (f'<section id="progress"><h2>Ratings as the tournament went on</h2>{progress_chart(progress, names)}'
            f'<p class="note">Bradley-Terry Elo after the first games in schedule order, with 95% bands '
            f'{_method(n_boot)}. Flat lines inside narrowing bands: the standings have settled.</p></section>')


def faults_section(faults: list[dict[str, Any]], games: list[list[Any]]) -> str:
    if not faults:
        return '<section id="faults"><h2>Faults</h2><p>No faults.</p></section>'
    rows = []
    for fault in faults:
        key = games[fault["game"]][0]
        stderr = (f'<details><summary>stderr</summary><pre>{escape(fault["stderr"])}</pre></details>'
                  if fault["stderr"] else "")
        rows.append([escape(fault["bot"] or "(none)"), escape(fault["kind"]), fault["seat"], fault["step"] + 1,
                     escape(fault["detail"]) + stderr,
                     f'<a href="#game={escape(key)}" class="open">{escape(key)}</a>'])
    table = _table(["bot", "class", "seat", "step", "detail", "game"], rows, "faults")
    return f'<section id="faults"><h2>Faults ({len(faults)})</h2>{table}</section>'
