"""Writing the pages: the tournament report and the single-game viewer.

A page is one self-contained HTML file: CSS, the viewer, the game's renderer (the
engine package's ``viewer.js``), its rules twin where it has one (``rules.js``, with
``assets/pyrandom.js``) and the data are inlined, nothing is fetched, so it works offline
from a file. Replays travel in chunks of many games, one element each, after everything
else: ``<script type="application/x-steps">`` (:mod:`._steps`: the games' steps, which the
browser re-plays with the twin) for a game with a twin, else ``application/x-frames``
(:mod:`._chunks`: the views of every step). A chunk is decoded only when one of its games
is opened, so the page stays quick to open however many games it holds.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import engines
from engines import Replay

from ..tournament import ResultsStore, StoredGame
from ._adaptive import adaptive_lines
from ._chunks import pack_chunk
from ._data import faults_data, games_data, progress_data, standings_data
from ._frames import ViewError, game_frames
from ._meta import time_limits, viewer_meta
from ._sections import faults_section, head_to_head_section, progress_section, standings_section
from ._steps import pack_steps, rules_script, steps_payload

#: default bytes of embedded replays in a report: with the games list, a 10,000-game report
#: stays under 20 MB (the list takes about 0.9 MB), and all 10,000 replays of a tournament fit:
#: Dead Man's Draw's frames take 15.4 MB, the steps of Karibik and Opito Bay (games with a
#: rules twin) less (BENCHMARKS.md; room for longer games than random play)
REPLAY_BUDGET = 18_500_000
#: most games in one chunk, and the frames after which a chunk is closed: a chunk is what
#: the browser decodes to open one of its games (see :mod:`._chunks`)
CHUNK_GAMES = 128
CHUNK_FRAMES = 8_000


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def renderer_script(game_id: str) -> str:
    """The game's drawing code: ``viewer.js`` beside its engine (``engines/<game>/``); for a
    game without one, each view shown as its JSON (the words fall back to JSON on their own:
    ``describe.js``), so its report and viewer still work."""
    viewer = resources.files(engines.game_package(game_id)).joinpath("viewer.js")
    if viewer.is_file():
        return viewer.read_text(encoding="utf-8")
    return _asset("plain_viewer.js").replace("GAME_ID", json.dumps(game_id).replace("<", "\\u003c"))


def _json_script(element_id: str, value: Any) -> str:
    # Every "<" escaped, not only "</": "<!--" followed by "<script" inside a script element
    # puts the HTML parser in its "script data escaped" state, where the element's own
    # "</script>" no longer ends it and the page's scripts stop. JSON reads "\u003c" as "<".
    text = json.dumps(value, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def game_payload(replay: Replay, meta: dict[str, Any], frames: bool = False) -> dict[str, Any]:
    """One game for the viewer: replay header (the seed as a string: seeds pass 2**53, a
    JavaScript number's exact integers), ``meta`` (bots, ranks, scores, faults...) and what
    the browser builds its views from: ``steps`` (:func:`._steps.steps_payload`) for a game
    whose engine has a JavaScript twin (``rules.js``), else, or with ``frames``, its
    ``frames`` (:func:`game_frames`)."""
    if not frames and rules_script(replay.game) is not None:
        return steps_payload(replay, meta)
    return {"game": replay.game, "players": replay.num_players, "seed": str(replay.seed),
            "options": dict(replay.options), "meta": meta, "frames": game_frames(replay)}


def viewer_scripts(game_id: str) -> list[str]:
    """The scripts of any page that shows games of ``game_id``, in order: the viewer's data
    (``viewer.js``) and its re-play of steps (``replay.js``), the words for games
    (``describe.js``), the game's rules twin when it has one (with ``pyrandom.js`` before it),
    the game's renderer and describer (its ``viewer.js``), the viewer on screen (``shell.js``).
    ``arena play``'s page uses them too: one set of drawing code."""
    rules = rules_script(game_id)
    twin = [] if rules is None else [_asset("pyrandom.js"), rules]
    return [_asset("viewer.js"), _asset("replay.js"), _asset("describe.js"), *twin, renderer_script(game_id),
            _asset("shell.js")]


def viewer_css() -> str:
    """The style sheet of the report and the viewer."""
    return _asset("report.css")


def _scripts(game_id: str, page_script: str) -> list[str]:
    """The page's scripts: :func:`viewer_scripts`, then the page's own script."""
    return [*viewer_scripts(game_id), _asset(page_script)]


def _chunk_element(number: int, games: list[dict[str, Any]]) -> str:
    if games and "steps" in games[0]:
        return f'<script type="application/x-steps" id="c{number}">{pack_steps(games)}</script>'
    return f'<script type="application/x-frames" id="c{number}">{pack_chunk(games)}</script>'


def _page(title: str, body: str, scripts: Sequence[str], replays: Sequence[str]) -> str:
    """The page; the replays come after the scripts, so the report works while the
    browser is still reading them (a viewer waits for the end of the document)."""
    inline = "".join(f"<script>{script}</script>" for script in scripts)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(title)}</title><style>{_asset("report.css")}</style></head>'
            f'<body>{body}<div id="viewer" hidden></div><pre id="js-errors" hidden></pre>'
            f'{inline}{"".join(replays)}</body></html>')


def stored_meta(store: ResultsStore, game: StoredGame, replay: Replay,
                limits: list[int] | None = None) -> dict[str, Any]:
    """The viewer's ``meta`` of a stored game (:func:`._meta.viewer_meta`): with its moves'
    clock, under ``limits`` (``[move_ms, reserve_ms]``; default: the tournament's)."""
    if limits is None:
        limits = time_limits(json.loads(store.meta("config") or "{}"))
    return viewer_meta(replay, key=game.key, bots=game.seats, ranks=game.ranks, scores=game.scores,
                       reason=game.reason, faults=game.faults, moves=store.moves(game.key), limits=limits)


def _spread(count: int) -> list[int]:
    """0 .. count-1 in an order that covers the range evenly early: 0, then halves, quarters..."""
    order: list[int] = []
    seen: set[int] = set()
    stride = count
    while stride >= 1 and len(order) < count:
        for position in range(0, count, stride):
            if position not in seen:
                seen.add(position)
                order.append(position)
        stride //= 2
    return order


def _embed_groups(games: Sequence[StoredGame]) -> list[list[int]]:
    """Which games' replays to embed, in the order the budget takes them: every game with a
    fault first, then the others in runs of :data:`CHUNK_GAMES` consecutive games (the games
    of a duplicate-deal block compress well together), the runs spread evenly over the
    schedule (so a cut by the budget still covers every pairing)."""
    faulty = [i for i, game in enumerate(games) if game.faults]
    rest = [i for i, game in enumerate(games) if not game.faults]
    runs = [rest[start:start + CHUNK_GAMES] for start in range(0, len(rest), CHUNK_GAMES)]
    return ([faulty[start:start + CHUNK_GAMES] for start in range(0, len(faulty), CHUNK_GAMES)]
            + [runs[position] for position in _spread(len(runs))])


def _chunked(groups: list[list[int]], payload_of: Callable[[int], dict[str, Any] | None],
             ) -> Iterator[list[tuple[int, dict[str, Any]]]]:
    """The chunks to embed, in order, as ``(game index, payload)`` lists: each group cut
    after :data:`CHUNK_FRAMES` frames. A game without a payload (``None``) is left out."""
    for group in groups:
        members: list[tuple[int, dict[str, Any]]] = []
        frames = 0
        for index in group:
            payload = payload_of(index)
            if payload is None:
                continue
            members.append((index, payload))
            frames += len(payload.get("frames", ()))  # a game of steps costs its opening alone
            if frames >= CHUNK_FRAMES:
                yield members
                members, frames = [], 0
        if members:
            yield members


def report_html(store: ResultsStore, replay_budget: int = REPLAY_BUDGET, n_boot: int | None = None,
                progress_points: int = 20, corrected: bool = False) -> tuple[str, dict[str, int]]:
    """The report of a results database, and figures about it (``games``, ``embedded``,
    ``replay_bytes``, ``diverged``: replays the engines no longer re-play). Replays are
    embedded until ``replay_budget`` bytes are used. ``corrected``: a section of
    chance-corrected points (:mod:`arena.report._luck`).

    Raises :class:`ValueError` if the database holds no finished game, or (``corrected``)
    the baseline file is bad or a stored replay does not replay.
    """
    games = list(store.games())
    if not games:
        raise ValueError(f"{store.path}: no finished games yet")
    try:
        config = json.loads(store.meta("config") or "{}")
    except ValueError:  # a damaged configuration: the games still make a report
        config = {}
    config = config if isinstance(config, dict) else {}
    game_id = config.get("game") or store.replay(games[0].key)["game"]
    standings = standings_data(games, n_boot)
    names = standings["names"]
    progress_boot = None if n_boot is None else max(20, n_boot // 4)
    progress = progress_data(games, names, progress_points, progress_boot)
    listed = games_data(games, names)
    faults = faults_data(games)
    luck_section = _corrected_section(store, games) if corrected else ""
    diverged: list[int] = []
    limits = time_limits(config)

    def payload_of(index: int) -> dict[str, Any] | None:
        try:
            replay = Replay.from_dict(store.replay(games[index].key))
            return game_payload(replay, stored_meta(store, games[index], replay, limits))
        except ViewError:
            diverged.append(index)  # recorded under other rules (an older engine): nothing to show
            return None

    chunks: list[str] = []
    used = embedded = 0
    for members in _chunked(_embed_groups(games), payload_of):
        element = _chunk_element(len(chunks), [payload for _, payload in members])
        if used + len(element) > replay_budget:
            break  # the budget is spent
        used += len(element)
        for position, (index, _) in enumerate(members):
            listed[index] += [len(chunks), position]
        embedded += len(members)
        chunks.append(element)
    title = f"{config.get('name') or store.path.stem}: {engines.get_game(game_id).name}"
    summary = html.escape(
        f"{_count(len(games), 'game')} of {engines.get_game(game_id).name}, {_count(len(names), 'entrant')}, "
        f"{standings['players']} players a game; replays of {_count(embedded, 'game')} embedded"
        + (f"; {len(diverged)} replays do not follow this version's rules." if diverged else "."))
    # an adaptive tournament: which questions are decided
    summary += "".join(f'</p><p class="adaptive">{html.escape(line)}' for line in adaptive_lines(store, games))
    body = (f'<header><h1>{html.escape(title)}</h1><p>{summary}</p><nav>'
            '<a href="#standings">Standings</a> <a href="#head-to-head">Head to head</a> '
            '<a href="#progress">Progress</a> <a href="#faults">Faults</a> <a href="#games">Games</a></nav></header>'
            f'{standings_section(standings)}{luck_section}{head_to_head_section(standings)}{progress_section(progress, names, progress_boot)}'
            f'{faults_section(faults, listed)}<section id="games"><h2>Games</h2><div id="game-list"></div></section>'
            + _json_script("report-data", {"game": game_id, "names": names, "games": listed}))
    page = _page(title, body, _scripts(game_id, "report.js"), chunks)
    return page, {"games": len(games), "embedded": embedded, "replay_bytes": used, "diverged": len(diverged)}


def _corrected_section(store: ResultsStore, games: list[StoredGame]) -> str:
    """The chance-corrected points as an HTML section (docs/ratings.md)."""
    from ..ratings import corrected_points
    from ._luck import NoBaseline, records_with_luck

    try:
        records, label = records_with_luck(store, games)
    except NoBaseline as error:  # a game without a baseline: the raw standings above stand
        return (f'<section id="corrected"><h2>Chance-corrected points</h2><p class="note">{html.escape(str(error))}'
                '; the raw figures above stand.</p></section>')
    rows = "".join(
        f"<tr><td>{html.escape(row.name)}</td><td>{100 * row.raw:.1f} &plusmn; {100 * row.raw_error:.1f}</td>"
        f"<td>{100 * row.corrected:.1f} &plusmn; {100 * row.corrected_error:.1f}</td><td>{row.luck:+.4f}</td>"
        f"<td>{row.coefficient:.2f}</td><td>{row.blocks}</td></tr>" for row in corrected_points(records))
    return ('<section id="corrected"><h2>Chance-corrected points</h2><table class="num"><thead><tr>'
            '<th>bot</th><th>raw points %</th><th>corrected points %</th><th>mean luck</th><th>taken</th>'
            f'<th>blocks</th></tr></thead><tbody>{rows}</tbody></table><p class="note">Each game\'s luck (the '
            f'chance events it met, valued by baseline {html.escape(label)}) taken out of its pairwise results '
            'in the share shown as <em>taken</em>, fitted on the entrant\'s own blocks (0: the raw figures, '
            'where the luck would not narrow the interval; 1: the baseline\'s gain); 95% intervals with a '
            'duplicate block as one observation. As <code>arena standings --corrected</code>.</p></section>')


def viewer_html(replay: Replay, meta: dict[str, Any], frames: bool = False) -> str:
    """A page with one game's viewer, opened at its first step. ``frames``: the game as its
    frames (every view, written by the engine) even where a rules twin could re-play its
    steps: the way to see a game that the twin cannot re-play (the viewer says so).

    Raises :class:`ViewError` if the replay does not follow the engine's rules.
    """
    title = f"{engines.get_game(replay.game).name}, seed {replay.seed}"
    body = _json_script("viewer-data", {"game": replay.game, "title": title})
    return _page(title, body, _scripts(replay.game, "single.js"),
                 [_chunk_element(0, [game_payload(replay, meta, frames)])])


def write_report(database: Path, output: Path, replay_budget: int = REPLAY_BUDGET,
                 n_boot: int | None = None, corrected: bool = False) -> dict[str, int]:
    """Write the report of ``database`` to ``output``; return :func:`report_html`'s figures."""
    store = ResultsStore.open(database, read_only=True)
    try:
        page, figures = report_html(store, replay_budget, n_boot, corrected=corrected)
    finally:
        store.close()
    output.write_text(page, encoding="utf-8")
    figures["bytes"] = output.stat().st_size
    return figures


def _count(number: int, noun: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{number} {noun}{'s' * (number != 1)}"
