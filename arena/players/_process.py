"""Bot processes: start one in its own session, capture its stderr, kill all it started.

A bot's processes are killed together, however they tried to leave: by process group always;
under bubblewrap by killing the sandbox's init (bubblewrap's ``--info-fd`` names it; its death
ends its PID namespace, so every process of the bot with it); without bubblewrap and root by
every process of the bot's own user namespace (``arena.sandbox._userns``); as root by every
process of its uid and its cgroups. A slot is free only once all of them are gone. Every bot
is started by ``arena.sandbox._spawn``: it dies with the arena's process, however that ends.

This layer knows bytes and processes only; framing and messages live in ``_connection``.

A bot's stdout is, where the system allows, a connected TCP loopback socket rather than a
pipe (``_reply_socket``: the kernel stamps when each reply arrived); stdin stays a pipe. Its
stderr is kept by ``_stderr_log``; its program is checked before it starts by ``_program``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from ..sandbox import BotCgroup, ViewRefused, Confinement, Sandbox, SandboxError, current_arch, Child, spawn
from ..sandbox import ListenerInstaller, listener_pair, receive_listener, answer as answer_sysinfo
from ..sandbox import UidError, UidLease, kill_namespace, namespace_of
from ._faults import BotFault, FaultKind
from ._manifest import BotSpec, log_name
from ._program import bot_environment, missing_program, program_exists, why_not_executable
from ._reply_socket import open_reply_socket
from ._stderr_log import StderrLog


#: how the fault of a bot whose view cannot be built begins (``arena doctor`` says it as a
#: tournament's start does)
VIEW_REFUSED = "its view cannot be built"


class BotProcess:
    """A running bot: its stdin pipe, its stdout (the arena end of a stamping socket, or the
    pipe where no socket could be made), its stderr log, and a way to kill all it started.

    ``init``: a pidfd of its sandbox's init (under bubblewrap); ``namespace``: the inode of its
    own user namespace where that is its scope (no bubblewrap, no root): see the module
    docstring."""

    def __init__(self, spec: BotSpec, process: Child, stderr: StderrLog, uid: int | None = None,
                 cgroup: BotCgroup | None = None, stdout: socket.socket | None = None,
                 init: int | None = None, namespace: int | None = None) -> None:
        self.spec = spec
        self.uid = uid
        self.cgroup = cgroup
        self.process = process
        self.stdin = process.stdin
        self.stdout = stdout if stdout is not None else process.stdout
        self.stderr = stderr
        self.init = init
        self.namespace = namespace

    @property
    def pid(self) -> int:
        return self.process.pid

    def returncode(self) -> int | None:
        return self.process.poll()

    def release(self) -> None:
        """Thaw the bot for good, where it is frozen: it is being shut down (``bye``, SIGTERM)."""
        if self.cgroup is not None:
            self.cgroup.release()

    def kill(self) -> None:
        """SIGKILL the whole process group (the bot and every child it left in the group), its
        sandbox's init (and so its PID namespace), every process of its user namespace, and
        every process in the bot's cgroup (thawed after, where frozen: cgroup v1 delivers no
        SIGKILL to a frozen process).

        Under bubblewrap the init alone: bubblewrap, its parent, then reaps it and exits; killed
        first, it would leave the init to whatever adopts orphans (a container's init may never
        reap it). Nothing of the bot is in bubblewrap's own group."""
        if self.init is not None:
            try:
                signal.pidfd_send_signal(self.init, signal.SIGKILL)
            except ProcessLookupError:
                pass
        else:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self.namespace is not None:
            kill_namespace(self.namespace, rounds=1)
        if self.cgroup is not None:
            self.cgroup.kill_all()

    async def terminate(self, grace: float = 0.5) -> None:
        """SIGTERM the group, wait up to ``grace`` seconds for the bot to exit, then SIGKILL.
        Under bubblewrap no SIGTERM: it would end bubblewrap, not the bot (the init of a PID
        namespace ignores it); the bot has had its ``bye``."""
        self.release()
        if self.process.poll() is None:
            if self.init is None:
                try:
                    os.killpg(self.process.pid, signal.SIGTERM)
                except (ProcessLookupError, PermissionError):
                    pass
            with trio.move_on_after(grace):
                await self.process.wait()
        self.kill()
        with trio.CancelScope(shield=True):
            await self._wait_sandbox_gone()
            with trio.move_on_after(5.0):
                await self.process.wait()
            if self.process.poll() is None:  # bubblewrap itself did not end with its init
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
                await self.process.wait()
            if self.uid is not None:
                await _kill_uid(self.uid)
            await self._wait_group_gone()
            if self.namespace is not None:
                await trio.to_thread.run_sync(kill_namespace, self.namespace)
            if self.cgroup is not None:
                await self.cgroup.kill_and_remove()

    async def _wait_sandbox_gone(self, limit: float = 5.0) -> None:
        # The init's pidfd reads once it has exited, and Linux lets the init of a PID
        # namespace exit only after every other process of it is gone.
        if self.init is not None:
            with trio.move_on_after(limit):
                await trio.lowlevel.wait_readable(self.init)

    def close(self) -> None:
        """Let go of the sandbox's init (its pidfd), once nothing will signal or wait for it."""
        if self.init is not None:
            trio.lowlevel.notify_closing(self.init)
            os.close(self.init)
            self.init = None

    async def _wait_group_gone(self, limit: float = 2.0) -> None:
        # Children the bot left in its group are not ours to wait() for: they are reaped by
        # init after SIGKILL. Poll briefly so that "the slot is free" means the group is gone.
        delay = 0.001
        with trio.move_on_after(limit):
            while True:
                try:
                    os.killpg(self.process.pid, 0)
                except (ProcessLookupError, PermissionError):
                    return
                await trio.sleep(delay)
                delay = min(delay * 2, 0.05)

    async def _pump_stderr(self, done: trio.Event) -> None:
        stream = self.process.stderr
        try:
            while data := await stream.receive_some(65536):
                self.stderr.write(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        finally:
            done.set()


async def scope_of(sandbox: Sandbox, process: Child, uid: int | None, info: int | None) -> tuple[int | None, int | None]:
    """(``init``, ``namespace``) of :class:`BotProcess` for a process just started in
    ``sandbox`` (``info``: the read end of its bubblewrap's ``--info-fd``, closed here)."""
    init = await sandbox_init(info) if info is not None else None
    own = sandbox.bwrap is None and uid is None and sandbox.own_namespaces
    return init, namespace_of(process.pid) if own else None


async def sandbox_init(info: int, limit: float = 10.0) -> int | None:
    """A pidfd of the init of a bubblewrap sandbox, read from the descriptor given to its
    ``--info-fd`` (closed here), or ``None`` where bubblewrap failed before it made one (it
    then wrote nothing) or the init is gone already."""
    data = b""
    with trio.move_on_after(limit):
        async with trio.lowlevel.FdStream(info) as stream:
            while chunk := await stream.receive_some(4096):
                data += chunk
    try:
        pid = int(json.loads(data)["child-pid"])
        return os.pidfd_open(pid)
    except (ValueError, KeyError, TypeError, OSError):
        return None


def _machine_memory() -> int:
    """The machine's memory, in bytes."""
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


async def _kill_uid(uid: int) -> None:
    """Kill every process of ``uid`` (those that left the process group with ``setsid``)."""
    kill = shutil.which("kill") or "/bin/kill"
    try:
        await trio.run_process([kill, "-9", "-1"], user=uid, group=uid, extra_groups=[],
                               check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        pass




@asynccontextmanager
async def open_bot_process(spec: BotSpec, sandbox: Sandbox | None = None, stderr_limit: int = 16 * 1024,
                           log_dir: Path | None = None, view_argv: Sequence[str] = ()) -> AsyncIterator[BotProcess]:
    """Start ``spec`` in a new session inside ``sandbox``; on exit SIGTERM, a short grace,
    SIGKILL the group (and, with a dropped uid, every process of that uid).

    Raises :class:`BotFault` (``CRASH``) if the command cannot be started at all, and
    :class:`SandboxError` if the arena runs as root, the bot cannot have its own uid, and the
    sandbox does not allow root bots (or no bot uid is free). ``view_argv``: another command
    whose paths the bot is shown too (``arena doctor``'s probe, in a manifest's view).
    """
    sandbox = sandbox or Sandbox()
    argv = spec.argv()
    env = bot_environment(spec)
    if not program_exists(spec):
        raise BotFault(FaultKind.CRASH, missing_program(spec))
    not_executable = why_not_executable(argv[0], spec.cwd)
    if not_executable:
        # Said before the sandbox's checks: as root, a file nobody may run would otherwise read
        # as a bot that cannot have its own uid, and without root as exec's "Permission denied".
        raise BotFault(FaultKind.CRASH, f"could not start: {not_executable}")
    confinement = sandbox.check(spec.name, argv, spec.cwd, env, view_argv)
    lease = None
    if confinement.own_uid:
        try:
            lease = sandbox.uids.acquire()
        except UidError as error:
            raise SandboxError(str(error)) from None
    try:
        async with _started(spec, sandbox, argv, env, confinement, lease, stderr_limit, log_dir,
                            view_argv) as bot:
            yield bot
    finally:
        if lease is not None:
            lease.release()  # only now: every process of the uid was killed


@asynccontextmanager
async def _started(spec: BotSpec, sandbox: Sandbox, argv: list[str], env: dict[str, str], confinement: Confinement,
                   lease: UidLease | None, stderr_limit: int, log_dir: Path | None,
                   view_argv: Sequence[str] = ()) -> AsyncIterator[BotProcess]:
    uid = lease.uid if lease is not None else None
    cgroup = sandbox.new_cgroup(spec.limits)
    try:
        reply_socket, bot_end = open_reply_socket(sandbox.loopback)
    except OSError:
        reply_socket = bot_end = None  # a pipe then: replies are timed when read, not when they arrive
    seccomp_fd = info = None
    data: list[int] = []
    # Its sysinfo calls answered by the arena: the filter's listener comes back over a socket.
    answers = listener_pair() if sandbox.sysinfo_missing is None else None
    try:
        prepared = await trio.to_thread.run_sync(sandbox.prepare_view, argv, spec.cwd, env, uid, confinement.plan,
                                                 sandbox.tmpfs_bytes(spec.limits), view_argv)
        seccomp_fd = sandbox.seccomp_fd()
        info = os.pipe() if sandbox.bwrap is not None else None
        written, data = sandbox.private_files(uid)
        process = await spawn(
            sandbox.command(argv, spec.cwd, uid, confinement.plan, env=env, seccomp_fd=seccomp_fd,
                            view_argv=view_argv, prepared=prepared, info_fd=info[1] if info else None,
                            data=written),
            stdin=subprocess.PIPE,
            stdout=bot_end.fileno() if bot_end is not None else subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=spec.cwd,
            env=sandbox.environment(env, argv, spec.cwd),
            start_new_session=True,
            pass_fds=tuple(fd for fd in (seccomp_fd, info[1] if info else None, *data) if fd is not None),
            preexec_fn=sandbox.preexec(spec.limits, uid, cgroup, confinement.plan, spec.cwd or Path.cwd(),
                                       seccomp=True, images=prepared.images if prepared is not None else (),
                                       sysinfo=ListenerInstaller(current_arch(), answers[1]) if answers else None),
        )
    except (OSError, subprocess.SubprocessError, ViewRefused) as error:
        if reply_socket is not None:
            reply_socket.close()
        if info is not None:
            os.close(info[0])
        if answers is not None:
            answers[0].close()
        if cgroup is not None:
            await cgroup.kill_and_remove()
        if isinstance(error, ViewRefused):  # never shown its folders some other way: refused
            raise BotFault(FaultKind.CRASH, f"{VIEW_REFUSED}: {error}") from None
        raise BotFault(FaultKind.CRASH, f"could not start {argv[0]!r}: {getattr(error, 'strerror', None) or error}") from None
    finally:
        if bot_end is not None:
            bot_end.close()  # the bot holds its own copy; ours would hide its end of stream
        if seccomp_fd is not None:
            os.close(seccomp_fd)  # bubblewrap has its own copy
        if info is not None:
            os.close(info[1])  # bubblewrap's copy closes once it has written
        for fd in data:
            os.close(fd)  # bubblewrap has its copies
        if answers is not None:
            answers[1].close()
    listener = receive_listener(answers[0]) if answers is not None else None
    if answers is not None:
        answers[0].close()
    with trio.CancelScope(shield=True):  # the process runs: nothing may stop us before it is ours to end
        init, namespace = await scope_of(sandbox, process, uid, info[0] if info is not None else None)
    log_path = log_dir / log_name(spec.name, process.pid) if log_dir is not None else None
    bot = BotProcess(spec, process, StderrLog(stderr_limit, log_path), uid, cgroup, reply_socket, init, namespace)
    try:
        async with trio.open_nursery() as nursery:
            drained = trio.Event()
            nursery.start_soon(bot._pump_stderr, drained)
            if listener is not None:
                memory = spec.limits.memory_mb * 2**20 if spec.limits.memory_mb else _machine_memory()
                nursery.start_soon(answer_sysinfo, listener, memory)
                listener = None
            try:
                yield bot
            finally:
                with trio.CancelScope(shield=True):
                    await bot.terminate()
                    with trio.move_on_after(0.5):  # keep the last words of the bot
                        await drained.wait()
                nursery.cancel_scope.cancel()
    finally:
        bot.kill()
        bot.close()
        bot.stderr.close()
        if listener is not None:  # never handed to its task
            os.close(listener)
        if reply_socket is not None:
            reply_socket.close()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with trio.CancelScope(shield=True):
                    await stream.aclose()
