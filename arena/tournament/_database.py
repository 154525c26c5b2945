"""A tournament's results database as the tournament sees it: created for its configuration
(with its entrants), and the configuration read back from it (``resume``, ``extend``)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from ..players._manifest import BotSpec
from ._config import TournamentConfig, config_from_dict
from ._store import ResultsStore


def open_store(config: TournamentConfig) -> ResultsStore:
    """The database of ``config``: created, or opened when it is this tournament's (see
    :meth:`ResultsStore.create`)."""
    entrants = [entrant_row(spec) for spec in config.entrants]
    return ResultsStore.create(config.database, config.fingerprint(), config.raw, config.path, entrants)


def entrant_row(spec: BotSpec) -> tuple[str, dict[str, object]]:
    """An entrant as the store lists it."""
    return spec.name, {"command": list(spec.command), "cwd": str(spec.cwd)}


def config_of_store(store: ResultsStore) -> TournamentConfig:
    """The tournament a database belongs to, as it was configured, writing to this database."""
    raw = json.loads(store.meta("config"))
    config = config_from_dict(raw, Path(store.meta("config_path")))
    return dataclasses.replace(config, database=store.path)
