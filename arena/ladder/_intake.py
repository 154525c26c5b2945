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
- a time limit, after which every process it started is killed (process group, cgroup, uid;
  without root, only its process group and what dies with it).

After the build, the manifest must be the one submitted, and the bot's folder and a relative
program must still lie inside the archive's folder: a build that swaps them for links out of it
is refused, because the arena opens those paths with its own rights when it starts the bot.
"""

from __future__ import annotations

import os
import secrets
import shlex
import stat
import subprocess
from dataclasses import dataclass, fields, replace
from pathlib import Path

import trio

from ..match._checkbot import check_bot
from ..players._manifest import BotSpec, ManifestError, load_manifest
from ..players._process import BotProcess, StderrLog, bot_environment, program_exists
from ..sandbox._botcgroup import memory_detail
from ..sandbox._sandbox import Confinement, Limits, Sandbox, SandboxError, detect_sandbox
from ..sandbox._uids import UidLease
from ._archive import MANIFEST, ArchiveError, unpack

#: What a build step may use besides time: address space, processes, open files, file size.
BUILD_LIMITS = Limits(memory_mb=2048, cpu_s=None, processes=128, open_files=1024, file_size_mb=64)
#: What the bot's folder may hold once built (the archive itself may unpack to 50 MiB).
BUILD_MAX_BYTES = 200 * 2**20
#: How many lines of the build's output (stdout and stderr together) the report keeps.
LOG_LINES = 40


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
                build_timeout_s: float = 120, sandbox: str | Sandbox = "auto") -> Admission:
    """Unpack ``data`` into the empty folder ``workdir``, build it (the manifest's optional
    ``build`` command, in the sandbox: no network, time-limited, processes and memory capped),
    then run check-bot for ``game`` at ``players`` seats.

    ``sandbox``: a mode for :func:`~arena.sandbox._sandbox.detect_sandbox` (``"auto"``, ``"bwrap"``,
    ``"none"``), or a :class:`Sandbox` whose ``hidden_paths`` (:meth:`Sandbox.with_hidden`) the
    build and the bot under check-bot must not see (under bubblewrap; a path that does not
    exist is skipped, there is nothing to read). A ladder passes its own, hiding its file,
    database, logs and the other submissions' folders; ``workdir`` is never hidden. Its
    ``allow_root`` is ignored: an untrusted build or bot never runs as root.

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
        bot_dir = unpack(data, workdir)
    except ArchiveError as error:
        return Admission(False, None, f"archive refused: {error}")
    submitted = (bot_dir / MANIFEST).read_bytes()
    try:
        spec = load_manifest(bot_dir / MANIFEST)
    except ManifestError as error:
        return Admission(False, bot_dir, str(error).replace(f"{bot_dir}/", ""))
    box = _own_sandbox(detect_sandbox(sandbox) if isinstance(sandbox, str) else sandbox)
    try:
        lines = []
        problem = _outside(spec, bot_dir) or _raised_limits(spec)
        if problem is None and spec.build is not None:
            problem, log = await _build(spec, bot_dir, box, build_timeout_s)
            lines += log
            problem = problem or _changed(spec, bot_dir, submitted)
        if problem is not None:
            return Admission(False, bot_dir, "\n".join([problem, *lines]))
        try:
            report = await check_bot(spec, games=[game], sandbox=box, players=players)
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


def _changed(spec: BotSpec, bot_dir: Path, submitted: bytes) -> str | None:
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
    size = sum(os.lstat(os.path.join(root, name)).st_size for root, _, files in os.walk(bot_dir) for name in files)
    if size > BUILD_MAX_BYTES:
        return f"build: the bot's folder holds {size} bytes afterwards, over the limit of {BUILD_MAX_BYTES}"
    return None


async def _build(spec: BotSpec, bot_dir: Path, box: Sandbox, timeout: float) -> tuple[str | None, list[str]]:
    """Run the build; (why it failed or None, the lines of the report on it)."""
    assert spec.build is not None
    build = BotSpec(spec.name, tuple(spec.build_argv() or ()), bot_dir, spec.env, limits=BUILD_LIMITS)
    if not program_exists(build):
        return f"build: {spec.build[0]!r}: no such program on the ladder's machine", []
    env = bot_environment(build)
    try:
        confinement = box.check(build.name, build.argv(), bot_dir, env)
    except SandboxError as error:
        return f"build: cannot be confined: {error}", []
    lease = box.uids.acquire() if confinement.own_uid else None  # UidError: the arena's problem
    try:
        if lease is not None:
            _own_tree(bot_dir, lease.uid)
        returncode, log, memory = await _run(build, env, box, confinement, lease, timeout)
    finally:
        linked = _restore_tree(bot_dir)  # every process of the uid is dead by now
        if lease is not None:
            lease.release()
    tail = log.tail(LOG_LINES)
    lines = [f"build: {shlex.join(spec.build)}",
             *([f"last {LOG_LINES} lines of its output:", tail] if tail else ["it printed nothing"])]
    if memory is not None:
        return f"build failed: it {memory}", lines
    if returncode is None:
        return f"build stopped: still running after {timeout:g} s (the time limit); every process it started was killed", lines
    if returncode != 0:
        how = f"was killed by signal {-returncode}" if returncode < 0 else f"exited with code {returncode}"
        return f"build failed: it {how}", lines
    if linked:
        return f"build: it made hardlinks ({', '.join(linked[:3])}); they were removed and the build refused", lines
    return None, lines


async def _run(build: BotSpec, env: dict[str, str], box: Sandbox, confinement: Confinement,
               lease: UidLease | None, timeout: float) -> tuple[int | None, StderrLog, str | None]:
    """Start the build, wait up to ``timeout`` seconds, then kill all it started.
    Returns (exit code, or None if it ran out of time; its output, stdout and stderr merged;
    where its memory cgroup saw the kernel kill one of its processes, what it used)."""
    assert build.cwd is not None
    uid = lease.uid if lease is not None else None
    cgroup = box.new_cgroup(build.limits)
    log = StderrLog()
    read_fd, write_fd = os.pipe()
    try:
        process = await trio.lowlevel.open_process(
            box.command(build.argv(), build.cwd, uid, confinement.plan, writable=[build.cwd], env=env,
                        tmp_bytes=box.tmpfs_bytes(build.limits)),
            stdin=subprocess.DEVNULL, stdout=write_fd, stderr=write_fd, cwd=build.cwd,
            env=box.environment(env, build.argv(), build.cwd), start_new_session=True,
            preexec_fn=box.preexec(build.limits, uid, cgroup, confinement.plan, build.cwd))
    except (OSError, subprocess.SubprocessError) as error:
        os.close(read_fd)
        if cgroup is not None:
            await cgroup.kill_and_remove()
        log.write(f"could not start {build.command[0]!r}: {getattr(error, 'strerror', None) or error}\n".encode())
        return 127, log, None
    finally:
        os.close(write_fd)
    running = BotProcess(build, process, log, uid, cgroup)
    returncode = memory = None
    async with trio.open_nursery() as nursery:
        drained = trio.Event()
        nursery.start_soon(_pump, trio.lowlevel.FdStream(read_fd), log, drained)
        try:
            with trio.move_on_after(timeout):
                returncode = await process.wait()
            kills = cgroup.oom_kills() if cgroup is not None else 0
            if kills:
                memory = memory_detail(cgroup.memory_mb, kills)
        finally:  # also when the ladder is cancelled: the uid is handed back only once all is dead
            with trio.CancelScope(shield=True):
                await running.terminate(grace=0.5)  # its group, its cgroup, its uid: nothing survives
                with trio.move_on_after(0.5):  # what it wrote last
                    await drained.wait()
            nursery.cancel_scope.cancel()
    return returncode, log, memory


async def _pump(stream: trio.lowlevel.FdStream, log: StderrLog, done: trio.Event) -> None:
    async with stream:
        try:
            while data := await stream.receive_some(65536):
                log.write(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            done.set()


def _own_tree(folder: Path, uid: int) -> None:
    """Give ``folder`` and everything in it (as unpacked: no links) to the build's ``uid``."""
    for root, dirs, files in os.walk(folder):
        os.lchown(root, uid, uid)
        for name in files:
            os.lchown(os.path.join(root, name), uid, uid)


def _restore_tree(folder: Path) -> list[str]:
    """Give ``folder``'s tree back to the arena with modes it chooses (a later bot uid may read,
    not write); remove files with other links (a build could have linked a file from outside,
    which must not be changed). Returns the removed paths, relative to ``folder``."""
    me, group = os.getuid(), os.getgid()
    removed = []
    for root, dirs, files in os.walk(folder):  # does not follow symlinks to folders
        os.lchown(root, me, group)
        os.chmod(root, 0o755)
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            path = os.path.join(root, name)
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                os.lchown(path, me, group)  # a link's own mode means nothing; what it names is checked above
            elif stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
                removed.append(path)  # unlinked after the walk: each name of a pair counts
            else:
                os.lchown(path, me, group)
                os.chmod(path, 0o755 if info.st_mode & 0o111 else 0o644)
    for path in removed:
        os.unlink(path)
    return sorted(os.path.relpath(path, folder) for path in removed)
