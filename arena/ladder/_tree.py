"""Walking and removing a submitted bot's folder, whatever a build left in it.

A build step runs the author's code with the bot's folder writable, so the tree it leaves is
hostile input: 1,500 nested folders, 160,000 files, names that make a path longer than
``PATH_MAX``. Python's ``os.walk`` and ``shutil.rmtree`` recurse once per level (in 3.11:
``RecursionError`` past about 1,000) and name every entry by its full path (``ENAMETOOLONG``
past 4,096 bytes), so neither is used on a submitted tree. Here:

- :func:`measure` walks with an explicit stack and stops at the first of the caps it is given
  (depth, entries, bytes): its cost is bounded by the caps, not by what the build made;
- :func:`remove_tree` removes any tree without recursion, by file descriptor (``openat``,
  ``unlinkat``), keeping one folder open at a time, so neither depth nor path length matter.

Both block (many system calls): the ladder runs them in a worker thread
(``trio.to_thread.run_sync``), never in its event loop.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class TreeSize:
    """What :func:`measure` counted, and which cap stopped it (``None``: none did, the counts
    are the tree's)."""

    entries: int    #: files, folders, links... below the top (not the top itself)
    bytes: int      #: the apparent sizes of its regular files (a sparse file counts in full)
    depth: int      #: the deepest level seen: 1 for an entry of the top folder
    over: str | None = None


def measure(folder: Path, *, max_depth: int, max_entries: int, max_bytes: int) -> TreeSize:
    """Count the entries, bytes and depth of ``folder``'s tree, without following links, and
    stop as soon as one passes its cap; :attr:`TreeSize.over` then says which, in words for
    the author ("more than 50000 entries (the limit)"). Entries that vanish or cannot be read
    while it walks (a build still running) are skipped."""
    entries = size = deepest = 0
    stack: list[tuple[str, int]] = [(os.fspath(folder), 0)]
    while stack:
        path, depth = stack.pop()
        try:
            scan = os.scandir(path)
        except OSError as error:
            if error.errno == errno.ENAMETOOLONG:  # what lies below could not be counted
                return TreeSize(entries, size, deepest, "a path longer than the system allows")
            continue  # vanished, or closed to the arena while the build runs (counted after it)
        with scan:
            for entry in scan:
                entries += 1
                deepest = max(deepest, depth + 1)
                if entries > max_entries:
                    return TreeSize(entries, size, deepest, f"more than {max_entries} files and folders (the limit)")
                if deepest > max_depth:
                    return TreeSize(entries, size, deepest, f"entries more than {max_depth} levels deep (the limit)")
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append((entry.path, depth + 1))
                    elif entry.is_file(follow_symlinks=False):
                        size += entry.stat(follow_symlinks=False).st_size
                except OSError:
                    continue
                if size > max_bytes:
                    return TreeSize(entries, size, deepest, f"more than {max_bytes} bytes (the limit)")
    return TreeSize(entries, size, deepest)


def disk_usage(folder: Path) -> int:
    """Bytes ``folder`` takes on disk (allocated blocks, links not followed); 0 if missing.
    For a bot's folder that passed vetting, so its depth and size are capped already."""
    total = 0
    for top, folders, files in os.walk(folder):
        for name in folders + files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(top, name)).st_blocks * 512
    return total


def remove_tree(folder: Path) -> None:
    """Remove ``folder`` and everything in it, links not followed; nothing if it is missing.

    Iterative and by file descriptor: it goes down one folder at a time (``openat`` of the
    child, the parent closed) and back up through ``..``, so it holds one descriptor whatever
    the depth and never builds a long path. A folder a build made unreadable (``0000``) is
    opened up first. Whoever may still write the tree must be stopped before (a build's
    processes are all dead when the ladder calls this). Raises ``OSError`` only for what the
    arena's own rights cannot remove."""
    try:
        fd = os.open(folder, _DIR_FLAGS)
    except FileNotFoundError:
        return
    except OSError as error:
        if error.errno != errno.ENOTDIR:
            raise
        os.unlink(folder)  # a file or a link where the folder was
        return
    names: list[str] = []  # the folders below ``folder`` that ``fd`` is in, top first
    try:
        while True:
            child = _empty_but_one(fd)
            if child is not None:
                try:
                    below = os.open(child, _DIR_FLAGS, dir_fd=fd)
                except PermissionError:
                    os.chmod(child, 0o700, dir_fd=fd)
                    below = os.open(child, _DIR_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = below
                names.append(child)
                continue
            if not names:
                break
            parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = parent
            os.rmdir(names.pop(), dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(folder)


def _empty_but_one(fd: int) -> str | None:
    """Unlink the entries of the open folder ``fd`` up to its first subfolder; return that
    subfolder's name, or ``None`` once the folder is empty."""
    with os.scandir(fd) as scan:
        for entry in scan:
            try:
                is_dir = stat.S_ISDIR(os.lstat(entry.name, dir_fd=fd).st_mode)
            except FileNotFoundError:
                continue
            if is_dir:
                return entry.name
            os.unlink(entry.name, dir_fd=fd)
    return None
