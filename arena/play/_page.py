"""The play page: the report's viewer code (the game's drawing and words, the replay viewer)
and the play script, in one HTML page that needs nothing from elsewhere."""

from __future__ import annotations

import html
import json
from importlib import resources

import engines

from ..report import viewer_css, viewer_scripts


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def controls_script(game_id: str) -> list[str]:
    """The game's own controls, ``play.js`` beside its engine (``ArenaControls``; see the play
    script), or none: every decision is then a button per legal action."""
    path = resources.files(engines.game_package(game_id)).joinpath("play.js")
    return [path.read_text(encoding="utf-8")] if path.is_file() else []


def play_html(game_id: str, title: str) -> str:
    """The page of a seat (the same for every seat: what it shows comes over its WebSocket)."""
    data = json.dumps({"game": game_id, "title": title}).replace("<", "\\u003c")
    scripts = "".join(f"<script>{script}</script>"
                      for script in [*viewer_scripts(game_id), *controls_script(game_id), _asset("play.js")])
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(title)}: arena play</title><link rel="icon" href="/favicon.ico" type="image/svg+xml">'
            f'<style>{viewer_css()}{_asset("play.css")}</style></head><body class="play">'
            f'<script type="application/json" id="play-data">{data}</script>'
            f'<header id="top"><h1 id="heading">{html.escape(title)}</h1><div id="table" class="muted"></div>'
            f'<div id="conn" class="conn" hidden></div></header>'
            f'<main id="live" class="vmain"><div class="stage">'
            f'<div id="turn" class="next">connecting…</div><div id="notice" class="notice" hidden></div>'
            f'<div id="clock" class="pclock" hidden></div><div id="controls"></div><div id="faults"></div>'
            f'<div id="board" class="board"></div><details class="legend" id="legend"><summary>legend</summary>'
            f'<div id="legend-body"></div></details></div>'
            f'<aside class="moves"><div class="moves-head">since your last decision</div>'
            f'<div id="events" class="pevents"></div></aside></main>'
            f'<section id="over" hidden></section><div id="replay" class="replay" hidden></div>'
            f'<div id="where" class="muted"></div><div id="viewer" hidden></div>'
            f'<pre id="js-errors" hidden></pre>{scripts}</body></html>')
