"""Command line: the rating commands (standings, rate, sprt) on stored or external results."""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ._cli_common import UsageError, reports_errors

if TYPE_CHECKING:
    from ._store import ResultsStore

# The store, the reports and the ratings (numpy) are imported inside the commands: `arena
# --help` and `arena games` load this module and must start fast.


class StandingsFormat(enum.StrEnum):
    TABLE = "table"
    JSON = "json"
    CSV = "csv"


FormatOption = Annotated[StandingsFormat, typer.Option("--format", "-f", help="Output format.")]
BootOption = Annotated[int, typer.Option("--bootstrap", metavar="N", help="Bootstrap replicates for the error bars.")]
AnchorOption = Annotated[Optional[str], typer.Option(
    metavar="NAME=ELO", help="Anchor an entrant's rating (default: the mean is 0).")]


def _anchor(text: str | None) -> tuple[str, float] | None:
    if text is None:
        return None
    name, sep, value = text.rpartition("=")
    try:
        return name, float(value)
    except ValueError:
        raise UsageError(f"--anchor must look like NAME=ELO, got {text!r}") from None


def print_standings(store: ResultsStore, fmt: str, n_boot: int, anchor: str | None) -> None:
    """Print the standings of every game stored in ``store`` (also the end of a tournament run)."""
    from ._report import fault_counts, records_of, standings_of

    games = list(store.games())
    if not games:
        raise UsageError(f"{store.path}: no finished games yet")
    standings = standings_of(records_of(games), n_boot=n_boot, anchor=_anchor(anchor))
    _echo_standings(standings, fault_counts(games), max(len(game.seats) for game in games), fmt)


def _echo_standings(standings, faults, players: int, fmt: str) -> None:
    from ._report import standings_csv, standings_json, standings_table

    if fmt == "table":
        typer.echo(standings_table(standings, faults, players))
    elif fmt == "json":
        typer.echo(standings_json(standings, faults))
    elif fmt == "csv":
        typer.echo(standings_csv(standings, faults), nl=False)
    else:
        raise UsageError(f"--format must be table, json or csv, got {fmt!r}")


def standings_command(
    database: Annotated[Path, typer.Argument(metavar="DB", help="A results database.")],
    fmt: FormatOption = StandingsFormat.TABLE,
    bootstrap: BootOption = 200,
    anchor: AnchorOption = None,
) -> None:
    """Standings: Elo (Bradley-Terry) with 95% bootstrap error bars, points, wins, faults."""
    from ._store import ResultsStore

    store = ResultsStore.open(database)
    try:
        print_standings(store, fmt, bootstrap, anchor)
    finally:
        store.close()


def rate_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="Results: PGN (*.pgn) or JSON Lines (*.jsonl).")],
    fmt: FormatOption = StandingsFormat.TABLE,
    bootstrap: BootOption = 200,
    anchor: AnchorOption = None,
) -> None:
    """Rate results that did not come from the arena (PGN or JSON Lines)."""
    from ._report import standings_of
    from .ratings import read_jsonl, read_pgn

    records = read_pgn(file) if file.suffix.lower() == ".pgn" else read_jsonl(file)
    if not records:
        raise UsageError(f"{file}: no rated games found")
    standings = standings_of(records, n_boot=bootstrap, anchor=_anchor(anchor))
    _echo_standings(standings, None, max(len(r.players) for r in records), fmt)


def sprt_command(
    database: Annotated[Path, typer.Argument(metavar="DB", help="A results database of a two-bot tournament.")],
    candidate: Annotated[str, typer.Argument(metavar="CANDIDATE", help="The bot under test.")],
    baseline: Annotated[str, typer.Argument(metavar="BASELINE", help="The bot it is compared to.")],
    elo0: Annotated[float, typer.Option(metavar="ELO", help="H0: Elo difference at most this.")] = 0.0,
    elo1: Annotated[float, typer.Option(metavar="ELO", help="H1: Elo difference at least this.")] = 10.0,
    alpha: Annotated[float, typer.Option(metavar="P", help="False positive rate: accepting H1 when H0 holds.")] = 0.05,
    beta: Annotated[float, typer.Option(metavar="P", help="False negative rate: accepting H0 when H1 holds.")] = 0.05,
) -> None:
    """Sequential probability ratio test of CANDIDATE against BASELINE on stored games."""
    from ._report import records_of
    from ._store import ResultsStore
    from .ratings import SprtDecision, sprt

    store = ResultsStore.open(database)
    try:
        records = [r for r in records_of(store.games())
                   if set(r.players) == {candidate, baseline}]
    finally:
        store.close()
    if not records:
        raise UsageError(f"{database}: no games between {candidate!r} and {baseline!r}")
    result = sprt(records, candidate, baseline, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
    typer.echo(json.dumps(result.as_dict(), indent=2))
    if result.decision is SprtDecision.CONTINUE:
        typer.echo("continue: the test has not decided yet", err=True)


def register(app: typer.Typer) -> None:
    """Add the rating commands to ``app``."""
    for name, command in [("standings", standings_command), ("rate", rate_command), ("sprt", sprt_command)]:
        app.command(name)(reports_errors(command))
