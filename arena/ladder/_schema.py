"""The ladder database's tables, how a file is opened or made into one, and what a stored
text may hold.

One SQLite file (WAL) holds tokens, submissions, games and fits (:class:`arena.ladder._store.LadderStore`
reads and writes them). :func:`open_database` makes a new one (mode 0600 from the start: it
holds the key of every deal and the tokens' hashes), adds the columns a ladder made by an older
version lacks (:data:`_ADDED_COLUMNS`), and refuses a file that is not a ladder's.

Every text a submission or a bot can make long is capped when stored (:func:`cap_text`): a
report at :data:`REPORT_MAX` bytes, a detail at :data:`DETAIL_MAX`, cut with a note saying so,
since each is sent whole on every view of its page.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from ..tournament import MetaStore, new_key, StoreError

FORMAT = "pirate-arena-ladder"
SCHEMA_VERSION = 1
#: the most bytes of a stored vetting report (its build output's last 40 lines, check-bot's
#: findings), and of any other stored message (a fault's detail, an event's)
REPORT_MAX = 16 * 1024
DETAIL_MAX = 4 * 1024

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (author TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL, revoked REAL);
CREATE TABLE IF NOT EXISTS submissions (id INTEGER PRIMARY KEY, author TEXT NOT NULL,
    version INTEGER NOT NULL, entrant TEXT NOT NULL UNIQUE, status TEXT NOT NULL,
    report TEXT NOT NULL DEFAULT '', archive BLOB, manifest TEXT, active INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL, decided REAL, attempts INTEGER NOT NULL DEFAULT 0,
    disk_bytes INTEGER NOT NULL DEFAULT 0, removed REAL, UNIQUE (author, version));
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE,
    block TEXT NOT NULL, rotation INTEGER NOT NULL, seed INTEGER NOT NULL,
    seats TEXT NOT NULL, ranks TEXT NOT NULL, scores TEXT NOT NULL, faults TEXT NOT NULL,
    reason TEXT NOT NULL, steps INTEGER NOT NULL, duration_s REAL NOT NULL,
    finished_at REAL NOT NULL, replay BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS seats (entrant TEXT NOT NULL, game INTEGER NOT NULL, seat INTEGER NOT NULL,
    rank INTEGER NOT NULL, PRIMARY KEY (entrant, game)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS faults (game INTEGER NOT NULL, entrant TEXT NOT NULL, kind TEXT NOT NULL,
    step INTEGER NOT NULL, detail TEXT NOT NULL, stderr_tail TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS faults_by_entrant ON faults (entrant, game);
CREATE TABLE IF NOT EXISTS events (entrant TEXT NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL,
    at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS fits (id INTEGER PRIMARY KEY, games INTEGER NOT NULL, at REAL NOT NULL,
    data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS history (entrant TEXT NOT NULL, fit INTEGER NOT NULL, games INTEGER NOT NULL,
    elo REAL NOT NULL, minus REAL NOT NULL, plus REAL NOT NULL, PRIMARY KEY (entrant, fit)) WITHOUT ROWID;
"""


#: Columns of ``submissions`` added since the first version: (name, type).
_ADDED_COLUMNS = (("attempts", "INTEGER NOT NULL DEFAULT 0"), ("disk_bytes", "INTEGER NOT NULL DEFAULT 0"),
                  ("removed", "REAL"))


def cap_text(text: str, limit: int) -> str:
    """``text`` if its UTF-8 takes at most ``limit`` bytes, else its start, cut on a
    character, with a note saying how long it was (the result stays within ``limit``)."""
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    note = f"\n[... cut here: {len(data)} bytes in all, {limit} are kept]"
    return data[:limit - len(note.encode())].decode("utf-8", "ignore") + note


def open_database(path: Path, game: str | None = None, players: int | None = None) -> sqlite3.Connection:
    """A connection to the ladder database at ``path``; with ``game`` and ``players``, made if
    missing (the game and players are checked by the caller, from ``meta``). Raises
    :class:`StoreError` for a file that is not a ladder's."""
    if game is None and not path.is_file():
        raise StoreError(f"{path}: no such ladder database")
    if game is not None and not path.exists():
        # Mode 0600 from the start: the file holds the key of every deal (and the tokens' hashes).
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            pass
        except OSError as error:
            raise StoreError(f"{path}: cannot create the ladder database ({error.strerror or error})") from None
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=10000")
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables and game is not None:
            with db:
                db.executescript("BEGIN;" + _SCHEMA + "COMMIT;")
                db.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("format", FORMAT), ("schema", str(SCHEMA_VERSION)), ("game", game),
                    ("players", str(players)), ("seed_key", new_key().hex()), ("created_at", str(time.time()))])
        row = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone() \
            if tables or game is not None else None
        if row is not None and row[0] == FORMAT and game is not None:
            columns = {column[1] for column in db.execute("PRAGMA table_info(submissions)")}
            for column, kind in _ADDED_COLUMNS:  # a ladder made by an older version
                if column not in columns:
                    db.execute(f"ALTER TABLE submissions ADD COLUMN {column} {kind}")
    except sqlite3.Error as error:
        raise StoreError(f"{path}: not a pirate-arena ladder database ({error})") from None
    if row is None or row[0] != FORMAT:
        db.close()
        raise StoreError(f"{path}: not a pirate-arena ladder database")
    return db


class LadderTables(MetaStore):
    """An open ladder database: what the parts of :class:`arena.ladder._store.LadderStore` share."""

    def _write(self, what: str, statements: list[tuple[str, tuple]]) -> list[sqlite3.Cursor]:
        """Run ``statements`` in one immediate transaction; a failure is a :class:`StoreError`
        saying it could not store ``what``."""
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                return [self._db.execute(sql, args) for sql, args in statements]
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot store {what} ({error})") from None
