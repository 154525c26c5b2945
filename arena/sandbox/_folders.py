"""What a folder of a bot's view holds, counted as the disk holds it, and the limits past which
the bot is refused rather than shown the folder some other way (issue 44: fail closed).

A folder becomes an image of its own (``_images``), whose size is what its files say they hold.
Counted per directory entry, a file with 4,101 hard links "was" 4.3 GB and the folder, too big
for an image, was bound as it is, its dentries shared with every other bot; a sparse file of
4 KiB on disk became a 1 GiB image locked in memory; 66,000 entries, bound as they are, were
mapped one by one to keep them resident until the arena ran out of mappings and died. So a
folder is counted here as the disk holds it: every entry, each inode's bytes once, the blocks
it really has; and past a limit the bot is refused (:class:`ViewRefused`, one line naming the
folder and the figure), never shown the folder another way.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: the most entries (files, folders, links) a folder of a view may hold: a runtime's whole
#: Python holds about 15,000; a bot's folder needs far fewer
MAX_ENTRIES = 100_000
#: the most bytes its files may hold, each inode counted once: what an image of it copies
MAX_BYTES = 4 << 30
#: the most of a file that may be holes (its size past the blocks it has on disk): a sparse
#: file is copied whole into an image
MAX_HOLES = 1 << 20


class ViewRefused(Exception):
    """A bot's view cannot be built as planned; the message, one line, says which folder and why."""


@dataclass(frozen=True)
class FolderSize:
    """What a folder holds: ``entries`` (files, folders, links, each name once), ``bytes`` (of
    its regular files, each inode once), ``allocated`` (their blocks on disk, each inode once)."""

    entries: int
    bytes: int
    allocated: int


def survey(folder: Path, left_out: Sequence[Path] = ()) -> tuple[str, FolderSize]:
    """A digest of everything ``folder`` holds but ``left_out`` (every entry's name, kind, size,
    modification time, owner, mode and inode, and a link's target: of what it holds, not where
    it is), and its :class:`FolderSize`. Raises :class:`ViewRefused` past a limit, at once:
    the walk stops there, however much more the folder holds."""
    max_entries, max_bytes, max_holes = MAX_ENTRIES, MAX_BYTES, MAX_HOLES
    digest = hashlib.sha256()
    start = len(str(folder).rstrip("/")) + 1
    entries = total = allocated = 0
    seen: set[tuple[int, int]] = set()
    skipped = {str(path) for path in left_out}
    pending = [str(folder)]
    while pending:
        current = pending.pop()
        try:
            listed = sorted(os.scandir(current), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in listed:
            if entry.path in skipped:
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            entries += 1
            if entries > max_entries:
                raise ViewRefused(f"{folder} holds more than {max_entries:,} entries (the limit)")
            link = os.readlink(entry.path) if stat.S_ISLNK(info.st_mode) else ""
            digest.update(f"{entry.path[start:]}\0{info.st_mode}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_uid}\0"
                          f"{info.st_gid}\0{info.st_ino}\0{link}\n".encode("utf-8", "surrogateescape"))
            if stat.S_ISDIR(info.st_mode):
                pending.append(entry.path)
            elif stat.S_ISREG(info.st_mode) and (info.st_dev, info.st_ino) not in seen:
                seen.add((info.st_dev, info.st_ino))
                on_disk = info.st_blocks * 512
                if info.st_size - on_disk > max_holes:
                    raise ViewRefused(f"{entry.path} is a sparse file ({info.st_size:,} bytes, {on_disk:,} on "
                                      f"disk): a bot's folder may not hold one")
                total += info.st_size
                allocated += on_disk
                if total > max_bytes:
                    raise ViewRefused(f"{folder} holds more than {max_bytes:,} bytes (the limit; each file "
                                      f"counted once, whatever its links)")
    return digest.hexdigest()[:24], FolderSize(entries, total, allocated)
