"""The results store's creation: atomic (a kill at any step leaves no half-made database), mode
0600, a fresh secret key per database that only :meth:`ResultsStore.seed_key` reads, its
schedule version, and growing the tournament it holds."""

import fcntl
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from arena.tournament import _atomic_create
from arena.tournament._store import ResultsStore, StoreError

ENTRANTS = [("a", {"command": ["a"]}), ("b", {"command": ["b"]})]


def create(path: Path, fingerprint: str = "fp") -> ResultsStore:
    return ResultsStore.create(path, fingerprint, {"game": "g"}, path.with_suffix(".toml"), ENTRANTS)


def leftovers(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if ".creating-" in name)


def test_a_new_store_is_0600_with_a_fresh_256_bit_key(tmp_path):
    first, second = create(tmp_path / "a.db"), create(tmp_path / "b.db")
    try:
        assert stat.S_IMODE((tmp_path / "a.db").stat().st_mode) == 0o600
        assert len(first.seed_key()) == 32 and first.seed_key() != second.seed_key()
        assert first.entrants() == ["a", "b"] and first.meta("fingerprint") == "fp"
        assert first.meta("schema") == "3" and first.schedule_version() == 2
        assert leftovers(tmp_path) == []
    finally:
        first.close()
        second.close()


def test_reopening_keeps_the_key_and_refuses_another_tournament(tmp_path):
    store = create(tmp_path / "t.db")
    key = store.seed_key()
    store.close()
    again = create(tmp_path / "t.db")
    assert again.seed_key() == key
    again.close()
    with pytest.raises(StoreError, match="holds results of a different tournament"):
        create(tmp_path / "t.db", fingerprint="other")


def test_an_older_database_without_a_key_cannot_be_continued(tmp_path):
    store = create(tmp_path / "t.db")
    store._db.execute("DELETE FROM meta WHERE key = 'seed_key'")
    with pytest.raises(StoreError, match="without a secret seed key; .* into a new database"):
        store.seed_key()
    store.close()


def test_a_database_without_a_schedule_version_is_of_version_1(tmp_path):
    store = create(tmp_path / "t.db")
    store._db.execute("DELETE FROM meta WHERE key = 'schedule'")
    assert store.schedule_version() == 1
    store.close()


def test_extend_replaces_the_tournament_and_adds_entrants_in_one_step(tmp_path):
    store = create(tmp_path / "t.db")
    key = store.seed_key()
    store.extend("fp2", {"game": "g", "rounds": 2}, [("c", {"command": ["c"]})])
    store.close()
    again = ResultsStore.open(tmp_path / "t.db")
    assert again.entrants() == ["a", "b", "c"] and again.meta("fingerprint") == "fp2"
    assert again.meta("config") == '{"game": "g", "rounds": 2}' and again.seed_key() == key
    with pytest.raises(StoreError, match="cannot extend the tournament .*UNIQUE"):
        again.extend("fp3", {}, [("c", {"command": ["c"]})])
    assert again.meta("fingerprint") == "fp2" and again.entrants() == ["a", "b", "c"]  # all or nothing
    again.close()


def test_an_empty_file_is_replaced(tmp_path):
    (tmp_path / "t.db").touch()
    store = create(tmp_path / "t.db")
    assert len(store.seed_key()) == 32
    store.close()


@pytest.mark.parametrize("step", ["_build", "_publish"])
def test_an_error_at_any_step_leaves_nothing(tmp_path, monkeypatch, step):
    def broken(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_atomic_create, step, broken)
    with pytest.raises(StoreError, match=r"t.db: cannot create database \(No space left on device\)"):
        create(tmp_path / "t.db")
    assert os.listdir(tmp_path) == []


#: A process that creates a database and SIGKILLs itself instead of one step: ``_build`` (an
#: empty temporary file) or ``_publish`` (a complete one, not yet in place).
KILLER = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from arena.tournament import _atomic_create, _store

    setattr(_atomic_create, sys.argv[2], lambda *args: os.kill(os.getpid(), signal.SIGKILL))
    _store.ResultsStore.create(Path(sys.argv[1]), "fp", {}, Path("t.toml"), [])
""")


@pytest.mark.parametrize("step", ["_build", "_publish"])
def test_a_kill_during_creation_leaves_no_database_and_the_next_run_works(tmp_path, step):
    db = tmp_path / "t.db"
    done = subprocess.run([sys.executable, "-c", KILLER, str(db), step], capture_output=True, text=True)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert not db.exists()
    assert len(leftovers(tmp_path)) == 1  # the killed run's temporary file
    store = create(db)
    assert store.entrants() == ["a", "b"] and len(store.seed_key()) == 32
    store.close()
    assert leftovers(tmp_path) == []


def test_a_kill_in_the_middle_of_the_build_leaves_no_database(tmp_path):
    """SIGKILL from inside SQLite's transaction: the temporary file holds a partial schema."""
    db = tmp_path / "t.db"
    script = textwrap.dedent("""
        import json, os, signal, sys
        from pathlib import Path
        from arena.tournament import _atomic_create, _store

        class Dying:
            def dumps(self, value, **kwargs):  # the entrant's row is made inside the transaction
                if value == {"dies": "here"}:
                    os.kill(os.getpid(), signal.SIGKILL)
                return json.dumps(value, **kwargs)

        _atomic_create.json = Dying()
        _store.ResultsStore.create(Path(sys.argv[1]), "fp", {}, Path("t.toml"), [("a", {"dies": "here"})])
    """)
    done = subprocess.run([sys.executable, "-c", script, str(db)], capture_output=True, text=True)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert not db.exists() and len(leftovers(tmp_path)) == 1
    store = create(db)
    assert store.meta("format") == "pirate-arena-results"
    store.close()
    assert leftovers(tmp_path) == []


def test_a_temporary_file_that_a_live_run_is_building_is_left_alone(tmp_path):
    building = tmp_path / ".t.db.creating-live"
    with open(building, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        store = create(tmp_path / "t.db")
        store.close()
        assert building.exists()


def test_a_database_created_meanwhile_by_another_run_is_kept(tmp_path, monkeypatch):
    """Two runs create the same database at once: the second one's link finds the first's file."""
    db = tmp_path / "t.db"
    original = _atomic_create._publish

    def late(temp, path):
        monkeypatch.setattr(_atomic_create, "_publish", original)
        other = create(path, fingerprint="fp")  # another run, first to publish
        nonlocal first_key
        first_key = other.seed_key()
        other.close()
        original(temp, path)

    monkeypatch.setattr(_atomic_create, "_publish", late)
    first_key = None
    store = create(db)
    assert store.seed_key() == first_key
    store.close()
    check = sqlite3.connect(db)
    assert check.execute("SELECT value FROM meta WHERE key = 'seed_key'").fetchone()[0] == first_key.hex()
    assert leftovers(tmp_path) == []
