"""``arena check-bot``'s work (its command and options: :mod:`._app`): the bot checked in the
sandbox, the report printed with the time control it was checked at, exit code 1 on failure."""

from __future__ import annotations

from pathlib import Path

import trio
import typer

from ..match import check_bot
from ..players import BotSpec, TimeControl
from ..sandbox import open_sandbox
from ._common import on_interrupt, root_bots_warning

#: a tournament file's time control (``[time]``'s defaults)
DEFAULTS = TimeControl()


def run_check_bot(spec: BotSpec, games: list[str], games_per: int, time_control: TimeControl,
                  stderr_dir: Path | None, sandbox: str, allow_root_bots: bool) -> None:
    """Check ``spec`` in ``games`` (default: those of its hello), ``games_per`` games each, at
    ``time_control``, in a sandbox of mode ``sandbox``; print the report. Raises
    :class:`typer.Exit` (1) where the bot fails."""
    with open_sandbox(sandbox, allow_root_bots) as box, on_interrupt(lambda: "the check was not finished"):
        report = trio.run(check_bot, spec, games, games_per, time_control, box, stderr_dir)
    lines = report.lines()
    for line in [*lines[:1], _clock_line(time_control), *lines[1:]]:
        typer.echo(line)
    if stderr_dir is not None:
        typer.echo(f"stderr saved in {stderr_dir}/ (NAME.PID.log per process of the bot)")
    if root_bots_warning(box):
        typer.echo(root_bots_warning(box))
    if not report.passed:
        raise typer.Exit(1)


def _clock_line(time_control: TimeControl) -> str:
    """Which time control check-bot checked at, and whether a default tournament's is the same."""
    given = (time_control.move_ms, time_control.reserve_ms, time_control.startup_ms)
    which = ("a tournament file's defaults" if given == (DEFAULTS.move_ms, DEFAULTS.reserve_ms, DEFAULTS.startup_ms)
             else "as given; a tournament file's defaults are "
                  f"{DEFAULTS.move_ms}, {DEFAULTS.reserve_ms} and {DEFAULTS.startup_ms} ms")
    return (f"time control: move {given[0]} ms, reserve {given[1]} ms, startup {given[2]} ms ({which}; "
            f"--move-ms, --reserve-ms, --startup-ms to check at others)")
