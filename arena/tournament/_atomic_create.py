"""A new database file made atomically: it appears under its name only once it is complete.

It is built in a temporary file beside it (mode 0600, locked while it is built), then linked
into place, so a run killed while creating it leaves no half-made database behind; the
temporary files that killed runs left are removed by the next. Used by
:meth:`arena.tournament._store.ResultsStore.create`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import Any


def exists(path: Path) -> bool:
    """Whether ``path`` holds something; an empty file (an older arena killed while creating
    it, or a ``touch``) counts as absent and is replaced."""
    try:
        return path.stat().st_size > 0
    except FileNotFoundError:
        return False


def _temp_prefix(path: Path) -> str:
    return f".{path.name}.creating-"


def create_atomically(path: Path, schema: str, meta: dict[str, str],
                      entrants: list[tuple[str, dict[str, Any]]]) -> None:
    """Build the database (tables ``schema``, then its ``meta`` and ``entrants`` rows) in a
    temporary file (mode 0600), then link it into place. Raises :class:`OSError` or
    :class:`sqlite3.Error`, with nothing left behind.

    The temporary file is locked (``flock``) while it is built, so :func:`remove_leftovers`
    of a concurrent run leaves it alone. If another run published ``path`` first, its file
    stays and ours is dropped: the caller then opens theirs and compares fingerprints.
    """
    fd, name = tempfile.mkstemp(prefix=_temp_prefix(path), dir=path.parent)
    temp = Path(name)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _build(temp, schema, meta, entrants)
        os.fsync(fd)
        _publish(temp, path)
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()
        os.close(fd)


def _build(temp: Path, schema: str, meta: dict[str, str], entrants: list[tuple[str, dict[str, Any]]]) -> None:
    db = sqlite3.connect(temp, isolation_level=None)
    try:
        # No journal file beside the temporary one: a failed build is deleted, never rolled back.
        db.execute("PRAGMA journal_mode=MEMORY")
        db.execute("BEGIN")
        for statement in schema.strip().split(";"):
            if statement.strip():
                db.execute(statement)
        db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        db.executemany("INSERT INTO entrants VALUES (?, ?)",
                       [(name, json.dumps(spec, default=str)) for name, spec in entrants])
        db.execute("COMMIT")
    finally:
        db.close()


def _publish(temp: Path, path: Path) -> None:
    """Make the finished ``temp`` appear as ``path``, never over a database that exists."""
    try:
        os.link(temp, path)
    except FileExistsError:
        if not exists(path):
            os.replace(temp, path)  # an empty file: replace it in one step
        # else: another run created it first; keep theirs
    except OSError:
        # A filesystem without hard links: rename is still atomic, but would replace a
        # database created since our check; check once more just before.
        if exists(path):
            return
        os.replace(temp, path)
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def remove_leftovers(path: Path) -> None:
    """Delete temporary files of runs killed while creating ``path`` (no live run holds their lock)."""
    prefix = _temp_prefix(path)
    try:
        names = [name for name in os.listdir(path.parent) if name.startswith(prefix)]
    except OSError:
        return
    for temp in (path.parent / name for name in names):
        try:
            fd = os.open(temp, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # a live run is building it
        else:
            with contextlib.suppress(OSError):
                temp.unlink()
        finally:
            os.close(fd)
