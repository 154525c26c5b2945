"""One bot process's cgroups, and which bots of this process may use the CPU now.

A :class:`BotCgroup` is the bot's folder in every hierarchy of the arena's
:class:`~arena._cgroups.CgroupLayout`. Its process joins them before exec; from then on it and
everything it starts (even after ``setsid``, even under bubblewrap) is counted, limited,
frozen and killed together:

- **pids**: at most ``processes`` of them.
- **cpu**: the same weight as every other bot (v1 ``cpu.shares`` 1024, v2 ``cpu.weight`` 100),
  and a quota of ``cpus`` cores (default and most: one) per 100 ms period.
- **cputime**: their CPU time together, checked against ``cpu_s`` after every move.
- **memory**: ``memory_mb`` for everything they hold together: their memory, their swap
  (v1 ``memsw``; v2 ``memory.swap.max`` 0) and the tmpfs pages they write (``/tmp`` and
  ``/dev/shm`` under bubblewrap), which the kernel charges to the writer's cgroup. Past it the
  kernel's OOM killer ends one of *their* processes, never another's; the arena reads the
  count of such kills and calls it a ``memory`` fault.
- **freezer**: frozen while the bot is not on move (:class:`Turns`).

Frozen processes hold no CPU and cannot fork; a v1-frozen process does not die of SIGKILL
until thawed, so :meth:`BotCgroup.kill_all` thaws after killing.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import trio

from ._cgroups import CgroupLayout
from ._faults import BotFault, FaultKind

#: the CFS period the quota is a share of (the kernel's default)
PERIOD_US = 100_000
#: per version: the freezer's file, and what freezes and thaws
_FREEZER = {1: ("freezer.state", b"FROZEN", b"THAWED"), 2: ("cgroup.freeze", b"1", b"0")}
_CPUTIME = {1: "cpuacct.usage", 2: "cpu.stat"}
_OOM = {1: "memory.oom_control", 2: "memory.events"}


class Turns:
    """Which bots of this process may use the CPU: those on move (and, under ``ponder``, all).

    :meth:`wake` thaws a bot just before its request is written; :meth:`rest` after its
    reply freezes it if another bot is on move, else marks it *resting*: still thawed, frozen
    by the next :meth:`wake` of another bot.
    So a bot asked again right away (a seat with several decisions in a row) costs no write
    at all, and in the usual alternation each move costs one freeze and one thaw (a write of
    a few bytes to an open file each: about 1 us in v1, 3 us in v2 per pair). A resting bot
    runs at most while this process itself works (the engine's step, the next request):
    whenever it waits for a bot, every other bot it started is frozen or on move.
    """

    __slots__ = ("_resting", "_on_move")

    def __init__(self) -> None:
        self._resting: list[BotCgroup] = []
        self._on_move = 0  # bots woken and not yet resting

    def wake(self, cgroup: BotCgroup) -> None:
        self._on_move += 1
        resting = self._resting
        was_resting = False
        if resting:
            for other in resting:
                if other is cgroup:
                    was_resting = True
                else:
                    other.freeze()
            resting.clear()
        if not was_resting:
            cgroup.thaw()

    def rest(self, cgroup: BotCgroup, ponder: bool = False) -> None:
        """``cgroup``'s bot is off move (after a :meth:`wake`): frozen now if another bot is on
        move (a simultaneous decision, another game), else at the next :meth:`wake` of another;
        unless ``ponder`` (it then runs on, and nothing here freezes it)."""
        self._on_move = max(self._on_move - 1, 0)
        if ponder:
            return
        if self._on_move:
            cgroup.freeze()
        elif cgroup not in self._resting:
            self._resting.append(cgroup)

    def park(self) -> None:
        """Freeze every resting bot now."""
        for other in self._resting:
            other.freeze()
        self._resting.clear()

    def forget(self, cgroup: BotCgroup) -> None:
        if cgroup in self._resting:
            self._resting.remove(cgroup)


class BotCgroup:
    """One bot process's cgroups. Create with :meth:`arena._sandbox.Sandbox.new_cgroup`.

    ``processes``, ``cpus``, ``memory_mb``, ``cpu_s``: the limits (``None``: none), applied in
    the hierarchies that serve them. Raises :class:`OSError` where a folder cannot be made or
    a limit cannot be written (nothing is left behind then).
    """

    def __init__(self, layout: CgroupLayout, name: str, processes: int | None = None, cpus: float | None = None,
                 memory_mb: int | None = None, cpu_s: float | None = None, turns: Turns | None = None) -> None:
        layout.prepare()
        self.layout = layout
        self.processes, self.cpus, self.memory_mb, self.cpu_s = processes, cpus, memory_mb, cpu_s
        self.turns = turns
        self.folders = [layout.folder(hierarchy) / name for hierarchy in layout.hierarchies]
        #: role -> (folder, cgroup version)
        self._roles = {role: (layout.folder(hierarchy) / name, hierarchy.version) for role, hierarchy in layout.roles}
        self.frozen = False
        self.dead = False
        self._fds: list[int] = []
        self._freeze = self._cputime = self._oom = None
        try:
            for folder in self.folders:
                folder.mkdir()
            self._apply_limits()
            self._open_files()
        except OSError:
            self.dead = True
            self._close_files()
            self.remove()
            raise

    @property
    def path(self) -> Path:
        """The bot's folder in the first hierarchy (the pids one where there is one)."""
        return self._roles["pids"][0] if "pids" in self._roles else self.folders[0]

    def has(self, role: str) -> bool:
        return role in self._roles

    def _apply_limits(self) -> None:
        roles = self._roles
        if "pids" in roles and self.processes is not None:
            (roles["pids"][0] / "pids.max").write_text(str(self.processes))
        if "cpu" in roles:
            folder, version = roles["cpu"]
            quota = max(1000, round(self.cpus * PERIOD_US)) if self.cpus else None
            if version == 1:
                (folder / "cpu.shares").write_text("1024")
                (folder / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (folder / "cpu.cfs_quota_us").write_text(str(quota or -1))
            else:
                (folder / "cpu.weight").write_text("100")
                (folder / "cpu.max").write_text(f"{quota or 'max'} {PERIOD_US}")
        if "memory" in roles and self.memory_mb is not None:
            folder, version = roles["memory"]
            size = str(self.memory_mb * 2**20)
            if version == 1:
                (folder / "memory.limit_in_bytes").write_text(size)
                if (folder / "memory.memsw.limit_in_bytes").exists():  # swap accounting is on
                    (folder / "memory.memsw.limit_in_bytes").write_text(size)
            else:
                (folder / "memory.max").write_text(size)
                if (folder / "memory.swap.max").exists():
                    (folder / "memory.swap.max").write_text("0")

    def _open_files(self) -> None:
        """The files read or written per move stay open: a write or pread is all it costs."""
        def opened(path: Path, flags: int) -> int:
            fd = os.open(path, flags | os.O_CLOEXEC)
            self._fds.append(fd)
            return fd

        if "freezer" in self._roles:
            folder, version = self._roles["freezer"]
            name, self._frozen_bytes, self._thawed_bytes = _FREEZER[version]
            self._freeze = opened(folder / name, os.O_WRONLY)
        if "cputime" in self._roles and self.cpu_s is not None:
            folder, version = self._roles["cputime"]
            self._cputime = opened(folder / _CPUTIME[version], os.O_RDONLY)
            self._cputime_version = version
        if "memory" in self._roles:
            folder, version = self._roles["memory"]
            self._oom = opened(folder / _OOM[version], os.O_RDONLY)
            self._oom_quiet = os.pread(self._oom, 512, 0)

    def _close_files(self) -> None:
        for fd in self._fds:
            os.close(fd)
        self._fds.clear()
        self._freeze = self._cputime = self._oom = None

    # -- in the child, before exec -------------------------------------------------------------

    def join(self) -> None:
        """Move the calling process into the bot's cgroup in every hierarchy (runs in the child
        before exec, while still root)."""
        for folder in self.folders:
            with open(folder / "cgroup.procs", "w") as procs:
                procs.write("0")

    # -- turns ---------------------------------------------------------------------------------

    @property
    def freezes(self) -> bool:
        """Whether this bot can be frozen (a freezer serves it)."""
        return self._freeze is not None

    def wake(self) -> None:
        """Thaw the bot for its move (and freeze the other resting bots of this process)."""
        if self.turns is not None:
            self.turns.wake(self)
        else:
            self.thaw()

    def rest(self, ponder: bool = False) -> None:
        """The bot is off move: frozen before another bot of this process is woken, unless
        ``ponder``."""
        if self.turns is not None:
            self.turns.rest(self, ponder)
        elif not ponder:
            self.freeze()

    def release(self) -> None:
        """Thaw the bot for good (it is being shut down: it must see ``bye`` and SIGTERM)."""
        if self.turns is not None:
            self.turns.forget(self)
        self.thaw()

    def freeze(self) -> None:
        if not self.frozen and self._freeze is not None and not self.dead:
            try:
                os.pwrite(self._freeze, self._frozen_bytes, 0)
            except OSError:
                return
            self.frozen = True

    def thaw(self) -> None:
        if self.frozen and self._freeze is not None:
            try:
                os.pwrite(self._freeze, self._thawed_bytes, 0)
            except OSError:
                return
            self.frozen = False

    # -- accounting ----------------------------------------------------------------------------

    def cpu_seconds(self) -> float | None:
        """CPU time used by all the bot's processes together (``None`` where not counted)."""
        if "cputime" not in self._roles:
            return None
        folder, version = self._roles["cputime"]
        try:
            text = os.pread(self._cputime, 512, 0) if self._cputime is not None else (folder / _CPUTIME[version]).read_bytes()
        except OSError:
            return None
        if version == 1:
            return int(text) / 1e9
        return _field(text, b"usage_usec") / 1e6

    def oom_kills(self) -> int:
        """How many of the bot's processes the kernel killed for its memory limit."""
        if self._oom is None:
            return 0
        try:
            text = os.pread(self._oom, 512, 0)
        except OSError:
            return 0
        if text == self._oom_quiet:
            return 0
        return _field(text, b"oom_kill")

    def check(self) -> None:
        """Raise the fault of a bot past its memory (an OOM kill among its processes) or past
        ``cpu_s`` (its processes' CPU time together); run after each move."""
        fault = self._fault()
        if fault is not None:
            raise fault

    def explain(self, fault: BotFault) -> BotFault:
        """The fault to record for ``fault``: a crash or timeout of a bot the kernel killed
        for its memory is a ``memory`` fault; one past ``cpu_s``, that timeout."""
        return self._fault() or fault

    def _fault(self) -> BotFault | None:
        kills = self.oom_kills()
        if kills:
            return BotFault(FaultKind.MEMORY, memory_detail(self.memory_mb, kills))
        if self.cpu_s is not None:
            used = self.cpu_seconds()
            if used is not None and used > self.cpu_s:
                return BotFault(FaultKind.TIMEOUT, f"used {used:.1f} s of CPU time, more than its cpu_s of "
                                                   f"{self.cpu_s:g} s (all its processes together)")
        return None

    # -- the end -------------------------------------------------------------------------------

    def pids(self) -> list[int]:
        try:
            return [int(line) for line in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def kill_all(self) -> bool:
        """SIGKILL every process in the cgroup; ``True`` once it is empty. The bot is never
        frozen again (a v1-frozen process would not die)."""
        self.dead = True
        if self.turns is not None:
            self.turns.forget(self)
        return kill_leftovers(self.path, remove=False, thaw=self._freeze_folder())

    def _freeze_folder(self) -> Path | None:
        return self._roles["freezer"][0] if "freezer" in self._roles else None

    def remove(self) -> bool:
        """Remove the folders; ``False`` if processes are still in one (or all are gone already)."""
        self._close_files()
        removed = True
        for folder in self.folders:
            try:
                folder.rmdir()
            except FileNotFoundError:
                pass
            except OSError:
                removed = False
        return removed and not any(folder.exists() for folder in self.folders)

    async def kill_and_remove(self, limit: float = 5.0) -> bool:
        """Kill everything in the cgroup, wait (up to ``limit`` seconds) until it is empty,
        and remove it. ``True`` if the folders are gone.

        A killed process stays in ``cgroup.procs`` until it is reaped; under bubblewrap the
        reaper is the sandbox's own init, which may be last to die, so the folders cannot be
        removed at once. cgroup v1 announces no "empty", so this polls, with growing delays.
        """
        delay = 0.001
        with trio.move_on_after(limit):
            while True:
                self.kill_all()
                if self.remove():
                    return True
                await trio.sleep(delay)
                delay = min(delay * 2, 0.05)
        return self.remove()


def memory_detail(memory_mb: int | None, kills: int) -> str:
    limit = f"its {memory_mb} MiB" if memory_mb is not None else "its limit"
    return (f"used more than {limit} of memory (its processes, and its files in /tmp and /dev/shm, together); "
            f"the kernel killed {kills} of its processes")


def _field(text: bytes, key: bytes) -> int:
    """The number after ``key`` at the start of a line of a cgroup's flat-keyed file."""
    for line in text.splitlines():
        name, _, value = line.partition(b" ")
        if name == key:
            return int(value)
    return 0


def kill_leftovers(folder: Path, remove: bool = True, thaw: Path | None = None, wait: float = 1.0) -> bool:
    """SIGKILL every process in the cgroup ``folder`` (of a bot, or left by a dead arena) and
    thaw it (``thaw``: the folder whose freezer to thaw; by default ``folder`` when it has one),
    then remove it when ``remove``. ``True`` once it is empty. A v2 cgroup is killed in one
    write (``cgroup.kill``, Linux 5.14)."""
    thaw = thaw if thaw is not None else folder
    kill_file = folder / "cgroup.kill"
    killed = False
    for _ in range(100):  # a fork bomb refills the group; pids.max keeps the rounds few
        try:
            pids = [int(line) for line in (folder / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            pids = []
        if not pids:
            break
        killed = True
        try:
            kill_file.write_text("1")
        except OSError:
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for name, _, thawed in _FREEZER.values():
            try:
                (thaw / name).write_bytes(thawed)
            except OSError:
                pass
    else:
        return False
    if not remove:
        return True
    delay, deadline = 0.001, time.monotonic() + (wait if killed else 0)
    while True:
        try:
            folder.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
        time.sleep(delay)
        delay = min(delay * 2, 0.05)
