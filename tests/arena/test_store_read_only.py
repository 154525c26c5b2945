"""A valid results database nobody may write (issue 33, point 2): the commands that only read
it work, the ones that must write it say why they cannot in one ``error:`` line.

Real CLI processes on a real tournament's database. The tests run as root, whom permission
bits do not stop, so writes are denied the ways that stop root too: a read-only bind mount (in
a private mount namespace, ``unshare -m``) and ``chattr +i`` on the folder or the file."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .test_cli_edges import tournament_file

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

ROOT = Path(__file__).resolve().parents[2]
READERS = ("standings", "crosstable", "export", "replay-list", "replay-game", "report", "view", "rerun")


def cli(*args: str, cwd: Path, wrap: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    return subprocess.run([*wrap, sys.executable, "-m", "arena.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, str]:
    """A finished tournament's database (its -wal and -shm tidied away), and one game's key."""
    folder = tmp_path_factory.mktemp("readonly")
    path = tournament_file(folder, 'database = "t.db"')
    done = cli("tournament", "run", str(path), "-q", "--sandbox", "none", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["t.db", "t.db.logs", "t.toml"]
    key = cli("replay", "t.db", cwd=folder).stdout.splitlines()[2].split()[0]
    return folder / "t.db", key


def reader_args(command: str, key: str, out: Path) -> list[str]:
    return {"standings": ["standings", "t.db", "--format", "json"], "crosstable": ["crosstable", "t.db"],
            "export": ["export", "t.db"], "replay-list": ["replay", "t.db"], "replay-game": ["replay", "t.db", key],
            "report": ["report", "t.db", "-o", str(out / "report.html")],
            "view": ["view", "t.db", "--key", key, "-o", str(out / "view.html")],
            "rerun": ["rerun", "t.db", key, "--sandbox", "none"]}[command]


def same(text: str, out: Path) -> str:
    """``text`` without what differs between two runs: the output folder, a game's duration."""
    return re.sub(r"\b\d+\.\d+ s\b", "T s", text.replace(str(out), "OUT"))


def _root_only() -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root: a read-only bind mount and chattr +i (which stop root too)")


@pytest.fixture(params=["read-only mount", "immutable folder", "immutable file"])
def locked(request, played, tmp_path):
    """A copy of the database in a folder of its own, locked the way ``request.param`` says;
    yields (folder, prefix of the command line that runs a process under the lock)."""
    _root_only()
    folder = tmp_path / "locked"
    folder.mkdir()
    shutil.copy2(played[0], folder / "t.db")
    shutil.copy2(played[0].parent / "t.toml", folder / "t.toml")
    wrap: tuple[str, ...] = ()
    lock: Path | None = None
    if request.param == "read-only mount":
        script = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && exec "$@"'
        wrap = ("unshare", "-m", "sh", "-c", script, "sh")
        probe = subprocess.run([*wrap, "touch", str(folder / "x")], capture_output=True, text=True)
        if "Read-only file system" not in probe.stderr:
            pytest.skip(f"no read-only bind mount here: {probe.stderr.strip()}")
    else:
        lock = folder if request.param == "immutable folder" else folder / "t.db"
        made = subprocess.run(["chattr", "+i", str(lock)], capture_output=True, text=True)
        if made.returncode != 0:
            pytest.skip(f"chattr +i is not supported here: {made.stderr.strip()}")
    try:
        yield folder, wrap, request.param
    finally:
        if lock is not None:
            subprocess.run(["chattr", "-i", str(lock)], check=True)


@pytest.fixture(scope="module")
def unlocked(played, tmp_path_factory):
    """What each reading command does on the database nobody locked: its output (as
    :func:`same` leaves it) and, for the pages it writes, how many scripts they hold. One run
    per command for the whole module: the three locks compare with the same run (the database
    does not change)."""
    found: dict[str, tuple[str, int | None]] = {}

    def of(command: str) -> tuple[str, int | None]:
        if command not in found:
            out = tmp_path_factory.mktemp(f"expected-{command}")
            expected = cli(*reader_args(command, played[1], out), cwd=played[0].parent)
            page = out / f"{command}.html"
            found[command] = (same(expected.stdout, out), page.read_text().count("<script") if page.exists() else None)
        return found[command]
    return of


@pytest.mark.parametrize("command", READERS)
def test_a_reading_command_works_on_a_database_nobody_may_write(played, locked, unlocked, command, tmp_path):
    folder, wrap, _ = locked
    out = tmp_path / "out"
    out.mkdir()
    expected_stdout, expected_scripts = unlocked(command)
    result = cli(*reader_args(command, played[1], out), cwd=folder, wrap=wrap)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    assert same(result.stdout, out) == expected_stdout
    if command in ("report", "view"):
        assert (out / f"{command}.html").read_text().count("<script") == expected_scripts


@pytest.mark.parametrize("command", [["tournament", "resume", "t.db"],
                                     ["tournament", "extend", "t.db", "--rounds", "1"],
                                     ["tournament", "run", "t.toml"]])
def test_a_writing_command_says_why_it_cannot(played, locked, command):
    folder, wrap, how = locked
    before = (folder / "t.db").read_bytes()
    sandbox = [] if command[1] == "extend" else ["--sandbox", "none"]  # extend plays nothing
    result = cli(*command, *sandbox, cwd=folder, wrap=wrap)
    reason = {"read-only mount": f"its folder {folder} cannot be written (a read-only file system), and SQLite "
                                 f"writes its journal files beside the database",
              "immutable folder": f"its folder {folder} cannot be written (not permitted: immutable, chattr +i?), "
                                  f"and SQLite writes its journal files beside the database",
              "immutable file": "the file cannot be written (not permitted: immutable, chattr +i?)"}[how]
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (f"error: t.db: cannot write to it: {reason}; the commands that only read it "
                             f"(standings, report, replay, view, export) still work\n")
    assert (folder / "t.db").read_bytes() == before


def test_a_database_that_cannot_be_read_says_so(played):
    """Another user's file (mode 0600): not "corrupt" but unreadable. Root reads every file, so
    the check runs in a process that imported the arena, then dropped to user nobody."""
    _root_only()
    folder = Path(tempfile.mkdtemp(prefix="arena-theirs-"))  # not under pytest's 0700 folder
    try:
        folder.chmod(0o755)
        shutil.copy2(played[0], folder / "t.db")
        (folder / "t.db").chmod(0o600)
        code = ("import os, sys, pathlib; sys.path.insert(0, sys.argv[1])\n"
                "from arena.tournament._store import ResultsStore, StoreError\n"
                "os.setgroups([]); os.setgid(65534); os.setuid(65534)\n"
                "try: ResultsStore.open(pathlib.Path(sys.argv[2]), read_only=True)\n"
                "except StoreError as error: print(error)")
        result = subprocess.run([sys.executable, "-c", code, str(ROOT), str(folder / "t.db")],
                                capture_output=True, text=True, timeout=60)
    finally:
        shutil.rmtree(folder)
    assert result.stdout == f"{folder / 't.db'}: cannot read it (Permission denied)\n", result.stderr
