"""One bot process's cgroups: its limits, its freezer, its accounting, its end.

A :class:`BotCgroup` is the bot's folder in every hierarchy of the arena's
:class:`~arena.sandbox._cgroups.CgroupLayout`. Its process joins them before exec; from then on it and
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
- **freezer**: frozen while the bot is not on move (:meth:`BotCgroup.wake`, :meth:`BotCgroup.rest`).

Frozen processes hold no CPU and cannot fork; a v1-frozen process does not die of SIGKILL
until thawed, so :meth:`BotCgroup.kill_all` thaws after killing.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path

import trio

from ._cgroups import FREEZER, CgroupLayout, kill_leftovers
from ._guardian import guard

#: the CFS period the quota is a share of (the kernel's default)
PERIOD_US = 100_000
_CPUTIME = {1: "cpuacct.usage", 2: "cpu.stat"}
_OOM = {1: "memory.oom_control", 2: "memory.events"}


class BotCgroup:
    """One bot process's cgroups. Create with :meth:`arena.sandbox._sandbox.Sandbox.new_cgroup`.

    ``processes``, ``cpus``, ``memory_mb``, ``cpu_s``: the limits (``None``: none), applied in
    the hierarchies that serve them. Raises :class:`OSError` where a folder cannot be made or
    a limit cannot be written (nothing is left behind then).
    """

    def __init__(self, layout: CgroupLayout, name: str, processes: int | None = None, cpus: float | None = None,
                 memory_mb: int | None = None, cpu_s: float | None = None) -> None:
        layout.prepare()
        guard(layout)  # a frozen bot of an arena killed with kill -9 is thawed and killed
        self.layout = layout
        self.processes, self.cpus, self.memory_mb, self.cpu_s = processes, cpus, memory_mb, cpu_s
        self.folders = [layout.folder(hierarchy) / name for hierarchy in layout.hierarchies]
        #: role -> (folder, cgroup version)
        self._roles = {role: (layout.folder(hierarchy) / name, hierarchy.version) for role, hierarchy in layout.roles}
        self.frozen = False
        self.dead = False
        self.released = False  # being shut down: never frozen again
        self._fds: list[int] = []
        self._freeze = self._cputime = self._oom = self._frozen_state = None
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
            name, self._frozen_bytes, self._thawed_bytes = FREEZER[version]
            self._freeze = opened(folder / name, os.O_WRONLY)
            # Whether every process of it is frozen yet: v1 says FREEZING until then, v2's
            # events say "frozen 1" once it is.
            state = folder / ("freezer.state" if version == 1 else "cgroup.events")
            if state.exists():
                self._frozen_state = opened(state, os.O_RDONLY)
        if "cputime" in self._roles and self.cpu_s is not None:
            folder, version = self._roles["cputime"]
            self._cputime = opened(folder / _CPUTIME[version], os.O_RDONLY)
        if "memory" in self._roles:
            folder, version = self._roles["memory"]
            self._oom = opened(folder / _OOM[version], os.O_RDONLY)
            self._oom_quiet = os.pread(self._oom, 512, 0)

    def _close_files(self) -> None:
        for fd in self._fds:
            os.close(fd)
        self._fds.clear()
        self._freeze = self._cputime = self._oom = self._frozen_state = None
        _FREEZING.discard(self)

    # -- in the child, before exec -------------------------------------------------------------

    def join(self) -> None:
        """Move the calling process into the bot's cgroup in every hierarchy (runs in the child
        before exec, while still root)."""
        for folder in self.folders:
            with open(folder / "cgroup.procs", "w") as procs:
                procs.write("0")

    # -- on move and off -------------------------------------------------------------------------

    def wake(self) -> None:
        """The bot goes on move (its request is about to be written): thaw it."""
        self.thaw()

    def rest(self, ponder: bool = False) -> None:
        """The bot is off move (its reply has arrived): freeze it, unless ``ponder``.

        At once, not when another bot is woken: skipping the freeze for a bot asked again right
        away saves two writes, but by the time another is woken the bot has gone back to sleep
        on its stdin, and freezing a sleeping process costs a wake-up (the freezer signals it),
        which cost more than it saved in real matches (BENCHMARKS.md). Frozen at once, it is
        caught on its way back to reading, and its children at once too, so a burner's freezing
        happens while the arena works, not during the next bot's move."""
        if not ponder:
            self.freeze()

    def release(self) -> None:
        """Thaw the bot for good (it is being shut down: it must see ``bye`` and SIGTERM)."""
        self.released = True
        self.thaw()

    def freeze(self) -> None:
        if not self.frozen and self._freeze is not None and not self.dead and not self.released:
            try:
                os.pwrite(self._freeze, self._frozen_bytes, 0)
            except OSError:
                return
            self.frozen = True
            _FREEZING.add(self)

    def thaw(self) -> None:
        if self.frozen and self._freeze is not None:
            try:
                os.pwrite(self._freeze, self._thawed_bytes, 0)
            except OSError:
                return
            self.frozen = False
            _FREEZING.discard(self)

    def settled(self) -> bool:
        """Whether the freeze asked last took hold of every process of the bot (a burner
        running on another core is stopped only at its next interrupt; a v1 freezer retries a
        process it could not stop for a while). True where it is not frozen or cannot say."""
        if not self.frozen or self._frozen_state is None:
            return True
        try:
            state = os.pread(self._frozen_state, 256, 0)
        except OSError:
            return True
        return state.strip() == b"FROZEN" if self._frozen_state_v1 else b"frozen 1" in state

    @property
    def _frozen_state_v1(self) -> bool:
        return self._roles["freezer"][1] == 1

    @staticmethod
    def still_freezing(besides: BotCgroup | None = None) -> bool:
        """Whether a bot this process froze (but ``besides``) still has a process running:
        the next bot's clock should not start while one does. Each is asked until it says
        it settled."""
        for cgroup in list(_FREEZING):
            if cgroup is besides:
                continue
            if cgroup.settled():
                _FREEZING.discard(cgroup)
            else:
                return True
        return False

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

    def overrun(self) -> tuple[str, str] | None:
        """The limit the bot's processes went past, if any, and how, in words: ``("memory",
        ...)`` once the kernel killed one of them for its memory (this outranks the CPU time),
        ``("cpu_s", ...)`` once their CPU time together is past ``cpu_s``. The player turns it
        into the bot's fault (:func:`arena.players._player.cgroup_fault`)."""
        kills = self.oom_kills()
        if kills:
            return "memory", memory_detail(self.memory_mb, kills)
        if self.cpu_s is not None:
            used = self.cpu_seconds()
            if used is not None and used > self.cpu_s:
                return "cpu_s", (f"used {used:.1f} s of CPU time, more than its cpu_s of {self.cpu_s:g} s "
                                 f"(all its processes together)")
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


#: the bots of this process frozen whose freeze has not yet been seen to take hold of them all
_FREEZING: weakref.WeakSet[BotCgroup] = weakref.WeakSet()


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
