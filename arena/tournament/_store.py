"""The results store: one SQLite file (WAL) per tournament.

Holds the tournament file as given, the entrants, and one row per finished game with its
replay, written in a single transaction when the game ends. Nothing else keeps state: a
tournament resumes from this file alone. A game key is stored at most once.

The store also keeps the tournament's secret key (``meta.seed_key``, see
:func:`arena.tournament._schedule.new_key`), from which every game and bot seed derives: it is readable
only through :meth:`ResultsStore.seed_key` and the file is mode 0600. ``meta.schedule`` is the
version of the schedule its games are keyed by (:data:`arena.tournament._schedule.SCHEDULE_VERSION`; 1 when
absent: a database made before there were versions). :meth:`ResultsStore.extend` grows the
tournament a database holds, keeping every stored game. A database appears under
its name only once it is complete (built in a temporary file beside it, then linked into
place, :mod:`._atomic_create`), so a run killed while creating it leaves no half-made database
behind. The chance correction's cache of luck matrices lives in the same file (:mod:`._luck_cache`).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from ..match import MatchResult
from ._access import connect, connect_read_only, write_problem
from ._atomic_create import create_atomically, exists, remove_leftovers
from ._metastore import MetaStore
from ._schedule import SCHEDULE_VERSION, ScheduledGame, new_key

FORMAT = "pirate-arena-results"
#: 2: ``meta.seed_key`` holds the tournament's secret key; 3: ``meta.schedule`` its schedule version
SCHEMA_VERSION = 3

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

#: Made with the first event, so databases of earlier versions take events too.
_EVENTS = "CREATE TABLE IF NOT EXISTS entrant_events (entrant TEXT NOT NULL, kind TEXT NOT NULL, " \
          "detail TEXT NOT NULL, at REAL NOT NULL)"


#: The columns that say what happened in a game (not when, nor how long moves took): a game
#: stored twice must agree on these.
_OUTCOME = ("round", "tbl", "rotation", "block", "seed", "seats", "ranks", "engine_ranks", "scores",
            "faults", "reason", "steps", "replay")
_COLUMNS = ("key", "round", "tbl", "rotation", "block", "seed", "seats", "ranks", "engine_ranks", "scores",
            "faults", "reason", "steps", "duration_s", "finished_at", "moves", "replay")
_OUTCOME_COLUMNS = tuple(_COLUMNS.index(column) for column in _OUTCOME)


def _outcome(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """The outcome columns, with each fault reduced to who, what and when (its detail and
    stderr text may differ between two plays of one game)."""
    faults = _OUTCOME.index("faults")
    brief = [(f["seat"], f["bot"], f["kind"], f["step"]) for f in json.loads(values[faults])]
    return values[:faults] + (brief,) + values[faults + 1:]


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


class ResultsStore(MetaStore):
    """An open results database. Use :meth:`create` or :meth:`open`; close with :meth:`close`."""

    @classmethod
    def create(cls, path: Path, fingerprint: str, raw_config: dict[str, Any], config_path: Path,
               entrants: Iterable[tuple[str, dict[str, Any]]]) -> ResultsStore:
        """Create a new store, or reopen one of the *same* tournament (same fingerprint).

        A new store gets a fresh secret key. It is built in a temporary file in the same
        folder and linked into place when complete; temporary files that a killed run left
        behind are removed. Raises :class:`StoreError` if the file belongs to another
        tournament or is not ours.
        """
        if not exists(path):
            meta = {
                "format": FORMAT, "schema": str(SCHEMA_VERSION), "fingerprint": fingerprint,
                "config": json.dumps(raw_config, default=str), "config_path": str(config_path.resolve()),
                "created_at": str(time.time()), "seed_key": new_key().hex(),
                "schedule": str(SCHEDULE_VERSION),
            }
            remove_leftovers(path)
            try:
                create_atomically(path, _SCHEMA, meta, list(entrants))
            except sqlite3.Error as error:
                raise StoreError(f"{path}: cannot create database ({error})") from None
            except OSError as error:
                raise StoreError(f"{path}: cannot create database ({error.strerror or error})") from None
        store = cls.open(path)
        if store.meta("fingerprint") != fingerprint:
            store.close()
            raise StoreError(
                f"{path}: holds results of a different tournament; use another 'database' path, "
                f"or `arena tournament resume {path}` to finish that one")
        return store

    @classmethod
    def open(cls, path: Path, *, read_only: bool = False) -> ResultsStore:
        """Open an existing store. Raises :class:`StoreError` if it is missing, unreadable,
        corrupt or foreign, and, unless ``read_only``, when it cannot be written (a read-only
        file or folder), saying why. A ``read_only`` store works on a database nobody may
        write (see :mod:`._access`); its writing methods raise :class:`StoreError`."""
        if path.is_dir():
            raise StoreError(f"{path}: is a folder, not a database")
        if not path.is_file():
            raise StoreError(f"{path}: no such database")
        not_ours = StoreError(f"{path}: not a pirate-arena results database (or corrupt)")
        probe = "SELECT value FROM meta WHERE key = 'format'"
        if not read_only:
            problem = write_problem(path)
            if problem is not None:
                raise StoreError(f"{path}: cannot write to it: {problem}; the commands that only read it "
                                 f"(standings, report, replay, view, export) still work")
        try:
            db = connect_read_only(path, probe) if read_only else connect(path)
            row = db.execute(probe).fetchone()
        except PermissionError as error:
            raise StoreError(f"{path}: cannot read it ({error.strerror})") from None
        except sqlite3.Error:
            raise not_ours from None
        if row is None or row[0] != FORMAT:
            db.close()
            raise not_ours
        return cls(path, db)

    def seed_key(self) -> bytes:
        """The tournament's secret key. Never print it, export it or pass it to a bot."""
        value = self.meta("seed_key")
        if value is None:
            raise StoreError(f"{self.path}: made by an older pirate-arena, without a secret seed key; "
                             f"its standings and exports still work, but play the tournament again "
                             f"into a new database to continue it")
        return bytes.fromhex(value)

    def schedule_version(self) -> int:
        """The version of the schedule the stored games are keyed by (1: made before versions)."""
        return int(self.meta("schedule") or 1)

    def extend(self, fingerprint: str, raw_config: dict[str, Any],
               entrants: Iterable[tuple[str, dict[str, Any]]]) -> None:
        """Make the database hold a grown tournament: its file as now configured (more rounds,
        entrants appended) and the new ``entrants``, in one transaction. Stored games are not
        touched; the caller checks that the new schedule keeps them
        (:func:`arena.tournament._schedule.extension_problem`). Raises :class:`StoreError`."""
        updates = {"fingerprint": fingerprint, "config": json.dumps(raw_config, default=str),
                   "extended_at": str(time.time())}
        try:
            # Autocommit connection: ``with self._db`` alone would commit statement by statement.
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", updates.items())
                self._db.executemany("INSERT INTO entrants VALUES (?, ?)",
                                     [(name, json.dumps(spec, default=str)) for name, spec in entrants])
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot extend the tournament ({error})") from None

    def entrants(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT name FROM entrants ORDER BY rowid")]

    def completed_keys(self) -> set[str]:
        return {row[0] for row in self._db.execute("SELECT key FROM games")}

    def record(self, game: ScheduledGame, result: MatchResult) -> bool:
        """Store one finished game in one transaction; ``False`` if this very game (same key,
        same outcome) was already stored, which makes resuming and retrying safe.

        Raises :class:`StoreError` naming the key if the key is stored with a different
        outcome (never silently keeps either), and on disk full, a read-only file, ...,
        with nothing half-written.
        """
        row = (
            game.key, game.round, game.table, game.rotation, game.block, game.seed,
            json.dumps(list(game.seats)), json.dumps(list(result.ranks)),
            json.dumps(list(result.engine_ranks)), json.dumps(list(result.scores)),
            json.dumps([fault.as_dict() for fault in result.faults]), result.reason.value,
            len(result.replay.steps), result.duration_s, time.time(),
            msgpack.packb(_moves_column(result)), msgpack.packb(result.replay.as_dict()),
        )
        try:
            with self._db:
                cursor = self._db.execute(
                    "INSERT OR IGNORE INTO games VALUES (" + ", ".join("?" * len(row)) + ")", row)
                if cursor.rowcount == 1:
                    return True
                stored = self._db.execute(f"SELECT {', '.join(_OUTCOME)} FROM games WHERE key = ?",
                                          (game.key,)).fetchone()
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot store game {game.key} ({error})") from None
        if _outcome(stored) != _outcome(tuple(row[i] for i in _OUTCOME_COLUMNS)):
            raise StoreError(f"{self.path}: game {game.key} is already stored with a different outcome; "
                             f"the database was changed by something other than this tournament")
        return False

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

    def record_event(self, entrant: str, kind: str, detail: str) -> None:
        """Store something that happened to an entrant outside every game, such as its process
        dying between two games (``kind`` "died-between-games"): no game's fault, but shown
        with the standings. Raises :class:`StoreError` like :meth:`record`."""
        try:
            with self._db:
                self._db.execute(_EVENTS)
                self._db.execute("INSERT INTO entrant_events VALUES (?, ?, ?, ?)",
                                 (entrant, kind, detail, time.time()))
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot store an event of {entrant!r} ({error})") from None

    def entrant_events(self) -> list[tuple[str, str, str]]:
        """Every stored ``(entrant, kind, detail)`` event, oldest first."""
        try:
            return list(self._db.execute("SELECT entrant, kind, detail FROM entrant_events ORDER BY rowid"))
        except sqlite3.OperationalError:
            return []  # no event yet: the table is made with the first one

    def moves(self, key: str) -> list[tuple[int, float, bool, float | None]] | None:
        """Game ``key``'s decisions in the order they were made: ``(seat, elapsed_ms, by_bot,
        reserve_ms)``, the reserve the seat had left after it (None for the fallback's moves,
        and for every move of a game stored before the reserve was recorded); None if no game
        ``key`` is stored."""
        row = self._db.execute("SELECT moves FROM games WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        return [(move[0], move[1], bool(move[2]), move[3] if len(move) > 3 else None)
                for move in msgpack.unpackb(row[0])]

    def replay(self, key: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT replay FROM games WHERE key = ?", (key,)).fetchone()
        return msgpack.unpackb(row[0], strict_map_key=False) if row else None


def _moves_column(result: MatchResult) -> list[Any]:
    """The ``moves`` column: per decision ``[seat, elapsed_ms, by_bot, reserve_ms]`` (the last
    left out when the result has no reserves: a database of an earlier version holds triples)."""
    if len(result.reserves_ms) != len(result.moves):
        return [list(move) for move in result.moves]
    return [[*move, reserve] for move, reserve in zip(result.moves, result.reserves_ms)]

