"""Command line: the HTML tournament report and the single-game viewer."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Optional

import typer

from ._common import KeyOption, OldKeyOption, UsageError, plural, reports_errors

# The report package (the store, numpy) is imported inside the commands: `arena --help` and
# `arena games` load this module and must start fast.
REPLAY_MB = 18.5  # default of --replay-mb; arena.report.REPLAY_BUDGET is the same, in bytes

OutputOption = Annotated[Path, typer.Option("--output", "-o", metavar="FILE", help="The HTML file to write.")]


def _writable(output: Path) -> None:
    if not output.resolve().parent.is_dir():
        raise UsageError(f"{output}: cannot write (folder {output.parent} does not exist)")


def report_command(
    database: Annotated[Path, typer.Argument(metavar="DB", help="A results database.")],
    output: OutputOption = Path("report.html"),
    replay_mb: Annotated[float, typer.Option(metavar="MB", help="Most MB of embedded replays (games with faults first).")]
    = REPLAY_MB,
    bootstrap: Annotated[Optional[int], typer.Option("--bootstrap", metavar="N", help=(
        "Draw the error bars from N bootstrap replicates (default: cluster-robust, as `arena standings` "
        "and the live display)."))] = None,
    corrected: Annotated[bool, typer.Option(
        "--corrected", help="Add chance-corrected points, as `arena standings --corrected`.")] = False,
) -> None:
    """Write the tournament report: one offline HTML file with standings, charts and replays.

    Examples:
      arena report quickstart.db
      arena report t.db -o t.html --replay-mb 50 --corrected
    """
    from ..report import write_report

    if not math.isfinite(replay_mb) or replay_mb < 0:
        raise UsageError(f"--replay-mb must be a number of MB >= 0 (0: no replays embedded), got {replay_mb:g}")
    if bootstrap is not None and bootstrap < 1:
        raise UsageError(f"--bootstrap must be a number of replicates >= 1, got {bootstrap}")
    _writable(output)
    try:
        figures = write_report(database, output, int(replay_mb * 1e6), bootstrap, corrected)
    except ValueError as error:  # no games yet, or a game the engines cannot re-play
        raise UsageError(str(error)) from None
    typer.echo(f"wrote {output}: {plural(figures['games'], 'game')}, {plural(figures['embedded'], 'replay')} embedded, "
               f"{figures['bytes'] / 1e6:.1f} MB")


def view_command(
    file: Annotated[Path, typer.Argument(metavar="FILE|DB", help="A replay file (`arena match --replay`) or, with --key, a database.")],
    output: OutputOption = Path("game.html"),
    game: KeyOption = None,
    old_key: OldKeyOption = None,
    frames: Annotated[bool, typer.Option("--frames", help=(
        "Embed every view as the engine wrote it instead of the steps that the game's JavaScript rules "
        "re-play (a larger page; for a game the viewer says it cannot re-play)."))] = False,
) -> None:
    """Write one game's replay viewer: an offline HTML file to step through it.

    Examples:
      arena view game.json -o game.html
      arena view t.db --key r0-ac4780a417e259e2s1
    """
    from engines import Replay

    from ..match import load_replay_file
    from ..report import ViewError, viewer_html, viewer_meta, stored_meta, is_database
    from ..tournament import ResultsStore

    _writable(output)
    game = game or old_key
    if game is None:
        if is_database(file):
            raise UsageError(f"{file} is a results database; name the game with --key KEY (keys: `arena replay {file}`)")
        replay, result = load_replay_file(file)
        meta = viewer_meta(replay, bots=result.get("bots", []), ranks=result.get("ranks"), scores=result.get("scores"),
                           reason=result.get("reason"), faults=result.get("faults", []),
                           moves=result.get("moves"), limits=result.get("limits"))
    else:
        if not is_database(file) and file.is_file():
            raise UsageError(f"{file} is not a results database: --key names a game of a database "
                             f"(for a replay file, leave --key out)")
        store = ResultsStore.open(file, read_only=True)
        try:
            stored = {g.key: g for g in store.games()}.get(game)
            data = store.replay(game)
            if stored is None or data is None:
                raise UsageError(f"{file}: no game with key {game!r}; keys: `arena replay {file}`")
            replay = Replay.from_dict(data)
            meta = stored_meta(store, stored, replay)
        finally:
            store.close()
    try:
        page = viewer_html(replay, meta, frames)
    except ViewError as error:
        raise UsageError(f"{file}: {error}") from None
    output.write_text(page, encoding="utf-8")
    typer.echo(f"wrote {output}: {replay.game}, {len(replay.steps)} steps")


def register(app: typer.Typer) -> None:
    app.command("report")(reports_errors(report_command))
    app.command("view")(reports_errors(view_command))
