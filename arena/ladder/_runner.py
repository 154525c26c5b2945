"""The ladder's game runner: vetting of submissions, games kept in flight, rating fits.

Three tasks of the server's one trio loop (:func:`arena.ladder._app.serve_ladder` starts them
beside the web server):

- **Vetting** (:class:`arena.ladder._vetting.Vetting`) takes stored submissions one at a time,
  off the request path, and admits or refuses each; a passed version enters and each author's
  newest ``active_versions`` stay active.
- **Play** keeps ``concurrency`` games in flight on worker processes, through the executor the
  tournaments use (:mod:`arena.tournament._workers`). Whenever it needs work it asks
  :func:`arena.ladder._matchmaking.choose_tables` for the next tables and plays each as a
  duplicate block (one deal, every rotation of the seats), a window of
  :data:`LADDER_GAMES_PER_PASS`-sized blocks at a time on one worker, rotation-major, as a
  tournament does (:mod:`arena.tournament._handout`: the pools end a process before another rotation of
  a deal it saw starts, about once per window). The workers' bot pools know a fixed set of
  entrants, so when the active set changes the current *stretch* stops taking new games,
  finishes those handed out, and a new stretch starts with the new entrants.
- **Withdrawal**: a fault between games (a process that exited, closed its stdout or wrote
  between two games) is charged to the entrant's next game like any fault; a version with
  ``faults.withdraw_after`` of them, or with a fault in ``game_fault_limit`` of its last
  ``game_fault_window`` games (:mod:`arena.ladder._faulting`), is retired for good (a
  ``withdrawn`` event says why, shown on its page), and its seats still handed out are
  forfeited without starting it again. A version faulting in its games is benched meanwhile:
  matchmaking seats it only for its fair share, and at no new table while one of its blocks
  is in flight (its games may each start a process: the workers' pools start one as a spare
  the moment its last one faults, :mod:`arena.players._pool`); the moment it is benched, its
  games chosen before and not handed out are dropped, its tables to be chosen again.
- **Fits** refit the ratings in a thread when enough new games are stored, and store the fit:
  pages read the last fit and never compute one.

The executor is a seam (:class:`~arena.ladder._executor.Executor`, the tournaments' two behind
:func:`~arena.ladder._executor.worker_executor`): anything that plays the games of a stretch's
:class:`~arena.ladder._executor.LadderSource` and calls back per result.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import trio

from ..match import EndReason, MatchResult
from ..players import ManifestError, load_manifest
from ..sandbox import Sandbox
from ..tournament import WindowPlan, GAME_SEED_BITS, ScheduledGame, ScheduleSpec, bot_seeds_of, keyed_seed
from ._config import LadderConfig
from ._executor import Executor, LadderSource
from ._faulting import GameFaults
from ._logs import prune_logs_forever
from ._matchmaking import LadderFit, LadderGame, choose_tables, fit_ladder
from ._store import Entrant, LadderStore
from ._tree import remove_tree
from ._vetting import Vetting
from ._vetting import hide_submissions as hide_submissions

#: Below this many games matchmaking refits before every table; above, a task refits in a
#: thread (the fit of 100,000 games takes a fraction of a second: not in the web's loop).
INLINE_FIT_GAMES = 5000


#: About how many games a bot process plays between two ends (see arena.tournament._handout): fewer than
#: a tournament's, because matchmaking chooses a window's tables before their games are played.
LADDER_GAMES_PER_PASS = 16

#: Refit once this share of the stored games is new (and at least one game is), or after
#: :data:`FIT_EVERY_S` with anything new.
FIT_SHARE = 0.02
FIT_EVERY_S = 30.0


@dataclass
class LadderRunner:
    """Runs the ladder ``config`` on ``store`` (the writer connection)."""

    config: LadderConfig
    store: LadderStore
    executor: Executor
    workdir: Path
    #: what vetting runs in: a sandbox mode, or the server's sandbox hiding the ladder's files;
    #: each vetting also hides the other submissions' folders (:func:`hide_submissions`)
    sandbox: str | Sandbox = "auto"
    fit_every_s: float = FIT_EVERY_S
    #: the bots' stderr logs, pruned per version (:mod:`arena.ladder._logs`); None: not kept
    log_dir: Path | None = None
    #: every rated game of a whole block so far (or of a block given up), for matchmaking and
    #: fits (seats, ranks, block); a block's games join them when its last rotation is stored
    games: list[LadderGame] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)
    _changed: trio.Event = field(default_factory=trio.Event)
    _generation: int = 0
    #: matchmaking's fit of the games (refreshed as games finish) and the blocks in flight
    _fit: LadderFit | None = None
    _pending: dict[str, _Block] = field(default_factory=dict)
    #: faults between games per entrant, and the source of the stretch being played
    _between: dict[str, int] = field(default_factory=dict)
    _source: LadderSource | None = None

    def __post_init__(self) -> None:
        for _, seats, ranks, block in self.store.results():
            self.games.append(LadderGame(seats, ranks))
            self.blocks.append(block)
        self._block = self.store.next_block()
        self._key = self.store.seed_key()
        self._rng = random.Random(keyed_seed(self._key, "matchmaking", self._block))
        self.vetting = Vetting(self.config, self.store, self.workdir, self.sandbox, self._active_changed)
        self._between = self.store.between_games_faults()
        self._in_game = GameFaults(self.config.game_fault_limit, self.config.game_fault_window)
        for entrant in self.store.active():
            self._in_game.load(entrant.name, self.store.recent_faults(entrant.name, self.config.game_fault_window))

    def enter_house_bots(self) -> None:
        """Enter the ladder file's ``[[bots]]`` not entered before (each once, ever)."""
        known = self.store.house_bots()
        for bot in self.config.bots:
            if (bot.author, str(bot.manifest)) not in known:
                self.store.add_submission(bot.author, None, bot.manifest)
        self.store.activate(self.config.active_versions)

    async def run(self) -> None:
        """Vet, play and fit until cancelled."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._vet_forever)
            nursery.start_soon(self._play_forever)
            nursery.start_soon(self._fit_forever)
            nursery.start_soon(self._matchmaking_fit_forever)
            if self.log_dir is not None:
                nursery.start_soon(prune_logs_forever, self.log_dir, self.config.logs_per_version_bytes,
                                   self.store.removed_entrants, self.config.logs_per_author_bytes)

    # -- vetting --------------------------------------------------------------------------------

    def submitted(self) -> None:
        """A submission was stored: wake the vetting task."""
        self.vetting.submitted()

    def in_play(self) -> frozenset[str]:
        """The duplicate blocks handed out and not wholly stored yet: their games replay one
        deal, so none of them is shown before the last is stored (pages and API)."""
        return frozenset(self._pending)

    async def _vet_forever(self) -> None:
        await self.vetting.run()

    def _active_changed(self) -> None:
        self._generation += 1
        self._changed.set()
        self._changed = trio.Event()

    # -- play -----------------------------------------------------------------------------------

    def _specs(self, entrants: list[Entrant]) -> list:
        specs = []
        for entrant in entrants:
            try:
                spec = load_manifest(entrant.manifest)
            except ManifestError as error:
                print(f"warning: ladder entrant {entrant.name} is left out: {error}", file=sys.stderr)
                continue
            specs.append(dataclasses.replace(spec, name=entrant.name))
        return specs

    async def _play_forever(self) -> None:
        while True:
            changed = self._changed
            specs = self._specs(self.store.active())
            # Between two stretches no game is in flight: every version that will not play in
            # the next one can play no more.
            await self._remove_retired({spec.name for spec in specs})
            if len(specs) < self.config.players:
                await changed.wait()
                continue
            names = tuple(spec.name for spec in specs)
            play = self.config.play
            config = dataclasses.replace(play, entrants=tuple(specs),
                                         schedule=ScheduleSpec(entrants=names, players=self.config.players))
            plan = WindowPlan(self.config.players, len(names), games_per_pass=LADDER_GAMES_PER_PASS)
            self._source = LadderSource(self._stretch(names, self._generation), plan)
            await self.executor(config, self._source, self._stored, self._death)

    async def _remove_retired(self, playing: set[str]) -> None:
        """Remove the folders (and stored archives) of the uploaded versions that can play no
        more: superseded or withdrawn, and not in ``playing``. Their games, ratings, reports and
        replays stay; ``arena rerun`` of one of their games asks for a bot in their seat."""
        for submission, entrant in self.store.removable(playing):
            try:
                await trio.to_thread.run_sync(remove_tree, self.workdir / str(submission))
            except OSError as error:
                print(f"warning: cannot remove the folder of {entrant} ({error.strerror or error})", file=sys.stderr)
                continue
            self.store.mark_removed(submission)

    def _stretch(self, names: tuple[str, ...], generation: int) -> Iterator[ScheduledGame]:
        """Games among ``names``, a duplicate block at a time, until the active set changes."""
        players = self.config.players
        self._give_up_pending()  # the last stretch's blocks are finished (or given up)
        while generation == self._generation:
            if self._fit is None or (len(self.games) < INLINE_FIT_GAMES and self._fit.n_games < len(self.games)):
                self._fit = _matchmaking_fit(self.games) or self._fit
            pending = [block.table for block in self._pending.values()] + self._unfitted(names)
            benched = self._in_game.benched(names)
            # A benched version's games may each start a process: one of its blocks at a time.
            resting = benched & {name for block in self._pending.values() for name in block.table}
            try:
                (table,) = choose_tables(names, self.games, players, 1, self._rng, fit=self._fit, pending=pending,
                                         benched=benched, resting=resting)
            except _FIT_ERRORS as error:
                # A long-running ladder must not stop for a numerical corner case: play a random
                # table this time, and say so.
                print(f"warning: matchmaking failed ({error}); playing a random table", file=sys.stderr)
                table = tuple(self._rng.sample(names, players))
            number = self._block
            self._block += 1
            block = f"b{number}"
            self._pending[block] = _Block(table, players)
            seed = keyed_seed(self._key, "deal", block, bits=GAME_SEED_BITS)
            for rotation in range(players):
                seats = tuple(table[rotation:] + table[:rotation])
                key = f"{block}s{rotation}"
                yield ScheduledGame(key=key, round=0, table=number, rotation=rotation, seats=seats, seed=seed,
                                    block=block, bot_seeds=bot_seeds_of(self._key, key, seats))

    def _unfitted(self, names: tuple[str, ...]) -> list[tuple[str, ...]]:
        """The tables finished since matchmaking's fit (one per block; blocks still in flight
        are pending already), among ``names`` only: the fit does not hold them."""
        if self._fit is None:
            return []  # choose_tables fits every game itself
        active, tables = set(names), {}
        start = self._fit.n_games
        for game, block in zip(self.games[start:], self.blocks[start:]):
            if block not in tables and block not in self._pending and active.issuperset(game.seats):
                tables[block] = game.seats
        return list(tables.values())

    def _stored(self, scheduled: ScheduledGame, result: MatchResult) -> None:
        """A game ended: store it; once its block is whole, its games count (fits, matchmaking)."""
        stored = self.store.record(scheduled.key, scheduled.block, scheduled.rotation, scheduled.seats, result)
        rated = [LadderGame(scheduled.seats, result.ranks)] if stored and result.reason is not EndReason.ARENA_ERROR \
            else []
        self._settle(scheduled.block, rated)
        if not stored:
            return
        for fault in result.faults:
            if fault.between_games:
                self._between[fault.bot] = self._between.get(fault.bot, 0) + 1
                limit, count = self.config.play.withdraw_after, self._between[fault.bot]
                if limit and count >= limit:
                    self._withdraw(fault.bot, f"withdrawn after {count} faults between games (limit {limit})")
        if result.reason is EndReason.ARENA_ERROR:
            return  # the arena's own bug: nobody's game to count
        benched = self._in_game.benched(scheduled.seats)
        for name in self._in_game.note(scheduled.seats, result.faults):
            self._withdraw(name, self._in_game.reason(name))
        for name in self._in_game.benched(scheduled.seats) - benched:
            self._bench(name)

    def _settle(self, block: str, rated: list[LadderGame]) -> None:
        """One game of ``block`` is done with: stored (``rated``: its rated games) or dropped.
        Once none of the block is left, its games count (fits, matchmaking)."""
        pending = self._pending.get(block)
        if pending is None:
            self._count(rated, block)  # a block not of this stretch (a game handed out again)
            return
        pending.held.extend(rated)
        pending.left -= 1
        if pending.left == 0:
            del self._pending[block]
            self._count(pending.held, block)

    def _count(self, games: list[LadderGame], block: str) -> None:
        self.games.extend(games)
        self.blocks.extend([block] * len(games))

    def _give_up_pending(self) -> None:
        """The blocks of a stretch that ended before they were whole (the active set changed):
        their stored games count as they are, as they would after a restart."""
        for block, pending in self._pending.items():
            self._count(pending.held, block)
        self._pending.clear()

    def _withdraw(self, name: str, detail: str) -> None:
        """Retire ``name`` for good (past a limit of its faults), unless it is already."""
        if name in self.store.withdrawn():
            return
        self.store.withdraw(name, detail, self.config.active_versions)
        if self._source is not None:
            # Its games not handed out are dropped; those handed out already are forfeited.
            self._source.withdraw(name, detail, drop=True)
        print(f"warning: ladder entrant {name} {detail}: retired from matchmaking", file=sys.stderr)
        self._active_changed()

    def _bench(self, name: str) -> None:
        """``name`` was just benched: its games chosen before and not handed out are dropped
        (:meth:`LadderSource.drop`), its tables to be chosen again knowing it."""
        if self._source is not None:
            for game in self._source.drop(name):
                self._settle(game.block, [])

    def _death(self, name: str, detail: str) -> None:
        """A fault between games found after the entrant's last game of a stretch: no game to
        charge it to, so only an event (shown on its page)."""
        self.store.record_event(name, "died-between-games", detail)

    async def _matchmaking_fit_forever(self) -> None:
        """Keep matchmaking's fit current once the ladder is too big to refit per table."""
        while True:
            await trio.sleep(0.5)
            if len(self.games) >= INLINE_FIT_GAMES and (self._fit is None or self._fit.n_games < len(self.games)):
                self._fit = await trio.to_thread.run_sync(_matchmaking_fit, list(self.games)) or self._fit

    # -- rating fits ----------------------------------------------------------------------------

    async def _fit_forever(self) -> None:
        fitted, last = 0, trio.current_time()
        while True:
            await trio.sleep(min(1.0, self.fit_every_s))
            count = len(self.games)
            new = count - fitted
            if new <= 0 or (new < FIT_SHARE * count and trio.current_time() - last < self.fit_every_s):
                continue
            games, blocks = list(self.games), list(self.blocks)
            try:
                data = await trio.to_thread.run_sync(fit_ratings, games, blocks)
            except _FIT_ERRORS as error:
                print(f"warning: the rating fit of {count} games failed ({error}); pages keep the last fit",
                      file=sys.stderr)
                data = None
            if data is not None:
                self.store.save_fit(count, data)
            fitted, last = count, trio.current_time()


@dataclass
class _Block:
    """A duplicate block in flight: its table, its rotations not stored yet, and the rated
    games of it stored so far, held back from the fits until the block is whole."""

    table: tuple[str, ...]
    left: int
    held: list[LadderGame] = field(default_factory=list)


#: What a numerical corner case of a fit raises; the ladder goes on without that fit.
_FIT_ERRORS = (ValueError, ArithmeticError, np.linalg.LinAlgError)


def _matchmaking_fit(games: list[LadderGame]) -> LadderFit | None:
    """:func:`fit_ladder` of ``games``, or ``None`` (with a warning) if it fails."""
    try:
        return fit_ladder(games)
    except _FIT_ERRORS as error:
        print(f"warning: matchmaking's fit of {len(games)} games failed ({error})", file=sys.stderr)
        return None


def fit_ratings(games: list[LadderGame], blocks: list[str]) -> dict[str, Any] | None:
    """Standings of ``games`` (Bradley-Terry, 95 % intervals counting each duplicate block
    once) as stored with a fit: ``rows`` and the ``crosstable``; ``None`` without games."""
    from ..ratings import GameRecord, compute_standings

    if not games:
        return None
    standings = compute_standings([GameRecord(g.seats, g.ranks, block) for g, block in zip(games, blocks)])
    data = standings.as_dict()
    return {"rows": data["rows"], "crosstable": data["crosstable"], "groups": data["groups"]}
