"""Replays of stored games: `arena replay DB [GAME]`, `arena board --replay DB --game GAME`,
`arena export --replays`, with a real Karibik tournament database."""

import json
import textwrap

import pytest

from engines import Replay

from .test_tournament import arena


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    folder = tmp_path_factory.mktemp("stored")
    path = folder / "k.toml"
    path.write_text(textwrap.dedent("""\
        game = "karibik"
        players = 2
        rounds = 1
        seed = 11
        database = "k.db"
        [[entrants]]
        name = "alpha"
        command = "python -m bots.random"
        [[entrants]]
        name = "beta"
        command = "python -m bots.random"
        """))
    path.chmod(0o600)
    arena("tournament", "run", str(path), "-q")
    return folder / "k.db"


@pytest.fixture(scope="module")
def exported(database):
    return [json.loads(line) for line in arena("export", str(database), "--format", "jsonl", "--replays").stdout.splitlines()]


def test_export_with_replays_re_runs_to_the_stored_result(exported):
    assert len(exported) == 2
    for game in exported:
        replay = Replay.from_dict(game["replay"])
        assert (replay.game, replay.num_players, replay.seed) == ("karibik", 2, game["seed"])
        assert len(replay.steps) == game["steps"]
        assert game["faults"] == [] and list(replay.final_state().outcome().ranks) == game["ranks"]


def test_export_without_replays_has_none(database):
    first = json.loads(arena("export", str(database)).stdout.splitlines()[0])
    assert "replay" not in first and first["players"] in (["alpha", "beta"], ["beta", "alpha"])


def test_replay_of_a_database_lists_its_games(database, exported):
    lines = arena("replay", str(database)).stdout.splitlines()
    assert lines[0] == f"{database}: 2 games; show one with `arena replay {database} GAME`"
    assert lines[1].split() == ["GAME", "seats", "(rank)", "end", "steps", "faults"]
    for line, game in zip(lines[2:], exported, strict=True):
        seats = ", ".join(f"{name} ({rank})" for name, rank in zip(game["players"], game["ranks"]))
        assert line.split("  ") == [game["key"], seats, game["reason"], str(game["steps"]), "0"]


def test_replay_of_a_stored_game_turn_by_turn(database, exported):
    game = exported[1]
    lines = arena("replay", str(database), game["key"]).stdout.splitlines()
    assert lines[0].startswith(f"karibik, 2 players, seed {game['seed']}, options {{")
    assert lines[1:3] == [f"  seat {seat}: {name}" for seat, name in enumerate(game["players"])]
    assert lines[-1] == f"end: ranks {game['ranks']}, scores {game['scores']}"
    assert sum(1 for line in lines if line.lstrip()[:1].isdigit()) >= game["steps"]


def test_board_of_a_stored_game(database, exported):
    game = exported[0]
    first = arena("board", "karibik", "--replay", str(database), "--game", game["key"], "--step", "0").stdout
    assert first == arena("board", "karibik", "--seed", str(game["seed"]), "--players", "2").stdout
    last = arena("board", "karibik", "--replay", str(database), "--game", game["key"]).stdout
    end = arena("board", "karibik", "--replay", str(database), "--game", game["key"],
                "--step", str(game["steps"])).stdout
    assert last == end != first


def test_replay_files_of_match_keep_working(tmp_path):
    replay = tmp_path / "game.json"
    arena("match", "karibik", "python -m bots.random", "python -m bots.random", "--seed", "4", "--replay", str(replay))
    listed = arena("replay", str(replay)).stdout.splitlines()
    assert listed[0].startswith("karibik, 2 players, seed 4, ")  # and `board --replay FILE`: test_cli_board.py
