"""Tournaments end to end with real bot processes: config errors, the store, kill -9 and resume."""

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arena.tournament._config import ConfigError, load_config
from arena.tournament._store import ResultsStore, StoreError
from engines import get_game

from .test_cli import arena as arena_here

RANDOM = '"python -m bots.random"'


def write_tournament(folder: Path, name="t.toml", rounds=2, extra="", entrants=3, seed=7) -> Path:
    entries = "".join(
        f'\n[[entrants]]\nname = "r{i}"\ncommand = {RANDOM}\n' for i in range(entrants))
    path = folder / name
    path.write_text(textwrap.dedent(f"""\
        game = "dead-mans-draw"
        players = 2
        rounds = {rounds}
        seed = {seed}
        concurrency = 2
        database = "{Path(name).stem}.db"
        {extra}
        [options]
        characters = false
        """) + entries)
    return path


def arena(*args, cwd=None, check=True):
    result = subprocess.run([sys.executable, "-m", "arena.cli", *args] if False else ["arena", *args],
                            capture_output=True, text=True, cwd=cwd, timeout=300)
    if check and result.returncode != 0:
        raise AssertionError(f"arena {args} failed ({result.returncode}):\n{result.stderr}")
    return result


def play(path: Path, *more: str, command: str = "run", check=True):
    """``arena tournament run PATH -q`` (or ``resume``) in one worker process without bubblewrap:
    for tests whose claim is about what is stored and rated, not about the sandbox or the workers
    (those have their own tests); a second worker process and a sandbox per bot cost about half
    of a small tournament's CPU time."""
    return arena("tournament", command, str(path), "-q", "--sandbox", "none", "--workers", "1", *more, check=check)


def standings(db: Path) -> list:
    data = json.loads(arena("standings", str(db), "--format", "json").stdout)
    return data["rows"]


@pytest.mark.parametrize("extra,message", [
    ('colour = "red"', "key 'colour' is unknown"),
    ('max_tables = "many"', "key 'max_tables' must be an integer"),
    ('[time]\nmove_ms = "fast"', "key 'time.move_ms' must be an integer"),
    ('[faults]\npolicy = "shrug"', "key 'faults.policy' must be one of"),
])
def test_config_errors_name_the_key(tmp_path, extra, message):
    path = write_tournament(tmp_path)
    path.write_text(path.read_text().replace("[options]", f"{extra}\n[options]", 1)
                    if not extra.startswith("[") else path.read_text() + "\n" + extra + "\n")
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")) as error:
        load_config(path)
    assert str(path) in str(error.value)


def test_config_rejects_fewer_entrants_than_seats(tmp_path):
    path = write_tournament(tmp_path, entrants=1)
    with pytest.raises(ConfigError, match="has 1 entrant but a table has 2 seats"):
        load_config(path)


def test_config_rejects_missing_manifest_and_bad_game_option(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('game = "dead-mans-draw"\n[[entrants]]\nmanifest = "nope.toml"\n[[entrants]]\nmanifest = "nope.toml"\n')
    with pytest.raises(ConfigError, match="nope.toml"):
        load_config(path)
    path.write_text('game = "dead-mans-draw"\n[options]\nsails = 3\n[[entrants]]\ncommand = "x"\n')
    with pytest.raises(ConfigError, match="unknown option 'sails'"):
        load_config(path)


def test_cli_reports_config_error_in_one_line(tmp_path):
    path = write_tournament(tmp_path, extra='colour = "red"')
    result = arena("tournament", "run", str(path), check=False)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error:")


def test_store_refuses_foreign_and_other_tournaments(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_text("not a database at all" * 100)
    with pytest.raises(StoreError, match="not a pirate-arena results database"):
        ResultsStore.open(junk)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE x (y)").connection.commit()
    with pytest.raises(StoreError, match="not a pirate-arena results database"):
        ResultsStore.open(other)
    first = write_tournament(tmp_path, "a.toml", rounds=1)
    arena("tournament", "run", str(first), "-q")
    second = write_tournament(tmp_path, "b.toml", rounds=1, seed=99)
    second.write_text(second.read_text().replace('database = "b.db"', 'database = "a.db"'))
    result = arena("tournament", "run", str(second), check=False)
    assert result.returncode == 2 and "different tournament" in result.stderr
    store = ResultsStore.open(tmp_path / "a.db")
    assert len(store.completed_keys()) == 6
    store.close()


def test_run_again_plays_nothing_and_export_formats(tmp_path):
    path = write_tournament(tmp_path, rounds=1)
    arena("tournament", "run", str(path), "-q")
    again = arena("tournament", "run", str(path))
    assert "(6 already played)" in again.stderr
    db = tmp_path / "t.db"
    lines = arena("export", str(db), "--format", "jsonl").stdout.splitlines()
    assert len(lines) == 6 and set(json.loads(lines[0])) >= {"players", "ranks", "scores", "seed"}
    pgn = arena("export", str(db), "--format", "pgn").stdout
    assert pgn.count("[Result ") == 6
    csv_lines = arena("export", str(db), "--format", "csv").stdout.splitlines()
    assert len(csv_lines) == 1 + 12
    table = arena("crosstable", str(db)).stdout
    assert "r0" in table and "/2" in table


def test_a_tiny_tournament_of_every_game_its_tables_and_its_report(tmp_path, monkeypatch, every_game):
    # 2 random bots, 2 games (one deal, both seatings) of each registered game, its short options;
    # the run in its own process (its worker and bots find the game), the tables and the report here
    game = get_game(every_game)
    options = json.dumps(dict(game.pieces.short_options)).replace('":', '" =')  # a TOML inline table
    entrants = "".join(f'[[entrants]]\nname = "r{i}"\ncommand = {RANDOM}\n' for i in range(2))
    (tmp_path / "t.toml").write_text(f'game = "{every_game}"\nplayers = {game.min_players}\nrounds = 1\n'
                                     f'seed = 7\ndatabase = "t.db"\noptions = {options}\n{entrants}')
    arena("tournament", "run", "t.toml", "-q", "--workers", "1", "--sandbox", "none", cwd=tmp_path)
    monkeypatch.chdir(tmp_path)
    table = arena_here("standings", "t.db").stdout
    assert table.splitlines()[0].split()[:2] == ["#", "name"] and "r0" in table and "r1" in table
    assert sum(row["games"] for row in json.loads(arena_here("standings", "t.db", "--format", "json").stdout)[
        "rows"]) == 4
    assert "wrote r.html: 2 games, 2 replays embedded" in arena_here("report", "t.db", "-o", "r.html").stdout
    assert f'ArenaRenderers["{every_game}"]' in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_tournament_goes_on_around_a_crashing_entrant(tmp_path):
    path = write_tournament(tmp_path, rounds=1)
    hostile = Path(__file__).parent / "bots" / "hostile.py"
    path.write_text(path.read_text() + f'\n[[entrants]]\nname = "crasher"\ncommand = ["python", "{hostile}", '
                    f'"exit-zero", "tournament-test"]\n')
    arena("tournament", "run", str(path), "-q")
    store = ResultsStore.open(tmp_path / "t.db")
    games = list(store.games())
    store.close()
    assert len(games) == 12  # C(4,2) tables x 2 rotations: nobody's games were dropped
    crashes = [f for g in games for f in g.faults]
    assert {f["bot"] for f in crashes} == {"crasher"} and {f["kind"] for f in crashes} == {"crash"}
    assert all(g.ranks[g.seats.index("crasher")] == 2 for g in games if "crasher" in g.seats)
    rows = standings(tmp_path / "t.db")
    assert rows[-1]["name"] == "crasher" and rows[-1]["faults"] == 6
