"""An entrant whose bot cannot start: the error that stops a run before its first game, and
the one line that says who, why, and the last thing its bot wrote to stderr."""

from __future__ import annotations

from ._faults import FaultKind
from ._player import Player


class StartupError(Exception):
    """An entrant's bot cannot start (no such program or folder, exits at once, no hello)."""


def startup_message(who: str, player: Player) -> str:
    """One line: who cannot start, why, and the last line of its stderr (call it once the
    process is shut down: then its exit code and its stderr are complete)."""
    detail = player.failure.detail if player.failure is not None else "did not start"
    code = player.process.returncode() if player.process is not None else None
    if player.failure is not None and player.failure.kind is FaultKind.CRASH and player.hello is None \
            and code is not None and code >= 0:
        detail = f"it exited before answering hello (exit code {code})"  # not killed by us
    tail = player.stderr_tail().strip().splitlines()
    return f"{who} cannot start: {detail}" + (f"; its stderr ends: {tail[-1]}" if tail else "")
