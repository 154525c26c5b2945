"""``arena doctor``'s probe, the part that runs inside a bot's sandbox: it tries each attack
and prints what it found as one JSON object, the last line of its stderr.

It imports nothing of the arena (the standard library alone): the arena runs it as ``python -I
-S -c TEXT TASK``, ``TEXT`` the program read at that moment (:func:`arena.players._probe.
program_text`: the text of :mod:`._probe_files`, its attacks on files and their caches, then
this file's without its import of that one), ``TASK`` one JSON object
(:meth:`arena.players._probe_targets.Targets.task`). Its text, not its path: a file named on a
command line is shown to the bot with its folder (``arena/sandbox/_view.py``), so the path would
add the arena's own ``arena/players/`` to the probe's view, which no bot sees (and image it and
keep it resident); with ``-c`` the probe's view is exactly the bot's. Its stdin stays free for
the arena's word that it thawed it. Each function takes what it attacks as arguments and leaves
nothing behind (but :func:`leave_session`'s child, the arena's to find), so tests run them
outside a sandbox.
"""

import contextlib
import ctypes
import errno
import fcntl
import json
import os
import resource
import select
import socket
import struct
import sys
import time

# Imported as a module (tests); in the program the text of _probe_files.py stands here instead.
from ._probe_files import called, dentry_ratio, filesystem, page_cache, parse_mounts, visible, written

#: a step of the frozen window's loop that took longer than this is a pause; the latest kept
PAUSE_S, PAUSES_KEPT = 0.01, 64
#: the folders whose filesystems it reports: its own, its runtime's library, the system's programs
FILESYSTEMS_OF = (None, os.path.dirname(os.__file__), "/usr/bin")  # None: its working folder


def open_libc() -> ctypes.CDLL:
    """The C library, with the prototypes of the memory calls set (addresses are 64-bit)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    return libc


def error(exception: OSError) -> str:
    return exception.strerror or str(exception)


# -- the network and channels to other processes ------------------------------------------------------

def network(task: dict, libc: ctypes.CDLL, stdout: int = 1) -> dict:
    """Its stdout dissolved (``connect`` to ``AF_UNSPEC``) and re-connected to the arena's
    listener (``task["port"]``), a new socket to it, the host's unix socket ``task["unix"]``."""
    found = {"dissolve": called(libc.connect(stdout, bytes(16), 16))}
    tries = {"stdout": (lambda: _adopted(stdout), ("127.0.0.1", task["port"])),
             "socket": (socket.socket, ("127.0.0.1", task["port"])),
             "unix": (lambda: socket.socket(socket.AF_UNIX), task["unix"])}
    for name, (opened, address) in tries.items():
        try:
            with opened() as client:
                client.settimeout(2)
                client.connect(address)
                client.sendall({"socket": b"new socket", "unix": b"unix socket"}.get(name, b"stdout"))
                found[name] = "connected"
        except OSError as exception:
            found[name] = error(exception)
    return found


def _adopted(fd: int) -> socket.socket:
    """A socket of a copy of ``fd`` (``OSError`` where it is none: the copy is closed)."""
    duplicate = os.dup(fd)
    try:
        return socket.socket(fileno=duplicate)
    except OSError:
        os.close(duplicate)
        raise


def locks(path: str, offset: int) -> dict:
    """Whether it sees another process's lock on byte ``offset`` of ``path`` (``F_GETLK``), and
    whether ``flock`` on it sees the arena's lock, goes through (``"locked"``) or is refused."""
    found = {}
    try:
        with open(path, "rb") as shared:
            asked = struct.pack("hhqqi", fcntl.F_WRLCK, 0, offset, 1, 0)
            seen = struct.unpack("hhqqi", fcntl.fcntl(shared, fcntl.F_GETLK, asked))[0]
            found["lock"] = "saw the arena's lock" if seen != fcntl.F_UNLCK else "saw no lock"
            try:
                fcntl.flock(shared, fcntl.LOCK_EX | fcntl.LOCK_NB)
                found["flock"] = "locked"
            except OSError as exception:
                found["flock"] = "saw the arena's lock" if exception.errno == errno.EWOULDBLOCK else error(exception)
    except OSError as exception:
        found["lock"] = found["flock"] = error(exception)
    return found


def kernel_channels(libc: ctypes.CDLL) -> dict:
    """Whether it may watch files (``inotify_init1``) and make SysV shared memory (``shmget``):
    ``"done"`` or what was refused; what it made is closed or removed at once."""
    watcher = libc.inotify_init1(0)
    found = {"inotify": called(watcher)}
    if watcher >= 0:
        os.close(watcher)
    segment = libc.shmget(0, 4096, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
    found["shm"] = called(segment)
    if segment >= 0:
        libc.shmctl(segment, 0, None)  # IPC_RMID
    return found


# -- processes, the machine's counters, resources ---------------------------------------------------

def identity(arena_pid: int, libc: ctypes.CDLL) -> dict:
    """Who it is, whether it can signal the arena, the processes it sees in ``/proc``, the
    machine's counters (``sysinfo``'s processes, ``/proc/loadavg``), its environment's names
    and its open-files limit."""
    found: dict = {"uid": os.getuid(), "signal": "reached the arena"}
    try:
        os.kill(arena_pid, 0)
    except OSError as exception:
        found["signal"] = error(exception)
    info = ctypes.create_string_buffer(128)
    with open("/proc/loadavg") as loadavg:
        found["loadavg"] = loadavg.read().strip()
    return {**found, "pids": sum(1 for entry in os.listdir("/proc") if entry.isdigit()),
            "sysinfo_procs": sysinfo_procs(info.raw) if libc.sysinfo(info) == 0 else None,
            "env": sorted(os.environ), "nofile": resource.getrlimit(resource.RLIMIT_NOFILE)[0]}


def sysinfo_procs(raw: bytes) -> int:
    """The count of processes in a ``struct sysinfo`` (64-bit: an unsigned short at byte 80)."""
    return int.from_bytes(raw[80:82], "little")


def forks(count: int) -> int:
    """How many of ``count`` children it could fork (each killed and reaped at once)."""
    children = []
    for _ in range(count):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(5)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    return len(children)


def hogs(count: int, megabytes: int) -> list[str]:
    """``count`` children each touching every page of ``megabytes`` MiB, held together a
    moment: for each, ``"killed"``, ``"MemoryError"`` or ``"kept its memory"``."""
    pids = []
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            try:
                hog = bytearray(megabytes << 20)
                for offset in range(0, len(hog), 4096):
                    hog[offset] = 1
                time.sleep(0.3)  # held together (how long does not decide the answer)
            except MemoryError:
                os._exit(3)
            os._exit(0)
        pids.append(pid)
    statuses = [os.waitpid(pid, 0)[1] for pid in pids]
    return ["killed" if os.WIFSIGNALED(status) and os.WTERMSIG(status) == 9 else
            "MemoryError" if os.WEXITSTATUS(status) == 3 else "kept its memory" for status in statuses]


def tmp_mb(folder: str = "/tmp") -> int | None:
    """The size of the filesystem of ``folder`` in MiB, ``None`` where it cannot be read."""
    with contextlib.suppress(OSError):
        stats = os.statvfs(folder)
        return stats.f_blocks * stats.f_frsize >> 20
    return None


def cores_used(before: os.times_result, after: os.times_result, elapsed: float) -> float:
    """How many cores a process and its children had together between two ``os.times()``."""
    return round((sum(after[:4]) - sum(before[:4])) / elapsed, 2)  # user, system, and children's


def cores(seconds: float = 0.4) -> float:
    """Two busy processes (it and a child) for ``seconds``: how many cores they got together."""

    def burn() -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            pass

    began, before = time.monotonic(), os.times()
    pid = os.fork()
    if pid == 0:
        burn()
        os._exit(0)
    burn()
    os.waitpid(pid, 0)
    return cores_used(before, os.times(), time.monotonic() - began)


# -- frozen while not on move, and a child that would outlive it ------------------------------------

def frozen_window(window_s: float, told, announce, clock=time.monotonic) -> list[list[float]]:
    """The pauses it notices while the arena freezes it, ``[since, to]`` on ``clock`` (the
    arena's), to 0.1 ms, the latest :data:`PAUSES_KEPT` (a loaded machine pauses it too: the
    arena's interval must lie in one). Its clock starts before ``announce()`` (a freeze landing
    at once is seen); it ends a step after ``told()`` (the arena thawed it: a freeze landing in
    that step is timed too), or at ``window_s``."""
    pauses, last, said = [], clock(), False
    end = last + window_s
    announce()
    while True:
        now = clock()
        if now - last > PAUSE_S:
            pauses = [*pauses[-(PAUSES_KEPT - 1):], [round(last, 4), round(now, 4)]]
        if said or now >= end:
            return pauses
        last = now
        said = told()


def leave_session(marker: str) -> None:
    """A child that leaves its session and would outlive it, ``marker`` on its command line
    (the arena looks for it, and kills it where the sandbox did not)."""
    if os.fork() == 0:
        os.setsid()
        os.execv(sys.executable, [sys.executable, "-I", "-S", "-c", "import time; time.sleep(60)", marker])


def main(argv: list[str]) -> None:
    """Every attack in turn, with the task of ``argv[1]``; what it found, on stderr."""
    task = json.loads(argv[1])
    libc = open_libc()
    found = {**network(task, libc), **locks(task["locked"], task["offset"]), **kernel_channels(libc)}
    found["visible"] = visible(task["absent"], task["shown"])
    found["wrote"] = written()
    found["pagecache"] = page_cache(libc, [os.getcwd(), sys.prefix, "/usr"], task["walk"], task["files"],
                                    task["windows"])
    found["dentry_ratio"] = dentry_ratio(os.getcwd())
    with open("/proc/self/mountinfo") as table:
        mounts = parse_mounts(table.read())
    found["filesystems"] = [filesystem(path or os.getcwd(), mounts) for path in FILESYSTEMS_OF]
    found.update(identity(task["arena_pid"], libc))
    found["forked"] = forks(task["forks"])
    found["hogs"] = hogs(task["hogs"], task["hog_mb"])
    found["tmp_mb"] = tmp_mb()
    found["cores"] = cores()
    found["pauses"] = frozen_window(task["window"], lambda: bool(select.select([0], [], [], 0)[0]),
                                    lambda: print("window", file=sys.stderr, flush=True))
    found["paused_ms"] = round(max((to - since for since, to in found["pauses"]), default=0) * 1000)
    leave_session(task["marker"])
    print(json.dumps(found), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main(sys.argv)
