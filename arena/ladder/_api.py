"""What the ladder shows, as data: the leaderboard, a bot, an author, games, submissions.

The HTML pages (:mod:`arena.ladder._pages`) and the JSON under ``/api/``
(``arena.ladder._app``) are both made from these dicts, so they always agree. A game is shown
only once its whole duplicate block is stored: ``hidden`` names the blocks still in play, whose
games replay one deal (docs/sandbox.md, "A competition with prize money": publish a block's seeds
and replays only once the whole block is stored). Ratings come from
the last stored fit (the runner refits in the background): a page view never fits.
"""

from __future__ import annotations

from typing import Any

from ._store import LadderStore

#: A rating is provisional with fewer games than this, or an interval wider than
#: :data:`PROVISIONAL_WIDTH` Elo (minus + plus).
PROVISIONAL_GAMES = 20
PROVISIONAL_WIDTH = 200.0
#: Most games one page or API call lists.
PAGE_LIMIT = 200


def _rated(row: dict[str, Any], author: str, version: int, active: bool) -> dict[str, Any]:
    provisional = row["games"] < PROVISIONAL_GAMES or row["minus"] + row["plus"] > PROVISIONAL_WIDTH
    return {"name": row["name"], "author": author, "version": version, "active": active,
            "elo": round(row["elo"], 1), "minus": round(row["minus"], 1), "plus": round(row["plus"], 1),
            "games": row["games"], "points_percent": round(row["points_percent"], 1), "provisional": provisional}


def leaderboard(store: LadderStore, hidden: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Every version that played or plays: active ones first, best rating first; a version
    admitted but not rated yet has ``elo`` None and is provisional. ``games`` counts the
    stored games but for those of the blocks in ``hidden`` (the fits leave them out too)."""
    entrants = store.entrants()
    fit = store.last_fit()
    rows, seen = [], set()
    if fit is not None:
        for row in fit[2]["rows"]:
            if row["name"] in entrants:
                rows.append(_rated(row, *entrants[row["name"]]))
                seen.add(row["name"])
    for name, (author, version, active) in entrants.items():
        if name not in seen and active:
            rows.append({"name": name, "author": author, "version": version, "active": True, "elo": None,
                         "minus": None, "plus": None, "games": 0, "points_percent": None, "provisional": True})
    rows.sort(key=lambda r: (not r["active"], r["elo"] is None, -(r["elo"] or 0.0), r["name"]))
    return {"game": store.meta("game"), "players": int(store.meta("players")), "games": store.game_count(hidden),
            "fitted_games": fit[0] if fit else 0, "fitted_at": fit[1] if fit else None, "rows": rows}


def bot(store: LadderStore, name: str, hidden: frozenset[str] = frozenset()) -> dict[str, Any] | None:
    """A version (``AUTHOR-vN``): its rating, rating over time, head-to-head, faults and
    latest games; or an author: its versions. ``None`` if ``name`` is neither. The games (and
    their faults) of the blocks in ``hidden``, still in play, are left out."""
    info = store.entrant(name)
    if info is None:
        versions = store.versions(name)
        if not versions:
            return None
        board = {row["name"]: row for row in leaderboard(store, hidden)["rows"]}
        withdrawn = store.withdrawn()
        return {"kind": "author", "author": name,
                "versions": [{**v, "rating": board.get(v["entrant"]), "withdrawn": withdrawn.get(v["entrant"])}
                             for v in versions]}
    fit = store.last_fit()
    rating = next((row for row in leaderboard(store, hidden)["rows"] if row["name"] == name), None)
    cross = fit[2]["crosstable"].get(name, {}) if fit else {}
    return {
        "kind": "version", "name": name, "author": info["author"], "version": info["version"],
        "status": info["status"], "active": info["active"], "submission": info["id"], "rating": rating,
        "removed": info["removed"],
        "history": store.history(name),
        "head_to_head": [{"opponent": other, "score": round(cell["score"], 1), "games": cell["games"]}
                         for other, cell in sorted(cross.items())],
        "withdrawn": store.withdrawn().get(name),
        "faults": store.faults(name, hidden=hidden), "events": store.events(name),
        "games": store.games(name, 0, 50, hidden),
        "versions": store.versions(info["author"]),
    }


def games(store: LadderStore, entrant: str | None, offset: int, limit: int,
          hidden: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A page of stored games, newest first, but for those of the blocks in ``hidden``."""
    limit = max(1, min(limit, PAGE_LIMIT))
    return {"bot": entrant, "offset": offset, "limit": limit,
            "games": store.games(entrant, max(0, offset), limit, hidden)}


def submission(store: LadderStore, number: int) -> dict[str, Any] | None:
    return store.submission(number)
