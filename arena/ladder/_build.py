"""A submission's build step: run it in the sandbox, watch its folder, hand the folder back.

The build is the one place where an author's code runs before the bot has passed check-bot,
with the bot's folder writable (what confines it: :mod:`arena.ladder._intake`). Besides the
time limit, what it leaves is capped *while it runs* (:class:`BuildCaps`): every
:data:`POLL_S` a worker thread counts the folder (:func:`arena.ladder._tree.measure`, which
stops at the caps) and the build is killed as soon as one is passed, so a build cannot fill the
disk before a check at its end. What it writes between the count that passes a cap and its
death (no grace then: SIGKILL) is over the cap: measured on a loaded 2-core machine, a build
writing 1 MiB files from Python as fast as it can left 42-89 MiB against a cap of 20 MiB and
245-292 MiB against 200 MiB (before: it wrote until the time limit); one making empty files
left 53,000-61,500 entries against 50,000. A hard cap would need a filesystem quota.

Afterwards the folder goes back to the arena's uid with modes the arena chooses (files
``0644``/``0755``, no setuid), in a walk that is iterative and bounded by the same caps, off the
event loop: whatever the build left (1,500 nested folders, 160,000 files) neither crashes the
ladder nor stalls its pages.
"""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import trio

from ..players import BotSpec, BotProcess, scope_of, bot_environment, program_exists, StderrLog
from ..sandbox import memory_detail, Limits, Confinement, Sandbox, SandboxError, spawn, UidLease
from ._tree import TreeSize, measure

#: What a build step may use besides time: address space, processes, open files, file size.
BUILD_LIMITS = Limits(memory_mb=2048, cpu_s=None, processes=128, open_files=1024, file_size_mb=64)
#: What the bot's folder may hold once built, by default (the archive itself may unpack to 50 MiB).
BUILD_MAX_BYTES = 200 * 2**20
#: How many lines of the build's output (stdout and stderr together) the report keeps.
LOG_LINES = 40
#: How often the folder of a running build is counted, in seconds.
POLL_S = 0.05


@dataclass(frozen=True)
class BuildCaps:
    """What a build may leave in the bot's folder: bytes (the apparent sizes of its files),
    entries (files, folders, links) and how deep they lie (1 for the folder's own entries)."""

    max_bytes: int = BUILD_MAX_BYTES
    max_files: int = 50_000
    max_depth: int = 64

    def measure(self, folder: Path) -> TreeSize:
        """:func:`measure` of ``folder`` under these caps (blocks: call it in a thread)."""
        return measure(folder, max_depth=self.max_depth, max_entries=self.max_files, max_bytes=self.max_bytes)


async def run_build(spec: BotSpec, bot_dir: Path, box: Sandbox, timeout: float,
                    caps: BuildCaps = BuildCaps()) -> tuple[str | None, list[str]]:
    """Run ``spec``'s build in ``bot_dir``; (why it failed or None, the lines of the report on
    it). Raises only for the arena's side (``UidError``: no free uid)."""
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
            await trio.to_thread.run_sync(_own_tree, bot_dir, lease.uid)
        returncode, log, memory, over = await _run(build, env, box, confinement, lease, timeout, caps)
    finally:
        with trio.CancelScope(shield=True):  # every process of the uid is dead by now
            linked, left = await trio.to_thread.run_sync(_restore_tree, bot_dir, caps)
        if lease is not None:
            lease.release()
    tail = log.tail(LOG_LINES)
    lines = [f"build: {shlex.join(spec.build)}",
             *([f"last {LOG_LINES} lines of its output:", tail] if tail else ["it printed nothing"])]
    killed = "every process it started was killed"
    if over is not None:
        return f"build stopped: its folder holds {over}; {killed}", lines
    if left is not None:
        return f"build: afterwards, its folder holds {left}", lines
    if memory is not None:
        return f"build failed: it {memory}", lines
    if returncode is None:
        return f"build stopped: still running after {timeout:g} s (the time limit); {killed}", lines
    if returncode != 0:
        how = f"was killed by signal {-returncode}" if returncode < 0 else f"exited with code {returncode}"
        return f"build failed: it {how}", lines
    if linked:
        return f"build: it made hardlinks ({', '.join(linked[:3])}); they were removed and the build refused", lines
    return None, lines


async def _run(build: BotSpec, env: dict[str, str], box: Sandbox, confinement: Confinement,
               lease: UidLease | None, timeout: float, caps: BuildCaps,
               ) -> tuple[int | None, StderrLog, str | None, str | None]:
    """Start the build, wait up to ``timeout`` seconds or until its folder passes a cap, then
    kill all it started. Returns (exit code, or None if it was stopped; its output, stdout and
    stderr merged; where its memory cgroup saw the kernel kill one of its processes, what it
    used; the cap its folder passed, or None)."""
    assert build.cwd is not None
    uid = lease.uid if lease is not None else None
    cgroup = box.new_cgroup(build.limits)
    log = StderrLog()
    read_fd, write_fd = os.pipe()
    info = os.pipe() if box.bwrap is not None else None
    written, data = box.private_files(uid)
    try:
        process = await spawn(
            box.command(build.argv(), build.cwd, uid, confinement.plan, writable=[build.cwd], env=env, whole_system=True,
                        tmp_bytes=box.tmpfs_bytes(build.limits), info_fd=info[1] if info else None, data=written),
            stdin=subprocess.DEVNULL, stdout=write_fd, stderr=write_fd, cwd=build.cwd,
            env=box.environment(env, build.argv(), build.cwd), start_new_session=True,
            pass_fds=(*((info[1],) if info else ()), *data),
            preexec_fn=box.preexec(build.limits, uid, cgroup, confinement.plan, build.cwd))
    except (OSError, subprocess.SubprocessError) as error:
        os.close(read_fd)
        if info is not None:
            os.close(info[0])
        if cgroup is not None:
            await cgroup.kill_and_remove()
        log.write(f"could not start {build.command[0]!r}: {getattr(error, 'strerror', None) or error}\n".encode())
        return 127, log, None, None
    finally:
        os.close(write_fd)
        if info is not None:
            os.close(info[1])
        for fd in data:
            os.close(fd)
    with trio.CancelScope(shield=True):  # the build runs: nothing may stop us before it is ours to end
        init, namespace = await scope_of(box, process, uid, info[0] if info is not None else None)
    running = BotProcess(build, process, log, uid, cgroup, init=init, namespace=namespace)
    returncode = memory = over = None

    async def watch(scope: trio.CancelScope) -> None:
        nonlocal over
        while True:
            await trio.sleep(POLL_S)
            size = await trio.to_thread.run_sync(partial(caps.measure, build.cwd))
            if size.over is not None:
                over = size.over
                scope.cancel()  # stops the wait below: the build is killed at once
                return

    async with trio.open_nursery() as nursery:
        drained = trio.Event()
        nursery.start_soon(_pump, trio.lowlevel.FdStream(read_fd), log, drained)
        try:
            with trio.move_on_after(timeout):
                async with trio.open_nursery() as waiting:
                    waiting.start_soon(watch, waiting.cancel_scope)
                    returncode = await process.wait()
                    waiting.cancel_scope.cancel()
            kills = cgroup.oom_kills() if cgroup is not None else 0
            if kills:
                memory = memory_detail(cgroup.memory_mb, kills)
        finally:  # also when the ladder is cancelled: the uid is handed back only once all is dead
            with trio.CancelScope(shield=True):
                # its group, its sandbox, its cgroup, its uid: nothing survives; past a cap no
                # grace, every moment it lives it writes
                await running.terminate(grace=0 if over is not None else 0.5)
                running.close()
                with trio.move_on_after(0.5):  # what it wrote last
                    await drained.wait()
            nursery.cancel_scope.cancel()
    if over is not None:
        returncode = None
    return returncode, log, memory, over


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
    """Give ``folder`` and everything in it (as unpacked: no links, at most the archive's
    entries) to the build's ``uid``."""
    os.lchown(folder, uid, uid)
    stack = [os.fspath(folder)]
    while stack:
        with os.scandir(stack.pop()) as scan:
            for entry in scan:
                os.lchown(entry.path, uid, uid)
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)


def _restore_tree(folder: Path, caps: BuildCaps) -> tuple[list[str], str | None]:
    """Give ``folder``'s tree back to the arena with modes it chooses (a later bot uid may read,
    not write); remove files with other links (a build could have linked a file from outside,
    which must not be changed). Returns the removed paths, relative to ``folder``, and the cap
    the tree passed (``None``: none): then it stops at once, and the tree, not usable, must be
    removed (:func:`arena.ladder._tree.remove_tree`, which any tree yields to)."""
    me, group = os.getuid(), os.getgid()
    removed: list[str] = []
    entries = 0
    stack = [(os.fspath(folder), 0)]
    while stack:
        path, depth = stack.pop()
        os.lchown(path, me, group)
        os.chmod(path, 0o755)  # before it is read: a build may have left it closed (0000)
        with os.scandir(path) as scan:
            for entry in scan:
                entries += 1
                if entries > caps.max_files:
                    return [], f"more than {caps.max_files} files and folders (the limit)"
                if depth + 1 > caps.max_depth:
                    return [], f"entries more than {caps.max_depth} levels deep (the limit)"
                if len(os.fsencode(entry.path)) >= 4000:
                    return [], "a path longer than the system allows"
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISDIR(info.st_mode):
                    stack.append((entry.path, depth + 1))
                elif stat.S_ISLNK(info.st_mode):
                    os.lchown(entry.path, me, group)  # a link's own mode means nothing; what it names is checked
                elif stat.S_ISREG(info.st_mode) and info.st_nlink > 1:
                    removed.append(entry.path)  # unlinked after the walk: each name of a pair counts
                else:
                    os.lchown(entry.path, me, group)
                    os.chmod(entry.path, 0o755 if info.st_mode & 0o111 else 0o644)
    for path in removed:
        os.unlink(path)
    return sorted(os.path.relpath(path, folder) for path in removed), None
