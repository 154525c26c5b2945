"""A duplicate block's games are shown only once every rotation of it is stored (issue 27): the
rotations replay one deal, so a finished rotation's seed, replay, scores or faults would tell
a bot (or its author) the deal of a game still to be played. The app over a real store and
the runner's stretch, called in process (ASGI), no bot processes."""

import json

import trio

from arena.ladder._app import build_app
from arena.match._result import EndReason, MatchResult
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
    # As for a game that does not exist: the same status and body (issue 33, point 4).
    assert await get(app, f"/api/games/{number}") == await get(app, "/api/games/999999") == (
        404, b'{"error":"no such game"}')
    assert await get(app, f"/games/{number}") == await get(app, "/games/999999")
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


async def test_a_block_in_play_is_neither_counted_nor_fitted(runner, autojump_clock):  # noqa: F811
    """One rotation stored, the other still to play: the leaderboard's games, the fit and
    matchmaking's games stay at the 40 games of whole blocks; both rotations count at once when
    the block is whole (issue 33, point 4)."""
    names = tuple(entrant.name for entrant in runner.store.active())
    stretch = runner._stretch(names, runner._generation)
    first, second = next(stretch), next(stretch)
    runner._stored(first, played(first))
    app = build_app(runner.store, runner.config, lambda: None, runner.in_play)

    async def fitted() -> tuple[int, int, int]:
        """(leaderboard's games, fitted games, the games of the fit's rows) after a fit."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(runner._fit_forever)
            await trio.sleep(runner.fit_every_s + 2)
            nursery.cancel_scope.cancel()
        board = json.loads((await get(app, "/api/leaderboard"))[1])
        return board["games"], board["fitted_games"], sum(row["games"] for row in board["rows"])

    assert runner.store.game_count() == 41
    assert (len(runner.games), len(runner.blocks)) == (40, 40)
    assert await fitted() == (40, 40, 80)
    runner._stored(second, played(second))
    assert (len(runner.games), runner.blocks[-2:]) == (42, [first.block, first.block])
    assert await fitted() == (42, 42, 84)


async def test_a_block_given_up_counts_as_after_a_restart(runner):  # noqa: F811
    """The active set changed before the block was whole: its stored rotation counts, as it
    would when a restarted runner reads the store."""
    names = tuple(entrant.name for entrant in runner.store.active())
    stretch = runner._stretch(names, runner._generation)
    first = next(stretch)
    runner._stored(first, played(first))
    assert len(runner.games) == 40
    runner._active_changed()
    next(runner._stretch(names, runner._generation))  # the next stretch starts
    assert (len(runner.games), runner.blocks[-1]) == (41, first.block)
