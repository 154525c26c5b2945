"""A play session: the games a person (or several) plays against bots, one after another.

Each game is a real arena match (:func:`arena.match._match.play_match`): the bots come from a
:class:`~arena.players._pool.BotPool`, started and sandboxed as a tournament starts them and
handed out under its rules (a deal played again gets fresh processes), faults cost what they
cost in a tournament, and each finished game is kept as a tournament keeps its games: in a
results database (``--db``, so ``arena report`` shows it) or as a replay file (``arena view``).
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

import engines

from ..match import MatchSettings, play_match, MatchResult, save_replay_file
from ..players import Fault, FaultKind, BotSpec, Player, BotPool
from ..report import pack_chunk, viewer_meta, game_payload, pack_steps
from ..tournament import GAME_SEED_BITS, ScheduledGame, ResultsStore, StoreError
from ._human import HumanPlayer, HumanSeat


@dataclass(frozen=True)
class PlaySetup:
    """What ``arena play`` plays: the game, who sits where, the first deal, how games are kept."""

    game: str
    players: int
    #: seat -> the person's name (an entrant name: ``human`` or ``--name``)
    humans: Mapping[int, str]
    #: seat -> the bot in it
    bots: Mapping[int, BotSpec]
    seed: int
    options: Mapping[str, Any]
    settings: MatchSettings
    #: the people's time for one decision in ms, or None
    human_move_ms: int | None = None
    #: the results database games are stored in, or None: replay files in ``replay_dir``
    database: Path | None = None
    replay_dir: Path = Path(".")
    #: whether the seat was drawn at random (the page says so)
    random_seat: bool = False

    def names(self) -> list[str]:
        """Each seat's entrant name: a bot's own, with its seat where it is not unique."""
        raw = [self.humans.get(seat) or self.bots[seat].name for seat in range(self.players)]
        return [name if raw.count(name) == 1 or seat in self.humans else f"{name} (seat {seat})"
                for seat, name in enumerate(raw)]

    def store_config(self) -> dict[str, Any]:
        """The database's configuration (what ``arena report`` reads: the game, the time limits)."""
        tc = self.settings.time_control
        names = self.names()
        return {"name": f"arena play {self.game}", "game": self.game, "players": self.players,
                "options": dict(self.options), "time": {"move_ms": tc.move_ms, "reserve_ms": tc.reserve_ms},
                "faults": {"policy": self.settings.fault_policy.value},
                "entrants": [{"name": name, **({"command": list(self.bots[seat].command)} if seat in self.bots else
                                               {"human": True})} for seat, name in enumerate(names)]}


def open_play_store(setup: PlaySetup) -> ResultsStore:
    """The results database of ``--db``: created, or opened when it holds games of the same
    table (game, options, seats); raises :class:`StoreError` naming the file otherwise."""
    config = setup.store_config()
    fingerprint = "arena play: " + json.dumps({key: config[key] for key in ("game", "players", "options", "entrants")},
                                              sort_keys=True, default=str)
    entrants = [(entry["name"], {key: value for key, value in entry.items() if key != "name"})
                for entry in config["entrants"]]
    assert setup.database is not None
    path = setup.database
    if path.exists() and path.stat().st_size > 0:
        store = ResultsStore.open(path)
        if store.meta("fingerprint") != fingerprint:
            store.close()
            raise StoreError(f"{path}: holds other games (another game, options or other players in the seats); "
                             f"choose another --db file")
        return store
    return ResultsStore.create(path, fingerprint, config, path, entrants)


class PlaySession:
    """Plays games until cancelled: the first at once, each next one when a page asks
    (:meth:`play_again`). ``seats``: the people's seats; ``store``: the ``--db`` database."""

    def __init__(self, setup: PlaySetup, pool: BotPool, seats: Mapping[int, HumanSeat],
                 store: ResultsStore | None = None) -> None:
        self.setup = setup
        self.pool = pool
        self.seats = dict(seats)
        self.store = store
        self.game = engines.get_game(setup.game)
        self.names = setup.names()
        self.seed = setup.seed
        self.bot_seeds = [secrets.randbits(64) for _ in range(setup.players)]
        self.number = 0
        self.in_play = False
        self.results: list[tuple[MatchResult, str]] = []  # each game and where it is kept
        self._again = trio.Event()

    def where(self) -> str:
        """Where games are kept, for the page and the command line."""
        if self.setup.database is not None:
            return f"every game is stored in {self.setup.database.resolve()} (`arena report {self.setup.database}` shows them)"
        return f"every game is kept as a replay file in {self.setup.replay_dir.resolve()} (`arena view FILE` shows it)"

    def play_again(self, same_deal: bool) -> bool:
        """Start the next game (the same deal, or a new one); False while a game is in play."""
        if self.in_play or self._again.is_set():
            return False
        if not same_deal:
            self.seed = secrets.randbits(GAME_SEED_BITS)
            self.bot_seeds = [secrets.randbits(64) for _ in range(self.setup.players)]
        self._again.set()
        return True

    async def run(self) -> None:
        while True:
            await self.play_one()
            await self._again.wait()
            self._again = trio.Event()

    async def play_one(self) -> MatchResult:
        """Play one game of the current deal and keep it; the pages then show its end."""
        self.number += 1
        self.in_play = True
        setup = self.setup
        for seat in self.seats.values():
            seat.new_game(self.number)
        bot_seats = [seat for seat in range(setup.players) if seat not in self.seats]
        labels = [self.names[seat] for seat in bot_seats]
        bot_players = await self.pool.checkout_game(labels, self.seed)
        players: list[Player] = []
        handed = iter(bot_players)
        for seat in range(setup.players):
            players.append(HumanPlayer(self.seats[seat]) if seat in self.seats else next(handed))
        try:
            result = await play_match(self.game, players, self.seed, setup.options, setup.settings,
                                      bot_seeds=self.bot_seeds, watch=self._watch)
        finally:
            late = self.pool.checkin_game(labels, bot_players)
            self.in_play = False
        result = _charge_late(result, {bot_seats[index]: fault for index, fault in late.items()})
        where = self._keep(result)
        self.results.append((result, where))
        message = self._over(result, where)
        for seat in self.seats.values():
            seat.finished(message)
        return result

    def _watch(self, state: engines.State, faults: Sequence[Fault]) -> None:
        for seat in self.seats.values():
            try:
                seat.watch(state, faults)
            except Exception:  # noqa: BLE001 - a page's trouble must not stop the game
                pass

    def _keep(self, result: MatchResult) -> str:
        """Store the game (``--db``) or write its replay file; say where, or why it could not be."""
        if self.store is not None:
            try:
                number = len(self.store.completed_keys())
                key = f"play-{number:04d}"
                while key in self.store.completed_keys():
                    number += 1
                    key = f"play-{number:04d}"
                game = ScheduledGame(key, number, 0, 0, tuple(self.names), self.seed, key, tuple(self.bot_seeds))
                self.store.record(game, result)
            except StoreError as error:
                return f"this game could not be stored: {error}"
            return f"stored in {self.setup.database} as game {key}: `arena report {self.setup.database}`, " \
                   f"or `arena view {self.setup.database} --game {key}`"
        folder = self.setup.replay_dir
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = folder / f"play-{self.setup.game}-{stamp}-{self.number}.json"
        try:
            save_replay_file(path, result)
        except ValueError as error:
            return f"this game could not be kept: {error}"
        return f"kept in {path.resolve()}: `arena view {path.resolve()}`"

    def _over(self, result: MatchResult, where: str) -> dict[str, Any]:
        """The pages' last message of a game: the result and the whole game (seed included)."""
        tc = self.setup.settings.time_control
        moves = [[*move, reserve] for move, reserve in zip(result.moves, result.reserves_ms)]
        meta = viewer_meta(result.replay, bots=result.bots, ranks=result.ranks, scores=result.scores,
                           reason=result.reason.value, faults=[fault.as_dict() for fault in result.faults],
                           moves=moves, limits=[tc.move_ms, tc.reserve_ms])
        try:
            payload = game_payload(result.replay, meta)
            if "steps" in payload:
                replay = {"type": "application/x-steps", "text": pack_steps([payload])}
            else:
                replay = {"type": "application/x-frames", "text": pack_chunk([payload])}
        except ValueError as error:  # a ViewError: the game cannot be re-played for the viewer
            replay = {"error": str(error)}
        return {"type": "over", "number": self.number, "seed": str(result.seed), "bots": list(result.bots),
                "ranks": list(result.ranks), "scores": list(result.scores), "reason": result.reason.value,
                "faults": meta["faults"], "saved": where, "replay": replay}


def _charge_late(result: MatchResult, late: Mapping[int, Any]) -> MatchResult:
    """A bot process that died between games, before this game reached it: its crash here is
    marked as a fault between games (as :func:`arena.tournament._play.play_scheduled` does)."""
    if not late:
        return result
    late = dict(late)
    faults = []
    for fault in result.faults:
        if fault.seat in late and fault.kind is FaultKind.CRASH:
            fault = dataclasses.replace(fault, detail=late.pop(fault.seat).detail, between_games=True)
        faults.append(fault)
    return dataclasses.replace(result, faults=tuple(faults))
