"""A ladder's stored game as ``arena rerun`` plays it again: the ladder file gives the time
control and options (the database does not hold them), the database the deal, the seats, the
replay and each entrant's manifest, and its secret key the bots' seeds."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from engines import Replay

from ..match import Rerun, RerunError
from ..players import BotSpec, ManifestError, load_manifest
from ..tournament import bot_seeds_of
from ._config import load_ladder
from ._store import LadderStore


def ladder_rerun(ladder_file: Path, key: str, unfinished_block: bool = False) -> Rerun:
    """The game ``key`` (or its id) of the ladder of ``ladder_file``. Raises :class:`RerunError`
    (or the ladder's :class:`ConfigError`, :class:`StoreError`)."""
    config = load_ladder(ladder_file)
    store = LadderStore.open(config.database)
    try:
        stored = store.stored_game(key)
        if stored is None:
            raise RerunError(f"{config.database}: no game {key!r} (the ladder's game pages show their keys)")
        seeds = bot_seeds_of(store.seed_key(), stored["key"], tuple(stored["seats"]))
    finally:
        store.close()
    if stored["block_stored"] < config.players and not unfinished_block:
        raise RerunError(f"game {stored['key']}: its duplicate block {stored['block']} is not wholly stored "
                         f"({stored['block_stored']} of {config.players} games): playing it again would show its "
                         f"deal before the block's other games are played (--unfinished-block if it was "
                         f"abandoned)")
    seats: list[BotSpec | None] = []
    missing = {}
    for seat, (name, manifest, removed) in enumerate(zip(stored["seats"], stored["manifests"], stored["removed"])):
        try:
            if removed is not None:
                raise ManifestError(f"its folder was removed on {_day(removed)}, once a newer version of its "
                                    f"author superseded it (ladder versions that can play no more are removed)")
            if manifest is None:
                raise ManifestError("its submission has no manifest")
            seats.append(dataclasses.replace(load_manifest(Path(manifest)), name=name))
        except ManifestError as error:
            seats.append(None)
            missing[seat] = str(error) if removed is not None else f"cannot load its manifest ({error})"
    try:
        replay = Replay.from_dict(stored["replay"])
    except (ValueError, KeyError, TypeError) as error:
        raise RerunError(f"{config.database}: the replay of game {stored['key']!r} is corrupt ({error})") from None
    return Rerun(source=config.database, key=stored["key"], game=config.game, options=config.play.options,
                 seed=stored["seed"], bot_seeds=seeds, settings=config.play.settings, seats=tuple(seats),
                 stored=replay, stored_bots=tuple(stored["seats"]),
                 stored_ranks=tuple(stored["ranks"]), missing=missing)


def _day(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))
