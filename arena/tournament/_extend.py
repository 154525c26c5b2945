"""Growing a tournament that has been played, or partly played (``arena tournament extend``):
more rounds, new entrants, new gauntlet candidates, without replaying or changing a stored game.

The grown tournament is the tournament file kept in the database with ``rounds`` raised and
the new entrants appended (their paths made absolute: they were written beside another file),
validated like any tournament file. Its schedule must hold every game of the old one with the
same key, seats and seeds (:func:`arena.tournament._schedule.extension_problem`): then the new games are
simply the ones not stored yet, and ``arena tournament resume`` plays them.

An entrant file is a bot manifest (``name``, ``command``, ...), or a TOML file of
``[[entrants]]`` tables written like a tournament file's, with optional ``game`` and
``players`` that must match the tournament's. A new version of a bot is a new entrant (a new
name); an entrant given again with the same name and the same command, folder, environment
and limits is already there and is skipped.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..players import BotSpec, ManifestError, manifest_from_dict, read_toml
from ._config import ADAPTIVE_LOOKS, ConfigError, TournamentConfig, config_from_dict, entrant_from_item
from ._ranges import RangeError, check_number
from ._schedule import Format, build_schedule, extension_problem, new_key

#: What an ``[[entrants]]`` file may hold besides its entrants (checked against the tournament).
_ENTRANTS_FILE_KEYS = {"game", "players", "entrants"}


@dataclass(frozen=True)
class Extension:
    """A grown tournament and what grew."""

    config: TournamentConfig
    #: the new entrants, in the order they were given
    added: tuple[BotSpec, ...]
    rounds: int
    #: how many games the grown tournament has that the old one had not
    new_games: int
    #: how many games the grown tournament has
    total: int


def extend_config(config: TournamentConfig, version: int, rounds: int = 0, entrants: Sequence[Path] = (),
                  candidates: Sequence[Path] = ()) -> Extension:
    """``config`` (a tournament whose games are keyed by schedule ``version``) with ``rounds``
    more rounds, the entrants of the ``entrants`` files joining the field (a round-robin's
    entrants, a gauntlet's field) and those of ``candidates`` joining a gauntlet's candidates.

    Raises :class:`ConfigError` (one line, naming the file or the database) when a file is
    invalid, a bot's name is taken by another bot, a file's game or players differ from the
    tournament's, or the grown schedule would not keep every stored game (a database of
    schedule version 1 takes no new entrants; nor do sampled tables, ``max_tables``).

    An adaptive tournament takes rounds only, up to
    :data:`~arena.tournament._config.ADAPTIVE_LOOKS` in all (its stored rounds were chosen among
    its entrants, and no earlier look changes); its next rounds are chosen as it plays, so
    ``new_games`` and ``total`` are 0.
    """
    where = str(config.database)
    if candidates and config.schedule.format is not Format.GAUNTLET:
        raise ConfigError(f"{where}: --candidate is for a gauntlet; this tournament is a "
                          f"{config.schedule.format.value}, give new entrants with --entrant")
    if config.adaptive is not None:
        _check_adaptive(config, rounds, bool(entrants or candidates))
    present = {spec.name: spec for spec in config.entrants}
    added: list[tuple[dict[str, Any], BotSpec, bool]] = []
    for paths, as_candidate in ((entrants, False), (candidates, True)):
        for path in paths:
            for item, spec in _entrants_of(path, config):
                if spec.name in present:
                    if as_candidate and spec.name not in config.schedule.candidates:
                        raise ConfigError(f"{path}: {spec.name!r} is already in the gauntlet's field; a "
                                          f"candidate is a new entrant (a new version of a bot: a new name)")
                    if spec != present[spec.name]:
                        raise ConfigError(
                            f"{path}: an entrant named {spec.name!r} is already in the tournament with another "
                            f"command, folder, environment or limits; a new version of a bot needs a new name")
                    continue  # the very same bot: already there
                present[spec.name] = spec
                added.append((item, spec, as_candidate))
    if not rounds and not added:
        raise ConfigError(f"{where}: nothing to add: every entrant given is already in the tournament"
                          if entrants or candidates else f"{where}: nothing to add: give --rounds N, "
                          f"--entrant FILE or --candidate FILE")
    raw = copy.deepcopy(config.raw)
    total_rounds = config.schedule.rounds + rounds
    try:
        raw["rounds"] = check_number("rounds", total_rounds)
    except RangeError as error:
        raise ConfigError(f"{where}: --rounds {rounds} would make {total_rounds} rounds; 'rounds' {error}") from None
    raw["entrants"] = [*raw["entrants"], *(item for item, _, _ in added)]
    if any(as_candidate for _, _, as_candidate in added):
        raw["candidates"] = [*raw.get("candidates", []), *(spec.name for _, spec, c in added if c)]
    grown = dataclasses.replace(config_from_dict(raw, config.path), database=config.database,
                                concurrency=config.concurrency, workers=config.workers)
    if grown.adaptive is not None:
        return Extension(grown, (), rounds, 0, 0)
    old_spec = dataclasses.replace(config.schedule, version=version)
    new_spec = dataclasses.replace(grown.schedule, version=version)
    problem = extension_problem(old_spec, new_spec)
    if problem is not None:
        raise ConfigError(f"{where}: cannot grow this tournament: {problem}")
    key = new_key()  # the counts do not depend on the key
    total = build_schedule(new_spec, key).total
    return Extension(grown, tuple(spec for _, spec, _ in added), rounds,
                     total - build_schedule(old_spec, key).total, total)


def _check_adaptive(config: TournamentConfig, rounds: int, entrants: bool) -> None:
    where, total = config.database, config.schedule.rounds + rounds
    if entrants:
        raise ConfigError(f"{where}: an adaptive tournament takes no new entrants: its rounds were chosen among "
                          f"the entrants it has; play the larger field as a new tournament (this one takes --rounds)")
    if total > ADAPTIVE_LOOKS:
        raise ConfigError(f"{where}: --rounds {rounds} would make {total} rounds; an adaptive tournament has at most "
                          f"{ADAPTIVE_LOOKS} (its error is split over {ADAPTIVE_LOOKS} looks), this one "
                          f"{config.schedule.rounds} already")


def _entrants_of(path: Path, config: TournamentConfig) -> list[tuple[dict[str, Any], BotSpec]]:
    """The entrants of a manifest or an ``[[entrants]]`` file, each as the ``[[entrants]]``
    table the tournament file will keep (paths absolute) and as the bot it starts."""
    data = read_toml(path, "entrant file (a bot manifest or [[entrants]] tables)", ConfigError)
    base = path.parent
    if "entrants" not in data:
        try:
            spec = manifest_from_dict(data, base, str(path))
        except ManifestError as error:
            raise ConfigError(str(error)) from None
        _check_game(path, spec, config)
        return [({"manifest": str(path.resolve())}, spec)]
    unknown = sorted(set(data) - _ENTRANTS_FILE_KEYS)
    if unknown:
        raise ConfigError(f"{path}: key {unknown[0]!r} cannot be given when extending a tournament; "
                          f"an entrant file holds {sorted(_ENTRANTS_FILE_KEYS)} (and --rounds adds rounds)")
    if "game" in data and data["game"] != config.game:
        raise ConfigError(f"{path}: 'game' is {data['game']!r}, but the tournament plays {config.game!r}")
    if "players" in data and data["players"] != config.schedule.players:
        raise ConfigError(f"{path}: 'players' is {data['players']!r}, but the tournament's tables have "
                          f"{config.schedule.players} seats")
    items = data["entrants"]
    if not isinstance(items, list) or not items:
        raise ConfigError(f"{path}: 'entrants' must be a non-empty array of tables ([[entrants]])")
    found = []
    for number, item in enumerate(items, 1):
        spec = entrant_from_item(item, base, f"{path}: entrant {number}")
        _check_game(path, spec, config)
        if "manifest" in item:
            kept = {**item, "manifest": str((base / item["manifest"]).resolve())}
        else:
            kept = {**item, "cwd": str(spec.cwd)}
        found.append((kept, spec))
    return found


def _check_game(path: Path, spec: BotSpec, config: TournamentConfig) -> None:
    if spec.games is not None and config.game not in spec.games:
        raise ConfigError(f"{path}: entrant {spec.name!r} plays {list(spec.games)}, not {config.game!r}")
