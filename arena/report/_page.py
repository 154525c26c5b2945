"""Writing the pages: the tournament report and the single-game viewer.

A page is one self-contained HTML file: CSS, the viewer, the game's renderer (the
engine package's ``viewer.js``) and the data are inlined, nothing is fetched, so it
works offline from a file. Replays travel as gzip + base64 frames (:mod:`._frames`),
one ``<script type="application/x-frames">`` element per game, decoded only when the
game is opened; the page stays quick to open however many games it holds.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import engines
from engines import Replay

from .._store import ResultsStore, StoredGame
from ._data import faults_data, games_data, progress_data, standings_data
from ._frames import ViewError, game_frames, pack
from ._sections import faults_section, head_to_head_section, progress_section, standings_section

#: default bytes of embedded replays in a report (keeps a 10,000-game report under 20 MB)
REPLAY_BUDGET = 16_000_000


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def renderer_script(game_id: str) -> str:
    """The game's drawing code: ``viewer.js`` beside its engine (``engines/<game>/``)."""
    package = engines.game_package(game_id)
    return resources.files(package).joinpath("viewer.js").read_text(encoding="utf-8")


def _json_script(element_id: str, value: Any) -> str:
    # "</" inside a script element would end it early; JSON allows the escaped form.
    text = json.dumps(value, separators=(",", ":")).replace("</", "<\\/")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def game_payload(replay: Replay, meta: dict[str, Any]) -> str:
    """One game, packed: replay header, ``meta`` (bots, ranks, scores, faults...) and frames."""
    return pack({"game": replay.game, "players": replay.num_players, "seed": replay.seed,
                 "options": dict(replay.options), "meta": meta, "frames": game_frames(replay)})


def _page(title: str, body: str, scripts: Sequence[str], replays: Sequence[str]) -> str:
    """The page; the replays come after the scripts, so the report works while the
    browser is still reading them (a viewer waits for the end of the document)."""
    inline = "".join(f"<script>{script}</script>" for script in scripts)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(title)}</title><style>{_asset("report.css")}</style></head>'
            f'<body>{body}<div id="viewer" hidden></div><pre id="js-errors" hidden></pre>'
            f'{inline}{"".join(replays)}</body></html>')


def _meta(game: StoredGame) -> dict[str, Any]:
    return {"key": game.key, "bots": list(game.seats), "ranks": list(game.ranks), "scores": list(game.scores),
            "reason": game.reason, "faults": [{k: v for k, v in fault.items() if k != "stderr_tail"}
                                              for fault in game.faults]}


def _embed_order(games: Sequence[StoredGame]) -> list[int]:
    """Which games' replays to embed first: every game with a fault, then the rest spread
    evenly over the schedule (so a cut by the budget still covers every pairing)."""
    faulty = [i for i, game in enumerate(games) if game.faults]
    rest = [i for i, game in enumerate(games) if not game.faults]
    spread: list[int] = []
    stride = len(rest)
    seen: set[int] = set()
    while stride >= 1 and len(spread) < len(rest):
        for position in range(0, len(rest), stride):
            if position not in seen:
                seen.add(position)
                spread.append(rest[position])
        stride //= 2
    return faulty + spread


def report_html(store: ResultsStore, replay_budget: int = REPLAY_BUDGET, n_boot: int = 200,
                progress_points: int = 20) -> tuple[str, dict[str, int]]:
    """The report of a results database, and figures about it (``games``, ``embedded``,
    ``replay_bytes``, ``diverged``: replays the engines no longer re-play). Replays are
    embedded until ``replay_budget`` bytes are used.

    Raises :class:`ValueError` if the database holds no finished game.
    """
    games = list(store.games())
    if not games:
        raise ValueError(f"{store.path}: no finished games yet")
    config = json.loads(store.meta("config") or "{}")
    game_id = config.get("game") or store.replay(games[0].key)["game"]
    standings = standings_data(games, n_boot)
    names = standings["names"]
    progress = progress_data(games, names, progress_points, max(20, n_boot // 4))
    listed = games_data(games, names)
    faults = faults_data(games)
    blobs: list[str] = []
    used = diverged = 0
    for index in _embed_order(games):
        try:
            blob = game_payload(Replay.from_dict(store.replay(games[index].key)), _meta(games[index]))
        except ViewError:
            diverged += 1  # recorded under other rules (an older engine): nothing to show
            continue
        if used + len(blob) > replay_budget:
            break
        used += len(blob)
        listed[index].append(len(blobs))
        blobs.append(f'<script type="application/x-frames" id="r{len(blobs)}">{blob}</script>')
    title = f"{config.get('name') or store.path.stem}: {engines.get_game(game_id).name}"
    summary = (f"{len(games)} games of {engines.get_game(game_id).name}, {len(names)} entrants, "
               f"{standings['players']} players a game; replays of {len(blobs)} games embedded"
               + (f"; {diverged} replays do not follow this version's rules." if diverged else "."))
    body = (f'<header><h1>{html.escape(title)}</h1><p>{html.escape(summary)}</p><nav>'
            '<a href="#standings">Standings</a> <a href="#head-to-head">Head to head</a> '
            '<a href="#progress">Progress</a> <a href="#faults">Faults</a> <a href="#games">Games</a></nav></header>'
            f'{standings_section(standings)}{head_to_head_section(standings)}{progress_section(progress, names)}'
            f'{faults_section(faults, listed)}<section id="games"><h2>Games</h2><div id="game-list"></div></section>'
            + _json_script("report-data", {"game": game_id, "names": names, "games": listed}))
    page = _page(title, body, [_asset("viewer.js"), renderer_script(game_id), _asset("report.js")], blobs)
    return page, {"games": len(games), "embedded": len(blobs), "replay_bytes": used, "diverged": diverged}


def viewer_html(replay: Replay, meta: dict[str, Any]) -> str:
    """A page with one game's viewer, opened at its first step.

    Raises :class:`ViewError` if the replay does not follow the engine's rules.
    """
    title = f"{engines.get_game(replay.game).name}, seed {replay.seed}"
    blob = '<script type="application/x-frames" id="r0">' + game_payload(replay, meta) + "</script>"
    body = _json_script("viewer-data", {"game": replay.game, "title": title})
    return _page(title, body, [_asset("viewer.js"), renderer_script(replay.game), _asset("single.js")], [blob])


def write_report(database: Path, output: Path, replay_budget: int = REPLAY_BUDGET,
                 n_boot: int = 200) -> dict[str, int]:
    """Write the report of ``database`` to ``output``; return :func:`report_html`'s figures."""
    store = ResultsStore.open(database)
    try:
        page, figures = report_html(store, replay_budget, n_boot)
    finally:
        store.close()
    output.write_text(page, encoding="utf-8")
    figures["bytes"] = output.stat().st_size
    return figures
