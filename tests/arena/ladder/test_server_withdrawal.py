"""A ladder charges a bot for leaving between games and retires it at the limit: a real server,
a house bot whose every process exits right after its game (tests/arena/ladder/bots/leaver)."""

import json
import sqlite3

import pytest

from ._server import BOTS, Server, house_bots, ladder_folder, remove

pytestmark = pytest.mark.slow

LEAVER = (f'\n[faults]\nwithdraw_after = 2\n\n[[bots]]\nauthor = "leaver"\nmanifest = "{BOTS}/leaver/bot.toml"\n'
          + house_bots(random="py-random.toml", heuristic="py-heuristic.toml"))


def test_a_bot_leaving_between_games_is_charged_and_retired():
    folder = ladder_folder(LEAVER)
    server = Server(folder, "auto")
    try:
        bot = server.wait_for(lambda: (b := server.json("/api/bots/leaver-v1"))["withdrawn"] and b,
                              "the leaver withdrawn")
        assert bot["withdrawn"] == "withdrawn after 2 faults between games (limit 2)" and not bot["active"]
        with sqlite3.connect(folder / "ladder.db") as db:  # every stored fault (the page shows the latest 20)
            faults = [f for (row,) in db.execute("SELECT faults FROM games") for f in json.loads(row)]
        charged = [f for f in faults if f.get("between_games")]
        assert len(charged) >= 2 and {f["bot"] for f in charged} == {"leaver-v1"}  # more: games sent before
        assert {f["detail"] for f in charged} <= {"exited with code 3 between games", "closed its stdout between games"}
        assert {f["bot"] for f in faults} == {"leaver-v1"}  # the others are never charged
        assert any(event["kind"] == "withdrawn" for event in bot["events"])
        status, page = server.get("/bots/leaver-v1")
        assert status == 200 and b"retired: withdrawn after 2 faults between games (limit 2)" in page
        # It is out of matchmaking; the others play on.
        board = server.json("/api/leaderboard")
        assert {row["name"]: row["active"] for row in board["rows"]}.get("leaver-v1") in (False, None)
        # A game is listed once its whole duplicate block is stored (the rest of a block the
        # leaver was in is dropped when it is withdrawn), so the lists may lag behind play.
        played = server.wait_for(lambda: server.json("/api/games?bot=leaver-v1&limit=200")["games"],
                                 "the leaver's games listed")

        def newest() -> dict | None:
            games = server.json("/api/games?limit=1")["games"]
            return games[0] if games else None

        server.wait_for(lambda: (game := newest()) and game["id"] > max(g["id"] for g in played) + 4
                        and set(game["seats"]) == {"random-v1", "heuristic-v1"}, "games without the leaver")
        assert any("warning: ladder entrant leaver-v1 withdrawn after 2 faults between games" in line
                   for line in server.lines)
    finally:
        server.stop()
        remove(folder)
