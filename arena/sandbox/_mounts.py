"""A private view of the filesystem in which an unprivileged bot uid can reach its program.

The problem: the arena runs as root, a bot should run under its own unprivileged uid, but its
program lives below a folder other users cannot enter (pyenv's Python under ``/root``, mode
0700). Dropping the uid would stop the bot from starting; keeping root would let it write the
results database and signal every process.

The design, which leaves the organiser's system unchanged: in the child process, before
``exec`` and while still root, the arena

1. enters a new mount namespace (``unshare(CLONE_NEWNS)``) and makes every mount private, so
   nothing below reaches the rest of the machine;
2. opens an ``O_PATH`` descriptor on each path the bot needs (its program, the interpreter's
   prefix, its folder, the arena's packages, absolute paths on its command line) while they
   are still visible;
3. covers the folder the bot uid cannot traverse on the way to a needed path (e.g. ``/root``)
   with a small root-owned ``tmpfs`` (mode 0755) that hides everything in it; a path below
   a *second* closed folder (``~/.ssh``, a 0700 log folder) is never shown;
4. recreates inside that tmpfs only the needed paths, each a read-only bind mount of the real
   one (taken from the descriptor, ``/proc/self/fd/N``), and makes the tmpfs read-only; a
   working folder other users may not enter (pytest's ``tmp_path``) is recreated empty but
   for the files named on the bot's command line;
5. gives up root (``_sandbox``) and execs; bubblewrap, when used, then runs unprivileged
   inside this view.

What the bot can see below a covered folder is exactly the recreated paths, with their real
permissions; the rest of ``/root`` does not exist for it. It cannot undo the mounts (it is not
root, and mounts made in a more privileged namespace are locked for user namespaces). A path
that itself is unreadable to other users (a 0700 bot folder) cannot be helped this way: the
plan then says why, and the arena refuses to start the bot as root unless told to.
"""

from __future__ import annotations

import ctypes
import os
import stat
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

_CLONE_NEWNS = 0x00020000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV = 1, 2, 4
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_O_PATH = getattr(os, "O_PATH", 0o10000000)


def _traversable(folder: Path) -> bool:
    """Whether a uid without groups may pass through ``folder`` (o+x)."""
    return bool(folder.stat().st_mode & 0o001)


def _usable(path: Path, executable: bool) -> bool:
    """Whether such a uid may use ``path`` itself: enter a folder, read (and run) a file."""
    mode = path.stat().st_mode
    if stat.S_ISDIR(mode):
        return bool(mode & 0o001)
    return bool(mode & 0o004) and (not executable or bool(mode & 0o001))


def _closed_folders(path: Path) -> list[Path]:
    """The folders above ``path`` that other users cannot traverse, topmost first."""
    return [folder for folder in reversed(path.parents) if not _traversable(folder)]


@dataclass(frozen=True)
class MountPlan:
    """Which folders to cover and which real paths to show again inside them.

    ``covers``: folders the bot uid cannot traverse, each hidden under a tmpfs. ``binds``:
    resolved paths recreated inside the covers as read-only bind mounts, with whether each
    is a folder. An empty plan (nothing to cover) needs no namespace at all.
    """

    covers: tuple[Path, ...] = ()
    binds: tuple[tuple[Path, bool], ...] = ()
    #: folders recreated empty inside the covers (a working folder other users cannot enter)
    empty: tuple[Path, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.covers)

    def visible(self, path: Path) -> bool:
        """Whether ``path`` exists in the bot's view of the filesystem."""
        path = Path(os.path.realpath(path))
        if not path.exists():
            return False
        if not any(_within(path, cover) for cover in self.covers):
            return True
        shown = [bind for bind, _ in self.binds] + list(self.empty)
        return any(_within(path, bind) for bind, _ in self.binds) or any(_within(place, path) for place in shown)

    def apply(self) -> None:
        """Build the view in the calling process (a child before exec, still root).

        Raises ``OSError`` if a namespace or mount call fails.
        """
        libc = ctypes.CDLL(None, use_errno=True)

        def check(result: int, what: str) -> None:
            if result != 0:
                errno = ctypes.get_errno()
                raise OSError(errno, f"{what}: {os.strerror(errno)}")

        def mount(source: str | None, target: Path | str, fstype: str | None, flags: int,
                  data: str | None = None) -> None:
            check(libc.mount(_c(source), _c(str(target)), _c(fstype), ctypes.c_ulong(flags), _c(data)),
                  f"mount {target}")

        check(libc.unshare(_CLONE_NEWNS), "unshare(CLONE_NEWNS)")
        mount(None, "/", None, _MS_REC | _MS_PRIVATE)
        # Take hold of every needed path before the tmpfs hides it.
        sources = [os.open(bind, _O_PATH | os.O_CLOEXEC) for bind, _ in self.binds]
        for cover in self.covers:
            mount("tmpfs", cover, "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=755,size=64k")
        for folder in self.empty:
            _make_mount_point(folder, True, self._cover_of(folder))
        for (bind, is_dir), fd in zip(self.binds, sources):
            _make_mount_point(bind, is_dir, self._cover_of(bind))
            mount(f"/proc/self/fd/{fd}", bind, None, _MS_BIND | _MS_REC)
            mount(None, bind, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY)
            os.close(fd)
        for cover in self.covers:
            mount(None, cover, None, _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV, "mode=755")

    def _cover_of(self, path: Path) -> Path:
        return next(cover for cover in self.covers if _within(path, cover))


def plan_mounts(required: Iterable[Path], optional: Iterable[Path] = (), folder: Path | None = None,
                executable: Path | None = None) -> tuple[MountPlan, list[str]]:
    """The view that lets an unprivileged uid reach the paths a bot needs.

    A path is shown only where one folder above it is closed to other users (the one the
    tmpfs covers, e.g. ``/root``) and the path itself is open to them: a folder the owner
    closed *inside* that one (``~/.ssh``, a 0700 log folder) stays closed.
    ``required`` paths must be shown; ``optional`` ones are shown where they may be.
    ``folder`` (the bot's working folder) is shown where it may be, and otherwise recreated
    empty (so the bot can still start there). ``executable`` must be runnable by others.
    Missing paths are skipped: the bot's own start reports them. Returns the plan and one
    line for each required path the uid still cannot use.
    """
    covers: list[Path] = []
    binds: dict[Path, bool] = {}
    empty: list[Path] = []
    problems = []
    run = Path(os.path.realpath(executable)) if executable is not None else None
    entries = [*((Path(p), "required") for p in required), *((Path(p), "optional") for p in optional)]
    if folder is not None:
        entries.insert(0, (Path(folder), "folder"))
    for path, role in entries:
        real = Path(os.path.realpath(path))
        if not real.exists():
            continue
        closed = _closed_folders(real)
        if _usable(real, real == run) and len(closed) <= 1:
            if closed:
                covers.append(closed[0])
                binds[real] = real.is_dir()
        elif role == "folder":
            closed = [f for f in [*reversed(real.parents), real] if not _traversable(f)]
            covers.append(closed[0])
            empty.append(real)
        elif role == "required":
            problems.append(f"{real} is not {'runnable' if real == run else 'readable'} by other users"
                            if len(closed) <= 1 else f"{real} is below {closed[1]}, which other users cannot enter")
    covers = list(dict.fromkeys(covers))
    # A bind inside another is shown by the outer one already (every folder between them is
    # open: only the cover above them is closed).
    kept = {bind: is_dir for bind, is_dir in binds.items() if not any(other in bind.parents for other in binds)}
    return MountPlan(tuple(covers), tuple(kept.items()), tuple(empty)), problems


def namespaces_work() -> bool:
    """Whether this process may build such a view (root with CAP_SYS_ADMIN, mount allowed)."""
    try:
        result = subprocess.run(["/bin/true"], preexec_fn=_private_namespace, timeout=60,
                                capture_output=True)
    except (OSError, subprocess.SubprocessError):
        return False
    return result.returncode == 0


def _private_namespace() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(_CLONE_NEWNS) != 0 or libc.mount(None, b"/", None, ctypes.c_ulong(_MS_REC | _MS_PRIVATE), None) != 0:
        raise OSError(ctypes.get_errno(), "no private mount namespace")


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _c(text: str | None) -> bytes | None:
    return None if text is None else os.fsencode(text)


def _make_mount_point(path: Path, is_dir: bool, cover: Path) -> None:
    """Create ``path`` (and the folders above it, mode 0755) inside the tmpfs on ``cover``."""
    if path == cover:
        return
    folder = cover
    for part in path.relative_to(cover).parts[:-1]:
        folder = folder / part
        if not folder.exists():
            os.mkdir(folder)
            os.chmod(folder, 0o755)  # whatever the arena's umask
    if path.exists():
        return
    if is_dir:
        os.mkdir(path)
        os.chmod(path, 0o755)
    else:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o644))
