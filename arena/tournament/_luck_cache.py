"""The chance correction's luck matrices, kept in the results database as a cache.

The luck of a game is a pure function of its replay, the baseline and the samples, so a table
``luck`` beside the games keeps it between runs (:mod:`arena.report`'s luck); it is made with
the first matrices kept.
"""

from __future__ import annotations

import json
import sqlite3

from ._store import ResultsStore

_LUCK = ("CREATE TABLE IF NOT EXISTS luck (key TEXT NOT NULL, baseline TEXT NOT NULL, samples INTEGER NOT NULL, "
         "value TEXT NOT NULL, PRIMARY KEY (key, baseline, samples))")


def cached_luck(store: ResultsStore, baseline: str, samples: int) -> dict[str, list[list[float]]]:
    """The chance correction's luck matrices already computed for ``store``'s games under
    ``baseline`` (its label: version and hash) with ``samples``, by game key. A cache: the
    luck is a pure function of the replay, the baseline and the samples."""
    try:
        rows = store._db.execute("SELECT key, value FROM luck WHERE baseline = ? AND samples = ?",
                                 (baseline, samples))
        return {key: json.loads(value) for key, value in rows}
    except sqlite3.OperationalError:
        return {}  # no luck yet: the table is made with the first


def cache_luck(store: ResultsStore, baseline: str, samples: int, luck: dict[str, list[list[float]]]) -> str | None:
    """Keep computed luck matrices (see :func:`cached_luck`) in one transaction: all of them,
    or none if it is interrupted (Ctrl-C). Returns None once they are kept, else why they
    are not (a read-only database, one locked by a writer for longer than the busy timeout):
    a cache, which the next run computes again, so not an error."""
    db = store._db
    rows = [(key, baseline, samples, json.dumps(value)) for key, value in luck.items()]
    try:
        # Autocommit connection: without BEGIN every row would be a transaction of its own.
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(_LUCK)
            db.executemany("INSERT OR REPLACE INTO luck VALUES (?, ?, ?, ?)", rows)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    except sqlite3.Error as error:
        return str(error)
    return None
