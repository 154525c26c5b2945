"""One cgroup (``pids`` controller) per bot process: a process cap, and a way to kill every
process the bot started, whatever it did to its session or process group.

Only available where the controller is writable (root). Each arena owns one folder,
``pirate-arena-<pid>``, with one ``bot-<n>`` folder per bot process inside.
"""

from __future__ import annotations

import os
from pathlib import Path

import trio


def find_pids_cgroup() -> Path | None:
    """The writable root of the cgroup ``pids`` controller (v1 or v2), or ``None``."""
    v1 = Path("/sys/fs/cgroup/pids")
    if v1.is_dir() and os.access(v1, os.W_OK):
        return v1
    v2 = Path("/sys/fs/cgroup")
    controllers = v2 / "cgroup.controllers"
    if controllers.is_file() and "pids" in controllers.read_text().split() and os.access(v2, os.W_OK):
        return v2
    return None


class BotCgroup:
    """One bot's cgroup: caps its process count and finds every process it started."""

    def __init__(self, path: Path, max_processes: int | None) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        if (path.parent / "cgroup.subtree_control").exists():  # v2: enable pids for children
            try:
                (path.parent / "cgroup.subtree_control").write_text("+pids")
            except OSError:
                pass
        if max_processes is not None:
            (path / "pids.max").write_text(str(max_processes))

    def join(self) -> None:
        """Move the calling process into the cgroup (runs in the child before exec)."""
        with open(self.path / "cgroup.procs", "w") as procs:
            procs.write("0")

    def pids(self) -> list[int]:
        try:
            return [int(line) for line in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def kill_all(self) -> bool:
        """SIGKILL every process in the cgroup; ``True`` once it is empty."""
        for _ in range(100):  # a fork bomb refills the group; pids.max keeps the rounds few
            pids = self.pids()
            if not pids:
                return True
            for pid in pids:
                try:
                    os.kill(pid, 9)
                except ProcessLookupError:
                    pass
        return not self.pids()

    def remove(self) -> bool:
        """Remove the folder; ``False`` if processes are still in it (or it is gone already)."""
        try:
            self.path.rmdir()
        except OSError:
            return False
        return True

    async def kill_and_remove(self, limit: float = 5.0) -> bool:
        """Kill everything in the cgroup, wait (up to ``limit`` seconds) until it is empty,
        and remove it. ``True`` if the folder is gone.

        A killed process stays in ``cgroup.procs`` until it is reaped; under bubblewrap the
        reaper is the sandbox's own init, which may be last to die, so the folder cannot be
        removed at once. Neither cgroup v1 nor the ``pids`` controller announces "empty", so
        this polls, with growing delays.
        """
        delay = 0.001
        with trio.move_on_after(limit):
            while True:
                self.kill_all()
                if self.remove() or not self.path.exists():
                    return True
                await trio.sleep(delay)
                delay = min(delay * 2, 0.05)
        return self.remove() or not self.path.exists()


def remove_stale_cgroups(root: Path) -> None:
    """Kill what is left in the cgroups of arenas that died without cleaning up (kill -9),
    and remove their folders."""
    for folder in root.glob("pirate-arena-*"):
        try:
            os.kill(int(folder.name.rpartition("-")[2]), 0)
        except ProcessLookupError:
            remove_bot_cgroups(folder)
            try:
                folder.rmdir()
            except OSError:
                pass
        except (ValueError, PermissionError):
            pass


def remove_bot_cgroups(folder: Path) -> None:
    """Kill the processes in every ``bot-*`` cgroup below ``folder`` and remove those folders."""
    for child in folder.glob("bot-*"):
        leftover = BotCgroup(child, None)
        leftover.kill_all()
        leftover.remove()
