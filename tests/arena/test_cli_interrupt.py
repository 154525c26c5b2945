"""Ctrl-C, as a terminal sends it (SIGINT to the arena's process group), with real processes:
one ``interrupted:`` line on stderr and exit code 130, never a traceback."""

import os
import re
import signal
import sqlite3
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from ._warnings import without_sandbox_warnings
from .test_tournament import write_tournament

INTERRUPTED = re.compile(r"interrupted: (\d+)/(\d+) games stored; resume with: arena tournament resume (\S+)")


def stored(db: Path) -> int:
    try:
        return sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


def interrupt(command: list[str], ready) -> subprocess.CompletedProcess:
    """Start ``command`` in its own process group, press Ctrl-C once ``ready()``, wait for it."""
    # SIGINT back to its default in the child: a suite started in the background of a shell
    # inherits SIGINT ignored, and Python then never raises KeyboardInterrupt.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not ready() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert process.poll() is None, f"finished before the interrupt: {process.communicate()}"
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=300)  # bots stop with a grace period; slow on a loaded machine
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


@pytest.mark.parametrize("sandbox", ["auto", "none"])
def test_ctrl_c_in_a_tournament_then_in_its_resume(tmp_path, sandbox):
    path = write_tournament(tmp_path, rounds=200)
    path.chmod(0o600)
    db = tmp_path / "t.db"
    for command, at_least in [(["tournament", "run", str(path)], 2), (["tournament", "resume", str(db)], None)]:
        before = stored(db)
        result = interrupt(["arena", *command, "-q", "--sandbox", sandbox],
                           lambda: stored(db) >= (at_least or before + 2))
        assert result.returncode == 130, result.stderr
        assert result.stdout == ""
        lines = without_sandbox_warnings(result.stderr).splitlines()
        assert len(lines) == 1, result.stderr
        match = INTERRUPTED.fullmatch(lines[0])
        assert match, lines[0]
        assert int(match[1]) == stored(db) and int(match[2]) == 1200
        assert Path(match[3]).resolve() == db.resolve()
    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_ctrl_c_in_a_match(tmp_path):
    # The bot may run under a uid of its own (arena as root): it signals in a folder it may write.
    shared = Path(tempfile.mkdtemp(prefix="pirate-arena-interrupt-"))
    shared.chmod(0o1777)
    started = shared / "started"
    # A bot that never answers hello: the match waits for it (startup limit 10 s) when Ctrl-C comes.
    sleeper = f"python -c \"import pathlib, time; pathlib.Path('{started}').touch(); time.sleep(60)\""
    result = interrupt(["arena", "match", "dead-mans-draw", "python -m bots.random", sleeper, "--sandbox", "none"],
                       started.exists)
    assert result.returncode == 130, result.stderr
    shutil.rmtree(shared)
    assert (result.stdout, result.stderr) == ("", "interrupted: the game was not finished\n")


def _workers_of(pid: int) -> list[int]:
    """The worker processes (``python -m arena.tournament._worker_process``) that ``pid`` started."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid and b"arena.tournament._worker_process" in cmdline:
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("attempt", range(3))
def test_ctrl_c_while_the_workers_start_is_one_line(tmp_path, attempt):
    """Ctrl-C as soon as the first worker process exists (it is still starting Python and
    importing): the workers never see the terminal's SIGINT, the coordinator alone reports."""
    path = write_tournament(tmp_path, rounds=50)
    path.chmod(0o600)
    command = ["arena", "tournament", "run", str(path), "-q", "--sandbox", "none", "--workers", "4", "--concurrency", "4"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not _workers_of(process.pid) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    assert process.poll() is None, f"finished before the interrupt: {process.communicate()}"
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=300)
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert process.returncode == 130, stderr
    lines = without_sandbox_warnings(stderr).splitlines()
    assert len(lines) == 1 and INTERRUPTED.fullmatch(lines[0]), stderr
