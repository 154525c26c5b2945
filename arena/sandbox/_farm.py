"""The system's and the runtime's part of a view as one folder, bound in one mount.

A minimal view names a few hundred files (the libraries a program loads, a Python installation's
standard library and packages): bubblewrap binding each one takes about 5 ms a mount, seconds
a bot. So the arena lays those files out once per machine in a folder of its own, each at its
path below it (a hard link where that folder lies on the same filesystem, else a copy; a link
as a link), and a view binds that folder's top folders (``usr``, the Python prefix) instead:
a handful of mounts. Folders shown whole (a JDK) become empty folders there, bound on top.

A farm is named by what it holds and is never changed once made (made under a temporary name,
then renamed), so any number of arena processes share it; farms unused for a day are removed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from ._resident import state_folder

#: farms not used for this long are removed when another is made
STALE_S = 24 * 3600
#: the farms this process found whole (each is looked over once per process)
_WHOLE: set[str] = set()


def farm(files: Sequence[Path], folders: Sequence[Path], mount_points: Sequence[Path] = ()) -> Path:
    """The farm holding ``files`` (walked when a folder), with empty folders at ``folders``
    (bound whole on top) and ``mount_points`` (other binds falling inside); made if missing."""
    listing = sorted({str(path) for path in files})
    empty = sorted({str(path) for path in (*folders, *mount_points)})
    # Named by what it holds as it is now: a package upgraded puts new files (new inodes) in a
    # folder made anew, and a farm of the old ones must not serve it.
    versions = [[os.lstat(path).st_ino, os.lstat(path).st_mtime_ns] if os.path.lexists(path) else None
                for path in listing]
    key = hashlib.sha256(json.dumps([listing, empty, versions]).encode()).hexdigest()[:24]
    root = state_folder() / "farms" / key
    if (root / ".complete").exists():
        if key in _WHOLE or all(os.path.lexists(root / path.lstrip("/")) or not os.path.lexists(path)
                                for path in listing):
            _WHOLE.add(key)
            os.utime(root / ".complete")
            return root
        # Not all there (a farm seen once with files missing: every bot of that view failed
        # to start): set aside, swept within the hour as a build that died, and made again.
        try:
            root.rename(root.parent / f".{key}.incomplete.{os.getpid()}")
        except OSError:
            pass
    root.parent.mkdir(mode=0o755, exist_ok=True)
    root.parent.chmod(0o755)
    building = root.parent / f".{key}.{os.getpid()}.{threading.get_ident()}"  # bots start from several threads
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir(mode=0o755)
    for path in listing:
        _place(Path(path), building)
    for path in empty:
        (building / path.lstrip("/")).mkdir(mode=0o755, parents=True, exist_ok=True)
    _open_folders(building)
    (building / ".complete").touch()
    try:
        building.rename(root)
    except OSError:  # another process made it meanwhile
        shutil.rmtree(building, ignore_errors=True)
    _sweep(root.parent, keep=root)
    return root


def _place(path: Path, root: Path) -> None:
    """``path`` (a file, a link, or a folder with everything in it) at its place below ``root``."""
    if path.is_dir() and not path.is_symlink():
        for folder, folders, names in os.walk(path):
            for name in names + [name for name in folders if os.path.islink(os.path.join(folder, name))]:
                _place_one(Path(folder) / name, root)
        return
    _place_one(path, root)


def _place_one(path: Path, root: Path) -> None:
    target = root / str(path).lstrip("/")
    if os.path.lexists(target):
        return
    target.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    try:
        if path.is_symlink():
            os.symlink(os.readlink(path), target)
        else:
            try:
                os.link(path, target)
            except OSError:  # another filesystem, or a file the kernel will not link
                shutil.copy2(path, target)
    except OSError:
        pass  # unreadable or gone: the bot's own start says what is missing


def _open_folders(root: Path) -> None:
    """Every folder of the farm readable and enterable by every bot uid."""
    for folder, _, _ in os.walk(root):
        os.chmod(folder, 0o755)


def _sweep(farms: Path, keep: Path) -> None:
    """Remove farms unused (their ``.complete`` untouched) for :data:`STALE_S`; a bot still
    running in one keeps its mounts."""
    now = time.time()
    for entry in farms.iterdir():
        if entry == keep:
            continue
        try:
            if now - (entry / ".complete").stat().st_mtime > STALE_S:
                shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            try:
                if entry.name.startswith(".") and now - entry.stat().st_mtime > 3600:
                    shutil.rmtree(entry, ignore_errors=True)  # a build that died
            except OSError:
                pass  # gone since the listing: another arena's build, renamed into place
