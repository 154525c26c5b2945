"""The ladder's database: one SQLite file (WAL) holding tokens, submissions, games and fits.

Unlike a tournament's store (:mod:`arena.tournament._store`) the entrants change while it runs: every
passed submission is a new entrant ``AUTHOR-vN``. Writes are short transactions: a submission
is stored (archive included) before the server answers ``202 Accepted``, a game is stored in
one transaction with its replay, its seats and its faults the moment it ends. Nothing else
holds state, so a server killed with ``kill -9`` restarts from this file alone: submissions
whose vetting had not finished are vetted again, and no finished game is lost.

:class:`LadderStore` is made of three parts, each a module: the tables, opening a file and the
caps on stored text (:mod:`arena.ladder._schema`); tokens, submissions and versions
(:mod:`arena.ladder._submissions`); games, faults and fits (:mod:`arena.ladder._games`). The
names their users import are all here.
"""

from __future__ import annotations

from pathlib import Path

from ..tournament import StoreError
from ._games import GameRecords
from ._schema import DETAIL_MAX, FORMAT, REPORT_MAX, SCHEMA_VERSION, cap_text, open_database
from ._submissions import Entrant, Status, SubmissionRecords, SubmissionRefused, hash_token

__all__ = ["DETAIL_MAX", "FORMAT", "REPORT_MAX", "SCHEMA_VERSION", "Entrant", "LadderStore", "Status", "StoreError",
           "SubmissionRefused", "cap_text", "hash_token"]


class LadderStore(SubmissionRecords, GameRecords):
    """An open ladder database (:meth:`open` creates it). One instance per connection: the
    server keeps one for the runner (the writer) and one for the pages."""

    @classmethod
    def open(cls, path: Path, game: str | None = None, players: int | None = None) -> LadderStore:
        """Open the ladder at ``path``; with ``game`` and ``players``, create it if missing and
        check that it is a ladder of that game. Raises :class:`StoreError`."""
        store = cls(path, open_database(path, game, players))
        held = (store.meta("game"), store.meta("players"))
        if game is not None and held != (game, str(players)):
            store.close()
            raise StoreError(f"{path}: holds a ladder of {held[0]} at {held[1]} players, not {game} at "
                             f"{players}; use another 'database'")
        return store

    def seed_key(self) -> bytes:
        """The ladder's secret key (every deal and bot seed derives from it). Never show it."""
        return bytes.fromhex(self.meta("seed_key"))
