"""How a results database is opened: read-only for the commands that only read it, and a clear
reason when one that must write it cannot.

SQLite in WAL mode keeps two files beside the database (``-wal``, ``-shm``). A reader needs
them too, so a database in a folder nobody may write to (a read-only mount, ``chattr +i``,
another user's folder) could not be read at all when opened the ordinary way, and read as
"not a database". Readers here open it with ``mode=ro``; where that fails because the folder
cannot hold those files, with ``immutable=1`` as well, which reads the file alone: nothing can
be writing it, since nothing can make the journal files a writer needs.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import tempfile
from pathlib import Path
from urllib.parse import quote


def connect(path: Path) -> sqlite3.Connection:
    """A connection that may write ``path`` (WAL). Raises :class:`sqlite3.Error`."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA busy_timeout=5000")
    return db


def connect_read_only(path: Path, probe: str) -> sqlite3.Connection:
    """A connection that only reads ``path``, on which the query ``probe`` ran without error.
    Raises :class:`sqlite3.Error` (the file is not a database) or :class:`PermissionError`
    (it cannot be read).

    In a folder that can be written: an ordinary connection with ``query_only``, so that it
    still tidies SQLite's journal files away when it closes (a ``mode=ro`` one would leave
    them behind). Elsewhere ``mode=ro`` (which sees what a running tournament has written so
    far, when its journal files are there to read), else ``immutable=1`` too."""
    with open(path, "rb"):  # PermissionError here says more than SQLite's "unable to open"
        pass
    if _folder_error(path) is None:
        return _probed(str(path), probe, "PRAGMA query_only=ON")
    base = "file:" + quote(str(path.absolute()))
    try:
        return _probed(base + "?mode=ro", probe)
    except sqlite3.OperationalError:
        return _probed(base + "?mode=ro&immutable=1", probe)


def _probed(name: str, probe: str, *pragmas: str) -> sqlite3.Connection:
    db = sqlite3.connect(name, uri=name.startswith("file:"), isolation_level=None)
    try:
        for pragma in ("PRAGMA busy_timeout=5000", *pragmas):
            db.execute(pragma)
        db.execute(probe).fetchone()
    except BaseException:
        db.close()
        raise
    return db


def write_problem(path: Path) -> str | None:
    """Why ``path`` (an existing database) cannot be written, in words, or None when it can:
    the file itself cannot be opened for writing, or its folder cannot hold SQLite's journal
    files. Tried for real, not judged by permission bits (root ignores them, not a read-only
    mount or ``chattr +i``)."""
    try:
        os.close(os.open(path, os.O_RDWR))
    except OSError as error:
        return f"the file cannot be written ({_why(error)})"
    folder = _folder_error(path)
    if folder is not None:
        return (f"its folder {path.absolute().parent} cannot be written ({_why(folder)}), and SQLite writes "
                f"its journal files beside the database")
    return None


def _folder_error(path: Path) -> OSError | None:
    """Why no file can be made beside ``path``, or None. Tried for real: a read-only mount or
    ``chattr +i`` refuses even root, whom permission bits do not stop."""
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.probe-", dir=path.parent)
    except OSError as error:
        return error
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(name)
    return None


def _why(error: OSError) -> str:
    """An OSError's reason, with what it usually means here."""
    hint = {errno.EROFS: "a read-only file system", errno.EPERM: "not permitted: immutable, chattr +i?",
            errno.EACCES: "permission denied"}.get(error.errno or 0)
    return hint or (error.strerror or str(error))
