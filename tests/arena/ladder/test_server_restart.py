"""``kill -9`` of the ladder server and a restart lose no finished game and no accepted
submission: games stored before the kill are served unchanged after it, a submission
accepted (202) but not yet vetted is vetted after the restart, and play goes on."""

import json
import sqlite3

import pytest

from ._server import Server, archive, arena, house_bots, ladder_folder, remove

pytestmark = pytest.mark.slow

HOUSE = house_bots(random="py-random.toml", other="py-random.toml")


def _stored(folder) -> dict[int, tuple]:
    with sqlite3.connect(folder / "ladder.db") as db:
        return {row[0]: row[1:] for row in db.execute("SELECT id, key, seats, ranks, seed FROM games")}


def test_kill_and_restart_keeps_games_and_submissions():
    folder = ladder_folder(HOUSE)
    token = arena("ladder", "token", "add", str(folder / "ladder.toml"), "alice").strip()
    server = Server(folder, "none")
    try:
        server.wait_for(lambda: server.json("/api/leaderboard")["games"] >= 6, "six games")
        accepted = server.submit(token, archive("good"))
        server.kill()
        before = _stored(folder)
        assert len(before) >= 6
        server = Server(folder, "none")
        # Every game stored before the kill is there, unchanged.
        for game_id, (key, seats, ranks, seed) in before.items():
            game = server.json(f"/api/games/{game_id}")
            assert (game["key"], game["seats"], game["ranks"], game["seed"]) == (key, json.loads(seats), json.loads(ranks), seed)
        # The accepted submission was kept and is vetted (again, if the kill cut it short).
        passed = server.wait_for(lambda: (s := server.json(f"/api/submissions/{accepted['id']}"))["status"] != "pending"
                                 and s, "the submission's verdict")
        assert passed["status"] == "passed" and passed["entrant"] == "alice-v1"
        # Play goes on, with the new version, under keys no earlier game used.
        server.wait_for(lambda: server.json("/api/bots/alice-v1")["games"], "a game of alice-v1")
        after = _stored(folder)
        assert set(before) < set(after)
        keys = [key for key, *_ in after.values()]
        assert len(keys) == len(set(keys))
        house = server.json("/api/bots/random")
        assert [v["entrant"] for v in house["versions"]] == ["random-v1"]  # house bots entered once
    finally:
        server.stop()
        remove(folder)
