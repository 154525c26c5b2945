"""The ladder's HTML pages: server-rendered, no JavaScript (the replay viewer, reused from
:mod:`arena.report`, is the one page that needs it). Each page renders a dict of
:mod:`arena.ladder._api`; every value from a bot or an author is escaped."""

from __future__ import annotations

import html
import time
from typing import Any
from urllib.parse import quote

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222}
nav a{margin-right:1em} table{border-collapse:collapse;margin:.5em 0} td,th{padding:.2em .6em;
border-bottom:1px solid #ddd;text-align:left} td.n{text-align:right} pre{background:#f4f4f4;padding:.5em;
overflow:auto;max-height:14em} .prov{color:#a60} .retired{color:#888} .failed{color:#b00} .passed{color:#070}
.chart .grid{stroke:#e4e4e4} .chart text{font-size:11px} .chart .label{text-anchor:end} .chart .tick{text-anchor:middle}
"""


def _e(value: Any) -> str:
    return html.escape(str(value))


def _bot_link(name: str) -> str:
    return f'<a href="/bots/{quote(name)}">{_e(name)}</a>'


def page(title: str, body: str) -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
            f'<style>{_STYLE}</style></head><body><nav><a href="/">Leaderboard</a><a href="/games">Games</a>'
            f'<a href="/submit">Submit a bot</a></nav><h1>{_e(title)}</h1>{body}</body></html>')


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    return f"<table><tr>{head}</tr>" + "".join("<tr>" + "".join(rows_) + "</tr>" for rows_ in
                                              ([f"<td>{cell}</td>" for cell in row] for row in rows)) + "</table>"


def _elo(row: dict[str, Any] | None) -> str:
    if row is None or row["elo"] is None:
        return "not rated yet"
    mark = ' <span class="prov" title="provisional: few games or a wide interval">?</span>' if row["provisional"] else ""
    return f'{row["elo"]:.0f} <small>-{row["minus"]:.0f} +{row["plus"]:.0f}</small>{mark}'


def leaderboard_page(data: dict[str, Any]) -> str:
    rows = []
    place = 0
    for row in data["rows"]:
        place += row["active"]
        rows.append([str(place) if row["active"] else '<span class="retired">retired</span>', _bot_link(row["name"]),
                     _bot_link(row["author"]), _elo(row), str(row["games"])])
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(data["fitted_at"])) if data["fitted_at"] else "never"
    body = (f'<p>{_e(data["game"])}, {data["players"]} players a game. {data["games"]} games played; ratings '
            f'fitted on {data["fitted_games"]} of them ({when}). Elo with its 95 % interval; '
            f'<span class="prov">?</span> marks a provisional rating.</p>'
            + _table(["#", "bot", "author", "elo", "games"], rows))
    rated = [row for row in data["rows"] if row["active"] and row["elo"] is not None]
    if rated:
        from ..report import error_bar_chart  # the report's chart: SVG, no script

        body += error_bar_chart(rated, title="Elo of the active versions (95 % interval)")
    return page("Ladder", body)


def _games_table(games: list[dict[str, Any]]) -> str:
    rows = []
    for game in games:
        players = ", ".join(f"{_bot_link(name)} ({rank})" for name, rank in zip(game["seats"], game["ranks"]))
        faults = ", ".join(f'{_e(f["bot"])}: {_e(f["kind"])}' for f in game["faults"])
        rows.append([f'<a href="/games/{game["id"]}">{game["id"]}</a>', players, _e(game["reason"]),
                     str(game["steps"]), faults])
    return _table(["game", "seats (rank)", "end", "steps", "faults"], rows) if rows else "<p>No games yet.</p>"


def games_page(data: dict[str, Any]) -> str:
    title = f'Games of {data["bot"]}' if data["bot"] else "Games"
    more = ""
    if len(data["games"]) == data["limit"]:
        bot = f'bot={quote(data["bot"])}&' if data["bot"] else ""
        more = f'<p><a href="/games?{bot}offset={data["offset"] + data["limit"]}">older games</a></p>'
    return page(title, _games_table(data["games"]) + more)


def _history_svg(history: list[dict[str, Any]]) -> str:
    """The rating after each fit, with its interval as a band (inline SVG, no script)."""
    if len(history) < 2:
        return "<p>Not enough fits yet for a chart.</p>"
    width, height = 600, 160
    low = min(h["elo"] - h["minus"] for h in history)
    high = max(h["elo"] + h["plus"] for h in history)
    span = max(high - low, 1.0)
    last = max(h["games"] for h in history) or 1

    def point(games: float, elo: float) -> str:
        return f"{10 + (width - 20) * games / last:.1f},{10 + (height - 20) * (high - elo) / span:.1f}"

    band = " ".join(point(h["games"], h["elo"] + h["plus"]) for h in history) + " " + \
        " ".join(point(h["games"], h["elo"] - h["minus"]) for h in reversed(history))
    line = " ".join(point(h["games"], h["elo"]) for h in history)
    return (f'<svg width="{width}" height="{height}" role="img" aria-label="rating over games">'
            f'<polygon points="{band}" fill="#cde"/><polyline points="{line}" fill="none" stroke="#236"/>'
            f'<text x="12" y="{height - 2}" font-size="11">0 games</text><text x="{width - 90}" y="{height - 2}" '
            f'font-size="11">{last} games</text><text x="12" y="12" font-size="11">{high:.0f}</text>'
            f'<text x="12" y="{height - 14}" font-size="11">{low:.0f}</text></svg>')


def _versions_table(versions: list[dict[str, Any]]) -> str:
    rows = [[_bot_link(v["entrant"]), f'<a href="/submissions/{v["id"]}" class="{_e(v["status"])}">{_e(v["status"])}</a>',
             "active" if v["active"] else "", _elo(v.get("rating"))] for v in versions]
    return _table(["version", "submission", "", "elo"], rows)


def bot_page(data: dict[str, Any]) -> str:
    if data["kind"] == "author":
        return page(f'Author {data["author"]}', "<h2>Versions</h2>" + _versions_table(data["versions"]))
    rating = data["rating"]
    games_played = rating["games"] if rating else 0
    state = "active" if data["active"] else "retired"
    if data.get("withdrawn"):
        state = f'retired: {_e(data["withdrawn"])}'
    if data.get("removed"):
        day = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(data["removed"]))
        state += f"; its folder was removed on {day}, as it can play no more"
    body = [f'<p>Version {data["version"]} of {_bot_link(data["author"])} '
            f'({state}): elo {_elo(rating)}, {games_played} games.</p>',
            "<h2>Rating over time</h2>", _history_svg(data["history"]),
            "<h2>Head to head</h2>"]
    h2h = [[_bot_link(row["opponent"]), f'{row["score"]:g}/{row["games"]}',
            f'{100 * row["score"] / row["games"]:.0f} %' if row["games"] else ""] for row in data["head_to_head"]]
    body.append(_table(["opponent", "points/games", "score"], h2h) if h2h else "<p>No games yet.</p>")
    body.append("<h2>Faults</h2>")
    if not data["faults"] and not data["events"]:
        body.append("<p>None.</p>")
    for fault in data["faults"]:
        body.append(f'<p><a href="/games/{fault["game"]}">game {fault["game"]}</a>: {_e(fault["kind"])} at step '
                    f'{fault["step"]}: {_e(fault["detail"])}</p>'
                    + (f'<pre>{_e(fault["stderr_tail"])}</pre>' if fault["stderr_tail"] else ""))
    for event in data["events"]:
        body.append(f'<p>{_e(event["kind"])}: {_e(event["detail"])}</p>')
    body += ["<h2>Latest games</h2>", _games_table(data["games"]),
             f'<p><a href="/games?bot={quote(data["name"])}">all games</a></p>',
             "<h2>Versions of this author</h2>", _versions_table(data["versions"])]
    return page(data["name"], "".join(body))


def submit_page(message: str = "") -> str:
    note = f'<p class="failed">{_e(message)}</p>' if message else ""
    return page("Submit a bot", note + (
        "<p>Upload your bot as a .zip or .tar.gz archive holding its manifest <code>bot.toml</code> "
        "(see docs/ladder.md, \"What goes in the archive\"). Each upload is a new version; it plays once it passes the checks.</p>"
        '<form method="post" action="/submit" enctype="multipart/form-data">'
        '<p><label>Token <input type="password" name="token" required autocomplete="off"></label></p>'
        '<p><label>Archive <input type="file" name="archive" required></label></p>'
        '<p><button type="submit">Submit</button></p></form>'))


def submission_page(data: dict[str, Any]) -> str:
    status = data["status"]
    lines = [f'<p>Submission {data["id"]}: version {data["version"]} of {_bot_link(data["author"])}, '
             f'entrant {_bot_link(data["entrant"]) if status == "passed" else _e(data["entrant"])}.</p>',
             f'<p>Status: <strong class="{_e(status)}" id="status">{_e(status)}</strong>'
             + (" (reload this page to see when it is checked)" if status == "pending" else "") + "</p>"]
    if data["report"]:
        lines.append(f'<h2>Report</h2><pre id="report">{_e(data["report"])}</pre>')
    return page(f'Submission {data["id"]}', "".join(lines))


def error_page(status: int, message: str) -> str:
    return page(f"{status}", f"<p>{_e(message)}</p>")
