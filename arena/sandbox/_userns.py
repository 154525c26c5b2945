"""A user namespace of its own for every bot process of an arena that does not run as root.

Without root a bot keeps the arena's uid, and Linux counts ``RLIMIT_NPROC`` over every task of
a uid: the arena's threads, the user's editor and browser. A cap of 128 processes is then no
cap on the bot (a desktop browser alone has several hundred threads) and stops the bot from
starting at all. Since Linux 5.14 the count is kept per user namespace, at each level against
the limit its creator had when it made the namespace: so the bot's process, before ``exec``,
makes a user namespace of its own (its uid and gid mapped to themselves: nothing changes for
the files it may read), with the user's own limit still in place, and only then sets
``RLIMIT_NPROC`` to the bot's ``processes``. Inside, the cap counts the bot's processes alone;
outside, its processes count against the user's limit as before. Bubblewrap, started in that
namespace, makes its own inside it.

The namespace is also the bot's scope without bubblewrap: no process can leave it (the
system-call filter refuses new namespaces), so :func:`kill_namespace` finds every process the
bot started, also those that left its process group with ``setsid``. A tournament's worker
process gets one too, holding its bots' (:func:`kill_descendants`): when a worker dies, its
coordinator ends every process it left before another worker plays the dead one's deals.

A kernel that refuses unprivileged user namespaces (a sysctl, an AppArmor policy) fails
:func:`own_namespaces_work`; the sandbox then reports the process cap as missing rather than
setting one that counts the user's other programs.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import signal
import subprocess
import time

CLONE_NEWUSER = 0x10000000

_unshare = ctypes.CDLL(None, use_errno=True).unshare
_unshare.argtypes = [ctypes.c_int]


def enter_own_namespace() -> None:
    """In a child before ``exec``: move into a new user namespace, the uid and gid mapped to
    themselves (a process may map only its own; groups are then fixed: ``setgroups`` deny).
    Raises :class:`OSError` where the kernel refuses."""
    uid, gid = os.getuid(), os.getgid()
    if _unshare(CLONE_NEWUSER) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"unshare(CLONE_NEWUSER): {os.strerror(error)}")
    for name, text in (("uid_map", f"{uid} {uid} 1"), ("setgroups", "deny"), ("gid_map", f"{gid} {gid} 1")):
        fd = os.open(f"/proc/self/{name}", os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)


def own_namespaces_work() -> bool:
    """Whether a process of this uid may have a user namespace of its own here (never as root:
    root's bots get uids of their own instead)."""
    if os.geteuid() == 0:
        return False
    try:
        result = subprocess.run(["/bin/true"], preexec_fn=enter_own_namespace, timeout=60,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return False
    return result.returncode == 0


def namespace_of(pid: int) -> int | None:
    """The inode of ``pid``'s user namespace, or ``None`` where it is gone."""
    try:
        return os.stat(f"/proc/{pid}/ns/user").st_ino
    except OSError:
        return None


def namespace_members(namespace: int) -> list[int]:
    """Every live process whose user namespace is ``namespace`` (an inode from
    :func:`namespace_of`); zombies, which hold nothing but their pid, are not counted."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if os.stat(f"/proc/{entry.name}/ns/user").st_ino != namespace:
                    continue
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    if stat.read().rpartition(b")")[2].split()[0] not in (b"Z", b"X"):
                        found.append(int(entry.name))
            except (OSError, IndexError):
                pass  # it ended while we looked
    return found


#: ``ioctl(NS_GET_PARENT)``: a namespace's parent, as a new descriptor (linux/nsfs.h)
_NS_GET_PARENT = 0xB702
#: the deepest user namespaces may nest (the kernel's own limit)
_DEPTH = 32


def _under(pid: int, namespace: int) -> bool:
    """Whether ``pid``'s user namespace is ``namespace`` or lies below it."""
    try:
        fd = os.open(f"/proc/{pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        for _ in range(_DEPTH):
            if os.fstat(fd).st_ino == namespace:
                return True
            try:
                parent = fcntl.ioctl(fd, _NS_GET_PARENT)
            except OSError:
                return False  # the top, or one above this process's own
            os.close(fd)
            fd = parent
        return False
    finally:
        os.close(fd)


def descendants(namespace: int) -> list[int]:
    """Every live process whose user namespace is ``namespace`` or lies below it (a worker's:
    its bots', and their bubblewrap's)."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and _under(int(entry.name), namespace):
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    if stat.read().rpartition(b")")[2].split()[0] not in (b"Z", b"X"):
                        found.append(int(entry.name))
            except (OSError, IndexError):
                pass
    return found


def kill_descendants(namespace: int, limit_s: float = 10.0) -> bool:
    """SIGKILL every process of the user namespace ``namespace`` and of those below it, again
    until none is left or ``limit_s`` seconds have passed; ``True`` once none is."""
    deadline = time.monotonic() + limit_s
    while members := descendants(namespace):
        if time.monotonic() > deadline:
            return False
        for pid in members:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.01)
    return True


def kill_namespace(namespace: int, rounds: int = 100) -> bool:
    """SIGKILL every process of the user namespace ``namespace``, again until none is left (a
    fork bomb refills it; its process cap keeps the rounds few). ``True`` once it is empty."""
    for _ in range(rounds):
        members = namespace_members(namespace)
        if not members:
            return True
        for pid in members:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    return not namespace_members(namespace)
