"""Bot uids, allocated machine-wide, so no two live bot processes ever share one.

A bot's uid is what keeps it from signalling other bots, and the arena's cleanup kills every
process of that uid (``kill -9 -1`` run as it). Both are only safe if the uid belongs to one
bot process at a time, across every arena on the machine. So a uid is leased:

- one lock file per uid under ``/run/pirate-arena`` (root only, mode 0700); the arena holds
  an exclusive ``flock`` on it for as long as the bot's processes may live, and the kernel
  drops the lock when the arena dies, however it dies;
- a uid is taken only if its lock is free *and* no process of that uid exists (a scan of
  ``/proc``, real, effective, saved and filesystem uids), so a process left behind by an
  arena killed with ``kill -9`` keeps its uid out of use until it is gone;
- within one arena the next search starts after the last uid handed out, so uids are not
  reused sooner than needed.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

#: Unprivileged uids handed to bot processes when the arena runs as root.
UID_BASE = 61000
UID_COUNT = 4000
LOCK_DIR = Path("/run/pirate-arena")


class UidError(RuntimeError):
    """No bot uid can be leased: every one is taken, or the lock folder is unusable."""


def uids_in_use() -> set[int]:
    """Every uid (real, effective, saved, filesystem) of every process on the machine."""
    found = set()
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/status", "rb") as status:
                    for line in status:
                        if line.startswith(b"Uid:"):
                            found.update(int(value) for value in line.split()[1:])
                            break
            except (OSError, ValueError):
                pass  # the process ended while we looked
    return found


class UidLease:
    """One uid, held until :meth:`release` (call it only once the uid's processes are gone)."""

    def __init__(self, uid: int, fd: int) -> None:
        self.uid = uid
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None


class UidAllocator:
    """Leases uids ``base`` .. ``base + count - 1``; see the module docstring."""

    def __init__(self, base: int = UID_BASE, count: int = UID_COUNT, lock_dir: Path = LOCK_DIR) -> None:
        self.base = base
        self.count = count
        self.lock_dir = lock_dir
        self._next = 0

    def acquire(self) -> UidLease:
        """A uid no live process has and no other lease holds. Raises :class:`UidError`."""
        try:
            self.lock_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise self._lock_error(error) from None
        busy = uids_in_use()
        for step in range(self.count):
            offset = (self._next + step) % self.count
            uid = self.base + offset
            if uid in busy:
                continue
            try:
                fd = os.open(self.lock_dir / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            except OSError as error:
                raise self._lock_error(error) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            if uid in uids_in_use():  # a process appeared between the scan and the lock
                os.close(fd)
                continue
            self._next = offset + 1
            return UidLease(uid, fd)
        raise UidError(f"all {self.count} bot uids from {self.base} are in use (by live bot processes "
                            f"or leftovers); stop other arenas or kill the leftover processes")

    def _lock_error(self, error: OSError) -> UidError:
        return UidError(f"{self.lock_dir}: cannot hold bot uid locks there ({error.strerror}); run the arena "
                        f"as root on a writable /run, or without root (bots then share the arena's uid)")
