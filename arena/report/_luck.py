"""A stored tournament's games as rating records carrying the chance correction's luck
(:mod:`arena.ratings._chance`), computed from the stored replays once and kept in the
database by baseline and samples: as it goes, a batch of games at a time, each batch in one
transaction, so that a run interrupted (Ctrl-C) or killed keeps what it had computed."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass

from ..ratings import GameRecord, Baseline, BaselineError, NoBaseline, game_baseline
from ..ratings import DEFAULT_SAMPLES, game_luck
from ..tournament import ResultsStore, StoredGame, cache_luck, cached_luck
from ._tables import records_of, with_result

#: Seconds of computing between two batches kept: a commit costs milliseconds, and a run
#: killed outright (SIGKILL, power) loses at most this much work. By time, not by count:
#: a Dead Man's Draw game's luck costs 0.01 s, an Opito Bay game's 0.3 s.
BATCH_SECONDS = 1.0


@dataclass
class LuckTally:
    """How far :func:`records_with_luck` got, kept up to date as it goes: what a caller
    interrupted inside it reports.

    Attributes:
        games: the games whose luck is needed (those with a result).
        kept: how many of them have their luck in the database: found there, or stored since.
        computed: how many had their luck computed in this run.
        not_kept: why the luck computed is not kept, once storing it failed (a database
            that cannot be written) or was not asked for; None while it is kept.
    """

    games: int = 0
    kept: int = 0
    computed: int = 0
    not_kept: str | None = None


def records_with_luck(store: ResultsStore, games: Iterable[StoredGame], baseline: Baseline | None = None,
                      samples: int = DEFAULT_SAMPLES, *, keep: bool = True,
                      tally: LuckTally | None = None) -> tuple[list[GameRecord], str]:
    """The games with a result as records with their luck, and the baseline's label. The
    baseline is the one the games' game carries (:func:`~arena.ratings._baseline.game_baseline`)
    unless ``baseline`` is given.

    The luck not yet in the database is computed and stored every :data:`BATCH_SECONDS`
    and at the end, also when an exception (Ctrl-C included) ends the run early. Where
    storing fails (a read-only database) the rest is computed in memory only; with ``keep``
    False nothing is stored (the caller knows the database cannot be written). ``tally``,
    if given, is kept up to date as the games are done.

    Raises:
        NoBaseline: the game carries no chance baseline: no correction, the raw figures stand.
        BaselineError: the baseline file is bad or has no value for this game and table size.
        ValueError: a stored replay does not replay (the database was changed).
    """
    tally = tally if tally is not None else LuckTally()
    scored = list(with_result(games))
    if baseline is None:
        game_id = _game_of(store, scored)
        if game_id is None:  # no game with a result: no luck to compute
            return [], "none"
        baseline = game_baseline(game_id)
    done = cached_luck(store, baseline.label, samples)
    tally.games = len(scored)
    tally.kept = sum(1 for game in scored if game.key in done)
    if not keep:
        tally.not_kept = "not asked to keep it"
    fresh: dict[str, list[list[float]]] = {}  # computed, not yet stored
    last = time.monotonic()

    def store_fresh() -> None:
        if fresh and tally.not_kept is None:
            tally.not_kept = cache_luck(store, baseline.label, samples, fresh)
            if tally.not_kept is None:
                tally.kept += len(fresh)
        fresh.clear()

    out = []
    try:
        for game, record in zip(scored, records_of(scored)):
            luck = done.get(game.key)
            if luck is None:
                replay = store.replay(game.key)
                if replay is None:  # pragma: no cover - a game row always has its replay
                    raise ValueError(f"{store.path}: game {game.key} has no replay")
                model = baseline.model(replay["game"], int(replay["players"]))
                try:
                    luck = fresh[game.key] = game_luck(replay, model, samples)
                except ValueError as error:
                    raise ValueError(f"{store.path}: game {game.key}: {error}") from None
                tally.computed += 1
                if time.monotonic() - last >= BATCH_SECONDS:
                    store_fresh()
                    last = time.monotonic()
            out.append(GameRecord(record.players, record.ranks, record.block, luck))
    finally:
        store_fresh()  # the last batch; on Ctrl-C, what was computed before it
    return out, baseline.label


def _game_of(store: ResultsStore, games: list[StoredGame]) -> str | None:
    """The game a database's games are of (one game a database): its configuration's, or its
    first game's replay's."""
    try:
        config = json.loads(store.meta("config") or "{}")
    except ValueError:  # a damaged configuration: the replays still say
        config = {}
    if isinstance(config, dict) and isinstance(config.get("game"), str):
        return config["game"]
    replay = store.replay(games[0].key) if games else None
    return None if replay is None else replay["game"]


__all__ = ["BaselineError", "LuckTally", "NoBaseline", "records_with_luck"]
