"""A duplicate block's games are shown only once every rotation of it is stored (issue 27): the
rotations replay one deal, so a finished rotation's seed, replay, scores or faults would tell
a bot (or its author) the deal of a game still to be played. The app over a real store and
the runner's stretch, called in process (ASGI), no bot processes."""

import json

from arena.ladder._app import build_app
from arena.match._match import EndReason, MatchResult
from engines import Replay

from .test_server_runner import runner  # noqa: F401 - the fixture: a ladder of 40 stored games


async def get(app, target: str) -> tuple[int, bytes]:
    """``GET target`` from the ASGI ``app``: (status, body)."""
    path, _, query = target.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
             "headers": [(b"host", b"ladder")], "server": ("ladder", 80), "client": ("127.0.0.1", 1)}
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"], b"".join(message.get("body", b"") for message in sent[1:])


def played(game) -> MatchResult:
    return MatchResult("dead-mans-draw", game.seed, game.seats, (1, 2), (1, 2), (5, 3), (), EndReason.NORMAL,
                       Replay("dead-mans-draw", 2, game.seed), (), 0.1)


async def test_a_rotation_is_shown_once_its_whole_block_is_stored(runner):  # noqa: F811
    names = tuple(entrant.name for entrant in runner.store.active())
    stretch = runner._stretch(names, runner._generation)
    first, second = next(stretch), next(stretch)
    assert first.block == second.block and first.seed == second.seed
    runner._stored(first, played(first))
    number = runner.store.game_count()  # the id of the game just stored
    app = build_app(runner.store, runner.config, lambda: None, runner.in_play)
    status, body = await get(app, f"/api/games/{number}")
    assert status == 404 and "not shown yet" in json.loads(body)["error"]
    assert str(first.seed).encode() not in body
    assert (await get(app, f"/games/{number}"))[0] == 404
    listed = json.loads((await get(app, "/api/games?limit=200"))[1])["games"]
    assert len(listed) == 40 and first.key not in {game["key"] for game in listed}
    bot = json.loads((await get(app, f"/api/bots/{first.seats[0]}"))[1])
    assert first.key not in {game["key"] for game in bot["games"]}
    assert first.key.encode() not in (await get(app, f"/bots/{first.seats[0]}"))[1]
    # The last rotation is stored: both are shown, seed and replay.
    runner._stored(second, played(second))
    status, body = await get(app, f"/api/games/{number}")
    game = json.loads(body)
    assert status == 200 and (game["key"], game["seed"], game["replay"]["seed"]) == (first.key, first.seed, first.seed)
    listed = json.loads((await get(app, "/api/games?limit=200"))[1])["games"]
    assert {first.key, second.key} <= {game["key"] for game in listed}


async def test_a_block_abandoned_by_a_restart_is_shown(runner):  # noqa: F811
    names = tuple(entrant.name for entrant in runner.store.active())
    first = next(runner._stretch(names, runner._generation))
    runner._stored(first, played(first))
    runner._pending.clear()  # what a new process's runner holds: no block in play
    app = build_app(runner.store, runner.config, lambda: None, runner.in_play)
    assert (await get(app, f"/api/games/{runner.store.game_count()}"))[0] == 200
