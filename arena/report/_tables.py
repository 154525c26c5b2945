"""Reports: standings, crosstable and exports, from stored games or any GameRecords.

Rating is the ratings package's job and storage the store's; this module only turns their
values into tables (tabulate), JSON, CSV, PGN and JSON Lines.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tabulate import tabulate

from ..match import EndReason
from ..ratings import METHODS, GameRecord, Standings, compute_standings, write_pgn
from ..tournament import StoredGame

ARENA_ERROR = EndReason.ARENA_ERROR.value


def with_result(games: Iterable[StoredGame]) -> list[StoredGame]:
    """The games that have a result. A game stopped by an arena error (the engine failed, no
    bot charged) has none: it counts neither for nor against anyone."""
    return [game for game in games if game.reason != ARENA_ERROR]


def records_of(games: Iterable[StoredGame], blocked: bool = True) -> list[GameRecord]:
    """Stored games with a result (:func:`with_result`) as rating records; duplicate-deal
    blocks kept when ``blocked``."""
    return [GameRecord(players=g.seats, ranks=g.ranks, block=g.block if blocked else None)
            for g in with_result(games)]


def fault_counts(games: Iterable[StoredGame]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for game in games:
        for fault in game.faults:
            if fault["bot"] is not None:  # an arena error is charged to no bot
                counts[fault["bot"]] += 1
    return counts


def always_faulting(games: Iterable[StoredGame]) -> dict[str, tuple[int, Counter[str]]]:
    """The entrants that committed a fault in every game they sat in: name -> (their games,
    their faults by kind). A bot that never once played a clean game is worth a line of its
    own: in the standings it is only a number in the faults column."""
    seated: Counter[str] = Counter()
    faulted: Counter[str] = Counter()
    kinds: dict[str, Counter[str]] = {}
    for game in games:
        charged = set()
        for fault in game.faults:
            if fault["bot"] is not None:
                charged.add(fault["bot"])
                kinds.setdefault(fault["bot"], Counter())[fault["kind"]] += 1
        for name in set(game.seats):
            seated[name] += 1
            faulted[name] += name in charged
    return {name: (count, kinds[name]) for name, count in seated.items() if faulted[name] == count}


def standings_of(records: Sequence[GameRecord], n_boot: int | None = None, seed: int = 0,
                 anchor: tuple[str, float] | None = None) -> Standings:
    """:func:`compute_standings`; by default with the analytic (cluster-robust) interval,
    as everywhere: ``arena standings``, the live display and the report agree."""
    return compute_standings(records, n_boot=n_boot, seed=seed, anchor=anchor)


def interval_label(n_boot: int | None) -> str:
    """How the 95% intervals of standings fitted with ``n_boot`` were drawn, for their caption."""
    if n_boot is None:
        return "cluster-robust, each duplicate block one observation"
    return f"bootstrap, {n_boot} replicates"


def standings_table(standings: Standings, faults: Counter[str] | None = None, players: int = 2) -> str:
    """The standings as a text table. Wins and average position are shown for k > 2."""
    faults = faults or Counter()
    multi = players > 2
    headers = ["#", "name", "elo", "-", "+", "games", "points %"]
    methods = [method for method in METHODS if method.applies(players)]
    if multi:
        headers += ["wins", "avg pos"]
    headers += [method.column for method in methods]
    headers.append("faults")
    rows = []
    for index, row in enumerate(standings.rows, 1):
        line = [index, row.name, f"{row.elo:.1f}", f"{row.minus:.1f}", f"{row.plus:.1f}", row.games,
                f"{row.points_percent:.1f}"]
        if multi:
            line += [row.first_places, f"{row.average_rank:.2f}"]
        line += [f"{row.ratings[method.key]:.1f}" for method in methods]
        line.append(faults.get(row.name, 0))
        rows.append(line)
    return tabulate(rows, headers=headers, disable_numparse=True, colalign=("right", "left"))


def standings_json(standings: Standings, faults: Counter[str] | None = None) -> str:
    data = standings.as_dict()
    for row in data["rows"]:
        row["faults"] = (faults or Counter()).get(row["name"], 0)
    return json.dumps(data, indent=2)


def standings_csv(standings: Standings, faults: Counter[str] | None = None) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "name", "elo", "minus", "plus", "games", "points_percent",
                     "first_places", "average_rank", *(method.key for method in METHODS), "faults"])
    for index, row in enumerate(standings.rows, 1):
        writer.writerow([index, row.name, f"{row.elo:.2f}", f"{row.minus:.2f}", f"{row.plus:.2f}", row.games,
                         f"{row.points_percent:.2f}", row.first_places, f"{row.average_rank:.3f}",
                         *(f"{row.ratings[method.key]:.2f}" for method in METHODS),
                         (faults or Counter()).get(row.name, 0)])
    return out.getvalue()


def crosstable(standings: Standings) -> str:
    """Pairwise scores: row entrant's points against the column entrant, out of games."""
    names = [row.name for row in standings.rows]
    cells = {(h.player, h.opponent): h for h in standings.crosstable}
    rows = []
    for name in names:
        line = [name]
        for other in names:
            cell = cells.get((name, other))
            line.append("" if name == other else "-" if cell is None else f"{cell.score:g}/{cell.games}")
        rows.append(line)
    return tabulate(rows, headers=["", *names], disable_numparse=True)


def export_records(games: Sequence[StoredGame], fmt: str,
                   replay_of: Callable[[str], dict[str, Any] | None] | None = None) -> str:
    """Export stored games as ``pgn`` (pairwise decomposition), ``jsonl`` or ``csv``.

    With ``replay_of`` (jsonl only), each line also holds ``"replay"``: the game's replay
    (``replay_of(key)``, e.g. :meth:`ResultsStore.replay`), enough to re-run it.
    """
    if fmt == "pgn":
        out = io.StringIO()
        write_pgn(records_of(games, blocked=False), out)
        return out.getvalue()
    if fmt == "jsonl":
        return "".join(json.dumps(_game_dict(g, replay_of)) + "\n" for g in games)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["key", "block", "seed", "seat", "bot", "rank", "score", "reason", "faults"])
        for g in games:
            for seat, (bot, rank, score) in enumerate(zip(g.seats, g.ranks, g.scores)):
                n_faults = sum(1 for f in g.faults if f["seat"] == seat)
                writer.writerow([g.key, g.block, g.seed, seat, bot, rank, score, g.reason, n_faults])
        return out.getvalue()
    raise ValueError(f"export format must be pgn, jsonl or csv, got {fmt!r}")


def _game_dict(game: StoredGame, replay_of: Callable[[str], dict[str, Any] | None] | None) -> dict[str, Any]:
    data = {
        "key": game.key, "block": game.block, "seed": game.seed, "players": list(game.seats),
        "ranks": list(game.ranks), "scores": list(game.scores), "reason": game.reason,
        "faults": list(game.faults), "steps": game.steps, "duration_s": game.duration_s,
    }
    if replay_of is not None:
        data["replay"] = replay_of(game.key)
    return data
