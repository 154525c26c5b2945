"""Ladder files (``LADDER.toml``): read and validate.

A ladder file shares the tournament file's keys for what is played and how (``game``,
``players``, ``[options]``, ``[time]``, ``[faults]``, ``concurrency``, ``workers``, ``executor``,
``scheduler``): they are
checked by :func:`arena.tournament._config.config_from_dict`, so the errors read the same. Its own keys::

    database = "ladder.db"       # relative to the file (default: the file's name, .db)
    host = "127.0.0.1"           # where the web server listens
    port = 8000                  # 0: any free port (printed at start)
    active_versions = 1          # versions per author that keep playing (the newest passed ones)
    max_upload_mb = 20           # largest accepted archive
    build_timeout_s = 120        # a submission's build step
    build_max_mb = 200           # what a build may leave in the bot's folder: bytes...
    build_max_files = 50000      # ...and files and folders (both checked while it runs)
    submissions_per_hour = 10    # per author (token); 0: no limit; more: 429
    max_pending_submissions = 2  # per author, stored and not checked yet; more: 429
    author_disk_mb = 1000        # per author: its kept versions' folders and stored archives; more: 429
    game_fault_limit = 10        # a version with a fault in this many of its last games is withdrawn (0: never)...
    game_fault_window = 50       # ...of its last this many games
    logs_per_version_mb = 8      # the stderr logs kept of one version's processes (older ones are deleted)...
    logs_per_author_mb = 16      # ...and of all an author's versions together (the oldest deleted first)
    [[bots]]                     # bots entered when the ladder starts (e.g. the house bots)
    author = "house"
    manifest = "bots/py-random.toml"

Every error is a :class:`arena.tournament._config.ConfigError` naming the file and the key.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..players import ManifestError, check_name, load_manifest, read_toml
from ..tournament import ConfigError, TournamentConfig, config_from_dict

#: Keys that only a ladder file has.
_OWN = {"database", "host", "port", "active_versions", "max_upload_mb", "build_timeout_s", "build_max_mb",
        "build_max_files", "submissions_per_hour", "max_pending_submissions", "author_disk_mb", "bots",
        "game_fault_limit", "game_fault_window", "logs_per_version_mb", "logs_per_author_mb"}
#: Tournament keys a ladder shares (the rest, e.g. ``rounds`` or ``format``, mean nothing here).
_SHARED = {"game", "players", "options", "time", "faults", "concurrency", "workers", "executor", "scheduler"}
#: An author's name becomes the prefix of its entrants' names (``AUTHOR-vN``).
AUTHOR_MAX = 40


@dataclass(frozen=True)
class HouseBot:
    """A bot entered from the ladder file: ``author``'s version from ``manifest``."""

    author: str
    manifest: Path


@dataclass(frozen=True)
class LadderConfig:
    """A validated ladder file.

    ``play`` holds what is played and how as a tournament (no entrants: the runner fills them
    in for each stretch of play), so the match runner and the workers take it unchanged.
    """

    path: Path
    play: TournamentConfig
    database: Path
    host: str = "127.0.0.1"
    port: int = 8000
    active_versions: int = 1
    max_upload_bytes: int = 20 * 2**20
    build_timeout_s: int = 120
    build_max_bytes: int = 200 * 2**20
    build_max_files: int = 50_000
    #: per author: submissions in any hour (0: no limit), and stored but not yet decided
    submissions_per_hour: int = 10
    max_pending_submissions: int = 2
    #: per author: what its kept versions' folders and its stored archives may take
    author_disk_bytes: int = 1000 * 2**20
    #: a version with a fault in ``game_fault_limit`` of its last ``game_fault_window`` games
    #: (faults in games; those between games count towards ``faults.withdraw_after``) is
    #: withdrawn; 0: never
    game_fault_limit: int = 10
    game_fault_window: int = 50
    #: the stderr logs (``DATABASE.logs/``) kept per version, newest first
    logs_per_version_bytes: int = 8 * 2**20
    #: the same for all an author's versions together, newest first across them
    logs_per_author_bytes: int = 16 * 2**20
    bots: tuple[HouseBot, ...] = ()

    @property
    def game(self) -> str:
        return self.play.game

    @property
    def players(self) -> int:
        return self.play.schedule.players


def check_author(name: object, where: str) -> str:
    """``name`` if it may name an author (a bot name of at most :data:`AUTHOR_MAX` characters,
    so that ``NAME-vN`` is one too); else raises :class:`ConfigError`."""
    try:
        check_name(name, where)
    except ManifestError as error:
        raise ConfigError(str(error).replace("'name'", "an author name")) from None
    if len(name) > AUTHOR_MAX:
        raise ConfigError(f"{where}: an author name has at most {AUTHOR_MAX} characters, got {len(name)}")
    if re.search(r"-v[0-9]+$", name):
        raise ConfigError(f"{where}: an author name must not end like a version ('-v1'), got {name!r}")
    return name


def _integer(path: Path, data: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{path}: key {key!r} must be an integer in {low}..{high}, got {value!r}")
    return value


def load_ladder(path: str | Path) -> LadderConfig:
    """Read and validate a ladder file. Raises :class:`ConfigError`."""
    path = Path(path)
    data = read_toml(path, "ladder file", ConfigError)
    unknown = sorted(set(data) - _OWN - _SHARED)
    if unknown:
        raise ConfigError(f"{path}: key {unknown[0]!r} is unknown; known keys: {sorted(_OWN | _SHARED)}")
    shared = {key: value for key, value in data.items() if key in _SHARED}
    # Stand-in entrants, so the tournament checks (which want a full table) pass.
    shared["entrants"] = [{"name": f"seat{i}", "command": "true"} for i in range(8)]
    play = config_from_dict(shared, path)
    play = dataclasses.replace(play, entrants=(), raw={})
    host = data.get("host", "127.0.0.1")
    if not isinstance(host, str) or not host:
        raise ConfigError(f"{path}: key 'host' must be a host name or address, got {host!r}")
    database = data.get("database", path.with_suffix(".db").name)
    if not isinstance(database, str) or not database:
        raise ConfigError(f"{path}: key 'database' must be a file path")
    bots = []
    items = data.get("bots", [])
    if not isinstance(items, list):
        raise ConfigError(f"{path}: 'bots' must be an array of tables ([[bots]])")
    for number, item in enumerate(items, 1):
        where = f"{path}: bot {number}"
        if not isinstance(item, dict) or set(item) != {"author", "manifest"} or not isinstance(item["manifest"], str):
            raise ConfigError(f"{where} must be a table with exactly 'author' and 'manifest' (a path)")
        author = check_author(item["author"], where)
        manifest = path.parent / item["manifest"]
        try:
            load_manifest(manifest)
        except ManifestError as error:
            raise ConfigError(str(error)) from None
        bots.append(HouseBot(author, manifest.resolve()))
    upload_mb = _integer(path, data, "max_upload_mb", 20, 1, 1024)
    build_mb = _integer(path, data, "build_max_mb", 200, 1, 100_000)
    # Below one built version and one archive an author could never submit again.
    author_mb = _integer(path, data, "author_disk_mb", 1000, build_mb + upload_mb, 10_000_000)
    fault_limit = _integer(path, data, "game_fault_limit", 10, 0, 100_000)
    return LadderConfig(
        path=path, play=play, database=path.parent / database, host=host,
        port=_integer(path, data, "port", 8000, 0, 65535),
        active_versions=_integer(path, data, "active_versions", 1, 1, 100),
        max_upload_bytes=upload_mb * 2**20,
        build_timeout_s=_integer(path, data, "build_timeout_s", 120, 1, 3600),
        build_max_bytes=build_mb * 2**20,
        build_max_files=_integer(path, data, "build_max_files", 50_000, 10, 10_000_000),
        submissions_per_hour=_integer(path, data, "submissions_per_hour", 10, 0, 100_000),
        max_pending_submissions=_integer(path, data, "max_pending_submissions", 2, 1, 1000),
        author_disk_bytes=author_mb * 2**20,
        game_fault_limit=fault_limit,
        game_fault_window=_integer(path, data, "game_fault_window", 50, max(fault_limit, 1), 100_000),
        logs_per_version_bytes=_integer(path, data, "logs_per_version_mb", 8, 1, 100_000) * 2**20,
        logs_per_author_bytes=_integer(path, data, "logs_per_author_mb", 16, 1, 1_000_000) * 2**20,
        bots=tuple(bots),
    )
