"""examples/kits.toml: a tournament mixing every starter kit runs to the end without faults."""

import dataclasses

from arena.sandbox._detect import detect_sandbox
from arena.tournament._config import load_config
from arena.tournament._runner import TournamentRunner
from arena.tournament._store import ResultsStore

from ._kits import EXAMPLES, KITS, prepare


async def test_kits_tournament_runs_without_faults(tmp_path):
    for name in KITS:
        prepare(name)  # built (or skipped / failed with the command to run)
    config = load_config(EXAMPLES.parent / "kits.toml")
    config = dataclasses.replace(config, database=tmp_path / "kits.db")
    store = ResultsStore.create(config.database, config.fingerprint(), config.raw, config.path, [])
    sandbox = detect_sandbox("auto")
    try:
        played = await TournamentRunner(config, store, sandbox=sandbox).run()
        games = list(store.games())
    finally:
        store.close()
        sandbox.close()
    assert played == len(games) == 30  # 6 kits: 15 pairs, both seat orders
    assert [fault for game in games for fault in game.faults] == []
    assert {name for game in games for name in game.seats} == {
        "python-random", "js-random", "c-random", "rust-random", "go-random", "java-random"}
