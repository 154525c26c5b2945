"""A person in a seat: a :class:`~arena.players._player.Player` whose decisions come from a
web page instead of a bot process.

The match asks a :class:`HumanPlayer` exactly as it asks a bot (``decide`` with the seat's
kind, observation, events and legal actions; ``send`` for ``start`` and ``end``), so the game
is a real arena match: the same loop, legality judged the same way, the same records. The
player hands each question to its :class:`HumanSeat`, which the pages of that seat follow.

What the seat publishes (:attr:`HumanSeat.message`) is built from the engine's observation for
that seat and the events it may see, and nothing else: never the state, nor the seed.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import trio

import protocol
from engines import IllegalAction, State, is_listed

from ..players import BotFault, Fault, FaultKind, BotSpec, Player, GameClock


class _Decision:
    """A question put to the person: answered once, through :meth:`HumanSeat.answer`."""

    def __init__(self, number: int, kind: str, legal: Sequence[Any] | None, move_s: float | None) -> None:
        self.number = number
        self.kind = kind
        self.legal = legal
        self.asked = trio.current_time()
        self.deadline = None if move_s is None else self.asked + move_s
        self.action: Any = None
        self.answered = trio.Event()


class HumanSeat:
    """One person's seat: what their pages show, and their answers.

    ``move_s``: the person's time for one decision (``--human-move-ms``), ``None`` for none.
    The seat keeps one current message (:attr:`message`); every open page of the seat follows
    it (:meth:`follow`), so a page opened again starts from the same point.
    """

    def __init__(self, seat: int, name: str, token: str, move_s: float | None = None) -> None:
        self.seat = seat
        self.name = name
        self.token = token
        self.move_s = move_s
        self.message: dict[str, Any] = {"type": "waiting"}
        self.version = 0
        self._changed = trio.Event()
        self._decision: _Decision | None = None
        self._numbers = 0
        self._since = 0           # the log index of the person's last decision
        self._answered = -1       # the step the person answered last (its history length)
        self._state: State | None = None
        self._faults: list[dict[str, Any]] = []
        self._game = 0
        self._notice: str | None = None
        #: every message published, when a test asks for them (``record = []``)
        self.record: list[dict[str, Any]] | None = None

    # -- the match's side -------------------------------------------------------------------------

    def new_game(self, number: int) -> None:
        self._game = number
        self._since = 0
        self._answered = -1
        self._state = None
        self._faults = []
        self._decision = None
        self._notice = None

    def watch(self, state: State, faults: Sequence[Fault]) -> None:
        """The game moved on (``play_match``'s ``watch``): show the seat's view of it."""
        self._state = state
        # During the game a fault says who, what kind and when; its detail and the bot's
        # stderr may tell its cards (an illegal action, a bot's log): they come at the end.
        self._faults = [{"seat": f.seat, "bot": f.bot, "kind": f.kind.value} for f in faults]
        self._publish()

    async def ask(self, kind: str, legal: Sequence[Any] | None) -> tuple[Any, float]:
        """Put a decision to the person; return ``(action, elapsed seconds)``. Raises a timeout
        :class:`BotFault` when the person's move time runs out."""
        self._numbers += 1
        decision = self._decision = _Decision(self._numbers, kind, legal, self.move_s)
        self._notice = None
        self._publish()
        try:
            if decision.deadline is None:
                await decision.answered.wait()
            else:
                with trio.move_on_at(decision.deadline):
                    await decision.answered.wait()
                if not decision.answered.is_set():
                    raise BotFault(FaultKind.TIMEOUT, f"no move within {self.move_s * 1000:.0f} ms")
            return decision.action, trio.current_time() - decision.asked
        finally:
            self._decision = None
            if self._state is not None:
                self._since = len(self._state.log)
                self._answered = len(self._state.history)
            self._publish()

    def finished(self, message: dict[str, Any]) -> None:
        """The game is over: ``message`` (result, ranks, the whole game) is what pages show,
        with the seat's last view, its events since the person's last decision and, as
        ``history``, every event the seat saw (what the page's score breakdown and the reason
        the game ended are told from; the whole game is in ``message`` already)."""
        last = self.message if self.message.get("type") == "state" else {}
        history = self._state.events_for(self.seat, 0) if self._state is not None else []
        self._state = None
        self._set({**message, "observation": last.get("observation"), "events": last.get("events", []),
                   "history": history})

    # -- the page's side --------------------------------------------------------------------------

    def answer(self, number: Any, choice: Any = None, action: Any = None) -> str | None:
        """The person's answer to decision ``number``: ``choice``, an index into its legal
        actions, or ``action`` itself where the decision lists none. Returns why it was not
        taken (shown on the page), or ``None``."""
        decision = self._decision
        if decision is None or number != decision.number or decision.answered.is_set():
            return "that decision is no longer open"
        if decision.legal is not None:
            if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < len(decision.legal):
                return "choose one of the actions offered"
            chosen = decision.legal[choice]
        else:
            chosen = action
            problem = self._check(chosen)
            if problem is not None:
                self._notice = problem
                self._publish()
                return problem
        decision.action = chosen
        decision.answered.set()
        return None

    def _check(self, action: Any) -> str | None:
        """Why the engine would refuse ``action`` now (a decision without a list, e.g. a bribe)."""
        state = self._state
        if state is None:
            return "the game is not in play"
        try:
            state.check(self.seat, action)
        except IllegalAction as error:
            return error.reason
        except Exception as error:  # noqa: BLE001 - a malformed answer the engine cannot read
            return f"not an action the game understands ({type(error).__name__})"
        return None

    async def follow(self) -> AsyncIterator[dict[str, Any]]:
        """The seat's messages as they change, the current one first (a page that falls behind
        skips to the newest: each message holds everything since the person's last decision)."""
        seen = -1
        while True:
            if self.version != seen:
                seen = self.version
                yield self.sendable()
            else:
                await self._changed.wait()

    def sendable(self) -> dict[str, Any]:
        """The current message with the person's time left counted to now."""
        message = self.message
        decision = message.get("decision")
        if decision is not None and self._decision is not None and self._decision.deadline is not None:
            left = max(0.0, self._decision.deadline - trio.current_time())
            message = {**message, "decision": {**decision, "left_ms": math.floor(left * 1000)}}
        return message

    # -- inside -----------------------------------------------------------------------------------

    def _publish(self) -> None:
        state = self._state
        if state is None:
            return
        decision = self._decision
        asking = None
        if decision is not None and not decision.answered.is_set():
            asking = {"id": decision.number, "kind": decision.kind,
                      "legal": None if decision.legal is None else list(decision.legal)}
            if self.move_s is not None:
                asking["move_ms"] = round(self.move_s * 1000)
        answered = self._answered == len(state.history)
        self._set({
            "type": "state",
            "number": self._game,
            "observation": state.observation(self.seat),
            "events": state.events_for(self.seat, self._since),
            # whose decision the game waits for: the acting seats (public), less this one once
            # it has answered a simultaneous decision
            "thinking": [seat for seat in state.acting if not (seat == self.seat and answered)],
            "decision": asking,
            "faults": list(self._faults),
            "notice": self._notice,
        })

    def _set(self, message: dict[str, Any]) -> None:
        self.message = message
        self.version += 1
        if self.record is not None:
            self.record.append(message)
        self._changed.set()
        self._changed = trio.Event()


class HumanPlayer(Player):
    """The match's player for a :class:`HumanSeat`: no process; it never faults but by its
    clock (``--human-move-ms``), which costs what a bot's timeout costs."""

    def __init__(self, seat: HumanSeat) -> None:
        super().__init__(BotSpec(name=seat.name, command=("(a person, in the browser)",)), None,
                         protocol.DEFAULT_MAX_FRAME)
        self.human = seat

    def stderr_tail(self) -> str:
        return ""

    async def send(self, message: dict[str, Any], timeout_s: float) -> None:
        return None  # start and end: the page gets the game from the seat's messages

    async def decide(self, kind: str, observation: Mapping[str, Any], events: Sequence[Any],
                     legal: Sequence[Any] | None, clock: GameClock) -> tuple[Any, float]:
        self.last_request = {"kind": kind}
        return await self.human.ask(kind, legal)
