"""Tournament files (TOML): read, validate strictly, and describe.

Every error names the file, the key and the problem, e.g.
``quick.toml: key 'time.move_ms' must be an integer in 1..86400000, got 'fast'``. Every number
has a range (:mod:`arena.tournament._ranges`). A documented example with every key, its default and its
range is ``examples/tournament-reference.toml``.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import engines

from ..match import MatchSettings
from ..players import FAULT_SETTING, FAULT_SETTINGS, FaultPolicy
from ..players import BotSpec, ManifestError, check_name, load_manifest, manifest_from_dict
from ..players import TIME_SETTINGS, TimeControl, KIND_NAMES, describe_value, read_toml
from ._ranges import RangeError, check_number, check_real
from ._schedule import Format, ScheduleSpec

if TYPE_CHECKING:
    from ..ratings import SprtWatch


class ConfigError(ValueError):
    """A tournament file is unreadable or invalid."""


#: The most rounds of an adaptive tournament: its error is split over this many looks (one
#: after each round; :func:`arena.ratings.judge`'s ``max_looks``), whatever ``rounds`` says, so
#: that raising ``rounds`` later (``extend``) changes no earlier look.
ADAPTIVE_LOOKS = 50


@dataclass(frozen=True)
class AdaptiveSpec:
    """The question of a ``format = "adaptive"`` tournament: ``goal`` as written (``"top 3"``,
    ``"order"``, ``"elo 20"``), the ``error`` its stop may have, and the ``margin`` (Elo) within
    which two entrants of ``top`` or ``order`` may come out either way (docs/ratings.md)."""

    goal: str
    error: float = 0.05
    margin: float = 20.0


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament: what to play, who plays, how, and where results go."""

    path: Path
    game: str
    options: dict[str, Any]
    schedule: ScheduleSpec
    entrants: tuple[BotSpec, ...]
    settings: MatchSettings
    concurrency: int
    database: Path
    #: the file's content as parsed, stored in the database to recognise the tournament
    raw: dict[str, Any] = field(repr=False, default_factory=dict)
    #: a gauntlet's ``[sprt]`` table: stop once the test has decided (docs/ratings.md)
    sprt: SprtWatch | None = None
    #: worker processes the games are spread over; 0: one per core (arena.tournament._workers)
    workers: int = 0
    #: "local": worker processes on this machine; "dask": on a Dask cluster (arena.tournament._dask)
    executor: str = "local"
    #: the Dask scheduler's address; "": a LocalCluster of ``workers`` processes for the run
    scheduler: str = ""
    #: where the coordinator listens for the Dask workers' arena workers, ``HOST:PORT``
    #: (:func:`parse_listen`); "": chosen for the run (see :class:`arena.tournament._dask.DaskWorkers`)
    listen: str = ""
    #: ``faults.withdraw_after``: an entrant with this many faults between games is withdrawn
    #: (its remaining seats forfeited, not started again); 0: never
    withdraw_after: int = FAULT_SETTING["withdraw_after"].default  # type: ignore[assignment]
    #: ``format = "adaptive"``: the question it plays toward (:mod:`arena.tournament._adaptive`)
    adaptive: AdaptiveSpec | None = None

    def fingerprint(self) -> str:
        """Canonical JSON of what determines the games (not where the database lives)."""
        raw = {key: value for key, value in self.raw.items() if key not in _WHERE}
        return json.dumps(raw, sort_keys=True, default=str)


#: keys that say where and how fast games are played, not which: not in the fingerprint
_WHERE = ("database", "concurrency", "workers", "executor", "scheduler", "listen")
EXECUTORS = ("local", "dask")
_TOP = {"game", "players", "format", "rounds", "seed", "duplicate", "max_tables", "concurrency", "workers",
        "executor", "scheduler", "listen", "database", "options", "time", "faults", "entrants", "candidates", "sprt",
        "goal", "error", "margin"}
_TIME = {setting.field for setting in TIME_SETTINGS}
_FAULTS = {setting.field for setting in FAULT_SETTINGS}


class _Reader:
    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data

    def error(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.path}: key {key!r} {problem}")

    def table(self, key: str, allowed: set[str] | None) -> dict[str, Any]:
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            raise self.error(key, "must be a table")
        if allowed is not None:
            unknown = sorted(set(value) - allowed)
            if unknown:
                raise self.error(f"{key}.{unknown[0]}", f"is unknown; known keys of [{key}]: {sorted(allowed)}")
        return value

    def get(self, table: dict[str, Any], key: str, kind: type, default: Any, name: str | None = None) -> Any:
        name = name or key
        if key not in table:
            if default is _REQUIRED:
                raise ConfigError(f"{self.path}: required key {name!r} is missing")
            return default
        value = table[key]
        if not isinstance(value, kind):
            raise self.error(name, f"must be {KIND_NAMES.get(kind, kind.__name__)}, got {describe_value(value)}")
        return value

    def number(self, table: dict[str, Any], key: str, default: int, name: str | None = None) -> int:
        """An integer key, checked against its range in :data:`arena.tournament._ranges.RANGES`."""
        if key not in table:
            return default
        try:
            return check_number(key, table[key])
        except RangeError as error:
            raise self.error(name or key, str(error)) from None


_REQUIRED = object()


def load_config(path: str | os.PathLike[str]) -> TournamentConfig:
    """Read and validate a tournament file. Raises :class:`ConfigError`."""
    path = Path(path)
    return config_from_dict(read_toml(path, "tournament file", ConfigError), path)


def config_from_dict(data: dict[str, Any], path: Path) -> TournamentConfig:
    reader = _Reader(path, data)
    unknown = sorted(set(data) - _TOP)
    if unknown:
        raise reader.error(unknown[0], f"is unknown; known keys: {sorted(_TOP)}")
    base = path.parent
    game_id = reader.get(data, "game", str, _REQUIRED)
    try:
        game = engines.get_game(game_id)
        options = game.resolve_options(reader.table("options", None))
    except engines.EngineError as error:
        raise ConfigError(f"{path}: {error}") from None
    players = reader.number(data, "players", game.min_players)
    try:
        game.check_players(players)
    except engines.BadOption as error:
        raise reader.error("players", f"is invalid: {error}") from None
    entrants = _entrants(reader, base)
    names = [entrant.name for entrant in entrants]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise reader.error("entrants", f"has two entrants named {duplicates[0]!r}; give each a unique 'name'")
    format_text = reader.get(data, "format", str, Format.ROUND_ROBIN.value)
    try:
        fmt = Format(format_text)
    except ValueError:
        raise reader.error("format", f"must be one of {[f.value for f in Format]}, got {format_text!r}") from None
    candidates = tuple(reader.get(data, "candidates", list, []))
    if fmt is Format.GAUNTLET:
        missing = [c for c in candidates if c not in names]
        if not candidates or missing:
            raise reader.error("candidates", f"must name entrants for a gauntlet; unknown: {missing or 'none given'}")
        field_size = len(names) - len(candidates)
        if field_size < players - 1:
            raise reader.error("entrants", f"gauntlet needs at least {players - 1} non-candidates, has {field_size}")
    elif fmt is Format.ADAPTIVE and candidates:
        raise reader.error("candidates", 'is for format = "gauntlet"')
    elif len(entrants) < players:
        raise reader.error("entrants", f"has {len(entrants)} entrant{'s' * (len(entrants) != 1)} but a table has "
                                       f"{players} seats")
    time = reader.table("time", _TIME)
    faults = reader.table("faults", _FAULTS)
    policy_text = reader.get(faults, "policy", str, FAULT_SETTING["policy"].default, "faults.policy")
    if policy_text not in FAULT_SETTING["policy"].choices:
        raise reader.error("faults.policy", f"must be one of {list(FAULT_SETTING['policy'].choices)}")
    policy = FaultPolicy(policy_text)
    settings = MatchSettings(
        TimeControl(**{
            setting.field: reader.number(time, setting.field, setting.default, f"time.{setting.field}")
            if setting.number else reader.get(time, setting.field, bool, setting.default, f"time.{setting.field}")
            for setting in TIME_SETTINGS}),
        policy,
        reader.number(faults, "max_substitutions", FAULT_SETTING["max_substitutions"].default,
                      "faults.max_substitutions"),
    )
    schedule = ScheduleSpec(
        entrants=tuple(names),
        players=players,
        format=fmt,
        rounds=reader.number(data, "rounds", ADAPTIVE_LOOKS if fmt is Format.ADAPTIVE else 1),
        seed=reader.number(data, "seed", 1),
        duplicate=reader.get(data, "duplicate", bool, True),
        max_tables=reader.number(data, "max_tables", 0),
        candidates=candidates,
        variant=_variant(game, game_id, options),
    )
    concurrency = reader.number(data, "concurrency", 0) or (os.cpu_count() or 1)
    database_text = reader.get(data, "database", str, path.with_suffix(".db").name)
    if not database_text:  # base / "" is the folder itself
        raise reader.error("database", "must be a file path, got an empty string")
    database = base / database_text
    return TournamentConfig(path, game_id, options, schedule, tuple(entrants), settings,
                            concurrency, database, raw=data, sprt=_sprt(data, fmt, candidates, names, path, players),
                            workers=reader.number(data, "workers", 0),
                            adaptive=_adaptive(reader, fmt, len(entrants), schedule.rounds),
                            withdraw_after=reader.number(faults, "withdraw_after", FAULT_SETTING["withdraw_after"].default,
                                                         "faults.withdraw_after"),
                            **_executor(reader))


def _executor(reader: _Reader) -> dict[str, str]:
    executor = reader.get(reader.data, "executor", str, "local")
    if executor not in EXECUTORS:
        raise reader.error("executor", f"must be one of {list(EXECUTORS)}, got {executor!r}")
    scheduler = reader.get(reader.data, "scheduler", str, "")
    if scheduler and executor != "dask":
        raise reader.error("scheduler", 'is for executor = "dask"')
    listen = reader.get(reader.data, "listen", str, "")
    if listen and executor != "dask":
        raise reader.error("listen", 'is for executor = "dask"')
    try:
        parse_listen(listen)
    except ValueError as error:
        raise reader.error("listen", str(error)) from None
    return {"executor": executor, "scheduler": scheduler, "listen": listen}


def parse_listen(text: str) -> tuple[str, int] | None:
    """The host and port of a ``listen`` address, ``HOST:PORT``: where the coordinator of a
    Dask run listens, and the address its Dask workers connect back to.

    ``HOST`` is one of this machine's addresses or names (an IPv6 address in brackets,
    ``[fe80::1]:7700``); empty (``:7700``), ``0.0.0.0`` or ``::``: every interface, the
    workers being sent the address of this machine that the scheduler's network reaches.
    ``PORT`` 0 is a free port chosen for the run. ``""`` is ``None``: both chosen for the run.
    Raises :class:`ValueError` saying what is wrong, for the caller to name the key or option.
    """
    if not text:
        return None
    expected = 'must be HOST:PORT, e.g. "10.0.0.5:7700" (":7700": every interface)'
    host, colon, port_text = text.rpartition(":")
    if not colon or not (port_text.isascii() and port_text.isdigit()) or any(
            character.isspace() or character == "/" for character in host):
        raise ValueError(f"{expected}, got {text!r}")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if ":" in host and not text.startswith("[") or any(character in "[]" for character in host):
        raise ValueError(f"{expected}, with an IPv6 address in brackets ([::1]:7700), got {text!r}")
    port = int(port_text)
    if port > 65535:
        raise ValueError(f"has port {port}, beyond 65535")
    return host, port


def _variant(game: engines.Game, game_id: str, options: dict[str, Any]) -> str:
    """The game and its options that differ from their defaults, as canonical JSON: an option
    written at its default, or one a later version of the game adds, leaves it unchanged (it
    is part of every game key: a tournament's keys must not move under it)."""
    defaults = game.resolve_options({})
    changed = {key: value for key, value in options.items() if key not in defaults or defaults[key] != value}
    return json.dumps([game_id, changed], sort_keys=True, default=str)


def _adaptive(reader: _Reader, fmt: Format, entrants: int, rounds: int) -> AdaptiveSpec | None:
    """The question of an adaptive tournament (``goal``, ``error``, ``margin``), checked; keys
    of it in another format are refused."""
    data = reader.data
    if fmt is not Format.ADAPTIVE:
        given = [key for key in ("goal", "error", "margin") if key in data]
        if given:
            raise reader.error(given[0], 'is for format = "adaptive"')
        return None
    text = reader.get(data, "goal", str, _REQUIRED)
    from ..ratings import parse_goal  # numpy: not on the CLI's start-up path

    try:
        goal = parse_goal(text)
    except ValueError:
        raise reader.error("goal", f"must be 'top K', 'order' or 'elo X' (e.g. \"top 3\"), got {text!r}") from None
    if goal.kind == "top" and goal.k >= entrants:
        raise reader.error("goal", f"asks for the top {goal.k} of {entrants} entrants: the field needs more than "
                                   f"{goal.k} (at least {goal.k + 1})")
    if rounds > ADAPTIVE_LOOKS:
        raise reader.error("rounds", f"is the most rounds of an adaptive tournament, at most {ADAPTIVE_LOOKS} "
                                     f"(its error is split over {ADAPTIVE_LOOKS} looks), got {rounds}")
    numbers = {}
    for key, default in (("error", 0.05), ("margin", 20.0)):
        try:
            numbers[key] = check_real(key, data[key]) if key in data else default
        except RangeError as error:
            raise reader.error(key, str(error)) from None
    return AdaptiveSpec(text.strip(), **numbers)


def _sprt(data: dict[str, Any], fmt: Format, candidates: tuple[str, ...], names: list[str],
          path: Path, players: int) -> SprtWatch | None:
    if "sprt" not in data:
        return None
    if fmt is not Format.GAUNTLET:
        raise ConfigError(f"{path}: [sprt] is for format = \"gauntlet\" (one candidate against the field)")
    from ..ratings import sprt_watch_from_table  # numpy: not on the CLI's start-up path

    try:
        return sprt_watch_from_table(data["sprt"], candidates, [n for n in names if n not in candidates], players)
    except ValueError as error:
        raise ConfigError(f"{path}: {error}") from None


def _entrants(reader: _Reader, base: Path) -> list[BotSpec]:
    items = reader.data.get("entrants")
    if not isinstance(items, list) or not items:
        raise ConfigError(f"{reader.path}: 'entrants' must be a non-empty array of tables ([[entrants]])")
    return [entrant_from_item(item, base, f"{reader.path}: entrant {number}") for number, item in enumerate(items, 1)]


def entrant_from_item(item: object, base: Path, where: str) -> BotSpec:
    """One ``[[entrants]]`` table (``manifest`` with an optional ``name``, or a manifest's keys
    inline); ``base`` resolves relative paths. Raises :class:`ConfigError` naming ``where``."""
    if not isinstance(item, dict):
        raise ConfigError(f"{where} must be a table with 'manifest' or 'command'")
    try:
        if "manifest" in item:
            extra = sorted(set(item) - {"manifest", "name"})
            if extra:
                raise ConfigError(f"{where}: key {extra[0]!r} is not allowed beside 'manifest'")
            if not isinstance(item["manifest"], str):
                raise ConfigError(f"{where}: 'manifest' must be a string (the manifest's path), "
                                  f"got {describe_value(item['manifest'])}")
            spec = load_manifest(base / item["manifest"])
            if "name" in item:
                spec = dataclasses.replace(spec, name=check_name(item["name"], where))
        else:
            spec = manifest_from_dict(item, base, where, inline=True)
    except ManifestError as error:
        raise ConfigError(str(error)) from None
    return spec
