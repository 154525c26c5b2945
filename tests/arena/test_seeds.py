"""Secret seeds, with real bot processes: a bot that tries every public derivation on its
``start.bot_seed`` learns nothing about the game seed; the same tournament file run into two
databases gets different deals; a resumed tournament plays exactly the games it would have;
and the tournament key appears in no output, export, log, environment or command line."""

import importlib.util
import json
import shutil
import sqlite3
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import msgpack
import pytest

from arena.match._match import MatchSettings, play_match
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from engines import get_game

from .test_tournament import arena, write_tournament

GUESSER = Path(__file__).parent / "bots" / "seed_guesser.py"
FILE_SEED = 1


def load_guesser():
    spec = importlib.util.spec_from_file_location("seed_guesser", GUESSER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def guesses(text: str) -> list[tuple[int, str, int]]:
    return [(int(seed), how, int(bot_seed)) for line in text.splitlines() if line.startswith("GUESS ")
            for _, seed, how, bot_seed in [line.split()]]


def test_the_guesser_would_break_the_public_derivations():
    """The control: against the formulas without a secret, the bot finds the seed."""
    guesser = load_guesser()
    assert guesser.guess(guesser.old_derived(1, "bot", 0, "spy"), 0, 2, "spy", 99) == (1, "sha256-match")
    game_seed = guesser.old_derived(7, "deal", 1, 3, 0, size=6)
    found = guesser.guess(guesser.old_derived(game_seed, "bot", 1, "spy"), 1, 2, "spy", 7)
    assert found == (game_seed, "sha256-tournament")
    with_empty_key = guesser.keyed(b"", "bot", "r0t2s1", 1, "spy")
    assert guesser.guess(with_empty_key, 1, 2, "spy", 5) == (guesser.keyed(b"", "deal", 5, 0, 2, 0, bits=53),
                                                             "hmac-guessable-key")


async def test_in_a_single_match_the_bot_seed_betrays_no_small_seed():
    """``arena match --seed 1``: the user's small seed, bot seeds from a per-run random key."""
    spy = BotSpec(name="spy", command=(sys.executable, str(GUESSER), "spy", "1"))
    other = BotSpec(name="other", command=(sys.executable, "-m", "bots.random"))
    settings = MatchSettings(TimeControl(move_ms=5000, reserve_ms=0, startup_ms=20_000))
    found = []
    for seat_of_spy in (0, 1):
        async with AsyncExitStack() as stack:
            specs = [spy, other] if seat_of_spy == 0 else [other, spy]
            players = [await stack.enter_async_context(open_player(s, 20)) for s in specs]
            result = await play_match(get_game("dead-mans-draw"), players, 1, {"characters": False}, settings)
            assert not result.faults, result.faults
            found += guesses(players[seat_of_spy].stderr_tail())
    assert len(found) == 2
    assert all(seed != 1 and how == "no-match" for seed, how, _ in found), found


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """The same tournament file (small seed, the guesser among the entrants) run into two
    databases; returns (database, everything the CLI printed) for each."""
    runs = []
    for name in ("one", "two"):
        folder = tmp_path_factory.mktemp(name)
        path = write_tournament(folder, rounds=1, seed=FILE_SEED)
        path.write_text(path.read_text() + f'\n[[entrants]]\nname = "spy"\ncommand = ["{sys.executable}", '
                        f'"{GUESSER}", "spy", "{FILE_SEED}"]\n')
        played = arena("tournament", "run", str(path))
        runs.append((folder / "t.db", played.stdout + played.stderr))
    return runs


def stored_games(db: Path) -> dict[str, tuple[int, bytes]]:
    with sqlite3.connect(db) as connection:
        return {key: (seed, replay) for key, seed, replay in connection.execute("SELECT key, seed, replay FROM games")}


def test_in_a_tournament_the_guesser_learns_no_game_seed(two_runs):
    for db, _ in two_runs:
        text = "".join(log.read_text(errors="replace") for log in (db.parent / "t.db.logs").iterdir())
        found = guesses(text)
        seeds = {seed for seed, _ in stored_games(db).values()}
        assert len(found) == 6  # C(4,2) = 6 tables, 3 with the spy, 2 rotations each
        assert all(how == "no-match" for _, how, _ in found), found
        assert {seed for seed, _, _ in found}.isdisjoint(seeds)


def test_two_databases_of_one_file_get_different_deals(two_runs):
    (first, _), (second, _) = two_runs
    one, two = stored_games(first), stored_games(second)
    assert sorted(one) == sorted(two) and len(one) == 12
    assert {seed for seed, _ in one.values()}.isdisjoint({seed for seed, _ in two.values()})


def test_resume_plays_exactly_the_games_of_an_uninterrupted_run(two_runs, tmp_path):
    db, _ = two_runs[0]
    copy = tmp_path / "t.db"
    with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
        target.execute("DELETE FROM games WHERE rowid % 2 = 0")  # an interruption after half the games
    left = len(stored_games(copy))
    assert 0 < left < 12
    resumed = arena("tournament", "resume", str(copy), "-q")
    assert resumed.returncode == 0
    assert stored_games(copy) == stored_games(db)  # same seeds, same replays (bot seeds and moves)


def test_the_key_is_in_no_output_export_log_or_command_line(two_runs):
    for db, printed in two_runs:
        with sqlite3.connect(db) as connection:
            [[key]] = connection.execute("SELECT value FROM meta WHERE key = 'seed_key'").fetchall()
        assert len(bytes.fromhex(key)) == 32
        texts = [printed]
        for fmt in ("jsonl", "csv", "pgn"):
            texts.append(arena("export", str(db), "--format", fmt).stdout)
        for fmt in ("json", "csv", "table"):
            texts.append(arena("standings", str(db), "--format", fmt).stdout)
        texts.append(arena("crosstable", str(db)).stdout)
        logs = [log.read_bytes() for log in (db.parent / "t.db.logs").iterdir()]
        assert any(b"ENV " in log for log in logs)  # the guesser wrote what it could see
        for text in texts:
            assert key not in text and key.upper() not in text
        for log in logs:
            assert key.encode() not in log and bytes.fromhex(key) not in log
        for _, replay in stored_games(db).values():
            assert key not in json.dumps(msgpack.unpackb(replay, strict_map_key=False), default=str)
