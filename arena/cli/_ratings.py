"""Command line: the rating commands (standings, rate, compare, sprt) on stored or external results."""

from __future__ import annotations

import enum
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ._common import UsageError, on_interrupt, plural, reports_errors

if TYPE_CHECKING:
    from ..ratings import GameRecord, Standings
    from ..report import LuckTally
    from ..tournament import ResultsStore

# The store, the reports and the ratings (numpy) are imported inside the commands: `arena
# --help` and `arena games` load this module and must start fast.


class StandingsFormat(enum.StrEnum):
    TABLE = "table"
    JSON = "json"
    CSV = "csv"



class InputFormat(enum.StrEnum):
    AUTO = "auto"
    PGN = "pgn"
    JSONL = "jsonl"
    CSV = "csv"


class EloModel(enum.StrEnum):
    LOGISTIC = "logistic"
    NORMALIZED = "normalized"


FormatOption = Annotated[StandingsFormat, typer.Option("--format", "-f", help="Output format.")]
#: compare and sprt print text or JSON: "table|json" as every other command names them; their
#: old name for the text, "text", is still accepted (a string, so that typer's choice does not
#: list it)
TextFormatOption = Annotated[str, typer.Option("--format", "-f", metavar="table|json", help="Output format.")]


def _text_format(value: str, command: str) -> str:
    """``table`` or ``json`` from ``--format`` (``text``: the old name of ``table``)."""
    if value in ("table", "text"):
        return "table"
    if value == "json":
        return "json"
    raise UsageError(f"invalid value for '--format' / '-f': {value!r} is not one of 'table', 'json' "
                     f"(see 'arena {command} --help')")
BootOption = Annotated[Optional[int], typer.Option(
    "--bootstrap", metavar="N",
    help="Draw the error bars and LOS from N bootstrap replicates (default: analytic, no resampling).")]
AnchorOption = Annotated[Optional[str], typer.Option(
    metavar="NAME=ELO", help="Anchor an entrant's rating (default: the mean is 0).")]


def _anchor(text: str | None) -> tuple[str, float] | None:
    if text is None:
        return None
    name, _, value = text.rpartition("=")
    try:
        elo = float(value)
    except ValueError:
        elo = math.nan
    if not name or not math.isfinite(elo):
        raise UsageError(f"--anchor must look like NAME=ELO with a finite ELO, got {text!r}")
    return name, elo


def _checked(n_boot: int | None, anchor: str | None) -> tuple[int | None, tuple[str, float] | None]:
    """Validate the options shared by standings and rate before any work is done."""
    from ..ratings import MAX_BOOT, check_n_boot

    try:
        check_n_boot(n_boot)
    except ValueError:
        raise UsageError(f"--bootstrap must be a number of replicates from 1 to {MAX_BOOT}, got {n_boot}") from None
    return n_boot, _anchor(anchor)


def _standings(records: list[GameRecord], n_boot: int | None, anchor: tuple[str, float] | None) -> Standings:
    from ..ratings import compute_standings

    try:
        standings = compute_standings(records, n_boot=n_boot, anchor=anchor)
    except ValueError as error:  # "anchor 'x' played no game here; entrants are ..."
        raise UsageError(f"--{error}") from None
    if len(standings.groups) > 1:
        shown = " | ".join(", ".join(group) for group in standings.groups)
        typer.echo(f"warning: the entrants form {len(standings.groups)} groups that never played each other "
                   f"({shown}); ratings compare only within a group, and there is no LOS across groups", err=True)
    return standings


def print_standings(store: ResultsStore, fmt: str, n_boot: int | None, anchor: str | None,
                    corrected: bool = False) -> None:
    """Print the standings of every game stored in ``store`` (also the end of a tournament run);
    with ``corrected``, the chance-corrected points beside the raw ones."""
    from ..report import fault_counts, records_of

    n_boot, pinned = _checked(n_boot, anchor)
    games = list(store.games())
    if not games:
        raise UsageError(f"{store.path}: no finished games yet")
    if corrected and fmt == "csv":
        raise UsageError("--corrected shows a second table: use --format table or json")
    standings = _standings(records_of(games), n_boot, pinned)
    if corrected:
        from ..ratings import corrected_points, corrected_table
        from ..ratings import NoBaseline

        try:
            records, label = _luck_records(store, games)
            rows, missing = corrected_points(records), None
        except NoBaseline as error:  # a game without a baseline: its raw figures stand
            label, rows, missing = None, [], str(error)
    if fmt == "json":  # the standings, and "corrected" (asked for), "adaptive" (that format) below them
        from ..report import adaptive_state, standings_json

        data = json.loads(standings_json(standings, fault_counts(games)))
        if corrected:
            data["corrected"] = {"baseline": label, "rows": [row.as_dict() for row in rows]} | (
                {"not_available": missing} if missing else {})
        typer.echo(json.dumps(data | ({"adaptive": state} if (state := adaptive_state(store, games)) else {}), indent=2))
        return
    _echo_standings(standings, fault_counts(games), max(len(game.seats) for game in games), fmt)
    if corrected:
        typer.echo("\n" + (f"chance-corrected points: {missing}; the raw figures above stand" if missing
                           else corrected_table(rows, label)))
    if fmt == "table":
        from ..report import adaptive_lines

        for line in [*entrant_lines(store.entrant_events(), games), *adaptive_lines(store, games)]:
            typer.echo(line)


def _luck_records(store: ResultsStore, games, *, keep: bool = True, tally: LuckTally | None = None,
                  hint: str = "") -> tuple[list[GameRecord], str]:
    """The games with their luck (computed from the replays, kept in the database as it goes
    unless not ``keep``; see :func:`arena.report._luck.records_with_luck`); ``hint`` ends the
    error line of a luck that cannot be computed."""
    from ..ratings import BaselineError, NoBaseline
    from ..report import records_with_luck

    try:
        return records_with_luck(store, games, keep=keep, tally=tally)
    except NoBaseline:
        raise  # not an error: the caller shows the raw figures and says why
    except BaselineError as error:
        raise UsageError(f"{error}{hint}") from None
    except ValueError as error:  # a stored replay that does not replay
        raise UsageError(f"cannot correct for chance: {error}{hint}") from None


def entrant_lines(events, games) -> list[str]:
    """Lines under the standings: per entrant, its faults between games (each charged to the
    game it was about to play) and its withdrawal; and, from databases made before such
    faults were charged, the deaths between games that no game was charged with."""
    from ..players import between_games

    charged: dict[str, int] = {}
    for game in games:
        for fault in game.faults:
            if between_games(fault):
                charged[fault["bot"]] = charged.get(fault["bot"], 0) + 1
    withdrawn = {entrant: detail for entrant, kind, detail in events if kind == "withdrawn"}
    deaths: dict[str, int] = {}
    for entrant, kind, _ in events:
        if kind == "died-between-games":
            deaths[entrant] = deaths.get(entrant, 0) + 1
    lines = [f"{name}: {count} fault{'s' if count > 1 else ''} between games (a process exited, closed its stdout "
             f"or wrote between two games; each forfeited the next game)" for name, count in charged.items()]
    lines += [f"{name}: {detail}; its remaining games were forfeited" for name, detail in withdrawn.items()]
    lines += [f"{name}: its process died between games {count} time{'s' if count > 1 else ''} "
              f"(charged to no game)" for name, count in deaths.items()]
    return lines


def _echo_standings(standings: Standings, faults, players: int, fmt: str) -> None:
    from ..report import standings_csv, standings_json, standings_table

    if fmt == "table":
        typer.echo(standings_table(standings, faults, players))
    elif fmt == "json":
        typer.echo(standings_json(standings, faults))
    else:
        typer.echo(standings_csv(standings, faults), nl=False)


def standings_command(
    database: Annotated[Path, typer.Argument(metavar="DB", help="A results database.")],
    fmt: FormatOption = StandingsFormat.TABLE,
    bootstrap: BootOption = None,
    anchor: AnchorOption = None,
    corrected: Annotated[bool, typer.Option(
        "--corrected", help="Also show chance-corrected points: each game's luck (from its replay, under the "
        "shipped baseline value) taken out, duplicate blocks as the unit (docs/ratings.md).")] = False,
) -> None:
    """Standings: Elo (Bradley-Terry) with 95% error bars, points, wins, faults.

    Examples:
      arena standings quickstart.db
      arena standings t.db --anchor random=0 --format csv
      arena standings t.db --corrected
    """
    from ..tournament import ResultsStore

    _checked(bootstrap, anchor)
    store = ResultsStore.open(database, read_only=True)
    try:
        print_standings(store, fmt, bootstrap, anchor, corrected)
    finally:
        store.close()


def rate_command(
    file: Annotated[Path, typer.Argument(
        metavar="FILE", help="Results: PGN, JSON Lines or the arena's CSV export.")],
    fmt: FormatOption = StandingsFormat.TABLE,
    bootstrap: BootOption = None,
    anchor: AnchorOption = None,
    source: Annotated[InputFormat, typer.Option(
        "--input", help="The file's format (auto: from the extension, else from the content).")
    ] = InputFormat.AUTO,
) -> None:
    """Rate results from elsewhere: PGN (cutechess), JSON Lines, or the arena's CSV export.

    Examples:
      arena rate cutechess.pgn
      arena rate results.jsonl --format json
    """
    from ..ratings import load_results

    n_boot, pinned = _checked(bootstrap, anchor)
    if file.is_dir():
        raise UsageError(f"{file} is a folder: give one results file (PGN, JSON Lines or the arena's CSV export)")
    games = load_results(file, str(source))
    standings = _standings(games, n_boot, pinned)
    _echo_standings(standings, None, max(group.k for group in games.groups), fmt)


def _stored_records(database: Path, names: tuple[str, ...]) -> list[GameRecord]:
    """The stored games as rating records; UsageError if one of ``names`` played none."""
    from ..report import records_of
    from ..tournament import ResultsStore

    store = ResultsStore.open(database, read_only=True)
    try:
        records = records_of(store.games())
    finally:
        store.close()
    known = sorted({p for r in records for p in r.players})
    for name in names:
        if name not in known:
            raise UsageError(f"{database}: no games between {names[0]!r} and {names[1]!r} ({name!r} played no "
                             f"game here; entrants: {', '.join(known) or 'none'})")
    return records


def _option_words(message: str) -> str:
    """A library message about elo0/elo1/alpha/beta/elo_model in the CLI's option names."""
    for word, option in (("elo_model", "--model"), ("elo0", "--elo0"), ("elo1", "--elo1"),
                         ("alpha", "--alpha"), ("beta", "--beta")):
        message = message.replace(word, option)
    return message


def sprt_command(
    database: Annotated[Path, typer.Argument(metavar="DB", help="A results database.")],
    candidate: Annotated[str, typer.Argument(metavar="CANDIDATE", help="The bot under test.")],
    baseline: Annotated[str, typer.Argument(metavar="BASELINE", help="The bot it is compared to.")],
    elo0: Annotated[float, typer.Option(metavar="ELO", help="H0: the Elo difference is at most this.")] = 0.0,
    elo1: Annotated[float, typer.Option(metavar="ELO", help="H1: the Elo difference is at least this.")] = 10.0,
    alpha: Annotated[float, typer.Option(metavar="P", help="False positive rate: accepting H1 when H0 holds.")] = 0.05,
    beta: Annotated[float, typer.Option(metavar="P", help="False negative rate: accepting H0 when H1 holds.")] = 0.05,
    model: Annotated[EloModel, typer.Option(
        "--model", help="What ELO means: logistic (cutechess) or normalized (fishtest, fastchess).")
    ] = EloModel.LOGISTIC,
    fmt: TextFormatOption = "table",
) -> None:
    """Sequential probability ratio test of CANDIDATE against BASELINE on stored games.

    Exit code: 0 H1 accepted (better by at least --elo1), 1 H0 accepted (at most --elo0),
    3 no decision yet, 2 bad input.

    Example:
      arena sprt t.db bot-v2 bot-v1 --elo0 0 --elo1 10
    """
    from ..ratings import SprtDecision, sprt, check_parameters

    fmt = _text_format(fmt, "sprt")
    try:
        check_parameters(elo0, elo1, alpha, beta, str(model))
    except ValueError as error:
        raise UsageError(_option_words(str(error))) from None
    records = _stored_records(database, (candidate, baseline))
    try:
        result = sprt(records, candidate, baseline, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta,
                      elo_model=str(model))
    except ValueError as error:  # the same bot twice, an unfinished pair
        raise UsageError(f"{database}: {error}") from None
    if sum(result.counts) == 0:
        raise UsageError(f"{database}: no games between {candidate!r} and {baseline!r}")
    typer.echo(json.dumps(result.as_dict(), indent=2) if fmt == "json" else result.verdict())
    exit_code = {SprtDecision.ACCEPT_H1: 0, SprtDecision.ACCEPT_H0: 1, SprtDecision.CONTINUE: 3}
    raise typer.Exit(exit_code[result.decision])


def compare_command(
    database: Annotated[Path, typer.Argument(metavar="DB", help="A results database.")],
    a: Annotated[str, typer.Argument(metavar="A", help="One entrant.")],
    b: Annotated[str, typer.Argument(metavar="B", help="The entrant it is compared to.")],
    fmt: TextFormatOption = "table",
    raw: Annotated[bool, typer.Option(
        "--raw", help="Raw scores only: no chance correction (the figures before it, faster).")] = False,
    per_game: Annotated[bool, typer.Option(
        "--per-game", help="Count every game as an independent observation (naive: ignores the "
        "duplicate blocks).")] = False,
) -> None:
    """Compare two entrants on their shared games: W/D/L, Elo difference +/- 95%, LOS, pairs.

    By default a duplicate block (all rotations of one deal) is one observation and each game's
    score is corrected for the chance it met (docs/ratings.md); --raw shows the raw figures.

    Example:
      arena compare t.db bot-v2 bot-v1
      arena compare t.db bot-v2 bot-v1 --raw
    """
    from ..ratings import compare
    from ..ratings import NoBaseline

    fmt = _text_format(fmt, "compare")
    records = _stored_records(database, (a, b))
    label = missing = None
    if not raw and a != b:
        try:
            records, label = _shared_luck(database, a, b)
        except NoBaseline as error:  # a game without a baseline: the raw figures, saying why
            raw, missing = True, str(error)
    try:
        result = compare(records, a, b, unit="game" if per_game else "block", correct=not raw, baseline=label)
    except ValueError as error:  # the same entrant twice, or no shared game
        raise UsageError(f"{database}: {error}") from None
    note = [f"chance correction: {missing}; the figures are raw"] if missing else []
    typer.echo(json.dumps(result.as_dict() | ({"not_available": missing} if missing else {}), indent=2)
               if fmt == "json" else "\n".join(result.lines() + note))


def _shared_luck(database: Path, a: str, b: str) -> tuple[list[GameRecord], str]:
    """The games of ``a`` with ``b`` as records with their luck, and the baseline's label.

    The luck the database lacks is computed and kept there as it goes; in a database that
    cannot be written (a read-only file or folder), computed in memory only, and one ``note:``
    line on stderr says that the next run computes it again. Ctrl-C: one ``interrupted:``
    line saying how much is kept, exit code 130.
    """
    from ..report import LuckTally
    from ..tournament import write_problem, ResultsStore

    problem = write_problem(database)
    store = ResultsStore.open(database, read_only=problem is not None)
    tally = LuckTally()

    def why_not_kept() -> str:
        return f"{database}: {problem or tally.not_kept}"

    def interrupted() -> str:
        if tally.not_kept is not None:
            return f"the luck computed is not kept ({why_not_kept()})"
        if not tally.games:
            return "before any luck was computed"
        return f"the luck of {tally.kept} of {plural(tally.games, 'game')} is kept; run it again to go on"

    try:
        with on_interrupt(interrupted):
            shared = [g for g in store.games() if a in g.seats and b in g.seats]
            records, label = _luck_records(store, shared, keep=problem is None, tally=tally,
                                           hint="; --raw compares without the correction")
    finally:
        store.close()
    if tally.computed and tally.not_kept is not None:
        typer.echo(f"note: the luck of {plural(tally.computed, 'game')} was computed but not kept "
                   f"({why_not_kept()}); the next compare computes it again", err=True)
    return records, label


def register(app: typer.Typer) -> None:
    """Add the rating commands to ``app``."""
    for name, command in [("standings", standings_command), ("rate", rate_command), ("compare", compare_command),
                          ("sprt", sprt_command)]:
        app.command(name)(reports_errors(command))
