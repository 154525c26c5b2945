"""What a tournament's results database and a ladder's database share: an open SQLite
connection, the file's path, and the ``meta`` table of key-value rows both keep (the format,
the game, the secret seed key, ...)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


class MetaStore:
    """An open database at ``path`` with a ``meta (key, value)`` table."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection

    def close(self) -> None:
        self._db.close()

    def meta(self, key: str) -> str | None:
        """The value of ``key`` in the ``meta`` table, or ``None``."""
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None
