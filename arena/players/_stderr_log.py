"""What a bot writes to stderr: its last bytes kept for its faults, its first copied to a log
file of its own, never overwriting another."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


class StderrLog:
    """Keeps the last ``limit`` bytes a bot wrote to stderr, counts the total, and copies the
    first ``file_limit`` bytes to a log file when one is given (then notes the truncation).

    The log is always a new file: where ``path`` exists (a process of the same name got the
    same pid earlier in a long run, or on another machine of a cluster sharing the folder, or
    something planted a link there) it is ``NAME.PID-2.log``, ``-3``... instead, so no log is
    overwritten and no link is followed. :attr:`path` is the file written.
    """

    def __init__(self, limit: int = 16 * 1024, path: Path | None = None, file_limit: int = 1 << 20) -> None:
        self.limit = limit
        self.total = 0
        self._tail = bytearray()
        self.path = path
        self.file_limit = file_limit
        self._file = None
        if path is not None:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            self.path, self._file = _new_file(path)

    def write(self, data: bytes) -> None:
        if self._file is not None:
            room = self.file_limit - self.total
            if room > 0:
                self._file.write(data[:room])
                if len(data) >= room:
                    self._file.write(b"\n[pirate-arena: log truncated here; later output is not kept]\n")
                self._file.flush()
        self.total += len(data)
        self._tail += data
        if len(self._tail) > 2 * self.limit:
            del self._tail[: len(self._tail) - self.limit]

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def tail(self, lines: int = 20) -> str:
        text = bytes(self._tail[-self.limit:]).decode("utf-8", "replace")
        return "\n".join(text.splitlines()[-lines:])


def _new_file(path: Path) -> tuple[Path, Any]:
    """``path`` created new (mode 0600), or the first free ``STEM-N.log`` beside it."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    stem, number = path.name.removesuffix(".log"), 1
    while True:
        try:
            return path, open(os.open(path, flags, 0o600), "wb")
        except FileExistsError:
            number += 1
            path = path.with_name(f"{stem}-{number}.log")
