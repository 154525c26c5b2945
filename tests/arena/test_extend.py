"""Growing a played tournament (``arena tournament extend``) with real bot processes: stored
games stay byte-identical, ``resume`` plays exactly the new ones (also after kill -9), the
standings take in the new entrant; a database of schedule version 1 (made by the arena
before extend existed) still resumes with the same standings and takes more rounds."""

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from .test_tournament import arena, play, standings, write_tournament

#: a database and its file written by pirate-arena d15c981 (schedule version 1), 12 games
OLD = Path(__file__).parent / "data" / "schedule-v1"


def rows(db: Path) -> dict[str, tuple]:
    """Every stored game, every column, by key."""
    with sqlite3.connect(db) as connection:
        return {row[0]: row for row in connection.execute("SELECT * FROM games")}


def copy_db(source: Path, target: Path) -> Path:
    with sqlite3.connect(source) as a, sqlite3.connect(target) as b:
        a.backup(b)
    return target


def pairs(db: Path) -> Counter:
    return Counter(frozenset(pair) for game in rows(db).values() for pair in combinations(json.loads(game[6]), 2))


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def new_bot(folder: Path, name: str) -> Path:
    return write(folder / f"{name}.toml", f'name = "{name}"\ncommand = "python -m bots.random"\n'
                                          f'games = ["dead-mans-draw"]\n')


def test_extend_by_rounds_and_an_entrant_then_resume(tmp_path):
    path = write_tournament(tmp_path, rounds=1)
    db = tmp_path / "t.db"
    play(path)
    before = rows(db)
    assert len(before) == 6  # C(3,2) tables x 2 rotations
    extended = arena("tournament", "extend", str(db), "--rounds", "1", "--entrant", str(new_bot(tmp_path, "v2")))
    assert extended.stdout == (f"{db}: added 1 entrant (v2) and 1 round: 18 new games, 18 of 24 to play; "
                               f"play them with: arena tournament resume {db}\n")
    assert rows(db) == before  # nothing played yet
    play(db, command="resume")
    after = rows(db)
    assert len(after) == 24 and {key: after[key] for key in before} == before  # byte-identical
    assert set(pairs(db).values()) == {4}  # every pair, the new one too: 2 rounds x 2 rotations
    games = {row["name"]: row["games"] for row in standings(db)}
    assert games == {"r0": 12, "r1": 12, "r2": 12, "v2": 12}
    # the grown tournament is what the database holds now: extending again only adds
    assert "nothing to add" in arena("tournament", "extend", str(db), "--entrant", str(tmp_path / "v2.toml"),
                                     check=False).stderr


def test_a_gauntlet_takes_a_new_candidate_against_the_same_field(tmp_path):
    path = write_tournament(tmp_path, rounds=1, entrants=4, extra='format = "gauntlet"\ncandidates = ["r0"]')
    db = tmp_path / "t.db"
    play(path)
    before = rows(db)
    entrants = write(tmp_path / "more.toml", 'game = "dead-mans-draw"\nplayers = 2\n[[entrants]]\nname = "r0-v2"\n'
                                             'command = "python -m bots.random"\n')
    arena("tournament", "extend", str(db), "--candidate", str(entrants))
    play(db, command="resume")
    after = rows(db)
    assert {key: after[key] for key in before} == before and len(after) == 2 * len(before)
    new = [json.loads(after[key][6]) for key in after.keys() - before.keys()]
    assert all("r0-v2" in seats and "r0" not in seats for seats in new)
    assert Counter(name for seats in new for name in seats if name != "r0-v2") == {"r1": 2, "r2": 2, "r3": 2}


@pytest.mark.slow
def test_resume_of_a_grown_tournament_after_kill_9_ends_like_an_uninterrupted_one(tmp_path):
    path = write_tournament(tmp_path, rounds=1)
    db = tmp_path / "t.db"
    play(path)
    before = rows(db)
    arena("tournament", "extend", str(db), "--rounds", "3", "--entrant", str(new_bot(tmp_path, "v2")))
    reference = copy_db(db, tmp_path / "ref.db")
    process = subprocess.Popen(["arena", "tournament", "resume", str(db), "-q", "--sandbox", "none", "--workers", "1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(rows(db)) < 16 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert process.poll() is None, "the tournament finished before it was killed"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert len(rows(db)) < 48
    play(db, command="resume")
    play(reference, command="resume")
    resumed, uninterrupted = rows(db), rows(reference)
    assert {key: resumed[key] for key in before} == before and len(resumed) == 48
    assert resumed.keys() == uninterrupted.keys()
    # same seeds, seats, results and replays (columns 1-12, 16: not the times)
    assert {k: r[1:13] + r[16:] for k, r in resumed.items()} == {k: r[1:13] + r[16:] for k, r in uninterrupted.items()}
    assert standings(db) == standings(reference)


@pytest.fixture
def old_db(tmp_path):
    """A copy of the version-1 database, pointing at a copy of its file."""
    folder = tmp_path / "old"
    shutil.copytree(OLD, folder)
    db = folder / "t.db"
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE meta SET value = ? WHERE key = 'config_path'", (str(folder / "t.toml"),))
        assert connection.execute("SELECT value FROM meta WHERE key = 'schedule'").fetchone() is None
    os.chmod(db, 0o600)
    return db


def test_an_old_database_resumes_with_the_same_games_and_standings(old_db, tmp_path):
    complete = copy_db(old_db, tmp_path / "complete.db")
    full = rows(complete)
    assert len(full) == 12 and all("t" in key for key in full)  # r0t1s0, ...
    with sqlite3.connect(old_db) as connection:
        connection.execute("DELETE FROM games WHERE rowid % 2 = 0")  # an interruption after half the games
    assert len(rows(old_db)) == 6
    play(old_db, command="resume")
    resumed = rows(old_db)
    assert {k: r[1:13] + r[16:] for k, r in resumed.items()} == {k: r[1:13] + r[16:] for k, r in full.items()}
    assert standings(old_db) == standings(complete)


def test_an_old_database_takes_more_rounds_but_no_new_entrant(old_db, tmp_path):
    before = rows(old_db)
    refused = arena("tournament", "extend", str(old_db), "--entrant", str(new_bot(tmp_path, "v2")), check=False)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == (f"error: {old_db}: cannot grow this tournament: made before tournaments could take "
                              f"new entrants (schedule version 1): it can take more rounds; for new entrants, run "
                              f"the larger tournament into a new database\n")
    arena("tournament", "extend", str(old_db), "--rounds", "1")
    play(old_db, command="resume")
    after = rows(old_db)
    assert {key: after[key] for key in before} == before
    assert sorted(after.keys() - before.keys()) == [f"r2t{t}s{s}" for t in range(3) for s in range(2)]
