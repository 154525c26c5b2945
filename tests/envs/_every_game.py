"""The environment suites' tables name the arena's games with tuned cases; any other registered
game (the tests' fourth) gets one case at its fewest players with default options, and a game
whose descriptor names no codec is skipped with the message saying so."""

import pytest

from engines import MissingPiece, game_ids, get_game


def others(named) -> list[tuple[str, str, int]]:
    """(game id, short name, fewest players) of every registered game named in ``named``
    neither by its id nor by its short name."""
    return [(game_id, game_id.replace("-", "_"), get_game(game_id).min_players) for game_id in game_ids()
            if game_id not in named and game_id.replace("-", "_") not in named]


def skip_without_codec(name: str) -> None:
    """Skip the test, saying why, if the game ``name`` (id or short name) has no codec."""
    try:
        get_game(name.replace("_", "-")).piece("codec")
    except MissingPiece as missing:
        pytest.skip(str(missing))
