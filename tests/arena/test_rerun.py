"""Reproducing a game exactly (issue 27): ``arena match --bot-seeds`` and ``arena rerun`` of a
tournament's or a ladder's stored game, with real bot processes. The reference random and
heuristic bots draw every choice from their ``bot_seed``, so the same seeds give the same game."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest
import trio

from arena.ladder._config import load_ladder
from arena.ladder._runner import LadderRunner
from arena.ladder._store import LadderStore
from arena.match._single import run_single_match
from arena.players._manifest import load_manifest
from arena.tournament._store import ResultsStore

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "examples" / "bots" / "py-random.toml"
HEURISTIC = ROOT / "examples" / "bots" / "py-heuristic.toml"


def arena(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["arena", *args], capture_output=True, text=True, timeout=120, cwd=cwd,
                          env={**os.environ, "COLUMNS": "200"})


def steps_of(replay_file: Path) -> list:
    return json.loads(replay_file.read_text())["replay"]["steps"]


def test_match_with_bot_seeds_is_the_same_game_every_time(tmp_path):
    runs = []
    for number in range(2):
        replay = tmp_path / f"game{number}.json"
        result = arena("match", "opito-bay", str(RANDOM), str(RANDOM), "--seed", "5", "--bot-seeds", "1,18446744073709551615",
                       "--sandbox", "none", "--format", "json", "--replay", str(replay))
        assert result.returncode == 0, result.stderr
        runs.append((json.loads(result.stdout), steps_of(replay)))
    (first, first_steps), (second, second_steps) = runs
    assert first["bot_seeds"] == second["bot_seeds"] == [1, 2**64 - 1]
    assert json.loads((tmp_path / "game0.json").read_text())["result"]["bot_seeds"] == [1, 2**64 - 1]
    assert len(first_steps) > 10 and first_steps == second_steps
    assert first["ranks"] == second["ranks"] and first["scores"] == second["scores"]


def test_random_bot_seeds_are_printed_and_repeat_the_game(tmp_path):
    first = arena("match", "dead-mans-draw", str(RANDOM), str(RANDOM), "--seed", "9", "--sandbox", "none",
                  "--replay", str(tmp_path / "a.json"))
    assert first.returncode == 0, first.stderr
    line = next(line for line in first.stdout.splitlines() if line.startswith("the same game again: "))
    repeat = line.partition("the same game again: ")[2].split()
    assert repeat[:5] == ["arena", "match", "dead-mans-draw", str(RANDOM), str(RANDOM)]
    assert repeat[5] == "--seed" and repeat[7] == "--bot-seeds" and repeat[9:] == ["--sandbox", "none"]
    seeds = json.loads((tmp_path / "a.json").read_text())["result"]["bot_seeds"]
    assert repeat[8] == ",".join(map(str, seeds)) and len(seeds) == 2
    again = arena(*repeat[1:], "--replay", str(tmp_path / "b.json"))
    assert again.returncode == 0, again.stderr
    assert steps_of(tmp_path / "a.json") == steps_of(tmp_path / "b.json")
    # Without --bot-seeds they are drawn afresh: another run is another game.
    other = arena("match", "dead-mans-draw", str(RANDOM), str(RANDOM), "--seed", "9", "--sandbox", "none",
                  "--format", "json")
    assert json.loads(other.stdout)["bot_seeds"] != seeds


@pytest.mark.parametrize("seeds, message", [
    ("1", "error: --bot-seeds needs one seed per seat (2), separated by commas; got 1: '1'"),
    ("1,2,3", "error: --bot-seeds needs one seed per seat (2), separated by commas; got 3: '1,2,3'"),
    ("1,-2", "error: --bot-seeds: the seed of seat 1 must be an integer in 0..18446744073709551615, got '-2'"),
    ("18446744073709551616,0",
     "error: --bot-seeds: the seed of seat 0 must be an integer in 0..18446744073709551615, got '18446744073709551616'"),
    ("x,1", "error: --bot-seeds: the seed of seat 0 must be an integer in 0..18446744073709551615, got 'x'"),
])
def test_bad_bot_seeds_are_one_error_line(seeds, message):
    result = arena("match", "dead-mans-draw", str(RANDOM), str(RANDOM), "--bot-seeds", seeds, "--sandbox", "none")
    assert (result.returncode, result.stderr.strip(), result.stdout) == (2, message, "")


@pytest.fixture(scope="module")
def tournament(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("rerun")
    (folder / "t.toml").write_text(f"""game = "dead-mans-draw"
players = 2
rounds = 1
seed = 7
database = "t.db"
[time]
move_ms = 2000
reserve_ms = 1000
[[entrants]]
manifest = "{RANDOM}"
[[entrants]]
manifest = "{HEURISTIC}"
""")
    result = arena("tournament", "run", str(folder / "t.toml"), "-q", "--sandbox", "none")
    assert result.returncode == 0, result.stderr
    return folder / "t.db"


def stored_keys(database: Path) -> list[str]:
    store = ResultsStore.open(database)
    try:
        return [game.key for game in store.games()]
    finally:
        store.close()


def test_rerun_of_a_tournament_game_is_the_same_game(tournament, tmp_path):
    key = stored_keys(tournament)[1]
    result = arena("rerun", str(tournament), key, "--sandbox", "none", "--replay", str(tmp_path / "again.json"))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"rerun of game {key} of {tournament}"
    store = ResultsStore.open(tournament)
    try:
        stored = store.replay(key)
    finally:
        store.close()
    assert f"the same game as the stored one, action for action ({len(stored['steps'])} steps)" in lines
    assert [list(map(list, step)) for step in stored["steps"]] == [
        sorted([int(seat), action] for seat, action in step) for step in steps_of(tmp_path / "again.json")]


def test_rerun_with_another_bot_in_a_seat_says_where_it_departs(tournament):
    key = stored_keys(tournament)[0]
    store = ResultsStore.open(tournament)
    try:
        seats = next(game.seats for game in store.games() if game.key == key)
    finally:
        store.close()
    heuristic_seat = seats.index("py-heuristic")
    result = arena("rerun", str(tournament), key, "--seat", f"{heuristic_seat}={RANDOM}", "--sandbox", "none",
                   "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["rerun_of"] == key and data["bots"][heuristic_seat] == "py-random"
    assert data["departure"][0].startswith("departs from the stored game at step ")
    # One line per seat deciding at that step (both, at a simultaneous choice); the replaced
    # seat's action differs, the other's (its own bot, the same bot_seed) does not.
    seat_lines = [line for line in data["departure"][1:-1]]
    differing = [line for line in seat_lines if line.endswith("<- differs")]
    assert [line.split(":")[0].strip() for line in differing] == [f"seat {heuristic_seat} (py-heuristic)"], seat_lines
    assert data["departure"][-1].startswith("ranks: stored ")


def test_rerun_refuses_a_game_whose_duplicate_block_is_not_wholly_stored(tournament, tmp_path):
    copy = tmp_path / "partial.db"
    copy.write_bytes(tournament.read_bytes())
    copy.chmod(0o600)
    first, second = stored_keys(copy)
    with sqlite3.connect(copy) as db:
        db.execute("DELETE FROM games WHERE key = ?", (second,))
    result = arena("rerun", str(copy), first, "--sandbox", "none")
    assert result.returncode == 2 and result.stdout == ""
    block = first.rpartition("s")[0]
    assert result.stderr.strip() == (
        f"error: game {first}: its duplicate block {block} is not wholly stored (1 of 2 games): playing it again "
        f"would show its deal before the block's other games are played (`arena tournament resume {copy}` "
        f"first, or --unfinished-block)")
    forced = arena("rerun", str(copy), first, "--sandbox", "none", "--unfinished-block")
    assert forced.returncode == 0 and "the same game as the stored one" in forced.stdout


@pytest.mark.parametrize("args, message", [
    (["nosuch"], "no game 'nosuch' (`arena replay {db}` lists the games)"),
    (["KEY", "--seat", "2={random}"], "--seat 2: game KEY has seats 0..1"),
    (["KEY", "--seat", "one={random}"], "--seat must look like SEAT=MANIFEST (e.g. 2=my-bot-v2.toml), got 'one={random}'"),
])
def test_rerun_bad_input_is_one_error_line(tournament, args, message):
    key = stored_keys(tournament)[0]
    args = [arg.replace("KEY", key).replace("{random}", str(RANDOM)) for arg in args]
    result = arena("rerun", str(tournament), *args, "--sandbox", "none")
    expected = message.replace("KEY", key).replace("{random}", str(RANDOM)).replace("{db}", str(tournament))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() in (f"error: {expected}", f"error: {tournament}: {expected}")


def test_rerun_of_a_ladder_game_is_the_same_game(tmp_path):
    (tmp_path / "ladder.toml").write_text(f"""game = "opito-bay"
players = 2
database = "ladder.db"
[options]
deals = 1
[time]
move_ms = 2000
reserve_ms = 1000
[[bots]]
author = "random"
manifest = "{RANDOM}"
[[bots]]
author = "heuristic"
manifest = "{HEURISTIC}"
""")
    config = load_ladder(tmp_path / "ladder.toml")
    store = LadderStore.open(config.database, config.game, config.players)
    try:
        runner = LadderRunner(config, store, None, tmp_path)
        runner.enter_house_bots()
        names = tuple(entrant.name for entrant in store.active())
        specs = {entrant.name: load_manifest(entrant.manifest) for entrant in store.active()}
        stretch = runner._stretch(names, runner._generation)
        block = [next(stretch) for _ in range(2)]
        for game in block:
            result = trio.run(run_single_match, config.game, [specs[name] for name in game.seats], game.seed,
                              config.play.options, config.play.settings, None, None, game.bot_seeds)
            runner._stored(game, result)
    finally:
        store.close()
    rerun = arena("rerun", str(tmp_path / "ladder.toml"), block[1].key, "--sandbox", "none")
    assert rerun.returncode == 0, rerun.stderr
    assert any(line.startswith("the same game as the stored one, action for action") for line in rerun.stdout.splitlines())
    by_id = arena("rerun", str(tmp_path / "ladder.toml"), "1", "--sandbox", "none", "--format", "json")
    assert by_id.returncode == 0 and json.loads(by_id.stdout)["rerun_of"] == block[0].key
    database = arena("rerun", str(tmp_path / "ladder.db"), block[0].key, "--sandbox", "none")
    assert (database.returncode, database.stderr.strip()) == (2, (
        f"error: {tmp_path / 'ladder.db'} is a ladder's database: give the ladder's file (e.g. ladder.toml), which "
        f"holds the time control and options its games were played with"))
