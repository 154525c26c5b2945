"""The results store: one SQLite file (WAL) per tournament.

Holds the tournament file as given, the entrants, and one row per finished game with its
replay, written in a single transaction when the game ends. Nothing else keeps state: a
tournament resumes from this file alone. A game key is stored at most once.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from ._match import MatchResult
from ._schedule import ScheduledGame

FORMAT = "pirate-arena-results"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entrants (name TEXT PRIMARY KEY, spec TEXT NOT NULL);
CREATE TABLE games (
    key TEXT PRIMARY KEY,
    round INTEGER NOT NULL, tbl INTEGER NOT NULL, rotation INTEGER NOT NULL,
    block TEXT NOT NULL, seed INTEGER NOT NULL,
    seats TEXT NOT NULL, ranks TEXT NOT NULL, engine_ranks TEXT NOT NULL, scores TEXT NOT NULL,
    faults TEXT NOT NULL, reason TEXT NOT NULL, steps INTEGER NOT NULL,
    duration_s REAL NOT NULL, finished_at REAL NOT NULL,
    moves BLOB NOT NULL, replay BLOB NOT NULL
);
"""


class StoreError(Exception):
    """The database cannot be created, opened or written; the message names the file."""


@dataclass(frozen=True)
class StoredGame:
    """One finished game as read back from the store."""

    key: str
    round: int
    table: int
    rotation: int
    block: str
    seed: int
    seats: tuple[str, ...]
    ranks: tuple[int, ...]
    engine_ranks: tuple[int, ...]
    scores: tuple[Any, ...]
    faults: tuple[dict[str, Any], ...]
    reason: str
    steps: int
    duration_s: float


class ResultsStore:
    """An open results database. Use :meth:`create` or :meth:`open`; close with :meth:`close`."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection

    @classmethod
    def _connect(cls, path: Path) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(path, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA busy_timeout=5000")
        except sqlite3.Error as error:
            raise StoreError(f"{path}: cannot open database ({error})") from None
        return db

    @classmethod
    def create(cls, path: Path, fingerprint: str, raw_config: dict[str, Any], config_path: Path,
               entrants: Iterable[tuple[str, dict[str, Any]]]) -> ResultsStore:
        """Create a new store, or reopen one of the *same* tournament (same fingerprint).

        Raises :class:`StoreError` if the file belongs to another tournament or is not ours.
        """
        if path.exists() and path.stat().st_size > 0:
            store = cls.open(path)
            if store.meta("fingerprint") != fingerprint:
                store.close()
                raise StoreError(
                    f"{path}: holds results of a different tournament; use another 'database' path, "
                    f"or `arena tournament resume {path}` to finish that one")
            return store
        # Results are the organiser's: bots (other uids) must not read them.
        path.touch(mode=0o600)
        os.chmod(path, 0o600)
        db = cls._connect(path)
        try:
            with db:
                db.execute("BEGIN")
                for statement in _SCHEMA.strip().split(";"):
                    if statement.strip():
                        db.execute(statement)
                meta = {
                    "format": FORMAT, "schema": str(SCHEMA_VERSION), "fingerprint": fingerprint,
                    "config": json.dumps(raw_config, default=str), "config_path": str(config_path.resolve()),
                    "created_at": str(time.time()),
                }
                db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
                db.executemany("INSERT INTO entrants VALUES (?, ?)",
                               [(name, json.dumps(spec, default=str)) for name, spec in entrants])
        except sqlite3.Error as error:
            db.close()
            raise StoreError(f"{path}: cannot create database ({error})") from None
        return cls(path, db)

    @classmethod
    def open(cls, path: Path) -> ResultsStore:
        """Open an existing store. Raises :class:`StoreError` if it is missing, corrupt or foreign."""
        if not path.is_file():
            raise StoreError(f"{path}: no such database")
        try:
            db = cls._connect(path)
        except StoreError:
            raise StoreError(f"{path}: not a pirate-arena results database (or corrupt)") from None
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        except sqlite3.DatabaseError:
            row = None
        if row is None or row[0] != FORMAT:
            db.close()
            raise StoreError(f"{path}: not a pirate-arena results database (or corrupt)")
        return cls(path, db)

    def close(self) -> None:
        self._db.close()

    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def entrants(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT name FROM entrants ORDER BY rowid")]

    def completed_keys(self) -> set[str]:
        return {row[0] for row in self._db.execute("SELECT key FROM games")}

    def record(self, game: ScheduledGame, result: MatchResult) -> bool:
        """Store one finished game in one transaction; ``False`` if its key was already stored.

        Raises :class:`StoreError` (disk full, read-only file, ...) with nothing half-written.
        """
        row = (
            game.key, game.round, game.table, game.rotation, game.block, game.seed,
            json.dumps(list(game.seats)), json.dumps(list(result.ranks)),
            json.dumps(list(result.engine_ranks)), json.dumps(list(result.scores)),
            json.dumps([fault.as_dict() for fault in result.faults]), result.reason.value,
            len(result.replay.steps), result.duration_s, time.time(),
            msgpack.packb(result.moves), msgpack.packb(result.replay.as_dict()),
        )
        try:
            with self._db:
                cursor = self._db.execute(
                    "INSERT OR IGNORE INTO games VALUES (" + ", ".join("?" * len(row)) + ")", row)
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot store game {game.key} ({error})") from None
        return cursor.rowcount == 1

    def games(self) -> Iterator[StoredGame]:
        """Every stored game in schedule order (independent of the order they finished in)."""
        query = ("SELECT key, round, tbl, rotation, block, seed, seats, ranks, engine_ranks, scores, "
                 "faults, reason, steps, duration_s FROM games ORDER BY round, tbl, rotation")
        for row in self._db.execute(query):
            try:
                game = StoredGame(
                    key=row[0], round=row[1], table=row[2], rotation=row[3], block=row[4], seed=row[5],
                    seats=tuple(json.loads(row[6])), ranks=tuple(json.loads(row[7])),
                    engine_ranks=tuple(json.loads(row[8])), scores=tuple(json.loads(row[9])),
                    faults=tuple(json.loads(row[10])), reason=row[11], steps=row[12], duration_s=row[13],
                )
            except (ValueError, TypeError) as error:
                raise StoreError(f"{self.path}: stored game {row[0]!r} is corrupt ({error})") from None
            yield game

    def replay(self, key: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT replay FROM games WHERE key = ?", (key,)).fetchone()
        return msgpack.unpackb(row[0], strict_map_key=False) if row else None
