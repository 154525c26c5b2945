"""The stderr logs of the ladder's bot processes (``DATABASE.logs/``), bounded per version and
per author.

Every bot process the ladder starts writes what it prints on stderr to a log of its own, up
to 1 MiB (:class:`arena.players._process.StderrLog`), named ``ENTRANT.PID.log``. A process
starts every few games, so a bot that prints 1 MiB at start made the folder grow by about
24 GiB a day (issue 47). :func:`prune_logs_forever` keeps, of each version, its newest logs
up to ``logs_per_version_mb`` (the ladder file's key; at least the newest log is kept whole
if it alone is larger: a log is at most 1 MiB and a note), then, of each author (``AUTHOR`` of
its versions ``AUTHOR-vN``), the newest of those up to ``logs_per_author_mb`` across all its
versions (again its newest log whole), the oldest deleted first; and it deletes every log of a
version once the version is removed (:meth:`arena.ladder._runner.LadderRunner` says which).
A log still being written may be deleted: its process writes on into an unlinked file, which
is gone when it ends, so at any moment an author holds at most its limit plus 1 MiB for each
of its processes started since the last pass (:data:`PRUNE_EVERY_S`).

So an author's logs take at most ``logs_per_author_mb``, and at most ``logs_per_version_mb``
times its versions not yet removed (``active_versions``, plus a superseded one until the next
stretch of play starts), whichever is less, however many versions it uploads.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import trio

from ..players import log_name

#: how often the logs are looked at
PRUNE_EVERY_S = 1.0
#: a process's log: ``NAME.PID.log``, or ``NAME.PID-N.log`` where that existed
_LOG = re.compile(r"^(?P<name>.+)\.[0-9]+(?:-[0-9]+)?\.log$")
#: the version at the end of an entrant's name
_VERSION = re.compile(r"-v[0-9]+$")


def log_stem(entrant: str) -> str:
    """The start of the names of ``entrant``'s logs (its name as a file name)."""
    return log_name(entrant, 0).removesuffix(".0.log")


def author_of(stem: str) -> str:
    """The author of the version whose logs start with ``stem`` (``AUTHOR-vN``; an author's
    name never ends like a version, :func:`arena.ladder._config.check_author`)."""
    return _VERSION.sub("", stem)


def prune_logs(folder: Path, per_version: int, removed: Iterable[str] = (), per_author: int = 0) -> int:
    """Delete, in ``folder``, the logs of the versions in ``removed``, the oldest logs of each
    other version beyond ``per_version`` bytes, then the oldest of each author's logs left
    beyond ``per_author`` bytes (0: no such bound); return the bytes deleted. The newest log
    of a version, and of an author, is kept whatever its size. Files that are not such logs
    are left alone."""
    gone = {log_stem(name) for name in removed}
    groups: dict[str, list[tuple[float, str, int]]] = {}
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                match = _LOG.match(entry.name)
                if match is None or not entry.is_file(follow_symlinks=False):
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                groups.setdefault(match["name"], []).append((info.st_mtime, entry.name, info.st_size))
    except OSError:
        return 0
    doomed: list[tuple[str, int]] = []
    authors: dict[str, list[tuple[float, str, int]]] = {}
    for stem, files in groups.items():
        files.sort(reverse=True)  # newest first
        kept = 0
        for number, (mtime, name, size) in enumerate(files):
            if stem not in gone and (number == 0 or kept + size <= per_version):
                kept += size
                authors.setdefault(author_of(stem), []).append((mtime, name, size))
            else:
                doomed.append((name, size))
    for files in authors.values():
        files.sort(reverse=True)
        kept = 0
        for number, (_, name, size) in enumerate(files):
            if not per_author or number == 0 or kept + size <= per_author:
                kept += size
            else:
                doomed.append((name, size))
    deleted = 0
    for name, size in doomed:
        try:
            os.unlink(folder / name)
            deleted += size
        except OSError:
            pass
    return deleted


async def prune_logs_forever(folder: Path, per_version: int, removed: Callable[[], Iterable[str]],
                             per_author: int = 0) -> None:
    """:func:`prune_logs` every :data:`PRUNE_EVERY_S` (in a thread), until cancelled;
    ``removed()`` names the versions removed so far."""
    while True:
        await trio.to_thread.run_sync(prune_logs, folder, per_version, list(removed()), per_author)
        await trio.sleep(PRUNE_EVERY_S)
