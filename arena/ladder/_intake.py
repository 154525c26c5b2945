"""Admitting a ladder submission: unpack the archive, build the bot, run check-bot on it.

Everything in a submission is untrusted, the build step most of all: it is the only place where
an author's code runs before the bot has passed check-bot, with the bot's folder writable. It
runs with the sandbox the arena gives bots (``arena/sandbox/_sandbox.py``), plus:

- its own leased uid (when the arena is root), which owns the bot's folder during the build
  and nothing else; afterwards the folder goes back to the arena's uid with modes the arena
  chooses (files ``0644``/``0755``, no setuid), so no later bot uid can change the built bot;
- with bubblewrap: no network, a read-only filesystem but for the bot's folder, a private
  ``/tmp`` and its own PID namespace, and the paths the caller hides not there at all (a
  ladder hides its file, database and logs and every other submission's folder: a hostile
  build or bot must not copy the leading bots' code out through its report or its folder);
- a cgroup capping its processes (a fork bomb stops there; root only) and :data:`BUILD_LIMITS`;
- a time limit, and caps on what its folder holds (bytes, files, depth: checked while it runs),
  after which every process it started is killed (process group, cgroup, uid; without root,
  only its process group and what dies with it). How: :mod:`arena.ladder._build`.

After the build, the manifest must be the one submitted, and the bot's folder and a relative
program must still lie inside the archive's folder: a build that swaps them for links out of it
is refused, because the arena opens those paths with its own rights when it starts the bot.
"""

from __future__ import annotations

import os
import secrets
import stat
from dataclasses import dataclass, fields, replace
from pathlib import Path

import trio

from ..match import check_bot
from ..players import BotSpec, ManifestError, load_manifest, TimeControl
from ..sandbox import detect_sandbox, Limits, Sandbox, SandboxError
from ._archive import MANIFEST, ArchiveError, unpack
from ._build import BUILD_LIMITS as BUILD_LIMITS
from ._build import BUILD_MAX_BYTES as BUILD_MAX_BYTES
from ._build import BuildCaps, run_build


@dataclass(frozen=True)
class Admission:
    """The verdict on one submission.

    ``bot_dir``: the unpacked (and built) bot, manifest at ``bot_dir / "bot.toml"``; ``None``
    only when the archive itself was refused (nothing usable was unpacked). ``report``: what
    the author sees: the archive error, the build's exit code and output tail, or check-bot's
    report.
    """

    passed: bool
    bot_dir: Path | None
    report: str


async def admit(data: bytes, workdir: Path, game: str, players: int, *,
                build_timeout_s: float = 120, sandbox: str | Sandbox = "auto",
                caps: BuildCaps = BuildCaps(), time_control: TimeControl = TimeControl()) -> Admission:
    """Unpack ``data`` into the empty folder ``workdir``, build it (the manifest's optional
    ``build`` command, in the sandbox: no network, time-limited, processes and memory capped),
    then run check-bot for ``game`` at ``players`` seats.

    ``sandbox``: a mode for :func:`~arena.sandbox._detect.detect_sandbox` (``"auto"``, ``"bwrap"``,
    ``"none"``), or a :class:`Sandbox` whose ``hidden_paths`` (:meth:`Sandbox.with_hidden`) the
    build and the bot under check-bot must not see (under bubblewrap; a path that does not
    exist is skipped, there is nothing to read). A ladder passes its own, hiding its file,
    database, logs and the other submissions' folders; ``workdir`` is never hidden. Its
    ``allow_root`` is ignored: an untrusted build or bot never runs as root. ``caps``: what the
    build may leave in the folder. ``time_control``: the clock check-bot plays at (a ladder's
    own ``[time]``, so a bot that passes meets the clock its games give it).

    The archive's unpacking and every walk of the folder run in worker threads, so the event
    loop (a ladder's pages and games) goes on meanwhile.

    ``workdir`` is made ``0755``; the folders above it must let other users through (``o+x``),
    since the build and the bot run under their own uids. Never raises for anything the archive
    contains; only for arena-side failures (a bad ``sandbox`` mode, a full disk, no free uid,
    ``ValueError`` for a ``workdir`` other users cannot reach).
    """
    workdir.mkdir(parents=True, exist_ok=True)
    workdir.chmod(0o755)
    closed = [folder for folder in workdir.resolve().parents if not folder.stat().st_mode & 0o001]
    if closed and os.geteuid() == 0:
        # The bot's folder would be shown read-only or empty to a build and bot running under
        # their own uids (arena/sandbox/_mounts.py): every submission would fail, for no fault of its author.
        raise ValueError(f"{workdir}: {closed[0]} is closed to other users, so bots running under their own "
                         f"uids cannot reach their folders; keep the ladder's files below folders with o+x")
    try:
        bot_dir = await trio.to_thread.run_sync(unpack, data, workdir)
    except ArchiveError as error:
        return Admission(False, None, f"archive refused: {error}")
    submitted = (bot_dir / MANIFEST).read_bytes()  # at most the archive's 20 MiB a file
    try:
        spec = await trio.to_thread.run_sync(load_manifest, bot_dir / MANIFEST)
    except ManifestError as error:
        return Admission(False, bot_dir, str(error).replace(f"{bot_dir}/", "").replace(str(bot_dir), "the archive"))
    box = _own_sandbox(detect_sandbox(sandbox) if isinstance(sandbox, str) else sandbox)
    try:
        lines = []
        problem = _outside(spec, bot_dir) or _raised_limits(spec)
        if problem is None and spec.build is not None:
            problem, log = await run_build(spec, bot_dir, box, build_timeout_s, caps)
            lines += log
            problem = problem or await trio.to_thread.run_sync(_changed, spec, bot_dir, submitted, caps)
        if problem is not None:
            return Admission(False, bot_dir, "\n".join([problem, *lines]))
        try:
            report = await check_bot(spec, games=[game], time_control=time_control, sandbox=box, players=players)
        except SandboxError as error:
            return Admission(False, bot_dir, "\n".join([*lines, f"check-bot: the bot cannot be confined: {error}"]))
        return Admission(report.passed, bot_dir, "\n".join([*lines, *report.lines()]))
    finally:
        box.close()


def _own_sandbox(box: Sandbox) -> Sandbox:
    """``box`` for one vetting: a cgroup folder of its own (closing it must not touch the
    cgroups of the ladder's games running in this process, ``pirate-arena-<pid>``; the pid
    stays last in the name, where stale-cgroup sweeping looks for it), no root bots, and only
    the hidden paths that exist (bubblewrap cannot mount over a missing file in its read-only
    view: the build would not start)."""
    cgroups = box.cgroups
    if cgroups is not None:
        cgroups = cgroups.renamed(f"pirate-arena-intake{secrets.token_hex(4)}-{os.getpid()}")
    return replace(box, cgroups=cgroups, allow_root=False,
                   hidden_paths=tuple(path for path in box.hidden_paths if path.exists()))


def _inside(path: Path, folder: Path) -> bool:
    path, folder = path.resolve(), folder.resolve()
    return path == folder or folder in path.parents


def _outside(spec: BotSpec, bot_dir: Path) -> str | None:
    """Why the bot's folder or its relative program lies outside ``bot_dir``, or None."""
    cwd = spec.cwd or bot_dir
    if not _inside(cwd, bot_dir) or not cwd.is_dir():
        return f"{MANIFEST}: 'cwd' must name a folder inside the archive"
    program = spec.command[0]
    if "/" in program and not os.path.isabs(program) and not _inside(cwd / program, bot_dir):
        return f"{MANIFEST}: the program {program!r} must lie inside the archive"
    return None


def _raised_limits(spec: BotSpec) -> str | None:
    """Why the manifest's ``[limits]`` are refused: a ladder's bots may lower the arena's
    default limits, never raise or lift them (they would play every game with them)."""
    defaults = Limits()
    for field in fields(Limits):
        ceiling, asked = getattr(defaults, field.name), getattr(spec.limits, field.name)
        if ceiling is not None and (asked is None or asked > ceiling):
            return (f"{MANIFEST}: 'limits.{field.name}' may not be above the ladder's {ceiling} "
                    f"(0, no limit, is not allowed either)")
    return None


def _changed(spec: BotSpec, bot_dir: Path, submitted: bytes, caps: BuildCaps) -> str | None:
    """Why the built folder may not be used (the manifest replaced, paths led out, too big),
    or None."""
    manifest = bot_dir / MANIFEST
    try:
        same = stat.S_ISREG(manifest.lstat().st_mode) and manifest.read_bytes() == submitted
    except OSError:  # removed
        same = False
    if not same:
        return f"build: it changed or replaced {MANIFEST}; the build must leave the manifest as submitted"
    problem = _outside(spec, bot_dir)
    if problem:
        return f"build: afterwards, {problem}"
    size = caps.measure(bot_dir)
    if size.over is not None:
        return f"build: afterwards, its folder holds {size.over}"
    return None
