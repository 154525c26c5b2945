"""Crash safety with real processes: kill -9 at random moments, a full disk, a read-only
database. Nothing stored is lost or half-written; resume finishes with the same standings."""

import os
import random
import signal
import sqlite3
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from ._warnings import without_sandbox_warnings
from .test_tournament import arena, standings, write_tournament


def stored(db: Path) -> int:
    try:
        return sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.slow
def test_kill_at_random_moments_then_resume(tmp_path):
    path = write_tournament(tmp_path, "t.toml", rounds=5)
    db = tmp_path / "t.db"
    rng = random.Random(20261129)
    for attempt in range(4):
        # A random moment: after a random number of stored games, plus a random few ms, so the
        # kill lands anywhere: mid-game, mid-write, between games.
        target = rng.randrange(6 * attempt + 1, 6 * attempt + 7)
        command = ["arena", "tournament", "run", str(path), "-q"] if attempt == 0 else \
                  ["arena", "tournament", "resume", str(db), "-q"]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while stored(db) < target and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(rng.uniform(0, 0.05))
        assert process.poll() is None, "the tournament finished before it was killed"
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    arena("tournament", "resume", str(db), "-q")
    keys = [row[0] for row in sqlite3.connect(db).execute("SELECT key FROM games")]
    assert len(keys) == len(set(keys)) == 30
    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    # The uninterrupted run to compare with must share the database's secret key (the deals
    # derive from it): a copy of the database without its games, played in one go.
    reference = tmp_path / "ref.db"
    with sqlite3.connect(db) as source, sqlite3.connect(reference) as copy:
        source.backup(copy)
        copy.execute("DELETE FROM games")
    arena("tournament", "resume", str(reference), "-q")
    assert standings(db) == standings(reference)


@contextmanager
def tiny_filesystem(folder: Path, size: str):
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root; run as root: "
                    "`sudo env PATH=$PATH python -m pytest tests/arena/test_crash_safety.py`")
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


@pytest.mark.root  # a filesystem of its own: .ci/run runs it as root
def test_full_disk_is_a_clear_error_and_keeps_complete_games(tmp_path):
    with tiny_filesystem(tmp_path / "small", "160k") as small:
        path = write_tournament(small, "t.toml", rounds=20)
        path.chmod(0o600)  # as docs/sandbox.md advises: without bubblewrap a readable file earns a warning line
        result = arena("tournament", "run", str(path), "-q", check=False)
        assert result.returncode == 2
        error = without_sandbox_warnings(result.stderr)  # a machine without every cgroup warns first
        assert error.startswith("error: ") and error.count("\n") == 1, result.stderr
        assert "full" in error, result.stderr
        db = small / "t.db"
        connection = sqlite3.connect(db)
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        count = stored(db)
        assert 0 < count < 120
        for ranks, replay in connection.execute("SELECT ranks, replay FROM games"):
            assert ranks and replay  # every stored game is whole


@pytest.mark.root  # a filesystem of its own: .ci/run runs it as root
def test_read_only_database_is_a_clear_error_and_unchanged(tmp_path):
    with tiny_filesystem(tmp_path / "small", "4m") as small:
        path = write_tournament(small, "t.toml", rounds=1)
        path.chmod(0o600)  # no warning line without bubblewrap: stderr is the error alone
        arena("tournament", "run", str(path), "-q")
        path.write_text(path.read_text().replace("rounds = 1", "rounds = 1"))
        before = (small / "t.db").read_bytes()
        subprocess.run(["mount", "-o", "remount,ro", str(small)], check=True)
        result = arena("tournament", "run", str(path), "-q", check=False)
        error = without_sandbox_warnings(result.stderr)
        assert result.returncode == 2 and error.startswith("error: "), result.stderr
        assert error.count("\n") == 1, result.stderr
        assert (small / "t.db").read_bytes() == before
