"""The sandbox around a bot process: resource limits, an unprivileged user, bubblewrap.

Layers, each used when the machine allows it (``arena doctor`` reports which are active):

1. Always: a new session (own process group), resource limits (address space, CPU time,
   processes, open files, file size, no core dumps), an environment reduced to what the
   manifest names, stderr captured and capped.
2. Where the cgroup ``pids`` controller is writable (root): every bot process and all its
   descendants live in their own cgroup, which caps their number (a fork bomb stops there)
   and lets the arena kill every one of them, whatever they did to their session or group.
3. When the arena runs as root: every bot process runs under its own unprivileged uid, so it
   cannot read files only the arena may read (the results database and logs are created
   ``0600``), cannot signal other bots, its process limit counts only its own processes,
   and everything it started can be killed by uid even if it left the process group.
4. When bubblewrap (``bwrap``) works: no network, a read-only view of the filesystem with a
   private ``/tmp``, its own PID namespace (children die with it, even after ``setsid``),
   and the tournament file, database and logs hidden.
"""

from __future__ import annotations

import itertools
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: Unprivileged uids handed to bot processes when the arena runs as root.
UID_BASE = 61000
UID_COUNT = 4000


@dataclass(frozen=True)
class Limits:
    """Per-bot resource limits (a manifest's ``[limits]`` table); ``None`` = no limit."""

    memory_mb: int | None = 2048
    cpu_s: int | None = None
    processes: int | None = 128
    open_files: int | None = 256
    file_size_mb: int | None = 64

    def apply(self) -> None:
        """Set the limits on the calling process (runs in the child before exec)."""
        def limit(kind: int, value: int | None) -> None:
            if value is not None:
                resource.setrlimit(kind, (value, value))

        limit(resource.RLIMIT_AS, self.memory_mb * 2**20 if self.memory_mb else None)
        limit(resource.RLIMIT_CPU, self.cpu_s)
        limit(resource.RLIMIT_NOFILE, self.open_files)
        limit(resource.RLIMIT_FSIZE, self.file_size_mb * 2**20 if self.file_size_mb else None)
        limit(resource.RLIMIT_CORE, 0)
        if os.getuid() != 0:  # as root the limit is not enforced; a dropped uid gets it below
            limit(resource.RLIMIT_NPROC, self.processes)


_TMP = Path("/tmp")
#: the folder holding the engines/protocol/arena/bots packages (bots import them)
_PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _tmp_roots(paths: Sequence[Path]) -> list[Path]:
    """The top folders under /tmp that hold any of ``paths`` (as given and resolved)."""
    roots = []
    for path in paths:
        for candidate in (Path(os.path.abspath(path)), path.resolve()):
            if _TMP in candidate.parents:
                root = _TMP / candidate.relative_to(_TMP).parts[0]
                if root not in roots and root.exists():
                    roots.append(root)
    return roots


def _open_to_others(path: Path) -> bool:
    """Whether a user without privileges can reach ``path`` (o+x on every folder above it,
    o+r on it) — following symlinks, as exec would."""
    try:
        path = path.resolve()
        for folder in path.parents:
            if not folder.stat().st_mode & 0o001:
                return False
        return bool(path.stat().st_mode & 0o004)
    except OSError:
        return False


def _probe_bwrap(path: str) -> bool:
    try:
        result = subprocess.run(
            [path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all",
             "--die-with-parent", "--", "/bin/true"],
            capture_output=True, timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def _find_pids_cgroup() -> Path | None:
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

    def remove(self) -> None:
        try:
            self.path.rmdir()
        except OSError:
            pass


@dataclass
class Sandbox:
    """How bot processes are confined on this machine. Create with :func:`detect_sandbox`."""

    bwrap: str | None = None
    drop_privileges: bool = False
    hidden_paths: tuple[Path, ...] = ()
    #: this arena's folder under the cgroup pids controller, or None
    cgroup_root: Path | None = None
    _ids: itertools.count = field(default_factory=lambda: itertools.count(), repr=False)

    def with_hidden(self, paths: Sequence[Path]) -> Sandbox:
        """A sandbox that also hides ``paths`` (files or folders) from bots."""
        return Sandbox(self.bwrap, self.drop_privileges, self.hidden_paths + tuple(Path(p).resolve() for p in paths),
                       self.cgroup_root, self._ids)

    def new_cgroup(self, limits: Limits) -> BotCgroup | None:
        """A fresh cgroup for one bot process, or ``None`` where cgroups are not available."""
        if self.cgroup_root is None:
            return None
        try:
            return BotCgroup(self.cgroup_root / f"bot-{next(self._ids)}", limits.processes)
        except OSError:
            return None

    def uid_for(self, argv: Sequence[str], cwd: Path | None) -> int | None:
        """A fresh unprivileged uid for a bot, or ``None`` to keep the arena's.

        A bot keeps the arena's uid when its program or folder is not readable by other
        users (e.g. an interpreter under ``/root``): dropping privileges would only stop it
        from starting. ``arena doctor`` and the README say so.
        """
        if not self.drop_privileges:
            return None
        program = shutil.which(argv[0], path=os.environ.get("PATH")) if argv else None
        if program is None or not _open_to_others(Path(program)) or not _open_to_others(cwd or Path.cwd()):
            return None
        return UID_BASE + next(self._ids) % UID_COUNT

    def command(self, argv: Sequence[str], cwd: Path | None, uid: int | None = None) -> list[str]:
        """``argv`` wrapped in bubblewrap when available (run as ``uid`` when not None)."""
        if self.bwrap is None:
            return list(argv)
        # No --die-with-parent: trio starts processes from a worker thread, and the parent-death
        # signal fires when that *thread* ends (seconds later), killing healthy bots. Bots of
        # an arena that died are killed through their cgroups by the next arena instead.
        wrapped = [self.bwrap, "--new-session", "--unshare-all",
                   "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
        inside = (cwd or Path.cwd()).resolve()
        # The private /tmp must not hide what the bot runs from: its folder, the files on its
        # command line, the interpreter and the arena's own packages when they live in /tmp.
        needed = [inside, Path(sys.prefix), Path(sys.executable), _PROJECT_ROOT,
                  *(Path(arg) for arg in argv if os.path.isabs(arg))]
        for root in _tmp_roots(needed):
            if uid is None or _open_to_others(root):  # bwrap itself runs as the bot's uid
                wrapped += ["--ro-bind", str(root), str(root)]
        for path in self.hidden_paths:
            if path.is_dir():
                if inside == path or path in inside.parents:
                    continue  # the bot's own folder: hide nothing above it
                wrapped += ["--tmpfs", str(path)]
            elif path.exists():
                wrapped += ["--ro-bind", "/dev/null", str(path)]
        wrapped += ["--chdir", str(inside), "--"]
        return wrapped + list(argv)

    def environment(self, env: dict[str, str]) -> dict[str, str]:
        if self.bwrap is not None:
            env = {**env, "HOME": "/tmp", "TMPDIR": "/tmp"}
        return env

    def preexec(self, limits: Limits, uid: int | None, cgroup: BotCgroup | None) -> Callable[[], None]:
        # Order matters: join the cgroup while still root, then limit, then give up root.
        def setup() -> None:
            if cgroup is not None:
                cgroup.join()
            limits.apply()
            if uid is not None:
                if limits.processes is not None:
                    resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
                os.setgroups([])
                os.setgid(uid)
                os.setuid(uid)
        return setup

    def close(self) -> None:
        """Remove this arena's cgroup folder (the bots' own folders are removed as they stop)."""
        if self.cgroup_root is not None:
            try:
                self.cgroup_root.rmdir()
            except OSError:
                pass

    def describe(self) -> list[tuple[str, bool, str]]:
        """(protection, active, how) rows for ``arena doctor``."""
        root = self.drop_privileges
        box = self.bwrap is not None
        cgroup = self.cgroup_root is not None
        return [
            ("process count capped; every descendant killed (cgroup pids)", cgroup,
             str(self.cgroup_root.parent) if cgroup else "needs a writable cgroup pids controller (root)"),
            ("own process session, killed by process group", True, "always"),
            ("resource limits (memory, CPU, files, file size, no core)", True, "setrlimit, per manifest [limits]"),
            ("environment reduced to PATH, HOME, LANG and the manifest's [env]", True, "always"),
            ("stderr captured and capped", True, "last 16 KiB kept with each fault"),
            ("own unprivileged uid per bot; database and logs unreadable; process limit per bot",
             root, "arena runs as root; only for bots whose program and folder other users can read"
             if root else "needs the arena to run as root"),
            ("children killed by uid even after setsid", root, "kill -9 -1 as the bot's uid" if root else "needs root"),
            ("no network", box, self.bwrap or "needs bubblewrap (apt-get install bubblewrap)"),
            ("read-only filesystem, private /tmp", box, "bubblewrap" if box else "needs bubblewrap"),
            ("own PID namespace (children die with the bot)", box, "bubblewrap" if box else "needs bubblewrap"),
            ("tournament file, database and logs hidden; seed not visible in /proc", box,
             "bubblewrap" if box else "needs bubblewrap"),
        ]


def _remove_stale_cgroups(root: Path) -> None:
    """Kill what is left in the cgroups of arenas that died without cleaning up (kill -9),
    and remove their folders."""
    for folder in root.glob("pirate-arena-*"):
        try:
            os.kill(int(folder.name.rpartition("-")[2]), 0)
        except ProcessLookupError:
            for child in folder.glob("bot-*"):
                leftover = BotCgroup(child, None)
                leftover.kill_all()
                leftover.remove()
            try:
                folder.rmdir()
            except OSError:
                pass
        except (ValueError, PermissionError):
            pass


def detect_sandbox(mode: str = "auto") -> Sandbox:
    """The strongest sandbox this machine supports.

    ``mode``: ``"auto"`` (use bubblewrap if it works), ``"bwrap"`` (require it; raises
    ``RuntimeError`` if it does not work), ``"none"`` (limits and uid only).
    """
    if mode not in ("auto", "bwrap", "none"):
        raise ValueError(f"sandbox mode must be auto, bwrap or none, got {mode!r}")
    bwrap = None
    if mode != "none":
        path = shutil.which("bwrap")
        if path and _probe_bwrap(path):
            bwrap = path
        elif mode == "bwrap":
            raise RuntimeError("bubblewrap is required but does not work here (apt-get install bubblewrap)")
    pids = _find_pids_cgroup()
    if pids is not None:
        _remove_stale_cgroups(pids)
    return Sandbox(bwrap=bwrap, drop_privileges=os.geteuid() == 0,
                   cgroup_root=pids / f"pirate-arena-{os.getpid()}" if pids else None)
