"""The numbers of a tournament report, from stored games: standings, head-to-head,
ratings as the tournament went on, faults, and the list of games.

Everything here is plain JSON-able data; drawing it is the page's job (:mod:`._page`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..ratings import METHODS
from ..tournament import StoredGame
from ._tables import records_of, standings_of, with_result

#: stderr kept per fault in the report (the store keeps 16 KiB; the page needs a glance)
STDERR_TAIL = 2000


def standings_data(games: Sequence[StoredGame], n_boot: int | None = None) -> dict[str, Any]:
    """Standings rows (Bradley-Terry with error bars, Plackett-Luce, firsts, average rank,
    faults) and the head-to-head matrix with wins, draws and losses per ordered pair."""
    records = records_of(games)
    standings = standings_of(records, n_boot=n_boot)
    names = [row.name for row in standings.rows]
    faults = {name: 0 for name in names}
    for game in games:
        for fault in game.faults:
            faults[fault["bot"]] = faults.get(fault["bot"], 0) + 1
    rows = [dict(row.as_dict(), faults=faults.get(row.name, 0)) for row in standings.rows]
    players = max(len(game.seats) for game in games)
    for method in METHODS:  # each chart's intervals, where the method says more than Bradley-Terry
        if method.applies(players):
            width = method.intervals(records)
            for row in rows:
                row[f"{method.key}_minus"] = row[f"{method.key}_plus"] = width[row["name"]]
    index = {name: i for i, name in enumerate(names)}
    wdl = [[[0, 0, 0] for _ in names] for _ in names]
    for game in with_result(games):
        for a, (name_a, rank_a) in enumerate(zip(game.seats, game.ranks)):
            for name_b, rank_b in list(zip(game.seats, game.ranks))[a + 1:]:
                i, j = index[name_a], index[name_b]
                outcome = 0 if rank_a < rank_b else 1 if rank_a == rank_b else 2
                wdl[i][j][outcome] += 1
                wdl[j][i][2 - outcome] += 1
    score = [[None] * len(names) for _ in names]
    for cell in standings.crosstable:
        score[index[cell.player]][index[cell.opponent]] = [cell.score, cell.games]
    return {"names": names, "rows": rows, "score": score, "wdl": wdl, "n_boot": n_boot, "players": players}


def progress_data(games: Sequence[StoredGame], names: Sequence[str], points: int,
                  n_boot: int | None = None) -> dict[str, Any]:
    """Ratings after the first ``m`` games (schedule order) for about ``points`` values of
    ``m``, each with its interval (cluster-robust, or from ``n_boot`` bootstrap replicates):
    does the order settle as games are added?"""
    records = records_of(games)
    total = len(records)
    marks = sorted({max(1, round(total * i / points)) for i in range(1, points + 1)})
    series: dict[str, list[list[float] | None]] = {name: [] for name in names}
    kept = []
    for mark in marks:
        try:
            standings = standings_of(records[:mark], n_boot=n_boot)
        except ValueError:
            continue  # too few games to fit (e.g. one entrant has not played yet)
        kept.append(mark)
        rows = {row.name: row for row in standings.rows}
        for name in names:
            row = rows.get(name)
            series[name].append(None if row is None else
                                [round(row.elo, 1), round(row.elo - row.minus, 1), round(row.elo + row.plus, 1)])
    return {"games": kept, "series": series}


def faults_data(games: Sequence[StoredGame]) -> list[dict[str, Any]]:
    """Every fault with the game it happened in (index into the games list)."""
    out = []
    for number, game in enumerate(games):
        for fault in game.faults:
            out.append({"game": number, "bot": fault["bot"], "seat": fault["seat"], "kind": fault["kind"],
                        "step": fault["step"], "detail": fault["detail"],
                        "stderr": fault.get("stderr_tail", "")[-STDERR_TAIL:]})
    return out


def games_data(games: Sequence[StoredGame], names: Sequence[str]) -> list[list[Any]]:
    """One compact row per game: ``[key, seats (entrant indices), ranks, scores, reason,
    fault kinds, steps]``; the page adds whether its replay is embedded."""
    index = {name: i for i, name in enumerate(names)}
    return [[game.key, [index[seat] for seat in game.seats], list(game.ranks), list(game.scores), game.reason,
             sorted({fault["kind"] for fault in game.faults}), game.steps] for game in games]
