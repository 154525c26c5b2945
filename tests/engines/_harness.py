"""Generic engine properties, shared by every game's tests.

Each function takes a Game and parameters and fails with a precise assertion message; the
parametrised suite ``test_generic.py`` runs them on every registered game, and a game's own
tests may call them with game-specific options.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Sequence
from typing import Any

import msgpack

from engines import Game, IllegalAction, State


def play_random(state: State, rng: random.Random, max_steps: int = 100_000) -> State:
    """Play uniformly random legal actions until the game ends; return the state."""
    for _ in range(max_steps):
        if state.is_terminal():
            return state
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
    raise AssertionError(f"game did not end within {max_steps} steps")


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def check_playout(game: Game, num_players: int, seed: int, options: dict | None = None) -> State:
    """A random game reaches the end with a complete, consistent outcome."""
    state = game.new_state(num_players, seed, options)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        for seat in state.acting:
            kind = state.decision(seat)
            assert isinstance(kind, str) and kind, f"decision kind of seat {seat} must be a string"
            legal = state.legal_actions(seat)
            if legal is not None:
                assert legal, f"seat {seat} has an empty legal action list at step {steps}"
                pack(legal)
            pack(state.observation(seat))
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
        steps += 1
        assert steps < 100_000, "game does not end"
    outcome = state.outcome()
    assert len(outcome.ranks) == num_players and len(outcome.scores) == num_players
    assert min(outcome.ranks) == 1
    for seat, rank in enumerate(outcome.ranks):
        better = sum(1 for other in outcome.ranks if other < rank)
        assert rank == better + 1, f"ranks {outcome.ranks} are not competition ranks"
    for seat in range(num_players):
        pack(state.observation(seat))
        pack(list(state.events_for(seat)))
    return state


def check_replay_determinism(game: Game, num_players: int, seed: int, options: dict | None = None) -> None:
    """Same seed and actions give the same states, observations and events."""
    from engines import Replay

    first = play_random(game.new_state(num_players, seed, options), random.Random(seed))
    replay = Replay.of(first, game.id, seed)
    replay = Replay.from_dict(msgpack.unpackb(pack(replay.as_dict()), strict_map_key=False))
    second = replay.final_state()
    assert second.outcome() == first.outcome()
    for seat in range(num_players):
        assert pack(second.observation(seat)) == pack(first.observation(seat))
        assert pack(list(second.events_for(seat))) == pack(list(first.events_for(seat)))


def _public_part(state: State) -> bytes:
    data = {key: value for key, value in vars(state).items() if key != "rng"}
    return pickle.dumps(data)


def check_information(game: Game, num_players: int, seed: int, options: dict | None = None,
                      samples: int = 30, views: Sequence[Callable[[State, int], Any]] = (),
                      games: int = 3) -> None:
    """Resampling what a player may not know leaves that player's view byte-for-byte equal.

    For random states along random games, every seat's observation, visible events and legal
    actions must be unchanged in ``state.resample(seat, rng)``, and the resampled state must
    play on to a legal end. At least one resample must change the hidden state, or the test
    would prove nothing. ``views`` are further functions of ``(state, seat)`` that must not
    change either (the environment adapters' strings and tensors, ``tests/envs``).
    """
    rng = random.Random(seed)
    changed = 0
    checked = 0
    for game_index in range(games):
        state = game.new_state(num_players, seed + game_index, options)
        snapshots = []
        while not state.is_terminal():
            if rng.random() < 0.3:
                snapshots.append(state.clone())
            state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
        snapshots.append(state.clone())
        for snapshot in rng.sample(snapshots, min(len(snapshots), samples)):
            for seat in range(num_players):
                other = snapshot.resample(seat, random.Random(rng.random()))
                view = (snapshot.observation(seat), list(snapshot.events_for(seat)))
                other_view = (other.observation(seat), list(other.events_for(seat)))
                assert pack(other_view) == pack(view), (
                    f"seat {seat}'s view changed when resampling what it cannot know"
                )
                for extra in views:
                    assert extra(other, seat) == extra(snapshot, seat), (
                        f"{getattr(extra, '__name__', extra)} of seat {seat} changed when resampling "
                        "what it cannot know"
                    )
                if seat in snapshot.acting:
                    assert snapshot.decision(seat) == other.decision(seat)
                    assert pack(snapshot.legal_actions(seat)) == pack(other.legal_actions(seat))
                # One change is all the final assertion needs: pickling two whole states (their
                # logs too) for every later resample was most of this check's time.
                changed = changed or _public_part(other) != _public_part(snapshot)
                checked += 1
                if checked <= 4:  # a few resampled states must play on to a legal end
                    play_random(other, random.Random(checked))
    assert checked and changed, "resample never changed any hidden information"


def check_rejects_garbage(game: Game, num_players: int, seed: int, options: dict | None = None,
                          samples: int = 40) -> None:
    """Arbitrary wrong actions raise IllegalAction and leave the state unchanged.

    Checked at up to ``samples`` states spread along one random game (every state of a long
    multi-deal game would only repeat the same checks).
    """
    rng = random.Random(seed)
    state = game.new_state(num_players, seed, options)
    states = []
    while not state.is_terminal():
        states.append(state.clone())
        state.apply({s: state.random_action(s, rng) for s in state.acting})
    garbage = [None, -1, 10**9, "nonsense", [], {}, [1, 2, 3], {"x": 1}, 3.5, True, b"\x00", [[[]]]]
    for state in rng.sample(states, min(samples, len(states))):
        seat = state.acting[0]
        before = pickle.dumps(state)
        legal = state.legal_actions(seat)
        for action in garbage:
            if legal is not None and action in legal:
                continue
            try:
                state.check(seat, action)
            except IllegalAction as error:
                assert error.player == seat and error.reason
            else:
                continue  # a game may accept e.g. an int; only exceptions matter here
            assert pickle.dumps(state) == before, f"rejected action {action!r} changed the state"
        outsider = next((p for p in range(num_players) if p not in state.acting), None)
        if outsider is not None:
            try:
                state.check(outsider, state.random_action(seat, rng))
            except IllegalAction as error:
                assert error.player == outsider
            else:
                raise AssertionError("a seat that is not acting was allowed to act")


def _mutate_in_place(value: Any) -> None:
    """Change every list or dict inside ``value`` in place (what a careless caller might do)."""
    if isinstance(value, list):
        for item in value:
            _mutate_in_place(item)
        value.append("junk")
    elif isinstance(value, dict):
        for item in value.values():
            _mutate_in_place(item)
        value["junk"] = 1


def check_legal_actions_are_copies(game: Game, num_players: int, seed: int, options: dict | None = None,
                                   per_kind: int | None = 25) -> None:
    """Changing what ``legal_actions`` returned (inner lists included) never changes the state.

    Checked at every state of one random game until each decision kind was checked
    ``per_kind`` times (``None``: at every state); a kind first asked late in the game is
    still checked. The check pickles the whole state, its log too, twice a step: at every step
    of a long game (Opito Bay's 1,600) that cost grows with the square of the game's length,
    and a later state of a kind builds its legal actions by the same code as the first.
    """
    rng = random.Random(seed)
    state = game.new_state(num_players, seed, options)
    checked: dict[str, int] = {}
    while not state.is_terminal():
        kinds = {state.decision(seat) for seat in state.acting}
        if per_kind is not None and all(checked.get(kind, 0) >= per_kind for kind in kinds):
            state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
            continue
        for kind in kinds:
            checked[kind] = checked.get(kind, 0) + 1
        before = pickle.dumps(state)
        for seat in state.acting:
            legal = state.legal_actions(seat)
            if legal is not None:
                expected = pack(legal)
                _mutate_in_place(legal)
                assert pack(state.legal_actions(seat)) == expected, "a returned legal action aliases the state"
        assert pickle.dumps(state) == before, "changing the returned legal actions changed the state"
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
