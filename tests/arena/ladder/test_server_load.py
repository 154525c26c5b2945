"""The load benchmark's path at a small size, untimed (timing is not a test; the figures are
in BENCHMARKS.md): a ladder database built by direct inserts is served, and every page the
benchmark times answers 200 with the expected content."""

import importlib.util
import json

import pytest

from ._server import ROOT

pytestmark = pytest.mark.slow


def _benchmark():
    spec = importlib.util.spec_from_file_location("ladder_load", ROOT / "benchmarks" / "ladder_load.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_small_load(tmp_path):
    bench = _benchmark()
    path = tmp_path / "ladder.db"
    names = bench.build(path, bots=8, games=400, fits=2)
    from arena.ladder import _api
    from arena.ladder._store import LadderStore

    store = LadderStore.open(path)
    try:
        board = _api.leaderboard(store)
        assert board["games"] == 400 and board["fitted_games"] == 400
        assert sorted(row["name"] for row in board["rows"]) == sorted(names)
        assert sum(row["games"] for row in board["rows"]) == 800
        assert len(store.history(names[0])) == 2
        assert json.loads(json.dumps(_api.bot(store, names[0])))["games"]
    finally:
        store.close()
    times = bench.measure(path, names, requests=1)
    # Every page answered 200 (measure() asserts it on each request).
    assert set(times) == {"leaderboard page", "leaderboard JSON", "bot page", "bot JSON", "games JSON", "author page"}
