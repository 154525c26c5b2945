"""``arena check-bot``: a conformance check a bot author runs before submitting.

Starts the bot as a tournament would (same sandbox), checks the handshake, plays short
games of every game it claims against the Python random bot at every player count and in
every on/off variant, in changing seats, watches every
decision kind, the time limits and the ids, then checks that it exits on ``bye``. Each
finding names the SPEC.md section that applies and, for a fault, the request sent and the
reply received.
"""

from __future__ import annotations

import enum
import json
import sys
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

import protocol
from engines import Replay, game_ids, get_game

from ..players import FaultKind, BotSpec, open_player, Player, TimeControl
from ..sandbox import Sandbox
from ._match import MatchSettings, play_match
from ._result import EndReason

SPEC_VERSION = protocol.PROTOCOL_VERSION_STRING
REFERENCE = BotSpec("py-random", (sys.executable, "-m", "bots.random"))
_SECTION = {
    FaultKind.TIMEOUT: "§9 Time control", FaultKind.CRASH: "§2 Process and streams",
    FaultKind.PROTOCOL: "§5 Messages / §8 ids", FaultKind.ILLEGAL: "§12 Games",
    FaultKind.OVERSIZE: "§3 Framing", FaultKind.MEMORY: "§2 Process and streams",
}


class Verdict(enum.Enum):
    PASS = "PASS"
    WARN = "WARN"
    FAIL = "FAIL"


@dataclass(frozen=True)
class Finding:
    verdict: Verdict
    what: str
    section: str
    details: tuple[str, ...] = ()


@dataclass
class Report:
    bot: str
    findings: list[Finding] = field(default_factory=list)

    def add(self, verdict: Verdict, what: str, section: str, *details: str) -> None:
        self.findings.append(Finding(verdict, what, section, tuple(details)))

    @property
    def passed(self) -> bool:
        return all(f.verdict is not Verdict.FAIL for f in self.findings)

    def lines(self) -> list[str]:
        out = [f"check-bot {self.bot}: protocol {SPEC_VERSION} (protocol/SPEC.md v{SPEC_VERSION})"]
        for finding in self.findings:
            out.append(f"{finding.verdict.value}  {finding.what}  [{finding.section}]")
            out.extend(f"        {line}" for line in finding.details)
        failures = sum(f.verdict is Verdict.FAIL for f in self.findings)
        out.append(f"result: {'PASS' if not failures else f'FAIL ({failures} failure(s))'}")
        return out


def _short(message: Any, limit: int = 600) -> str:
    text = json.dumps(message, default=repr, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def _kinds_of(replay: Replay, seat: int) -> set[str]:
    game = get_game(replay.game)
    state = game.new_state(replay.num_players, replay.seed, replay.options)
    kinds = set()
    for step in replay.steps:
        if seat in step:
            kinds.add(state.decision(seat))
        state.apply(step)
    return kinds


def _tables(game_id: str, players: int | None = None) -> list[tuple[int, dict[str, Any]]]:
    """``(players, options)`` of every table check-bot plays: every player count with the
    defaults (for Dead Man's Draw 5-8 are the Pirate Party, which those counts imply), then
    each on/off option flipped at the smallest table, so variants' decisions get asked too.
    With ``players`` (a ladder's table size), only that count, with and without each option."""
    game = get_game(game_id)
    counts = [players] if players is not None else list(range(game.min_players, game.max_players + 1))
    tables: list[tuple[int, dict[str, Any]]] = [(count, {}) for count in counts]
    tables += [(counts[0], {option.name: not option.default})
               for option in game.options if option.type is bool]
    return tables


async def _check_game(report: Report, spec: BotSpec, game_id: str, games: int, settings: MatchSettings,
                      sandbox: Sandbox | None, log_dir: Path | None, players: int | None) -> None:
    game = get_game(game_id)
    tables = _tables(game_id, players)
    most = max(count for count, _ in tables)
    counts = f"{players}" if players is not None else f"{game.min_players}-{game.max_players}"
    asked: set[str] = set()
    played = 0
    # Every table once, then more games (to `games`, or until every kind was asked, up to 4 rounds).
    min_games, max_games = max(games, len(tables)), max(games, 4 * len(tables))
    async with AsyncExitStack() as stack:
        bot = await stack.enter_async_context(
            open_player(spec, settings.time_control.startup_ms / 1000, sandbox=sandbox, log_dir=log_dir))
        others = [await stack.enter_async_context(open_player(REFERENCE, 10, sandbox=sandbox))
                  for _ in range(most - 1)]
        if not bot.usable:
            report.add(Verdict.FAIL, f"{game_id}: the bot did not start again", "§6", bot.failure.detail)
            return
        while played < max_games and (played < min_games or asked < set(game.decisions)):
            players, options = tables[played % len(tables)]
            seat = (played + played // len(tables)) % players  # a new seat on each round of tables
            seats = others[:seat] + [bot] + others[seat:players - 1]
            result = await play_match(game, seats, seed=1000 + played, options=options, settings=settings)
            played += 1
            faults = [f for f in result.faults if f.seat == seat]
            if faults:
                fault = faults[0]
                report.add(Verdict.FAIL, f"{game_id} game {played} ({players} players, options "
                           f"{options or 'default'}), seat {seat}, step {fault.step_number}: {fault.kind.value}",
                           _SECTION[fault.kind],
                           f"problem:  {fault.detail}",
                           f"sent:     {_short(bot.last_request)}",
                           f"received: {_short(bot.last_reply)}",
                           *([f"stderr:   {fault.stderr_tail[-400:]}"] if fault.stderr_tail else []),
                           *_static_hint(bot, game))
                return
            if result.reason is EndReason.ARENA_ERROR:  # the engine's bug, not the bot's: say so, go on
                report.add(Verdict.WARN, f"{game_id} game {played}: the engine failed (an arena error, not "
                           f"the bot's fault; please report it)", "",
                           next(f.detail for f in result.faults if f.kind is FaultKind.ARENA_ERROR))
            asked |= _kinds_of(result.replay, seat)
    report.add(Verdict.PASS, f"{game_id}: {played} games in a row, {counts} "
               f"players, every variant, no fault; kinds answered: {', '.join(sorted(asked))}", "§7, §8, §9")
    missing = sorted(set(game.decisions) - asked)
    if missing:
        report.add(Verdict.WARN, f"{game_id}: decision kinds never asked in {played} games: {', '.join(missing)}",
                   "§12", "they arise only in some positions, and your bot's own choices may avoid them"
                   " (e.g. it never collects, or never leads into them); it must still answer them")


def _version_note(hello: protocol.BotHello) -> str:
    """Which variant of the protocol the bot gets, by the minor version its hello says (§6)."""
    if hello.speaks(protocol.STATIC_SINCE):
        return ("it gets protocol 1.1: each game's static observation fields once, in start.static, "
                "and observations without them (§5.3)")
    return ("it gets protocol 1.0: complete observations in every request; a bot that reads "
            "start.static may say 1.1 and get a game's static fields once per game (§5.3)")


def _static_hint(bot: Player, game: Any) -> list[str]:
    """For a 1.1 bot that failed a game with static fields: where those fields went."""
    if bot.hello is None or not bot.hello.speaks(protocol.STATIC_SINCE) or not game.static_fields:
        return []
    return [f"note:     this bot says protocol {bot.hello.protocol}, so its observations have no "
            f"{', '.join(game.static_fields)}: they came once, in start.static (§5.3)"]


async def check_bot(spec: BotSpec, games: Sequence[str] = (), games_per: int = 4,
                    time_control: TimeControl = TimeControl(),
                    sandbox: Sandbox | None = None, log_dir: Path | None = None,
                    players: int | None = None) -> Report:
    """Run every check on the bot ``spec``; never raises for the bot's faults. With
    ``log_dir``, each process of the checked bot saves its stderr there (``NAME.PID.log``).
    With ``players``, games are played at that table size only (a ladder's); it must be
    within every checked game's player counts."""
    report = Report(spec.name)
    settings = MatchSettings(time_control)
    async with open_player(spec, time_control.startup_ms / 1000, sandbox=sandbox, log_dir=log_dir) as player:
        if not player.usable:
            report.add(Verdict.FAIL, f"start and handshake: {player.failure.kind.value}", "§2, §6",
                       f"problem:  {player.failure.detail}",
                       f"received: {_short(player.last_reply) if player.last_reply else 'nothing'}",
                       f"stderr:   {player.stderr_tail()[-400:]}")
            return report
        hello = player.hello
        report.add(Verdict.PASS, f"handshake: {hello.name!r} version {hello.version!r}, protocol {hello.protocol}, "
                   f"games {list(hello.games)}", "§5.2, §6", _version_note(hello))
        claimed = list(games) or list(hello.games)
        unknown = [g for g in claimed if g not in game_ids()]
        if unknown:
            report.add(Verdict.FAIL, f"hello lists unknown games {unknown}; known: {game_ids()}", "§5.2")
        if not claimed:
            report.add(Verdict.FAIL, "the bot names no game in its hello and none was given with --game", "§5.2")
        exit_code = await _bye(player)
        if exit_code is None:
            report.add(Verdict.FAIL, "bye: the bot did not exit within 2 s of 'bye'", "§5.7")
        else:
            report.add(Verdict.PASS if exit_code == 0 else Verdict.WARN,
                       f"bye: exited with code {exit_code}", "§5.7")
    for game_id in claimed:
        if game_id in game_ids():
            await _check_game(report, spec, game_id, games_per, settings, sandbox, log_dir, players)
    return report


async def _bye(player: Player) -> int | None:
    try:
        await player.send(protocol.bye("check-bot: handshake checked"), 2.0)
    except Exception:  # noqa: BLE001 - a bot that cannot take bye fails below
        pass
    with trio.move_on_after(2.0):
        return await player.process.process.wait()
    return None
