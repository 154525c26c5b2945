"""Small results databases of every game for the report tests (random play, in-process)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from engines import game_ids, get_game

ROOT = Path(__file__).resolve().parents[2]

#: game id -> (players, options, games) kept short so a test database builds in a second: every
#: registered game, at its fewest players with its short options (OpenSpiel's), but where shorter
#: games or another table size are wanted
SHORT = {game_id: (get_game(game_id).min_players, dict(get_game(game_id).pieces.short_options), 6)
         for game_id in game_ids()} | {
    "dead-mans-draw": (2, {}, 6),
    "opito-bay": (2, {"deals": 1}, 4),
    "karibik": (3, {"max_rounds": 2}, 6),
}


def _generator():
    spec = importlib.util.spec_from_file_location("report_db", ROOT / "benchmarks" / "report_db.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_database(path: Path, game_id: str, fault_every: int = 3) -> Path:
    """A finished tournament of ``game_id`` at ``path``: 3 random bots, short games, a
    synthetic timeout every ``fault_every`` games."""
    players, options, games = SHORT[game_id]
    _generator().make_database(path, game_id, games, players=players, entrants=3, seed=7,
                               fault_every=fault_every, options=options)
    return path


def play_random(game_id: str, seed: int = 3):
    players, options, _ = SHORT[game_id]
    return _generator().play_random(game_id, players, seed, options)
