"""The ladder's authors and their versions, as stored: tokens, submissions (each a version
``AUTHOR-vN``, uploaded or a house bot), their vetting, which versions are active, what each
author keeps on disk, removals, and each version's events (a withdrawal, a death between games).

Tokens are stored as SHA-256 hashes only (a token is 256 random bits: no salt or slow hash is
needed against guessing); the token itself is shown once, when it is made.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..tournament import StoreError
from ._faulttext import forget_all_texts
from ._schema import DETAIL_MAX, REPORT_MAX, LadderTables, cap_text


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


class SubmissionRecords(LadderTables):
    """Tokens, submissions and versions in an open ladder database."""

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

    # -- submissions and versions ----------------------------------------------------------------------------

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

    # -- events of a version (withdrawn, died between games) ---------------------------------------

    def record_event(self, entrant: str, kind: str, detail: str) -> None:
        self._write("an event", [("INSERT INTO events VALUES (?, ?, ?, ?)",
                                  (entrant, kind, cap_text(detail, DETAIL_MAX), time.time()))])

    def events(self, entrant: str, limit: int = 20) -> list[dict[str, Any]]:
        return [{"kind": kind, "detail": detail, "at": at} for kind, detail, at in self._db.execute(
            "SELECT kind, detail, at FROM events WHERE entrant = ? ORDER BY rowid DESC LIMIT ?", (entrant, limit))]
