"""A version that faults *in* game after game is withdrawn like one that faults between games:
a real server, a house bot whose every process exits at its 3rd decision of every game
(tests/arena/ladder/bots/timebomb)."""

import pytest

from ._server import BOTS, Server, house_bots, ladder_folder, remove

pytestmark = pytest.mark.slow

REASON = "withdrawn after faults in 3 of its last 6 games (limit 3, game_fault_limit)"
TIMEBOMB = (f'game_fault_limit = 3\ngame_fault_window = 6\n\n[[bots]]\nauthor = "timebomb"\n'
            f'manifest = "{BOTS}/timebomb/bot.toml"\n' + house_bots(random="py-random.toml", heuristic="py-heuristic.toml"))


def test_a_bot_faulting_in_every_game_is_withdrawn_with_the_reason_shown():
    folder = ladder_folder(TIMEBOMB)
    server = Server(folder, "auto")
    try:
        bot = server.wait_for(lambda: (b := server.json("/api/bots/timebomb-v1"))["withdrawn"] and b,
                              "the time bomb withdrawn")
        assert bot["withdrawn"] == REASON and not bot["active"]
        assert any(event["kind"] == "withdrawn" and event["detail"] == REASON for event in bot["events"])
        # A fault is listed once its duplicate block is whole (or given up).
        faults = server.wait_for(lambda: (f := server.json("/api/bots/timebomb-v1")["faults"])
                                 and any("timebomb: boom" in fault["stderr_tail"] for fault in f) and f,
                                 "its faults listed with its last words")
        assert {fault["kind"] for fault in faults} == {"crash"}
        status, page = server.get("/bots/timebomb-v1")
        assert status == 200 and f"retired: {REASON}".encode() in page
        author = server.json("/api/bots/timebomb")  # the author's view: each version's state
        assert author["kind"] == "author" and [(v["entrant"], v["withdrawn"]) for v in author["versions"]] \
            == [("timebomb-v1", REASON)]
        # Out of matchmaking: the others play on without it.
        played = server.wait_for(lambda: server.json("/api/games?bot=timebomb-v1&limit=200")["games"],
                                 "the time bomb's games listed")

        def newest() -> dict | None:
            games = server.json("/api/games?limit=1")["games"]
            return games[0] if games else None

        server.wait_for(lambda: (game := newest()) and game["id"] > max(g["id"] for g in played) + 4
                        and set(game["seats"]) == {"random-v1", "heuristic-v1"}, "games without the time bomb")
        assert any(f"warning: ladder entrant timebomb-v1 {REASON}" in line for line in server.lines)
    finally:
        server.stop()
        remove(folder)
