"""The sandbox's live self-test: a probe bot attacks each protection, and ``arena doctor``
reports what held.

A row of ``arena doctor`` says "yes" only when the attack it names failed here and now, in a
real bot process started exactly as a tournament starts one (same sandbox, same start path).
The probe is a short Python program passed on its command line (``-c``: nothing to show it in
its view), run by the arena's own interpreter; it tries each attack and prints one JSON object
on its stderr. The arena sets up the targets (a listener on its 127.0.0.1, a unix socket open
to every user, a lock held on a file the bot can read, a folder in the host's ``/tmp``) and
judges from both sides: what the probe says it did, and what reached the targets.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import socket
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import trio

from ..sandbox._sandbox import Limits, Sandbox
from ..sandbox._view import installation, program_path, shown_paths
from ._manifest import BotSpec

#: what the probe does; its arguments come as one JSON object in argv[1]
PROBE = r'''
import ctypes, errno, json, os, resource, socket, sys, time
task = json.loads(sys.argv[1])
found = {}
def error(exception):
    return exception.strerror or str(exception)
libc = ctypes.CDLL(None, use_errno=True)
def call(result):
    return "done" if result == 0 or result > 0 else os.strerror(ctypes.get_errno())

# the network, through the stdout socket (dissolved, then re-connected) and a new socket
found["dissolve"] = call(libc.connect(1, bytes(16), 16))
try:
    with socket.socket(fileno=os.dup(1)) as reply:
        reply.settimeout(2)
        reply.connect(("127.0.0.1", task["port"]))
        reply.sendall(b"stdout")
        found["stdout"] = "connected"
except OSError as exception:
    found["stdout"] = error(exception)
try:
    with socket.create_connection(("127.0.0.1", task["port"]), timeout=2) as fresh:
        fresh.sendall(b"new socket")
        found["socket"] = "connected"
except OSError as exception:
    found["socket"] = error(exception)
try:
    with socket.socket(socket.AF_UNIX) as client:
        client.settimeout(2)
        client.connect(task["unix"])
        client.sendall(b"unix socket")
        found["unix"] = "connected"
except OSError as exception:
    found["unix"] = error(exception)

# channels to other processes: the lock the arena holds, flock, inotify, SysV shared memory
import fcntl, struct
try:
    with open(task["locked"], "rb") as shared:
        probe = struct.pack("hhqqi", fcntl.F_WRLCK, 0, task["offset"], 1, 0)
        seen = struct.unpack("hhqqi", fcntl.fcntl(shared, fcntl.F_GETLK, probe))[0]
        found["lock"] = "saw the arena's lock" if seen != fcntl.F_UNLCK else "saw no lock"
        try:
            fcntl.flock(shared, fcntl.LOCK_EX | fcntl.LOCK_NB)
            found["flock"] = "locked"
        except OSError as exception:
            found["flock"] = "saw the arena's lock" if exception.errno == errno.EWOULDBLOCK else error(exception)
except OSError as exception:
    found["lock"] = found["flock"] = error(exception)
found["inotify"] = call(libc.inotify_init1(0))
found["shm"] = call(libc.shmget(0, 4096, 0o1600))

# the filesystem
# A place it must not see may hold the path down to what it is shown (a clone under /home):
# that path, and nothing beside it, is allowed.
def beside_shown(path):
    for shown in task["shown"]:
        if path == shown or path.startswith(shown.rstrip("/") + "/"):
            return None  # shown to it on purpose: not looked into
        if not shown.startswith(path.rstrip("/") + "/"):
            continue
        return "down"  # on the way to a shown path: look inside
    return "beside"
visible = []
for place in task["absent"]:
    if not os.path.lexists(place):
        continue
    # its own /tmp is there in any view: what else is in it is not
    stack = [os.path.join(place, name) for name in os.listdir(place)] if place == "/tmp" else [place]
    while stack and len(visible) < 20:
        path = stack.pop()
        where = beside_shown(path)
        if where == "beside":
            visible.append(path)
        elif where == "down" and os.path.isdir(path) and not os.path.islink(path):
            try:
                stack += sorted(os.path.join(path, name) for name in os.listdir(path))
            except OSError:
                pass
found["visible"] = sorted(set(visible))
for place in ("/", "/usr"):
    try:
        with open(os.path.join(place, "pirate-arena-probe"), "w"):
            pass
        found["wrote"] = found.get("wrote", []) + [place]
    except OSError:
        pass

# the page cache: is every page of its view resident? A fault maps the cached pages around it
# (fault-around) and /proc/self/pagemap says which are mapped: no timing, nothing asked of the
# cache. And the calls that ask or drop pages directly.
import mmap, stat
PAGE, WINDOW = mmap.PAGESIZE, 64 * 1024
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
large, looked = [], 0
for root in (os.getcwd(), sys.prefix, "/usr"):
    for folder, folders, names in os.walk(root):
        folders.sort()
        for name in names:
            looked += 1
            try:
                info = os.lstat(os.path.join(folder, name))
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode) and info.st_size >= 1 << 20:
                large.append((info.st_size, os.path.join(folder, name)))
        if looked > task["walk"]:
            break
pages = resident = 0
with open("/proc/self/pagemap", "rb", buffering=0) as pagemap:
    for size, path in sorted(large, reverse=True)[:task["files"]]:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        for index in range(task["windows"]):
            start = (size - WINDOW) * index // max(task["windows"] - 1, 1) // WINDOW * WINDOW
            # Fault-around maps the cached pages of the fault's window of virtual addresses
            # (64 KiB aligned): the file's window goes exactly there, inside a reservation.
            reserved = libc.mmap(None, 2 * WINDOW, 0, 2 | 0x20, -1, 0)  # PROT_NONE, private anonymous
            if reserved in (None, ctypes.c_void_p(-1).value):
                continue
            aligned = (reserved + WINDOW - 1) // WINDOW * WINDOW
            for attempt in range(2):  # a page in flight (read, reclaimed) is skipped once
                address = libc.mmap(aligned, WINDOW, 1, 1 | 0x10, fd, start)  # PROT_READ, MAP_SHARED | MAP_FIXED
                if address in (None, ctypes.c_void_p(-1).value):
                    break
                libc.madvise(address, WINDOW, 1)  # MADV_RANDOM: no read-ahead
                ctypes.c_char.from_address(address).value
                pagemap.seek(address // PAGE * 8)
                entries = pagemap.read(8 * (WINDOW // PAGE))
                mapped = [int.from_bytes(entries[i:i + 8], "little") >> 63 for i in range(8, len(entries), 8)]
                libc.munmap(address, WINDOW)
                if all(mapped) or attempt == 1:
                    pages += len(mapped)
                    resident += sum(mapped)
                    break
            libc.munmap(reserved, 2 * WINDOW)
        os.close(fd)
vector = ctypes.create_string_buffer(1)
address = libc.mmap(None, PAGE, 1, 2 | 0x20, -1, 0)  # an anonymous page: MAP_PRIVATE | MAP_ANONYMOUS
found["pagecache"] = {"files": min(len(large), task["files"]), "pages": pages, "resident": resident,
                      "mincore": call(libc.mincore(address, PAGE, vector)),
                      "pageout": call(libc.madvise(address, PAGE, 21))}
# the dentry cache of its own folder: a name nobody looked up, then the same name again
names = [os.path.join(os.getcwd(), ".pirate-arena-probe-%d-%d" % (os.getpid(), i)) for i in range(200)]
def lookups():
    times = []
    for name in names:
        began = time.perf_counter_ns()
        try:
            os.stat(name)
        except OSError:
            pass
        times.append(time.perf_counter_ns() - began)
    return sorted(times)[len(times) // 2]
first = lookups()
found["dentry_ratio"] = round(first / max(lookups(), 1), 1)
# the filesystems its folder, its runtime's library and the system's programs lie on: each one's
# kind and device (the arena compares them with its own mounts: a filesystem mounted for the
# bot alone is none of them)
mounts = []
with open("/proc/self/mountinfo") as table:
    for line in table:
        fields = line.split()
        mounts.append((fields[4], fields[fields.index("-") + 1]))
def filesystem(path):
    path = os.path.realpath(path)
    kind = max((mount for mount in mounts if path == mount[0] or path.startswith(mount[0].rstrip("/") + "/")),
               key=lambda mount: len(mount[0]))[1]
    device = os.stat(path).st_dev
    return {"path": path, "type": kind, "device": "%d:%d" % (os.major(device), os.minor(device))}
found["filesystems"] = [filesystem(path) for path in (os.getcwd(), os.path.dirname(os.__file__), "/usr/bin")]

# who it is, whom it can signal, what it sees of processes, its environment and limits
found["uid"] = os.getuid()
try:
    os.kill(task["arena_pid"], 0)
    found["signal"] = "reached the arena"
except OSError as exception:
    found["signal"] = error(exception)
found["pids"] = sum(1 for entry in os.listdir("/proc") if entry.isdigit())
# the machine's counters: what sysinfo says of processes, and /proc/loadavg's tasks
info = ctypes.create_string_buffer(128)
found["sysinfo_procs"] = int.from_bytes(info.raw[80:82], "little") if libc.sysinfo(info) == 0 else None
found["loadavg"] = open("/proc/loadavg").read().strip()
found["env"] = sorted(os.environ)
found["nofile"] = resource.getrlimit(resource.RLIMIT_NOFILE)[0]

# forks beyond its process cap
children = []
for _ in range(task["forks"]):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        import time
        time.sleep(5)
        os._exit(0)
    children.append(pid)
found["forked"] = len(children)
for pid in children:
    os.kill(pid, 9)
    os.waitpid(pid, 0)

# memory: children that each stay under any per-process limit, together over the bot's
pids = []
for _ in range(task["hogs"]):
    pid = os.fork()
    if pid == 0:
        try:
            hog = bytearray(task["hog_mb"] << 20)  # zero-filled: every page touched
            for offset in range(0, len(hog), 4096):
                hog[offset] = 1
            time.sleep(0.3)  # held together
        except MemoryError:
            os._exit(3)
        os._exit(0)
    pids.append(pid)
statuses = [os.waitpid(pid, 0)[1] for pid in pids]
found["hogs"] = ["killed" if os.WIFSIGNALED(status) and os.WTERMSIG(status) == 9 else
                 "MemoryError" if os.WEXITSTATUS(status) == 3 else "kept its memory" for status in statuses]
try:
    stats = os.statvfs("/tmp")
    found["tmp_mb"] = stats.f_blocks * stats.f_frsize >> 20
except OSError:
    found["tmp_mb"] = None

# CPU: two busy processes for a while; how many cores did they get together?
def burn(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
began, before = time.monotonic(), os.times()
pid = os.fork()
if pid == 0:
    burn(0.4)
    os._exit(0)
burn(0.4)
os.waitpid(pid, 0)
after = os.times()
used = (after.user + after.system + after.children_user + after.children_system
        - before.user - before.system - before.children_user - before.children_system)
found["cores"] = round(used / (time.monotonic() - began), 2)

# frozen: the arena freezes it during this window, which ends when the arena writes to its
# stdin that it thawed it (or at the cap); every pause it notices, on the clock the arena's
# freeze is told on (a loaded machine pauses it too: the arena's interval must lie in one).
# Its clock starts before it says so (a freeze that lands at once is still seen), and the
# step after the arena's word is timed too (a freeze that lands in the select ends there).
import select
pauses, last, told = [], time.monotonic(), False
end = last + task["window"]
print("window", file=sys.stderr, flush=True)
while True:
    now = time.monotonic()
    if now - last > 0.01:
        pauses = [*pauses[-63:], [round(last, 4), round(now, 4)]]
    if told or now >= end:
        break
    last = now
    told = bool(select.select([0], [], [], 0)[0])
found["pauses"] = pauses
found["paused_ms"] = round(max((to - since for since, to in pauses), default=0) * 1000)

# a child that leaves the bot's session and would outlive it (the arena looks for its marker)
if os.fork() == 0:
    os.setsid()
    os.execv(sys.executable, [sys.executable, "-I", "-S", "-c", "import time; time.sleep(60)", task["marker"]])
print(json.dumps(found), file=sys.stderr, flush=True)
'''

#: the probe's limits: a small process cap and memory to try them against
PROBE_LIMITS = Limits(processes=8, memory_mb=96)
#: children each holding this much memory: under the limit alone, over it together
HOGS, HOG_MB = 4, 48
#: how long the probe watches for a pause at most (the arena ends the window sooner, when it
#: has thawed it: a loaded machine's arena may read its "window" line a second or more late),
#: and how long the arena keeps it frozen once every process of it has stopped
WINDOW_S, FREEZE_S = 15.0, 0.3
#: how long the arena waits for every process of the probe to stop, once it asked the freeze
SETTLE_S = 2.0
#: forks the probe tries (more than its cap)
PROBE_FORKS = 24
#: paths that must not exist in a bot's view
ABSENT = ["/run", "/var/run", "/home", "/root/.bashrc", "/sys/fs/cgroup", "/var", "/opt", "/mnt"]


#: what a view holds at its top level in any case: the system's folders and its own mounts
VIEW_TOP = {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "dev", "proc", "sys", "tmp"}


def _host_top_level() -> list[str]:
    """The host's top-level folders a view never holds whole (``/home``, ``/srv``, ``/work``):
    the probe may find in each only the path down to what it is shown."""
    return sorted(f"/{name}" for name in os.listdir("/") if name not in VIEW_TOP and f"/{name}" not in ABSENT)


@dataclass(frozen=True)
class Check:
    """One row: the protection, whether the attack failed, and what the probe found."""

    protection: str
    held: bool
    evidence: str


class _Targets:
    """What the probe attacks: a TCP listener on the arena's 127.0.0.1, a unix socket any user
    may connect to (under /run where the arena may write there, as a service's would be), a
    lock the arena holds on a file every bot can read, a folder in the host's /tmp."""

    def __init__(self) -> None:
        self.tcp = socket.socket()
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(8)
        base = Path("/run") if os.access("/run", os.W_OK) else Path(tempfile.gettempdir())
        self.folder = base / f"pirate-arena-probe-{uuid.uuid4().hex[:12]}"
        self.folder.mkdir(mode=0o755)
        self.folder.chmod(0o755)
        self.unix_path = str(self.folder / "service.sock")
        self.unix = socket.socket(socket.AF_UNIX)
        self.unix.bind(self.unix_path)
        os.chmod(self.unix_path, 0o777)
        self.unix.listen(8)
        self.host_tmp = Path(tempfile.mkdtemp(prefix="pirate-arena-probe-"))
        self.host_tmp.chmod(0o755)
        #: the bot's own folder: an empty one of its own
        self.home = Path(tempfile.mkdtemp(prefix="pirate-arena-probe-home-"))
        self.home.chmod(0o755)
        #: on the command line of the child that leaves the bot's session
        self.marker = f"pirate-arena-probe-survivor-{uuid.uuid4().hex}"
        # A lock on the interpreter every probe runs: a file it can read whatever its view.
        self.locked = os.path.realpath(sys.executable)
        self.offset = 7_777_777
        self._lock_file = open(self.locked, "rb")
        fcntl.lockf(self._lock_file, fcntl.LOCK_SH | fcntl.LOCK_NB, 1, self.offset)
        fcntl.flock(self._lock_file, fcntl.LOCK_SH | fcntl.LOCK_NB)

    def task(self, shown: list[str]) -> dict:
        return {"port": self.tcp.getsockname()[1], "unix": self.unix_path, "locked": self.locked, "shown": shown,
                "offset": self.offset, "absent": [*ABSENT, *_host_top_level(), "/tmp", str(self.host_tmp)], "arena_pid": os.getpid(),
                "forks": PROBE_FORKS, "marker": self.marker, "hogs": HOGS, "hog_mb": HOG_MB,
                "window": WINDOW_S,
                "walk": 30_000, "files": 6, "windows": 8}

    def reached(self) -> list[str]:
        """What arrived at the listeners: the first bytes of each connection."""
        arrived = []
        for listener in (self.tcp, self.unix):
            listener.setblocking(False)
            while True:
                try:
                    connection, _ = listener.accept()
                except BlockingIOError:
                    break
                connection.settimeout(1)
                try:
                    arrived.append(connection.recv(64).decode(errors="replace") or "a connection")
                except OSError:
                    arrived.append("a connection")
                connection.close()
        return arrived

    def close(self) -> None:
        self._lock_file.close()
        self.tcp.close()
        self.unix.close()
        shutil.rmtree(self.folder, ignore_errors=True)
        shutil.rmtree(self.host_tmp, ignore_errors=True)
        shutil.rmtree(self.home, ignore_errors=True)

    def survivors(self) -> list[int]:
        """Processes still running with the marker on their command line."""
        found = []
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                try:
                    with open(f"/proc/{entry.name}/cmdline", "rb") as cmdline:
                        if self.marker.encode() in cmdline.read():
                            found.append(int(entry.name))
                except OSError:
                    pass
        return found


def _mounted_devices() -> set[str]:
    """The devices (``major:minor``) of every filesystem mounted in the arena's own view."""
    with open("/proc/self/mountinfo") as table:
        return {line.split()[2] for line in table}


def own_filesystems(found: dict) -> bool:
    """Whether every folder the probe looked at lay on a filesystem mounted for it alone (none
    of those the arena has mounted): then no file it reads has an inode another bot's has."""
    return all(seen.get("own") for seen in found["filesystems"])


async def run_probe(sandbox: Sandbox, limit_s: float = 30.0, manifest: BotSpec | None = None) -> dict:
    """Start the probe in ``sandbox`` and return what it found, with what reached the targets
    (``reached``) and the processes it left behind (``survivors``). Raises ``RuntimeError`` if
    it says nothing (it could not start, or was killed).

    ``manifest``: probe the view that bot gets: the probe runs in its folder, with its
    environment, and is shown what its command would be (its program, the files its command
    line names, its ``PYTHONPATH``), beside the arena's Python that runs the probe."""
    from ._process import bot_environment, open_bot_process

    targets = _Targets()
    try:
        cwd = manifest.cwd if manifest is not None and manifest.cwd is not None else targets.home
        env = bot_environment(manifest) if manifest is not None else {}
        view_argv = manifest.argv() if manifest is not None else ()
        probe = (sys.executable, "-I", "-S", "-c", PROBE)
        # What the bot may see of places it must otherwise not: its folder, the runtime of its
        # program and the arena's Python with its packages (the probe's), not what its
        # environment or command line add beyond those (that is what the probe looks for).
        program = program_path(view_argv, cwd, env) if view_argv else None
        runtime = installation(program) if program is not None else []
        shown = [str(path) for path in shown_paths([*probe, "{}"], cwd, {}, runtime)]
        spec = BotSpec("sandbox-probe", (*probe, json.dumps(targets.task(shown))), cwd=cwd,
                       env=manifest.env if manifest is not None else {}, limits=PROBE_LIMITS)
        arena_side: dict = {}
        async with open_bot_process(spec, sandbox, view_argv=view_argv) as bot:
            with trio.move_on_after(limit_s):
                await _freeze_in_window(bot, arena_side)
                await bot.process.wait()
        lines = bot.stderr.tail().splitlines()
        try:
            found = json.loads(lines[-1])
        except (IndexError, ValueError):
            raise RuntimeError("the sandbox probe said nothing" + (f"; its stderr ends: {lines[-1]}" if lines else ""))
        found["reached"] = targets.reached()
        found["freeze"] = arena_side.get("freeze", "ran out of time before the probe's window")
        found["frozen"] = arena_side.get("frozen")
        devices = _mounted_devices()
        for seen in found["filesystems"]:
            seen["own"] = seen["device"] not in devices
        found["survivors"] = targets.survivors()
        for pid in found["survivors"]:  # the arena's own cleanup failed: do not leave it running
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        return found
    finally:
        targets.close()


async def _freeze_in_window(bot, said: dict) -> None:
    """Freeze the probe for :data:`FREEZE_S` once it says its window began, as the arena
    freezes a bot that is not on move (where there is no freezer, nothing happens), then tell
    it on its stdin that its window is over. What the arena did goes in ``said["freeze"]``;
    the interval it held every process of the probe stopped, on ``time.monotonic``'s clock
    (the probe's), in ``said["frozen"]``."""
    said["freeze"] = "never saw its window begin"
    while "window" not in bot.stderr.tail().splitlines():
        if bot.returncode() is not None:
            return
        await trio.sleep(0.005)
    seen = time.monotonic()
    try:
        if bot.cgroup is None or not bot.cgroup.has("freezer"):
            said["freeze"] = "has no freezer here"
            return
        bot.cgroup.freeze()
        if not bot.cgroup.frozen:
            said["freeze"] = "could not write the freeze"
            return
        try:
            with trio.move_on_after(SETTLE_S):
                while not bot.cgroup.settled():
                    await trio.sleep(0.001)
            since = time.monotonic()
            if not bot.cgroup.settled():
                said["freeze"] = f"asked the freeze, but a process of it still ran after {SETTLE_S:g} s"
                return
            await trio.sleep(FREEZE_S)
            said["frozen"] = [since, time.monotonic()]
        finally:
            bot.cgroup.thaw()
        said["freeze"] = (f"froze it {since - seen:.3f} s after it said its "
                          f"window began, for {FREEZE_S * 1000:.0f} ms once all of it had stopped")
    finally:
        with trio.move_on_after(1):
            try:
                await bot.stdin.send_all(b"thawed\n")
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass


def _still_through(frozen: list[float] | None, pauses: list[list[float]]) -> bool:
    """Whether the probe made no step from before the arena's freeze had stopped it until the
    arena thawed it: one of its pauses spans ``frozen`` (to the millisecond the probe rounds
    to). A loaded machine pauses it too, but hardly ever across the whole of that interval."""
    return frozen is not None and any(since <= frozen[0] + 0.001 and to >= frozen[1] - 0.001
                                      for since, to in pauses)


#: the channels between bots the sandbox leaves open (README, "What the sandbox cannot do"):
#: what each needs, and what ``benchmarks/covert_channels.py`` measured on the 2-core reference
#: VM (BENCHMARKS.md)
CHANNELS_LEFT = (
    ("dentry cache: names looked up in a folder it sees whole (its own, its runtime's)", "nothing",
     "33,000-125,000 bits/s, also across rotations"),
    ("futex woken on a shared read-only mapping", "both bots running", "53-80 bits/s"),
    ("process and thread count, free memory (sysinfo, /proc/loadavg)", "both bots alive",
     "100 bits/s at 10 ms slots"),
    ("inode numbers of new pipes and sockets (machine-wide)", "both bots alive", "1.5-3.2 bits/s"),
    ("CPU and cache contention", "both bots running", "none measurable"),
)


#: the first rows of :data:`CHANNELS_LEFT` go through files two bots share (their inodes)
THROUGH_SHARED_FILES = 2
#: the row of the machine's counters: closed where the probe read them as an idle machine's
COUNTERS = 2


def channels_left(found: dict) -> list[tuple[str, str, str]]:
    """``arena doctor``'s table of the channels left open: :data:`CHANNELS_LEFT`, without those
    through shared files where the probe's folders lay on filesystems mounted for it alone
    (:func:`own_filesystems`), else with the dentry cache's row saying what the probe found of
    it in its own folder; without the machine's counters where it read them as an idle
    machine's (:func:`counters_idle`)."""
    rows = [list(row) for row in CHANNELS_LEFT]
    rows[0][2] += f"; the probe: a name looked up again answered {found['dentry_ratio']}x faster"
    closed = {*(range(THROUGH_SHARED_FILES) if own_filesystems(found) else ()),
              *((COUNTERS,) if counters_idle(found) else ())}
    return [tuple(row) for index, row in enumerate(rows) if index not in closed]


def counters_idle(found: dict) -> bool:
    """Whether the probe read the machine's counters as an idle machine's (``sysinfo``
    answered by the arena, ``/proc/loadavg`` written for it): one process, no load."""
    return found.get("sysinfo_procs") == 1 and found.get("loadavg") == "0.00 0.00 0.00 1/1 1"


def _filesystems(found: dict) -> str:
    """What the probe found its folders on, in a few words each."""
    return "; ".join(f"{seen['path']}: {seen['type']} {seen['device']}, "
                     + ("mounted for it alone" if seen.get("own") else "the arena's own, shared")
                     for seen in found["filesystems"])


def judge(found: dict) -> list[Check]:
    """The rows of ``arena doctor`` from one probe's findings (:func:`run_probe`)."""

    def refused(*keys: str) -> str:
        return "; ".join(f"{key}: {found[key]}" for key in keys)

    reached = found["reached"]
    allowed_env = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH", "NODE_PATH", "PWD"}
    network = [what for what in reached if what in ("stdout", "new socket")]
    still = _still_through(found["frozen"], found["pauses"])
    checks = [
        Check("no network: its stdout socket re-connected, or a new socket, reaches nothing", not network,
              f"reached the arena's listener through: {', '.join(network)}" if network
              else refused("dissolve", "stdout", "socket")),
        Check("the host's unix sockets (under /run) out of reach", "unix socket" not in reached,
              refused("unix")),
        Check("no channels to other processes: locks, flock, inotify, SysV IPC",
              found["lock"] != "saw the arena's lock" and found["flock"] not in ("saw the arena's lock", "locked")
              and found["inotify"] != "done" and found["shm"] != "done",
              refused("lock", "flock", "inotify", "shm")),
        Check("minimal read-only view: nothing of /run, /home, /var, /tmp but its own path",
              not found["visible"] and not found.get("wrote"),
              (f"sees {', '.join(found['visible'])}" if found["visible"] else "none of them visible")
              + (f"; wrote to {', '.join(found['wrote'])}" if found.get("wrote") else "; / and /usr read-only")),
        Check("dentry cache and futexes: every folder it sees a filesystem mounted for it alone",
              own_filesystems(found), _filesystems(found)),
        Check("page cache: no page of its view shared, or every one resident; none asked of or dropped",
              (own_filesystems(found) or found["pagecache"]["resident"] == found["pagecache"]["pages"] > 0)
              and found["pagecache"]["mincore"] != "done" and found["pagecache"]["pageout"] != "done",
              ("its files on filesystems of its own (above); " if own_filesystems(found) else "")
              + f"{found['pagecache']['resident']} of {found['pagecache']['pages']} pages sampled in its "
              f"{found['pagecache']['files']} largest files resident; mincore: {found['pagecache']['mincore']}; "
              f"madvise(MADV_PAGEOUT): {found['pagecache']['pageout']}"),
        Check("own unprivileged uid", found["uid"] not in (0, os.getuid()), f"ran as uid {found['uid']}"),
        Check("cannot signal the arena or other bots", found["signal"] != "reached the arena",
              f"kill(arena): {found['signal']}"),
        Check("own PID namespace (sees only its own processes)", found["pids"] <= 4,
              f"sees {found['pids']} processes in /proc"),
        Check("every process it started killed with it, even after setsid", not found["survivors"],
              f"{len(found['survivors'])} left running" if found["survivors"] else "none left"),
        Check("process count capped", found["forked"] < PROBE_FORKS,
              f"{found['forked']} of {PROBE_FORKS} forks made under a cap of {PROBE_LIMITS.processes}"),
        Check("environment reduced to PATH, HOME, LANG and the manifest's [env]",
              set(found["env"]) <= allowed_env, ", ".join(found["env"])),
        Check("resource limits (open files, file size, no core)", found["nofile"] == PROBE_LIMITS.open_files,
              f"open files limit {found['nofile']}"),
        Check("memory limited over all its processes (and its /tmp)",
              found["hogs"].count("kept its memory") * HOG_MB <= PROBE_LIMITS.memory_mb,
              f"{HOGS} children of {HOG_MB} MiB under a limit of {PROBE_LIMITS.memory_mb} MiB: "
              f"{', '.join(found['hogs'])}; /tmp of {found['tmp_mb']} MiB"),
        Check("CPU: one core at most, whatever it forks", found["cores"] <= 1.2,
              f"two busy processes got {found['cores']} cores together"),
        Check("frozen while not on move", still,
              f"the arena {found['freeze']}; its longest pause: {found['paused_ms']} ms"
              + (", and it ran while the arena held it frozen" if found["frozen"] and not still else "")),
    ]
    return checks
