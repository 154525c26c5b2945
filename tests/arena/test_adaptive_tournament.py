"""Adaptive tournaments end to end with real bots: the heuristic bot of Dead Man's Draw
against three random ones, top 1. It stops decided at the stated error and says so (run,
standings as text and JSON, report); an entrant decided out is not seated again; after
``kill -9`` or Ctrl-C a resume plays the very rounds the stored results call for; a bad
question is one line."""

import json
import os
import re
import signal
import sqlite3
import subprocess
import textwrap
import time
from contextlib import closing
from pathlib import Path

import pytest

from arena.tournament._adaptive import AdaptivePlan
from arena.tournament._database import config_of_store
from arena.tournament._store import ResultsStore

from ._warnings import without_sandbox_warnings
from .test_cli_interrupt import interrupt
from .test_tournament import arena, play


def write_adaptive(folder: Path, question: str = 'goal = "top 1"') -> Path:
    # duplicate = false: no process has to end between the rotations of a deal, so the test is
    # quick; the rounds and their looks are the same code either way (test_adaptive_plan.py)
    entrants = "".join(f'[[entrants]]\nname = "{name}"\ncommand = "python -m bots.{bot}"\n'
                       for name, bot in [("h", "heuristic"), ("r1", "random"), ("r2", "random"), ("r3", "random")])
    path = folder / "a.toml"
    path.write_text(textwrap.dedent(f"""\
        game = "dead-mans-draw"
        players = 2
        format = "adaptive"
        {question}
        seed = 11
        duplicate = false
        concurrency = 2
        database = "a.db"
        [options]
        characters = false
        """) + entrants)
    return path


def replayed(db: Path) -> tuple[AdaptivePlan, list[set[str]], list[set[str]]]:
    """Check that every stored round is the round the results before it call for (its games'
    keys, seats and deals), replaying the plan round by round; the plan at the end, the
    entrants seated in each round, and those undecided before each round."""
    store = ResultsStore.open(db, read_only=True)
    try:
        plan = AdaptivePlan(config_of_store(store), store.seed_key())
        games = list(store.games())
    finally:
        store.close()
    seated, undecided = [], []
    for round_index in range(max(game.round for game in games) + 1):
        stored = {game.key: (game.seats, game.seed) for game in games if game.round == round_index}
        assert plan.round == round_index
        assert stored == {game.key: (game.seats, game.seed) for game in plan.games()}
        seated.append({name for seats, _ in stored.values() for name in seats})
        undecided.append(set(plan.undecided()))
        for game in games:
            if game.round == round_index:
                plan.add(game.round, game.key, game.seats, game.ranks)
        plan.advance()
    return plan, seated, undecided


def stored(db: Path) -> int:
    # Closed at once, and never creating the file: a connection left open here, polled while
    # the arena writes and another command deletes the -shm file, reads a stale wal-index later
    # ("database disk image is malformed" in this process alone).
    if not db.exists():
        return 0
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as connection:
            return connection.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_it_stops_decided_at_the_stated_error_and_says_why(tmp_path):
    path = write_adaptive(tmp_path)
    run = play(path)
    db = tmp_path / "a.db"
    plan, seated, undecided = replayed(db)
    line = f"adaptive: decided: top 1 = h at error 0.05 after {stored(db)} games ({len(seated)} rounds)"
    assert plan.stop == line.removeprefix("adaptive: ") and line in run.stdout.splitlines()
    for names, before in zip(seated, undecided):
        assert names <= before  # two seats a table: a decided entrant is never needed to fill one
    assert line in arena("standings", str(db)).stdout.splitlines()
    assert json.loads(arena("standings", str(db), "--format", "json").stdout)["adaptive"] == {
        "goal": "top 1", "error": 0.05, "margin": 20.0, "state": "decided", "answer": ["h"],
        "games": stored(db), "rounds": len(seated), "undecided": [], "lines": [line]}
    assert line in play(db, command="resume").stdout.splitlines()  # nothing left to play
    assert stored(db) == plan.look.games
    arena("report", str(db), "-o", str(tmp_path / "r.html"))
    assert f'<p class="adaptive">{line}</p>' in (tmp_path / "r.html").read_text()


@pytest.mark.slow
def test_resume_after_kill_9_plays_the_rounds_the_stored_results_call_for(tmp_path):
    path = write_adaptive(tmp_path)
    db = tmp_path / "a.db"
    process = subprocess.Popen(["arena", "tournament", "run", str(path), "-q", "--sandbox", "none"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while stored(db) < 12 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)  # past the first round (8 games), into the next ones
    assert process.poll() is None, "the tournament finished before it was killed"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    store = ResultsStore.open(db, read_only=True)
    before = {game.key: (game.seats, game.seed, game.ranks) for game in store.games()}
    store.close()
    play(db, command="resume")
    plan, _, _ = replayed(db)
    store = ResultsStore.open(db, read_only=True)
    after = {game.key: (game.seats, game.seed, game.ranks) for game in store.games()}
    store.close()
    assert {key: after[key] for key in before} == before and len(after) > len(before)
    assert plan.stop is not None and plan.stop.startswith("decided: top 1 = h at error 0.05")


@pytest.mark.slow
def test_ctrl_c_then_resume_plays_the_rounds_the_stored_results_call_for(tmp_path):
    path = write_adaptive(tmp_path)
    db = tmp_path / "a.db"
    result = interrupt(["arena", "tournament", "run", str(path), "-q", "--sandbox", "none"],
                       lambda: stored(db) >= 12)  # past the first round (8 games), into the next ones
    assert result.returncode == 130 and result.stdout == "", result.stderr
    lines = without_sandbox_warnings(result.stderr).splitlines()
    assert len(lines) == 1, result.stderr
    match = re.fullmatch(r"interrupted: (\d+) games stored; resume with: arena tournament resume (\S+)", lines[0])
    assert match and int(match[1]) == stored(db) >= 12 and Path(match[2]).resolve() == db.resolve(), lines[0]
    store = ResultsStore.open(db, read_only=True)
    before = {game.key: (game.seats, game.seed, game.ranks) for game in store.games()}
    store.close()
    # Where it stands meanwhile, as text and JSON: the same lines (open, or decided by the games kept).
    text = [line for line in arena("standings", str(db)).stdout.splitlines() if line.startswith("adaptive: ")]
    state = json.loads(arena("standings", str(db), "--format", "json").stdout)["adaptive"]
    assert state["lines"] == text and state["state"] in ("open", "decided")
    play(db, command="resume")
    plan, _, _ = replayed(db)
    store = ResultsStore.open(db, read_only=True)
    after = {game.key: (game.seats, game.seed, game.ranks) for game in store.games()}
    store.close()
    assert {key: after[key] for key in before} == before and len(after) >= len(before)
    assert plan.stop is not None and plan.stop.startswith("decided: top 1 = h at error 0.05")
    with closing(sqlite3.connect(db)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@pytest.mark.parametrize("question,message", [
    ('goal = "top 4"', "key 'goal' asks for the top 4 of 4 entrants: the field needs more than 4 (at least 5)"),
    ('goal = "top 1"\nerror = 0', "key 'error' must be a number in 0.0001..0.5, got 0"),
])
def test_a_bad_question_is_one_error_line(tmp_path, question, message):
    result = arena("tournament", "run", str(write_adaptive(tmp_path, question)), check=False)
    assert result.returncode == 2 and result.stderr == f"error: {tmp_path / 'a.toml'}: {message}\n"
    assert not (tmp_path / "a.db").exists()
