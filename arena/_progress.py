"""Live progress of a tournament on a terminal (or plain lines when not a terminal)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ._tournament import Progress


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class ProgressPrinter:
    """Draws ``[#####.....] 34/120  2.1 games/s  ETA 0:41  leader py-search 61%``.

    On a terminal the line is redrawn in place; otherwise a line is printed at most every
    ``interval`` seconds, and always for the last game.
    """

    def __init__(self, stream: TextIO = sys.stderr, width: int = 24, interval: float = 5.0) -> None:
        self.stream = stream
        self.width = width
        self.interval = interval
        self.tty = stream.isatty()
        self._last = 0.0

    def line(self, progress: Progress) -> str:
        filled = int(self.width * progress.done / progress.total) if progress.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        leader = f"  leader {progress.leader} {progress.leader_percent:.0f}%" if progress.leader else ""
        return (f"[{bar}] {progress.done}/{progress.total}  {progress.rate:.1f} games/s"
                f"  ETA {_clock(progress.eta_s)}{leader}")

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        final = progress.done >= progress.total
        if self.tty:
            self.stream.write("\r" + self.line(progress) + ("\n" if final else ""))
            self.stream.flush()
        elif final or now - self._last >= self.interval:
            self.stream.write(self.line(progress) + "\n")
            self.stream.flush()
            self._last = now
