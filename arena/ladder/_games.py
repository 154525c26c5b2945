"""The ladder's games, as stored: each finished game in one transaction with its replay, its
seats and its faults (whose text is bounded, :mod:`arena.ladder._faulttext`), the games and
faults pages and the runner read, and the rating fits.

A duplicate block's games replay one deal, so none of them is shown (seed, replay, scores,
faults with the bot's stderr) while another rotation of it may still be played: the methods
that show games leave out those of ``hidden`` blocks (the runner's blocks in play).
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

import msgpack

from ..match import MatchResult
from ..tournament import StoreError
from ._faulttext import forget_old_texts, slim, with_texts
from ._faulttext import shown as as_shown
from ._schema import DETAIL_MAX, REPORT_MAX, LadderTables, cap_text


def _not_in(column: str, values: frozenset[str]) -> tuple[str, tuple[str, ...]]:
    """An SQL condition that ``column`` is none of ``values`` (always true without any)."""
    if not values:
        return "1", ()
    return f"{column} NOT IN ({', '.join('?' * len(values))})", tuple(sorted(values))


class GameRecords(LadderTables):
    """Games, faults and rating fits in an open ladder database."""

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
