"""What the ladder keeps of a fault's text, bounded per version and per author.

A fault comes with a detail (up to :data:`arena.ladder._schema.DETAIL_MAX`) and the last lines
of the bot's stderr (up to :data:`arena.ladder._schema.REPORT_MAX`): 20 KiB a fault, and a bot
that crashes in every game would make the database keep that for every game, forever (issue
47: about 1.5 GiB a day from one bot). So:

- the game's own row (``games.faults``, read by rerun, the withdrawal counts and the viewer)
  keeps each fault's kind, seat, step and a detail cut at :data:`NOTE_MAX` bytes, no stderr;
- the ``faults`` table keeps the whole text of a version's newest :data:`TEXTS_KEPT` faults
  only (what its page lists), and of those, of an author's versions together, the newest
  :data:`TEXTS_PER_AUTHOR`; an older fault keeps its kind, step and a detail cut at
  :data:`NOTE_MAX`; a removed version keeps no text at all.

So a version's fault text is at most ``TEXTS_KEPT x 20 KiB`` (400 KiB) however long it plays,
an author's at most ``TEXTS_PER_AUTHOR x 20 KiB`` (800 KiB) however many of its versions play
(``active_versions``), and each further fault a row of a few hundred bytes, like the game it
belongs to.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from ..players import Fault

#: a version's newest faults whose whole text (detail and stderr) is kept
TEXTS_KEPT = 20
#: an author's newest faults, over all its versions, whose whole text is kept (two versions'
#: worth: with one active version, also the one it superseded until that is removed)
TEXTS_PER_AUTHOR = 2 * TEXTS_KEPT
#: what is kept of a detail elsewhere (UTF-8 bytes)
NOTE_MAX = 256
#: what a page or the JSON API shows of one fault's stderr and detail (its last / first bytes)
SHOWN_STDERR = 2000
SHOWN_DETAIL = 1024


def cut(text: str, limit: int, tail: bool = False) -> str:
    """``text`` within ``limit`` UTF-8 bytes: its start (or, with ``tail``, its end), cut on
    a character, with a mark where it was cut."""
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    mark = "[...] "
    room = limit - len(mark)
    if tail:
        return mark + data[-room:].decode("utf-8", "ignore")
    return data[:room].decode("utf-8", "ignore") + " [...]"


def slim(fault: Fault) -> dict[str, Any]:
    """``fault`` as the game's row keeps it: no stderr, a detail of at most :data:`NOTE_MAX`."""
    record = fault.as_dict()
    record["detail"] = cut(record["detail"], NOTE_MAX)
    record["stderr_tail"] = ""
    return record


def shown(fault: dict[str, Any]) -> dict[str, Any]:
    """A stored fault as a page or the API shows it: its stderr's last :data:`SHOWN_STDERR`
    bytes and its detail's first :data:`SHOWN_DETAIL`."""
    return {**fault, "detail": cut(fault.get("detail") or "", SHOWN_DETAIL),
            "stderr_tail": cut(fault.get("stderr_tail") or "", SHOWN_STDERR, tail=True)}


def forget_old_texts(db: sqlite3.Connection, entrants: Iterable[str]) -> None:
    """In the open transaction: cut the text of each of ``entrants``' faults but its newest
    :data:`TEXTS_KEPT`, then of its author's versions' faults but their newest
    :data:`TEXTS_PER_AUTHOR` (an entrant with no submission row has no author to count)."""
    authors = set()
    for entrant in entrants:
        db.execute("UPDATE faults SET detail = substr(detail, 1, ?), stderr_tail = '' WHERE entrant = ? AND "
                   "(stderr_tail != '' OR length(detail) > ?) AND game < (SELECT MIN(game) FROM (SELECT game FROM "
                   "faults WHERE entrant = ? ORDER BY game DESC LIMIT ?))",
                   (NOTE_MAX // 4, entrant, NOTE_MAX, entrant, TEXTS_KEPT))
        authors.update(author for (author,) in db.execute("SELECT author FROM submissions WHERE entrant = ?",
                                                          (entrant,)))
    for author in authors:
        # Each version's text is within its newest TEXTS_KEPT faults now: look at those only.
        newest = sorted((row for (version,) in db.execute("SELECT entrant FROM submissions WHERE author = ? AND "
                                                          "removed IS NULL", (author,))
                         for row in db.execute("SELECT game, rowid FROM faults WHERE entrant = ? ORDER BY game DESC "
                                               "LIMIT ?", (version, TEXTS_KEPT))), reverse=True)
        older = [rowid for _, rowid in newest[TEXTS_PER_AUTHOR:]]
        if older:
            db.execute(f"UPDATE faults SET detail = substr(detail, 1, ?), stderr_tail = '' WHERE rowid IN "
                       f"({', '.join('?' * len(older))}) AND (stderr_tail != '' OR length(detail) > ?)",
                       (NOTE_MAX // 4, *older, NOTE_MAX))


def forget_all_texts(db: sqlite3.Connection, entrant: str) -> None:
    """In the open transaction: cut the text of every fault of ``entrant`` (a removed version)."""
    db.execute("UPDATE faults SET detail = substr(detail, 1, ?), stderr_tail = '' WHERE entrant = ?",
               (NOTE_MAX // 4, entrant))


def with_texts(db: sqlite3.Connection, game: int, seats: list[str], faults: list[dict]) -> list[dict]:
    """The faults of ``game``'s row, each with the text the ``faults`` table still keeps of
    it (as :func:`shown`), for the game's page."""
    texts: dict[tuple[str, str, int], tuple[str, str]] = {}
    for entrant, kind, step, detail, stderr in db.execute(
            "SELECT entrant, kind, step, detail, stderr_tail FROM faults WHERE game = ?", (game,)):
        texts.setdefault((entrant, kind, step), (detail, stderr))
    merged = []
    for fault in faults:
        seat = fault.get("seat")
        entrant = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else ""
        detail, stderr = texts.get((entrant, fault.get("kind"), fault.get("step")), ("", ""))
        if stderr or len(detail) > len(fault.get("detail") or ""):
            fault = {**fault, "detail": detail or fault.get("detail"), "stderr_tail": stderr}
        merged.append(shown(fault))
    return merged
