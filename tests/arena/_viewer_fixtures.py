"""Results databases of real matches for the viewer's tests and screenshots: random bots
(``python -m bots.random``) and a crashing one (``bots/flaky.py``) played by the arena's match
runner, stored as a tournament stores them (with each decision's time and reserve)."""

from __future__ import annotations

import sys
from contextlib import AsyncExitStack
from pathlib import Path

import trio

import engines
from arena.match._match import MatchSettings, play_match
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from arena.tournament._schedule import ScheduledGame
from arena.tournament._store import ResultsStore

ROOT = Path(__file__).resolve().parents[2]
FLAKY = Path(__file__).parent / "bots" / "flaky.py"
SETTINGS = MatchSettings(TimeControl(move_ms=1000, reserve_ms=2000, startup_ms=10_000))


def random_bot(name: str) -> BotSpec:
    return BotSpec(name=name, command=(sys.executable, "-m", "bots.random"), cwd=ROOT)


def flaky_bot(crash_at: int, name: str = "flaky") -> BotSpec:
    return BotSpec(name=name, command=(sys.executable, str(FLAKY), str(crash_at)), cwd=ROOT)


async def _play(path: Path, game_id: str, specs: list[BotSpec], seeds: list[int], options: dict) -> None:
    config = {"game": game_id, "players": len(specs), "name": f"viewer {game_id}",
              "time": {"move_ms": SETTINGS.time_control.move_ms, "reserve_ms": SETTINGS.time_control.reserve_ms}}
    store = ResultsStore.create(path, f"viewer-{game_id}", config, path,
                                [(spec.name, {"command": list(spec.command)}) for spec in specs])
    try:
        for number, seed in enumerate(seeds):
            async with AsyncExitStack() as stack:
                players = [await stack.enter_async_context(open_player(spec, startup_s=10)) for spec in specs]
                # fixed bot seeds: the random bots play the same game every time
                result = await play_match(engines.get_game(game_id), players, seed, options, SETTINGS,
                                          bot_seeds=[seed * 16 + seat for seat in range(len(specs))])
            game = ScheduledGame(f"g{number:03d}", number, 0, 0, tuple(spec.name for spec in specs), seed, f"b{number:03d}")
            store.record(game, result)
    finally:
        store.close()


def play_database(path: Path, game_id: str, specs: list[BotSpec], seeds: list[int], options: dict | None = None) -> Path:
    """Play one game per seed with ``specs`` in seat order; store them in a new database at ``path``."""
    trio.run(_play, path, game_id, specs, seeds, options or {})
    return path


async def play_one(game_id: str, specs: list[BotSpec], seed: int, options: dict | None = None):
    """One match's result (see :func:`play_database`)."""
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(spec, startup_s=10)) for spec in specs]
        return await play_match(engines.get_game(game_id), players, seed, options or {}, SETTINGS,
                                bot_seeds=[seed * 16 + seat for seat in range(len(specs))])
