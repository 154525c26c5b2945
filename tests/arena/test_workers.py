"""Worker processes with real processes: a worker killed with SIGKILL mid-tournament loses
nothing and stores nothing twice; the standings equal those of a run on one process."""

import dataclasses
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from arena.tournament._config import load_config
from arena.tournament._workers import default_workers

from .test_tournament import arena, standings, write_tournament


def stored(db: Path) -> int:
    try:
        return sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


def worker_pids(parent: int) -> list[int]:
    """The worker processes (``python -m arena.tournament._worker_process``) whose parent is ``parent``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) == parent and b"arena.tournament._worker_process" in command:
            found.append(int(entry))
    return sorted(found)


def test_workers_key_and_default(tmp_path):
    path = write_tournament(tmp_path, extra="workers = 3")
    assert load_config(path).workers == 3
    assert load_config(write_tournament(tmp_path, "u.toml")).workers == 0
    assert default_workers() == len(os.sched_getaffinity(0))
    # the number of workers does not change which games are played
    assert load_config(path).fingerprint() == load_config(write_tournament(tmp_path, "u.toml")).fingerprint()


def test_bad_workers_option_is_one_line(tmp_path):
    result = arena("tournament", "run", str(write_tournament(tmp_path)), "--workers", "-1", check=False)
    assert result.returncode == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert "--workers" in result.stderr


@pytest.mark.parametrize("sandbox", ["auto", "none"])
def test_worker_killed_mid_tournament_loses_nothing(tmp_path, sandbox):
    path = write_tournament(tmp_path, rounds=8, extra="workers = 2")  # 3 tables x 2 seatings x 8 = 48 games
    db = tmp_path / "t.db"
    process = subprocess.Popen(["arena", "tournament", "run", str(path), "-q", "--sandbox", sandbox],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while (stored(db) < 6 or len(worker_pids(process.pid)) < 2) and process.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.005)
    victims = worker_pids(process.pid)
    assert process.poll() is None and len(victims) == 2, "the tournament ended before a worker was killed"
    os.kill(victims[0], signal.SIGKILL)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert f"warning: worker process {victims[0]} was killed by signal 9;" in err
    keys = [row[0] for row in sqlite3.connect(db).execute("SELECT key FROM games")]
    assert len(keys) == len(set(keys)) == 48
    # The same tournament (same secret key) played on one process ends with the same standings.
    reference = tmp_path / "ref.db"
    with sqlite3.connect(db) as source, sqlite3.connect(reference) as copy:
        source.backup(copy)
        copy.execute("DELETE FROM games")
    arena("tournament", "resume", str(reference), "-q", "--workers", "1", "--sandbox", sandbox)
    assert standings(db) == standings(reference)


def test_a_workers_sandbox_confines_bots_as_the_coordinators_does():
    # A field a worker did not receive would be a protection its bots silently lack (the
    # seccomp filter was one such field).
    from arena.sandbox._detect import detect_sandbox
    from arena.tournament._worker_setup import _PER_PROCESS, sandbox_fields, worker_sandbox

    coordinator = detect_sandbox("auto")
    try:
        worker = worker_sandbox(sandbox_fields(coordinator))
        shared = [field.name for field in dataclasses.fields(coordinator) if field.name not in _PER_PROCESS]
        assert {name: getattr(worker, name) for name in shared} == {name: getattr(coordinator, name) for name in shared}
        assert "seccomp" in shared and "private_network" in shared
        assert (worker.cgroup_root is None) == (coordinator.cgroup_root is None)
    finally:
        coordinator.close()
