"""A tournament's stored game as ``arena rerun`` plays it again: the database holds the
tournament's configuration (time control, options, entrants' manifests), the game's deal,
seats and replay, and the secret key its bots' seeds derive from."""

from __future__ import annotations

from pathlib import Path

from engines import Replay

from ..match import Rerun, RerunError
from ._database import config_of_store
from ._schedule import bot_seeds_of
from ._store import ResultsStore


def tournament_rerun(database: Path, key: str, unfinished_block: bool = False) -> Rerun:
    """The game ``key`` of the tournament in ``database``. Raises :class:`RerunError` (or the
    store's :class:`StoreError`, the configuration's :class:`ConfigError`)."""
    store = ResultsStore.open(database, read_only=True)
    try:
        config = config_of_store(store)
        games = list(store.games())
        stored = next((game for game in games if game.key == key), None)
        if stored is None:
            raise RerunError(f"{database}: no game {key!r} (`arena replay {database}` lists the games)")
        try:
            data = store.replay(key)
            replay = None if data is None else Replay.from_dict(data)
        except (ValueError, KeyError, TypeError) as error:
            raise RerunError(f"{database}: the replay of game {key!r} is corrupt ({error})") from None
        seeds = bot_seeds_of(store.seed_key(), key, stored.seats)
    finally:
        store.close()
    in_block = sum(1 for game in games if game.block == stored.block)
    if config.schedule.duplicate and in_block < len(stored.seats) and not unfinished_block:
        raise RerunError(f"game {key}: its duplicate block {stored.block} is not wholly stored ({in_block} of "
                         f"{len(stored.seats)} games): playing it again would show its deal before the block's "
                         f"other games are played (`arena tournament resume {database}` first, or "
                         f"--unfinished-block)")
    if replay is None:
        raise RerunError(f"{database}: game {key!r} has no stored replay")
    specs = {spec.name: spec for spec in config.entrants}
    return Rerun(source=database, key=key, game=replay.game, options=replay.options, seed=stored.seed,
                 bot_seeds=seeds, settings=config.settings, seats=tuple(specs.get(name) for name in stored.seats),
                 stored=replay, stored_bots=stored.seats, stored_ranks=stored.ranks,
                 missing={seat: "no longer an entrant of the tournament's file" for seat, name in
                          enumerate(stored.seats) if name not in specs})
