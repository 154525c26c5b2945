"""The ladder's database: one SQLite file (WAL) holding tokens, submissions, games and fits.

Unlike a tournament's store (:mod:`arena.tournament._store`) the entrants change while it runs: every
passed submission is a new entrant ``AUTHOR-vN``. Writes are short transactions: a submission
is stored (archive included) before the server answers ``202 Accepted``, a game is stored in
one transaction with its replay, its seats and its faults the moment it ends. Nothing else
holds state, so a server killed with ``kill -9`` restarts from this file alone: submissions
whose vetting had not finished are vetted again, and no finished game is lost.

Tokens are stored as SHA-256 hashes only (a token is 256 random bits: no salt or slow hash is
needed against guessing); the token itself is shown once, when it is made.

Every text a submission or a bot can make long is capped when stored (:func:`cap_text`): a
report at :data:`REPORT_MAX` bytes, a detail at :data:`DETAIL_MAX`, cut with a note saying so,
since each is sent whole on every view of its page.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from ..match._result import MatchResult
from ..tournament._schedule import new_key
from ..tournament._store import StoreError
from ._faulttext import forget_all_texts, forget_old_texts, slim, with_texts
from ._faulttext import shown as as_shown

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


class Status:
    """A submission's status (stored as text)."""

    PENDING = "pending"      #: stored, not vetted yet (or vetting was interrupted)
    PASSED = "passed"        #: admitted: it plays while it is among its author's active versions
    FAILED = "failed"        #: refused: its report says why


@dataclass(frozen=True)
class Entrant:
    """An admitted version that plays: its entrant name and where its manifest is."""

    name: str
    author: str
    manifest: Path


class SubmissionRefused(Exception):
    """An author is over a submission limit; the message says which and what to do."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def cap_text(text: str, limit: int) -> str:
    """``text`` if its UTF-8 takes at most ``limit`` bytes, else its start, cut on a
    character, with a note saying how long it was (the result stays within ``limit``)."""
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    note = f"\n[... cut here: {len(data)} bytes in all, {limit} are kept]"
    return data[:limit - len(note.encode())].decode("utf-8", "ignore") + note


def _not_in(column: str, values: frozenset[str]) -> tuple[str, tuple[str, ...]]:
    """An SQL condition that ``column`` is none of ``values`` (always true without any)."""
    if not values:
        return "1", ()
    return f"{column} NOT IN ({', '.join('?' * len(values))})", tuple(sorted(values))


class LadderStore:
    """An open ladder database (:meth:`open` creates it). One instance per connection: the
    server keeps one for the runner (the writer) and one for the pages."""

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self._db = db

    @classmethod
    def open(cls, path: Path, game: str | None = None, players: int | None = None) -> LadderStore:
        """Open the ladder at ``path``; with ``game`` and ``players``, create it if missing and
        check that it is a ladder of that game. Raises :class:`StoreError`."""
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
        store = cls(path, db)
        held = (store.meta("game"), store.meta("players"))
        if game is not None and held != (game, str(players)):
            store.close()
            raise StoreError(f"{path}: holds a ladder of {held[0]} at {held[1]} players, not {game} at "
                             f"{players}; use another 'database'")
        return store

    def close(self) -> None:
        self._db.close()

    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def seed_key(self) -> bytes:
        """The ladder's secret key (every deal and bot seed derives from it). Never show it."""
        return bytes.fromhex(self.meta("seed_key"))

    def _write(self, what: str, statements: list[tuple[str, tuple]]) -> list[sqlite3.Cursor]:
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                return [self._db.execute(sql, args) for sql, args in statements]
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot store {what} ({error})") from None

    # -- tokens ---------------------------------------------------------------------------------

    def add_token(self, author: str) -> str:
        """A new token for ``author`` (replacing a revoked one); shown once, stored as a hash.
        Raises :class:`StoreError` if the author holds a live token (revoke it first)."""
        row = self._db.execute("SELECT revoked FROM tokens WHERE author = ?", (author,)).fetchone()
        if row is not None and row[0] is None:
            raise StoreError(f"{self.path}: {author!r} already has a token; "
                             f"`arena ladder token revoke` it first to issue a new one")
        token = secrets.token_urlsafe(32)
        self._write("a token", [("INSERT OR REPLACE INTO tokens VALUES (?, ?, ?, NULL)",
                                 (author, hash_token(token), time.time()))])
        return token

    def tokens(self) -> list[tuple[str, float, float | None]]:
        """``(author, created, revoked)`` of every token, by author."""
        return list(self._db.execute("SELECT author, created, revoked FROM tokens ORDER BY author"))

    def revoke_token(self, author: str) -> bool:
        """Revoke ``author``'s token; ``False`` if it has no live one."""
        cursor, = self._write("a revocation", [("UPDATE tokens SET revoked = ? WHERE author = ? AND revoked IS NULL",
                                                (time.time(), author))])
        return cursor.rowcount == 1

    def author_of(self, token: str) -> str | None:
        """The author a live token belongs to, or ``None``."""
        row = self._db.execute("SELECT author FROM tokens WHERE hash = ? AND revoked IS NULL",
                               (hash_token(token),)).fetchone()
        return row[0] if row else None

    # -- submissions ----------------------------------------------------------------------------

    def submission_limit(self, author: str, per_hour: int, max_pending: int, disk_quota: int = 0,
                         adding: int = 0) -> str | None:
        """Why ``author`` may not submit now (as the 429 says it), or ``None``: it made
        ``per_hour`` uploads in the last hour (0: no limit), or ``max_pending`` of its uploads
        wait for their verdict, or its submissions kept on disk (:meth:`disk_used`) and an
        archive of ``adding`` bytes would take more than ``disk_quota`` bytes (0: no quota)."""
        since = time.time() - 3600
        recent, pending = self._db.execute(
            "SELECT COALESCE(SUM(created > ?), 0), COALESCE(SUM(status = ?), 0) FROM submissions "
            "WHERE author = ? AND archive IS NOT NULL", (since, Status.PENDING, author)).fetchone()
        if per_hour and recent >= per_hour:
            return (f"{author} has made {recent} submissions in the last hour, the ladder's limit "
                    f"(submissions_per_hour); try again later")
        if pending >= max_pending:
            return (f"{author} has {pending} submission{'s' if pending != 1 else ''} waiting to be checked, the "
                    f"ladder's limit (max_pending_submissions); submit again once it has a verdict")
        used = self.disk_used(author)
        if disk_quota and (used + adding > disk_quota or used >= disk_quota):
            return (f"{author}'s submissions take {used / 2**20:.1f} MiB of the ladder's disk; with this archive "
                    f"({adding / 2**20:.1f} MiB) that is over its quota of {disk_quota / 2**20:.0f} MiB "
                    f"(author_disk_mb); a version superseded by a newer one is removed once it plays no more")
        return None

    def disk_used(self, author: str) -> int:
        """Bytes that ``author``'s submissions keep: the folders of its passed versions not
        removed, and the archives still stored (pending ones; a passed one's until removed)."""
        return self._db.execute(
            "SELECT COALESCE(SUM(disk_bytes + COALESCE(LENGTH(archive), 0)), 0) FROM submissions "
            "WHERE author = ? AND removed IS NULL", (author,)).fetchone()[0]

    def removable(self, playing: set[str]) -> list[tuple[int, str]]:
        """``(id, entrant)`` of every uploaded version that can play no more: passed, no longer
        active (superseded or withdrawn), not in ``playing`` (the names of the games in
        flight), and not removed yet. House bots (no archive) are the organiser's files."""
        rows = self._db.execute("SELECT id, entrant FROM submissions WHERE status = ? AND active = 0 AND "
                                "removed IS NULL AND archive IS NOT NULL ORDER BY id", (Status.PASSED,))
        return [(number, entrant) for number, entrant in rows if entrant not in playing]

    def removed_entrants(self) -> list[str]:
        """The versions removed (:meth:`mark_removed`)."""
        return [name for (name,) in self._db.execute("SELECT entrant FROM submissions WHERE removed IS NOT NULL")]

    def mark_removed(self, submission: int) -> None:
        """Record that a version's folder was removed; its archive goes too (an empty one
        stays, so it still counts as an upload), and the text of its faults. Its games, ratings and
        report stay, and each fault's kind, step and the start of its detail."""
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("UPDATE submissions SET removed = ?, disk_bytes = 0, archive = x'' WHERE id = ?",
                                 (time.time(), submission))
                for (entrant,) in self._db.execute("SELECT entrant FROM submissions WHERE id = ?", (submission,)):
                    forget_all_texts(self._db, entrant)  # its fault texts go with it
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot store a removal ({error})") from None

    def add_submission(self, author: str, archive: bytes | None, manifest: Path | None = None,
                       limits: tuple[int, int] | None = None) -> tuple[int, str]:
        """Store a new version of ``author``: an uploaded ``archive`` (to vet), or a ``manifest``
        on this machine (a house bot: admitted at once). Returns ``(id, entrant name)``.
        ``limits``: ``(per_hour, max_pending[, disk_quota])`` of :meth:`submission_limit`, checked in the same
        transaction (uploads racing each other cannot pass them); over one raises
        :class:`SubmissionRefused`."""
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                refusal = None if limits is None else self.submission_limit(author, *limits, adding=len(archive or b""))
                if refusal is not None:
                    raise SubmissionRefused(refusal)
                (version,) = self._db.execute("SELECT COALESCE(MAX(version), 0) + 1 FROM submissions WHERE author = ?",
                                              (author,)).fetchone()
                entrant = f"{author}-v{version}"
                status = Status.PENDING if manifest is None else Status.PASSED
                cursor = self._db.execute(
                    "INSERT INTO submissions (author, version, entrant, status, archive, manifest, created, decided) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (author, version, entrant, status, archive, None if manifest is None else str(manifest),
                     time.time(), None if manifest is None else time.time()))
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot store a submission ({error})") from None
        return cursor.lastrowid, entrant

    def house_bots(self) -> set[tuple[str, str]]:
        """``(author, manifest path)`` of the house bots entered so far (so a restart enters
        none twice)."""
        return set(self._db.execute("SELECT author, manifest FROM submissions WHERE archive IS NULL"))

    def pending(self) -> list[tuple[int, str, bytes]]:
        """``(id, entrant, archive)`` of every submission not vetted yet, oldest first."""
        return list(self._db.execute("SELECT id, entrant, archive FROM submissions WHERE status = ? ORDER BY id",
                                     (Status.PENDING,)))

    def start_vetting(self, submission: int, step: int = 1) -> int:
        """Note that vetting ``submission`` starts; how many times it has started, this one
        included (a vetting that a kill cut short counts: the runner gives up after a few).
        ``step=-1`` takes a start back (the arena, not the submission, stopped it)."""
        self._write("a vetting", [("UPDATE submissions SET attempts = attempts + ? WHERE id = ?", (step, submission))])
        return self._db.execute("SELECT attempts FROM submissions WHERE id = ?", (submission,)).fetchone()[0]

    def decide(self, submission: int, passed: bool, report: str, manifest: Path | None,
               disk_bytes: int = 0) -> None:
        """Record a vetting verdict (``manifest``: the admitted bot's, when it passed, and
        ``disk_bytes`` its folder's size); ``report`` is kept to :data:`REPORT_MAX` bytes. A
        refused submission's archive is dropped (an empty one stays: it counts as an upload)."""
        self._write("a verdict", [(
            "UPDATE submissions SET status = ?, report = ?, manifest = ?, decided = ?, disk_bytes = ?, "
            "archive = CASE WHEN ? THEN archive ELSE x'' END WHERE id = ?",
            (Status.PASSED if passed else Status.FAILED, cap_text(report, REPORT_MAX),
             None if manifest is None else str(manifest), time.time(), disk_bytes if passed else 0, passed,
             submission))])

    def failed(self) -> list[int]:
        """The ids of every refused submission (their folders are not kept)."""
        return [row[0] for row in self._db.execute("SELECT id FROM submissions WHERE status = ?", (Status.FAILED,))]

    def activate(self, keep: int) -> None:
        """Make each author's ``keep`` newest passed versions the active ones, but for those
        withdrawn (:meth:`withdraw`); older ones retire (their games and ratings stay)."""
        self._write("the active versions", [(
            "UPDATE submissions SET active = (status = ? AND (SELECT COUNT(*) FROM submissions AS newer "
            "WHERE newer.author = submissions.author AND newer.status = ? AND newer.version > submissions.version) < ? "
            "AND NOT EXISTS (SELECT 1 FROM events WHERE events.entrant = submissions.entrant "
            "AND events.kind = 'withdrawn'))",
            (Status.PASSED, Status.PASSED, keep))])

    def withdraw(self, entrant: str, detail: str, keep: int) -> None:
        """Retire ``entrant`` for good (a ``withdrawn`` event says why; :meth:`activate` leaves
        it out from now on) and recompute the active versions (``keep`` per author)."""
        self.record_event(entrant, "withdrawn", detail)
        self.activate(keep)

    def withdrawn(self) -> dict[str, str]:
        """``entrant -> why`` of every version withdrawn for its faults between games."""
        return {entrant: detail for entrant, detail in self._db.execute(
            "SELECT entrant, detail FROM events WHERE kind = 'withdrawn' ORDER BY rowid")}

    def between_games_faults(self) -> dict[str, int]:
        """Faults between games (``Fault.between_games``) per entrant, in every stored game."""
        counts: dict[str, int] = {}
        for (faults,) in self._db.execute("SELECT faults FROM games WHERE faults != '[]'"):
            for fault in json.loads(faults):
                if fault.get("between_games") and fault.get("bot"):
                    counts[fault["bot"]] = counts.get(fault["bot"], 0) + 1
        return counts

    def recent_faults(self, entrant: str, limit: int) -> list[list[dict[str, Any]]]:
        """The stored faults (:meth:`Fault.as_dict`) of each of ``entrant``'s last ``limit``
        games, oldest first (an empty list for a game without one)."""
        rows = self._db.execute("SELECT g.faults FROM seats AS s JOIN games AS g ON g.id = s.game "
                                "WHERE s.entrant = ? ORDER BY s.game DESC LIMIT ?", (entrant, limit)).fetchall()
        return [json.loads(faults) for (faults,) in reversed(rows)]

    def active(self) -> list[Entrant]:
        """The active entrants, oldest first."""
        return [Entrant(name, author, Path(manifest)) for name, author, manifest in self._db.execute(
            "SELECT entrant, author, manifest FROM submissions WHERE active = 1 ORDER BY id")]

    def submission(self, submission: int) -> dict[str, Any] | None:
        row = self._db.execute("SELECT id, author, version, entrant, status, report, active, created, decided, "
                               "removed FROM submissions WHERE id = ?", (submission,)).fetchone()
        if row is None:
            return None
        keys = ("id", "author", "version", "entrant", "status", "report", "active", "created", "decided", "removed")
        return {**dict(zip(keys, row)), "active": bool(row[6])}

    def versions(self, author: str) -> list[dict[str, Any]]:
        """Every submission of ``author``, newest first."""
        keys = ("id", "version", "entrant", "status", "active", "created")
        return [{**dict(zip(keys, row)), "active": bool(row[4])} for row in self._db.execute(
            "SELECT id, version, entrant, status, active, created FROM submissions WHERE author = ? "
            "ORDER BY version DESC", (author,))]

    def entrants(self) -> dict[str, tuple[str, int, bool]]:
        """``entrant -> (author, version, active)`` of every passed version."""
        return {name: (author, version, bool(active)) for name, author, version, active in self._db.execute(
            "SELECT entrant, author, version, active FROM submissions WHERE status = ?", (Status.PASSED,))}

    def entrant(self, name: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT id FROM submissions WHERE entrant = ?", (name,)).fetchone()
        return self.submission(row[0]) if row else None

    # -- games ----------------------------------------------------------------------------------

    def next_block(self) -> int:
        """A block number no stored game uses (blocks of games lost in a kill are not reused
        by a stored game: only stored ones count, and those are complete or abandoned)."""
        row = self._db.execute("SELECT MAX(CAST(SUBSTR(block, 2) AS INTEGER)) FROM games").fetchone()
        return (row[0] or 0) + 1

    def record(self, key: str, block: str, rotation: int, seats: tuple[str, ...], result: MatchResult) -> bool:
        """Store one finished game, its seats and its faults in one transaction; ``False`` if
        the key was stored already (a game played again after a worker died)."""
        row = (key, block, rotation, result.seed, json.dumps(list(seats)), json.dumps(list(result.ranks)),
               json.dumps(list(result.scores)), json.dumps([slim(fault) for fault in result.faults]),
               result.reason.value, len(result.replay.steps), result.duration_s, time.time(),
               msgpack.packb(result.replay.as_dict()))
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                cursor = self._db.execute("INSERT OR IGNORE INTO games (key, block, rotation, seed, seats, ranks, "
                                          "scores, faults, reason, steps, duration_s, finished_at, replay) "
                                          "VALUES (" + ", ".join("?" * len(row)) + ")", row)
                if cursor.rowcount != 1:
                    return False
                game = cursor.lastrowid
                self._db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)",
                                     [(name, game, seat, rank) for seat, (name, rank) in enumerate(zip(seats, result.ranks))])
                self._db.executemany("INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?)", [
                    (game, seats[f.seat] if f.seat is not None else "", f.kind.value, f.step,
                     cap_text(f.detail, DETAIL_MAX), cap_text(f.stderr_tail, REPORT_MAX)) for f in result.faults])
                forget_old_texts(self._db, {seats[f.seat] for f in result.faults if f.seat is not None})
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot store game {key} ({error})") from None
        return True

    def record_event(self, entrant: str, kind: str, detail: str) -> None:
        self._write("an event", [("INSERT INTO events VALUES (?, ?, ?, ?)",
                                  (entrant, kind, cap_text(detail, DETAIL_MAX), time.time()))])

    def game_count(self, hidden: frozenset[str] = frozenset()) -> int:
        """How many games are stored, but for those of the blocks in ``hidden``."""
        shown, args = _not_in("block", hidden)
        return self._db.execute(f"SELECT COUNT(*) FROM games WHERE {shown}", args).fetchone()[0]

    def results(self, after: int = 0) -> list[tuple[int, tuple[str, ...], tuple[int, ...], str]]:
        """``(id, seats, ranks, block)`` of every rated game with id above ``after`` (games the
        engine failed in count in no rating)."""
        return [(gid, tuple(json.loads(seats)), tuple(json.loads(ranks)), block) for gid, seats, ranks, block in
                self._db.execute("SELECT id, seats, ranks, block FROM games WHERE id > ? AND reason != 'arena-error' "
                                 "ORDER BY id", (after,))]

    # A duplicate block's games replay one deal, so none of them is shown (seed, replay, scores,
    # faults with the bot's stderr) while another rotation of it may still be played: the
    # methods below leave out the games of ``hidden`` blocks (the runner's blocks in play).

    def games(self, entrant: str | None = None, offset: int = 0, limit: int = 50,
              hidden: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
        """Stored games, newest first (of ``entrant`` only, if given), without replays, but
        for those of the blocks in ``hidden``."""
        columns = "g.id, g.key, g.seats, g.ranks, g.scores, g.reason, g.steps, g.finished_at, g.faults"
        shown, args = _not_in("g.block", hidden)
        if entrant is None:
            rows = self._db.execute(f"SELECT {columns} FROM games AS g WHERE {shown} ORDER BY g.id DESC "
                                    f"LIMIT ? OFFSET ?", (*args, limit, offset))
        else:
            rows = self._db.execute(f"SELECT {columns} FROM seats AS s JOIN games AS g ON g.id = s.game "
                                    f"WHERE s.entrant = ? AND {shown} ORDER BY s.game DESC LIMIT ? OFFSET ?",
                                    (entrant, *args, limit, offset))
        return [_game_row(row) for row in rows]

    def stored_game(self, key: str) -> dict[str, Any] | None:
        """Game ``key`` (or its id) as ``arena rerun`` needs it: its block and how many of the
        block's games are stored, seed, seats, ranks, replay, and each seat's manifest."""
        column = "id" if key.isdigit() and len(key) <= 15 else "key"
        row = self._db.execute(f"SELECT key, block, seed, seats, ranks, replay FROM games WHERE {column} = ?",
                               (int(key) if column == "id" else key,)).fetchone()
        if row is None:
            return None
        seats = json.loads(row[3])
        found = {entrant: (manifest, removed) for entrant, manifest, removed in self._db.execute(
            f"SELECT entrant, manifest, removed FROM submissions WHERE entrant IN ({','.join('?' * len(seats))})",
            seats)}
        stored = self._db.execute("SELECT COUNT(*) FROM games WHERE block = ?", (row[1],)).fetchone()[0]
        try:
            replay = msgpack.unpackb(row[5], strict_map_key=False)
        except ValueError as error:
            raise StoreError(f"{self.path}: the replay of game {row[0]!r} is corrupt ({error})") from None
        return {"key": row[0], "block": row[1], "block_stored": stored, "seed": row[2], "seats": seats,
                "ranks": json.loads(row[4]), "replay": replay,
                "manifests": [found.get(name, (None, None))[0] for name in seats],
                "removed": [found.get(name, (None, None))[1] for name in seats]}

    def game(self, game: int, hidden: frozenset[str] = frozenset()) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """One game's row and its replay (as stored), or ``None`` (no such game, or one of a
        block in ``hidden``)."""
        shown, args = _not_in("block", hidden)
        row = self._db.execute("SELECT id, key, seats, ranks, scores, reason, steps, finished_at, faults, replay, seed "
                               f"FROM games WHERE id = ? AND {shown}", (game, *args)).fetchone()
        if row is None:
            return None
        meta = _game_row(row[:9])
        meta["seed"] = row[10]
        meta["faults"] = with_texts(self._db, game, meta["seats"], json.loads(row[8]))
        return meta, msgpack.unpackb(row[9], strict_map_key=False)

    def faults(self, entrant: str, limit: int = 20, hidden: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
        """``entrant``'s latest faults, newest first, with the last lines of its stderr, but for
        those in games of the blocks in ``hidden``."""
        keys = ("game", "kind", "step", "detail", "stderr_tail")
        shown, args = _not_in("g.block", hidden)
        return [as_shown(dict(zip(keys, row))) for row in self._db.execute(
            "SELECT f.game, f.kind, f.step, f.detail, f.stderr_tail FROM faults AS f JOIN games AS g ON g.id = f.game "
            f"WHERE f.entrant = ? AND {shown} ORDER BY f.game DESC LIMIT ?", (entrant, *args, limit))]

    def events(self, entrant: str, limit: int = 20) -> list[dict[str, Any]]:
        return [{"kind": kind, "detail": detail, "at": at} for kind, detail, at in self._db.execute(
            "SELECT kind, detail, at FROM events WHERE entrant = ? ORDER BY rowid DESC LIMIT ?", (entrant, limit))]

    # -- rating fits ----------------------------------------------------------------------------

    def save_fit(self, games: int, data: dict[str, Any]) -> None:
        """Store a fit of the ratings over ``games`` games (``data["rows"]``: one per entrant,
        with ``name``, ``elo``, ``minus``, ``plus``, ``games``); pages read the latest one.

        Only the latest fit is kept whole (at 50 entrants one is about 150 KB, and the runner
        fits many times a day); the history keeps one point per entrant and fit in which its
        games changed, so a retired version's curve stops where it stopped playing."""
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                fit = self._db.execute("INSERT INTO fits (games, at, data) VALUES (?, ?, ?)",
                                       (games, time.time(), json.dumps(data))).lastrowid
                self._db.execute("DELETE FROM fits WHERE id < ?", (fit,))
                last = dict(self._db.execute("SELECT entrant, MAX(games) FROM history GROUP BY entrant"))
                self._db.executemany("INSERT INTO history VALUES (?, ?, ?, ?, ?, ?)", [
                    (row["name"], fit, row["games"], row["elo"], row["minus"], row["plus"]) for row in data["rows"]
                    if last.get(row["name"]) != row["games"]])
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot store a rating fit ({error})") from None

    def last_fit(self) -> tuple[int, float, dict[str, Any]] | None:
        """``(games, at, data)`` of the latest fit, or ``None`` before the first."""
        row = self._db.execute("SELECT games, at, data FROM fits ORDER BY id DESC LIMIT 1").fetchone()
        return (row[0], row[1], json.loads(row[2])) if row else None

    def history(self, entrant: str) -> list[dict[str, Any]]:
        """``entrant``'s rating after each fit that rated it: games played then, elo, interval."""
        keys = ("games", "elo", "minus", "plus")
        return [dict(zip(keys, row)) for row in self._db.execute(
            "SELECT games, elo, minus, plus FROM history WHERE entrant = ? ORDER BY fit", (entrant,))]


def _game_row(row: tuple) -> dict[str, Any]:
    gid, key, seats, ranks, scores, reason, steps, finished_at, faults = row
    return {"id": gid, "key": key, "seats": json.loads(seats), "ranks": json.loads(ranks),
            "scores": json.loads(scores), "reason": reason, "steps": steps, "finished_at": finished_at,
            "faults": [{"seat": f["seat"], "bot": f["bot"], "kind": f["kind"], "step": f["step"]}
                       for f in json.loads(faults)]}
