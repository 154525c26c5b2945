"""A stored tournament's games as rating records carrying the chance correction's luck
(:mod:`arena.ratings._chance`), computed from the stored replays once and cached in the
database by baseline and samples."""

from __future__ import annotations

from collections.abc import Iterable

from ..ratings import GameRecord
from ..ratings._baseline import Baseline, BaselineError, load_baseline
from ..ratings._chance import DEFAULT_SAMPLES, game_luck
from ..tournament._store import ResultsStore, StoredGame, cache_luck, cached_luck
from ._tables import records_of, with_result


def records_with_luck(store: ResultsStore, games: Iterable[StoredGame], baseline: Baseline | None = None,
                      samples: int = DEFAULT_SAMPLES) -> tuple[list[GameRecord], str]:
    """The games with a result as records with their luck, and the baseline's label.

    Raises:
        BaselineError: the baseline file is bad or has no value for this game and table size.
        ValueError: a stored replay does not replay (the database was changed).
    """
    baseline = baseline or load_baseline()
    kept = list(with_result(games))
    done = cached_luck(store, baseline.label, samples)
    fresh = {}
    out = []
    for game, record in zip(kept, records_of(kept)):
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
        out.append(GameRecord(record.players, record.ranks, record.block, luck))
    if fresh:
        cache_luck(store, baseline.label, samples, fresh)
    return out, baseline.label


__all__ = ["BaselineError", "records_with_luck"]
