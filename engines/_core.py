"""The common engine interface: game specs, options, states, outcomes and events.

Every game in ``engines/`` is a :class:`Game` (a frozen description plus a factory) and a
subclass of :class:`State`. The base class does the generic checks (game over, whose turn,
legality) and keeps the action history and the event log; a game only writes its own rules
in the ``_``-prefixed hooks.

Engines are pure: no I/O, no clocks, no processes. All randomness comes from the
``random.Random`` seeded at creation, so a game is fully determined by
``(number of players, seed, options)`` plus the actions applied to it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from ._pieces import Pieces

#: An action is any msgpack-able value: int, str, list, dict of those.
Action = Any


def same_value(a: Any, b: Any) -> bool:
    """Equal *and* of exactly the same types throughout.

    ``True`` is not ``1``, ``1.0`` is not ``1``, a tuple is not a list, ``{1: x}`` is not
    ``{True: x}``; lists and dicts are compared element by element, recursively. This is the
    one comparison every engine's legality check uses: actions arrive as msgpack values, and
    Python's ``==`` (what ``in`` uses) would accept ``["move", 7.0]`` for ``["move", 7]``,
    which the rules then cannot apply. A bot that sends the wrong type has a bug the arena
    should report, not paper over.
    """
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is list:
        return len(a) == len(b) and all(map(same_value, a, b))
    if kind is dict:
        if len(a) != len(b):
            return False
        # Keys must match by type too: ``1`` and ``True`` find the same dict entry.
        keys_b = {(type(key), key) for key in b}
        return all((type(key), key) in keys_b and same_value(value, b[key]) for key, value in a.items())
    return a == b


def is_listed(action: Any, legal: Sequence[Any]) -> bool:
    """Whether ``action`` is one of ``legal`` under :func:`same_value` (never plain ``in``)."""
    # ``==`` first: it is necessary for same_value, and in C it rejects most candidates at once.
    return any(candidate == action and same_value(candidate, action) for candidate in legal)


class EngineError(Exception):
    """Base class of every error an engine raises on purpose."""


class IllegalAction(EngineError):
    """An action was rejected; the state is unchanged.

    ``reason`` is a one-line explanation meant for the bot author, e.g.
    ``"stack 'cannon' is not in your bank; choose one of ['anchor', 'key']"``.
    """

    def __init__(self, player: int, reason: str) -> None:
        super().__init__(f"player {player}: {reason}")
        self.player = player
        self.reason = reason


class BadOption(EngineError):
    """A game option is unknown, has the wrong type or an out-of-range value."""


class UnknownGame(EngineError):
    """No game is registered under the requested id."""


@dataclass(frozen=True)
class Option:
    """One documented game option: its name, Python type, default and meaning.

    ``choices`` restricts the value to a fixed set; ``minimum``/``maximum`` bound numbers.
    """

    name: str
    type: type
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: int | float | None = None
    maximum: int | float | None = None

    def validate(self, game_id: str, value: Any) -> Any:
        """Return ``value`` converted to this option's type, or raise :class:`BadOption`."""
        where = f"option {self.name!r} of {game_id}"
        if self.type is bool:
            if not isinstance(value, bool):
                raise BadOption(f"{where} must be true or false, got {value!r}")
        elif self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOption(f"{where} must be an integer, got {value!r}")
        elif self.type is float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise BadOption(f"{where} must be a number, got {value!r}")
            value = float(value)
        elif not isinstance(value, self.type):
            raise BadOption(f"{where} must be a {self.type.__name__}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise BadOption(f"{where} must be one of {list(self.choices)}, got {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise BadOption(f"{where} must be at least {self.minimum}, got {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise BadOption(f"{where} must be at most {self.maximum}, got {value!r}")
        return value


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game, per seat.

    ``ranks[i]`` is seat i's finishing position, 1 = best; tied seats share a rank and the
    next rank is skipped ("1, 1, 3"). ``scores[i]`` is the game's own score for seat i.
    """

    ranks: tuple[int, ...]
    scores: tuple[int | float, ...]

    @classmethod
    def from_keys(cls, scores: Sequence[int | float], keys: Sequence[Any] | None = None) -> Outcome:
        """Rank seats by ``keys`` (default: the scores), higher is better, equal keys tie."""
        keys = list(scores) if keys is None else list(keys)
        ranks = tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
        return cls(ranks=ranks, scores=tuple(scores))


class Event(NamedTuple):
    """Something that happened, as a msgpack-able map.

    ``audience`` is ``None`` when every player may know it, else the seats that may.
    (A named tuple: games emit several events per move, and it is the cheapest record.)
    """

    data: Mapping[str, Any]
    audience: frozenset[int] | None = None

    def visible_to(self, player: int) -> bool:
        return self.audience is None or player in self.audience


@dataclass(frozen=True)
class Game:
    """A registered game: id, player counts, documented options, and its state factory.

    ``new_state(num_players, seed, options)`` validates everything and returns the
    initial :class:`State`.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    state_class: Callable[..., State] = field(repr=False)
    #: decision kind -> one-line description of its action schema (for docs and `arena games`)
    decisions: Mapping[str, str] = field(default_factory=dict)
    #: format ("text", "svg") -> function(state or None, resolved options) -> str, for `arena board`
    renderers: Mapping[str, Callable[[State | None, Mapping[str, Any]], str]] = field(default_factory=dict)
    #: Observation keys that are static: for each seat, in one game, the value is the same in
    #: every observation (e.g. Karibik's map). The arena sends them once per game, in
    #: ``start.static``, to bots that speak protocol 1.1 or later, and leaves them out of their
    #: requests; it never names a game's fields itself. ``tests/protocol/test_static.py`` plays
    #: seeded games of every game and checks that the declared keys never change.
    static_fields: tuple[str, ...] = ()
    #: the optional pieces (codec, kept tensor, policies, resampler, OpenSpiel bounds), lazily
    pieces: Pieces = field(default_factory=Pieces)

    def __post_init__(self) -> None:
        # Every state knows its game (``state.game.id``), whichever module defined it.
        self.state_class.game = self

    def piece(self, name: str) -> Any:
        """The game's piece ``name``, imported; :class:`~engines.MissingPiece` saying what it is
        for when the game has none."""
        return self.pieces.load(name, self.id)

    def resolve_options(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Return a complete option dict: given values validated, the rest defaulted.

        Raises :class:`BadOption` naming the unknown or invalid option.
        """
        options = dict(options or {})
        known = {option.name: option for option in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise BadOption(
                f"unknown option {unknown[0]!r} for {self.id}; known options: {sorted(known) or 'none'}"
            )
        return {
            name: option.validate(self.id, options[name]) if name in options else option.default
            for name, option in known.items()
        }

    def check_players(self, num_players: int) -> None:
        if not self.min_players <= num_players <= self.max_players:
            raise BadOption(
                f"{self.id} is for {self.min_players}-{self.max_players} players, not {num_players}"
            )

    def new_state(self, num_players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        """Create the initial state. Raises :class:`BadOption` on a bad player count or option."""
        resolved = self.resolve_options(options)
        self.check_players(num_players)
        state = self.state_class(num_players, random.Random(seed), resolved)
        if hasattr(state, "check_options"):
            state.check_options()
        return state


class State:
    """One game in progress. Subclasses implement the ``_``-prefixed hooks.

    Public, generic API (do not override):

    - ``acting``: tuple of the seats that must act now; several for a simultaneous secret
      decision; empty when the game is over.
    - ``is_terminal()``, ``check(player, action)``, ``apply(actions)``, ``apply_action(action)``
    - ``events_for(player, start)``: the log entries the player may see.
    - ``history``: the applied actions, one ``{seat: action}`` map per step (with the seed and
      options this is the replay).

    Hooks a game implements:

    - ``decision(player) -> str``: the kind of the pending decision of ``player``.
    - ``legal_actions(player) -> list | None``: every legal action, or ``None`` when the kind
      is documented as not enumerated (the bot builds the action from the observation).
    - ``_check(player, action)``: raise :class:`IllegalAction` if the action is illegal.
    - ``_apply(actions)``: apply checked actions of all acting seats at once.
    - ``observation(player) -> dict``: only what ``player`` may know (msgpack-able).
    - ``outcome() -> Outcome``: valid when terminal.
    - ``clone()``: an independent copy (the default deep-copies; override for speed).
    - ``resample(player, rng) -> State``: a copy in which everything ``player`` may not know
      is redrawn consistently with what they do know (for information-leak tests and
      determinized search).
    - ``random_action(player, rng)``: a uniformly random legal action (default: from
      ``legal_actions``; a game whose decisions are not enumerated overrides it).
    """

    game: ClassVar[Game]

    def __init__(self, num_players: int, rng: random.Random, options: Mapping[str, Any]) -> None:
        self.num_players = num_players
        self.rng = rng
        self.options = dict(options)
        self.acting: tuple[int, ...] = ()
        self.history: list[dict[int, Action]] = []
        self.log: list[Event] = []

    # -- generic API -------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return not self.acting

    def check(self, player: int, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``player`` may take ``action`` now."""
        if not self.acting:
            raise IllegalAction(player, "the game is over")
        if player not in self.acting:
            raise IllegalAction(player, f"it is not your decision; waiting for seats {list(self.acting)}")
        self._check(player, action)

    def apply(self, actions: Mapping[int, Action]) -> None:
        """Apply one action per acting seat (all at once for a simultaneous decision).

        Raises :class:`IllegalAction` for the first bad action (seats in order), leaving the
        state unchanged.
        """
        if set(actions) != set(self.acting):
            missing = sorted(set(self.acting) - set(actions))
            extra = sorted(set(actions) - set(self.acting))
            player = (missing or extra)[0]
            raise IllegalAction(
                player,
                f"expected actions from seats {list(self.acting)}; missing {missing}, unexpected {extra}",
            )
        for player in sorted(actions):
            self._check(player, actions[player])
        step = {player: actions[player] for player in sorted(actions)}
        self.history.append(step)
        self._apply(step)

    def apply_checked(self, actions: Mapping[int, Action]) -> None:
        """Apply a step whose every action already passed :meth:`check` in this state.

        For callers that validate actions one by one as they arrive (the arena's match): it
        skips the second validation that :meth:`apply` would do. Anything else: use ``apply``.
        """
        step = {player: actions[player] for player in sorted(actions)}
        self.history.append(step)
        self._apply(step)

    def apply_action(self, action: Action) -> None:
        """Apply the action of the single acting seat."""
        if len(self.acting) != 1:
            raise IllegalAction(
                self.acting[0] if self.acting else 0,
                f"apply_action needs exactly one acting seat, have {list(self.acting)}",
            )
        self.apply({self.acting[0]: action})

    def events_for(self, player: int, start: int = 0) -> list[Mapping[str, Any]]:
        """The events from log index ``start`` on that ``player`` may see."""
        return [event.data for event in self.log[start:] if event.audience is None or player in event.audience]

    def emit(self, data: Mapping[str, Any], audience: frozenset[int] | None = None) -> None:
        """Append an event to the log (for use by the game's rules)."""
        self.log.append(Event(data, audience))

    # -- hooks -------------------------------------------------------------------------------

    def decision(self, player: int) -> str:
        raise NotImplementedError

    def legal_actions(self, player: int) -> list[Action] | None:
        raise NotImplementedError

    def _check(self, player: int, action: Action) -> None:
        legal = self.legal_actions(player)
        if legal is None:
            raise NotImplementedError(f"{type(self).__name__} must implement _check")
        if not is_listed(action, legal):
            shown = legal if len(legal) <= 20 else legal[:20] + ["..."]
            raise IllegalAction(player, f"{action!r:.200} is not a legal {self.decision(player)} action; "
                                        f"legal: {shown!r}")

    def _apply(self, actions: Mapping[int, Action]) -> None:
        raise NotImplementedError

    def observation(self, player: int) -> dict[str, Any]:
        raise NotImplementedError

    def outcome(self) -> Outcome:
        raise NotImplementedError

    def clone(self) -> State:
        return copy.deepcopy(self)

    def resample(self, player: int, rng: random.Random) -> State:
        raise NotImplementedError

    def random_action(self, player: int, rng: random.Random) -> Action:
        legal = self.legal_actions(player)
        if not legal:
            raise NotImplementedError(f"{type(self).__name__} must implement random_action")
        return legal[rng.randrange(len(legal))]
