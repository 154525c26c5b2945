"""What ``arena doctor``'s probe is set against: the targets the arena sets up for it to
attack (:class:`Targets`), what it is told to try (:meth:`Targets.task`), and the limits it runs
under. What it found there is judged by :mod:`._probe_judge`.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import sys
import tempfile
import uuid
from pathlib import Path

from ..sandbox import Limits

#: the probe's limits: a small process cap and memory to try them against
PROBE_LIMITS = Limits(processes=8, memory_mb=96)
#: children each holding this much memory: under the limit alone, over it together
HOGS, HOG_MB = 4, 48
#: how long the probe watches for a pause at most (the arena ends the window sooner, when it
#: has thawed it: a loaded machine's arena may read its "window" line a second or more late)
WINDOW_S = 15.0
#: forks the probe tries (more than its cap)
PROBE_FORKS = 24
#: paths that must not exist in a bot's view
ABSENT = ["/run", "/var/run", "/home", "/root/.bashrc", "/sys/fs/cgroup", "/var", "/opt", "/mnt"]
#: the page-cache probe: files looked at at most, the largest sampled, windows sampled in each
WALK, FILES, WINDOWS = 30_000, 6, 8
#: what a view holds at its top level in any case: the system's folders and its own mounts
VIEW_TOP = {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "dev", "proc", "sys", "tmp"}


def _host_top_level() -> list[str]:
    """The host's top-level folders a view never holds whole (``/home``, ``/srv``, ``/work``):
    the probe may find in each only the path down to what it is shown."""
    return sorted(f"/{name}" for name in os.listdir("/") if name not in VIEW_TOP and f"/{name}" not in ABSENT)


class Targets:
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
        """What the probe is told (``argv[1]`` of :mod:`._probe_inside`, as JSON): these
        targets, the places it must not see, the paths it is ``shown`` on purpose (the path
        down to them is allowed), and how much to try."""
        return {"port": self.tcp.getsockname()[1], "unix": self.unix_path, "locked": self.locked,
                "offset": self.offset, "shown": shown,
                "absent": [*ABSENT, *_host_top_level(), "/tmp", str(self.host_tmp)], "arena_pid": os.getpid(),
                "forks": PROBE_FORKS, "marker": self.marker, "hogs": HOGS, "hog_mb": HOG_MB, "window": WINDOW_S,
                "walk": WALK, "files": FILES, "windows": WINDOWS}

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


def mounted_devices() -> set[str]:
    """The devices (``major:minor``) of every filesystem mounted in the arena's own view."""
    with open("/proc/self/mountinfo") as table:
        return {line.split()[2] for line in table}
