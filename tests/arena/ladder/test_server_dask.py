"""The ladder's games on a Dask cluster (``executor = "dask"`` in the ladder file, no
``scheduler``: a LocalCluster of ``workers`` processes started for each stretch of play)."""

import pytest

from ._server import Server, house_bots, ladder_folder, remove

pytest.importorskip("distributed")
pytestmark = pytest.mark.slow

DASK = 'executor = "dask"\n' + house_bots(random="py-random.toml", heuristic="py-heuristic.toml")


def test_games_are_played_on_a_dask_cluster():
    folder = ladder_folder(DASK)
    server = Server(folder, "none")
    try:
        board = server.wait_for(lambda: (b := server.json("/api/leaderboard"))["fitted_games"] >= 4 and b,
                                "four games rated")
        rows = {row["name"]: row for row in board["rows"]}
        assert set(rows) == {"random-v1", "heuristic-v1"} and rows["random-v1"]["games"] >= 4
        game = server.json(f"/api/games/{server.json('/api/games?limit=1')['games'][0]['id']}")
        assert sorted(game["seats"]) == ["heuristic-v1", "random-v1"] and game["reason"] == "normal"
    finally:
        server.stop()
        remove(folder)
