"""The stderr logs of the ladder's bot processes (``DATABASE.logs/``), bounded per version.

Every bot process the ladder starts writes what it prints on stderr to a log of its own, up
to 1 MiB (:class:`arena.players._stderr_log.StderrLog`), named ``ENTRANT.PID.log``. A process
starts every few games, so a bot that prints 1 MiB at start made the folder grow by about
24 GiB a day (issue 47). :func:`prune_logs_forever` keeps, of each version, its newest logs
up to ``logs_per_version_mb`` (the ladder file's key; at least the newest log is kept whole
if it alone is larger: a log is at most 1 MiB and a note), and deletes every log of a
version once the version is removed (:meth:`arena.ladder._runner.LadderRunner` says which).
A log still being written may be deleted: its process writes on into an unlinked file, which
is gone when it ends, so at any moment a version holds at most the limit plus 1 MiB for each
of its processes started since the last pass (:data:`PRUNE_EVERY_S`).

So an author's logs take at most ``logs_per_version_mb`` times its versions not yet removed
(``active_versions``, plus a superseded one until the next stretch of play starts).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import trio

from ..players._manifest import log_name

#: how often the logs are looked at
PRUNE_EVERY_S = 1.0
#: a process's log: ``NAME.PID.log``, or ``NAME.PID-N.log`` where that existed
_LOG = re.compile(r"^(?P<name>.+)\.[0-9]+(?:-[0-9]+)?\.log$")


def log_stem(entrant: str) -> str:
    """The start of the names of ``entrant``'s logs (its name as a file name)."""
    return log_name(entrant, 0).removesuffix(".0.log")


def prune_logs(folder: Path, per_version: int, removed: Iterable[str] = ()) -> int:
    """Delete, in ``folder``, the logs of the versions in ``removed`` and the oldest logs of
    each other version beyond ``per_version`` bytes; return the bytes deleted. Files that
    are not such logs are left alone."""
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
    deleted = 0
    for stem, files in groups.items():
        files.sort(reverse=True)  # newest first
        kept = 0
        for number, (_, name, size) in enumerate(files):
            if stem not in gone and (number == 0 or kept + size <= per_version):
                kept += size
                continue
            try:
                os.unlink(folder / name)
                deleted += size
            except OSError:
                pass
    return deleted


async def prune_logs_forever(folder: Path, per_version: int, removed: Callable[[], Iterable[str]]) -> None:
    """:func:`prune_logs` every :data:`PRUNE_EVERY_S` (in a thread), until cancelled;
    ``removed()`` names the versions removed so far."""
    while True:
        await trio.to_thread.run_sync(prune_logs, folder, per_version, list(removed()))
        await trio.sleep(PRUNE_EVERY_S)
