"""Bot manifests: who a bot is and how to start it.

A manifest is a small TOML file::

    name = "py-random"
    command = ["python", "-m", "bots.random"]   # or one string, split like a shell would
    cwd = "."                                   # relative to the manifest's folder (default)
    games = ["dead-mans-draw"]                  # optional: the games it claims to play
    build = ["make", "bot"]                     # optional: how a ladder builds a submitted bot
    [env]                                       # optional: extra environment variables
    BOT_LEVEL = "3"
    [limits]                                    # optional: resource limits (defaults shown)
    memory_mb = 2048                            # memory (cgroup), else address space per process
    cpu_s = 0                                   # CPU seconds over the process's life (0 = none)
    processes = 128                             # processes and threads (when the arena is root)
    open_files = 256
    file_size_mb = 64
    cpus = 1                                    # cores, a fraction allowed (cgroup; 0 = the most)

Where the arena has cgroups (as root), ``memory_mb`` is the memory of all the bot's processes
together (swap and its tmpfs files included) and ``cpus`` its CPU quota, both at most the
organiser's ceilings (2048 MiB, one core); ``cpu_s`` counts all its processes together.

A name is 1 to 64 characters from ``A-Z a-z 0-9 . _ + -``, starting with a letter or digit
(:data:`NAME_PATTERN`): it names the bot's log files, so it can never be a path. Without
``name``, the script or module the command runs gives one (characters outside the set
become ``-``).

Anywhere a bot is expected, a plain command line works too (``"python -m bots.random"``).
A command whose first word is ``python`` or ``python3`` runs with the interpreter that runs
the arena, so bots use the same installed packages.

``build`` (a list of strings, or one string split like a shell would) is run once by a ladder
when the bot is submitted, in the bot's folder (the manifest's folder), in the sandbox, without
network and with a time limit; what it writes goes into that folder. Tournaments ignore it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..sandbox import Limits, view_widening
from ._toml import describe_value, read_toml


class ManifestError(ValueError):
    """A manifest or bot command is unreadable or invalid; the message names file and key."""


#: What a bot (entrant) name may look like: it becomes part of log file names.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
NAME_RULE = "1-64 characters from A-Z a-z 0-9 . _ + -, starting with a letter or digit"


def check_name(name: object, where: str) -> str:
    """``name`` if it is a valid bot name; else raises :class:`ManifestError` naming ``where``."""
    if not isinstance(name, str):
        raise ManifestError(f"{where}: 'name' must be a string, got {describe_value(name)}")
    if NAME_PATTERN.fullmatch(name) is None:
        raise ManifestError(f"{where}: 'name' must be {NAME_RULE}; got {name!r}")
    return name


def log_name(name: str, pid: int) -> str:
    """The log file name of one process of bot ``name``: a single path component, whatever
    ``name`` holds (names are checked where they are read; this does not rely on it)."""
    return f"{_safe(name)}.{pid}.log"


def _safe(text: str) -> str:
    """``text`` as a valid name: other characters become ``-``, at most 64 characters."""
    text = re.sub(r"[^A-Za-z0-9._+-]", "-", text).lstrip("._+-")[:64]
    return text or "bot"


@dataclass(frozen=True)
class BotSpec:
    """How to start one bot."""

    name: str
    command: tuple[str, ...]
    cwd: Path | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    games: tuple[str, ...] | None = None
    limits: Limits = field(default_factory=Limits)
    #: the manifest's ``build`` command (run by a ladder on submission), or None
    build: tuple[str, ...] | None = None

    def argv(self) -> list[str]:
        return _interpreter(self.command)

    def build_argv(self) -> list[str] | None:
        """The ``build`` command as it runs (``python`` = the arena's interpreter), or None."""
        return _interpreter(self.build) if self.build is not None else None


def _interpreter(command: tuple[str, ...]) -> list[str]:
    argv = list(command)
    if argv and argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    return argv


_KEYS = {"name", "command", "cwd", "games", "env", "limits", "build"}
_LIMIT_KEYS = {"memory_mb", "cpu_s", "processes", "open_files", "file_size_mb", "cpus"}
#: The largest value of each integer limit, checked when the manifest is read: beyond them the
#: kernel refuses the limit (``setrlimit`` of 2^63 MiB overflows, more processes than
#: ``pid_max`` allows, more files than ``nr_open``), which would surface only as the bot's
#: start failing in the child, far from the manifest. 16 TiB of memory or file size is beyond any
#: machine a bot runs on.
LIMIT_MAX = {"memory_mb": 2**24, "file_size_mb": 2**24, "cpu_s": 2**31 - 1, "processes": 4_194_304,
             "open_files": 1_048_576}


def load_manifest(path: str | os.PathLike[str]) -> BotSpec:
    """Read a TOML manifest. Raises :class:`ManifestError` naming the file and the problem."""
    path = Path(path)
    return manifest_from_dict(read_toml(path, "manifest", ManifestError), path.parent, str(path))


def manifest_from_dict(data: Mapping, base: Path, where: str, inline: bool = False) -> BotSpec:
    """Build a :class:`BotSpec` from a manifest table; ``base`` resolves a relative ``cwd``.

    A manifest may not widen its bot's view beyond its own folder (``base``, the manifest's),
    its runtime and the system's folders (:func:`_check_view`). A bot written inline in an
    organiser's tournament file (``inline``) is the organiser's own word, as a command line
    typed to ``arena match`` is: it is not checked (the view still never shows ``/`` or a
    top-level folder whole)."""
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ManifestError(f"{where}: unknown key {unknown[0]!r}; known keys: {sorted(_KEYS)}")
    command = _command(data.get("command"), "command", where)
    build = _command(data["build"], "build", where) if "build" in data else None
    name = check_name(data.get("name", _default_name(command)), where)
    cwd = data.get("cwd", ".")
    if not isinstance(cwd, str):
        raise ManifestError(f"{where}: 'cwd' must be a string path")
    games = data.get("games")
    if games is not None and (not isinstance(games, list) or not all(isinstance(g, str) for g in games)):
        raise ManifestError(f"{where}: 'games' must be a list of game ids")
    env = data.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise ManifestError(f"{where}: 'env' must be a table of string values")
    for key, value in env.items():
        # What execve cannot pass: it would fail only when the bot starts, far from the cause.
        if not key or "=" in key or "\0" in key or "\0" in value:
            raise ManifestError(f"{where}: 'env' key {key!r}: a variable name must be non-empty, without "
                                f"'=' or NUL, and its value without NUL")
    limits = _limits(data.get("limits", {}), where)
    spec = BotSpec(
        name=name,
        command=tuple(command),
        cwd=(base / cwd).resolve(),
        env=dict(env),
        games=tuple(games) if games is not None else None,
        limits=limits,
        build=tuple(build) if build is not None else None,
    )
    if not inline:
        _check_view(spec, base, where, cwd)
    return spec


def _check_view(spec: BotSpec, base: Path, where: str, written_cwd: str) -> None:
    """Refuse a manifest any of whose paths would widen the bot's view beyond its own folder
    (``base``, the manifest's), its runtime and the system's folders: under bubblewrap the view
    shows what the command line, ``cwd`` and ``PYTHONPATH``/``NODE_PATH`` name, so a
    ``PYTHONPATH = "/"`` would show the whole host (other entrants, every process's command
    line). Refused whatever the sandbox, so a manifest means the same everywhere. A ``cwd`` is
    named as written (a ladder's report must not show the server's folders)."""
    env = {"PATH": os.environ.get("PATH", os.defpath), **spec.env}
    widening = view_widening(spec.argv(), spec.cwd or base, env, base.resolve(), env_keys=tuple(spec.env))
    if widening is not None:
        field_name, why = widening
        if field_name == "cwd" and not why.startswith("the bot's folder"):
            why = f"{written_cwd!r} lies outside the bot's folder"
        raise ManifestError(f"{where}: '{field_name}' would show the bot more than its own folder: {why}")


def _command(value: object, key: str, where: str) -> list[str]:
    """A command line (``command`` or ``build``): a list of strings or one shell-like string."""
    if isinstance(value, str):
        try:
            value = shlex.split(value)
        except ValueError:  # shlex's only complaint: "No closing quotation" (or escape)
            raise ManifestError(f"{where}: '{key}' has an unbalanced quote: {json.dumps(value, ensure_ascii=False)}") from None
    if not isinstance(value, list) or not value or not all(isinstance(part, str) for part in value):
        raise ManifestError(f"{where}: '{key}' must be a non-empty string or list of strings")
    if any("\0" in part for part in value):
        raise ManifestError(f"{where}: '{key}' must not contain NUL characters")
    return value


def _limits(table: object, where: str) -> Limits:
    if not isinstance(table, dict):
        raise ManifestError(f"{where}: 'limits' must be a table")
    unknown = sorted(set(table) - _LIMIT_KEYS)
    if unknown:
        raise ManifestError(f"{where}: unknown key 'limits.{unknown[0]}'; known: {sorted(_LIMIT_KEYS)}")
    values = {}
    for key, value in table.items():
        if key == "cpus":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1024:
                raise ManifestError(f"{where}: 'limits.cpus' must be a number of cores from 0 to 1024, a fraction "
                                    f"allowed (0 = as many as the organiser allows)")
            values[key] = float(value) or None
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= LIMIT_MAX[key]:
            shown = value if isinstance(value, int) and not isinstance(value, bool) else describe_value(value)
            raise ManifestError(f"{where}: 'limits.{key}' must be an integer in 0..{LIMIT_MAX[key]} (0 = no limit), "
                                f"got {shown}")
        values[key] = value or None
    return Limits(**values)


def resolve_bot(text: str, base: Path | None = None) -> BotSpec:
    """A manifest path (``*.toml``) or a plain command line → :class:`BotSpec`."""
    base = base or Path.cwd()
    candidate = Path(text) if Path(text).is_absolute() else base / text
    if text.endswith(".toml"):
        if candidate.is_dir():
            raise ManifestError(f"{text}: is a folder, not a manifest file")
        if not candidate.is_file():
            raise ManifestError(f"{text}: no such manifest file")
        return load_manifest(candidate)
    try:
        command = shlex.split(text)
    except ValueError:  # shlex's only complaint: "No closing quotation" (or escape)
        raise ManifestError(f"bot command {json.dumps(text, ensure_ascii=False)} has an unbalanced quote") from None
    if not command:
        raise ManifestError("empty bot command")
    return BotSpec(name=_default_name(command), command=tuple(command), cwd=base)


def _default_name(command: list[str]) -> str:
    """The script or module a command runs, else the program, as a valid name.

    ``python -m bots.random`` → ``bots.random``; ``node bots/alpha.js --fast`` → ``alpha``;
    ``./my_bot`` → ``my_bot``; ``"./my bot"`` → ``my-bot``.
    """
    if "-m" in command[:-1]:
        return _safe(command[command.index("-m") + 1])
    arguments = [word for word in command[1:] if not word.startswith("-")]
    word = arguments[0] if arguments else command[0]
    return _safe(Path(word).stem or word)
