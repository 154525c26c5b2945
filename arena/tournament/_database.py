"""A tournament's results database as the tournament sees it: created for its configuration
(with its entrants), and the configuration read back from it (``resume``, ``extend``)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from ..players import BotSpec
from ._config import TournamentConfig, config_from_dict
from ._store import ResultsStore, StoreError


def open_store(config: TournamentConfig) -> ResultsStore:
    """The database of ``config``: created, or opened when it is this tournament's (see
    :meth:`ResultsStore.create`)."""
    entrants = [entrant_row(spec) for spec in config.entrants]
    return ResultsStore.create(config.database, config.fingerprint(), config.raw, config.path, entrants)


def entrant_row(spec: BotSpec) -> tuple[str, dict[str, object]]:
    """An entrant as the store lists it."""
    return spec.name, {"command": list(spec.command), "cwd": str(spec.cwd)}


def config_of_store(store: ResultsStore) -> TournamentConfig:
    """The tournament a database belongs to, as it was configured, writing to this database.
    Raises :class:`StoreError` when the stored configuration is missing or is not JSON of a
    table (a hand-edited or damaged database), and :class:`ConfigError` when it no longer
    reads as a tournament file (its entrants' manifests moved, say)."""
    text, config_path = store.meta("config"), store.meta("config_path")
    try:
        raw = json.loads(text) if text is not None and config_path is not None else None
    except ValueError:
        raw = None
    if not isinstance(raw, dict):
        raise StoreError(f"{store.path}: the tournament's configuration stored in it is missing or unreadable; "
                         f"its standings, reports and exports still work, but it cannot be resumed or extended")
    config = config_from_dict(raw, Path(config_path))
    return dataclasses.replace(config, database=store.path)
