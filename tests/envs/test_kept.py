"""The kept observation tensors (``envs._kept``) equal the codec's tensor of the seat's
observation at every step of seeded random games: every game, 2-4 players (and Dead Man's
Draw's party sizes), every option. The kept tensor reads the engine state, not the
observation, so this equality is what keeps it from showing a seat what it may not see."""

import random

import numpy as np
import pytest

from engines import get_game
from envs._games import codec
from envs._kept import KeptTensors, Rebuilt

from ._every_game import others, skip_without_codec

DMD_OPTIONS = [{}, {"characters": False}, {"strange_waters": True}, {"mermaid_effect": True}, {"party": True},
               {"strange_waters": True, "mermaid_effect": True, "party": True}]
CASES = ([("dead-mans-draw", players, options) for players in (2, 3, 4) for options in DMD_OPTIONS]
         + [("dead-mans-draw", 6, {"mermaid_effect": True})]
         + [("opito-bay", players, {"deals": 2}) for players in (2, 3, 4)]
         + [("opito-bay", 2, {"deals": 0, "target": 2000}), ("opito-bay", 3, {"deals": 0, "target": 1000})]
         + [("karibik", players, {"max_rounds": 8}) for players in (2, 3, 4)])
CASES += [(game_id, players, {}) for game_id, _, players in others({game_id for game_id, _, _ in CASES})]


def play(game_id, players, options, seed, check_every=1):
    """One random game; at every step, each seat's kept tensor against the codec's (seats
    synced in a seeded random order and at random steps, as PettingZoo's AEC asks them)."""
    game = get_game(game_id)
    resolved = game.resolve_options(options)
    shared = codec(game_id, players, resolved)
    state = game.new_state(players, seed, resolved)
    kept = KeptTensors(shared, state)
    rng = random.Random(seed)
    steps = 0
    while True:
        seats = [seat for seat in range(players) if rng.random() < 0.7 or seat in state.acting]
        for seat in seats:
            expected = shared.tensor(state.observation(seat))
            got = kept.tensor(seat)
            if not np.array_equal(got, expected):
                wrong = np.flatnonzero(got != expected)
                names = sorted({name for name, start, size, _ in shared.layout.rows()
                                for index in wrong if start <= index < start + size})
                raise AssertionError(f"{game_id} {players}p {options} seed {seed} step {steps} seat {seat}: "
                                     f"segments {names} differ")
        if not state.acting:
            return steps
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
        steps += 1


@pytest.mark.parametrize("game_id,players,options", CASES)
def test_kept_tensor_equals_the_codecs_tensor_at_every_step(game_id, players, options):
    skip_without_codec(game_id)
    games = 6 if game_id == "dead-mans-draw" else 3
    for seed in range(games):
        play(game_id, players, options, seed=1000 * players + seed)


def test_a_kept_tensor_follows_a_state_it_has_not_seen_for_a_while():
    """Syncing after many steps (or after a new deal) rewrites what changed, not only the tail."""
    for game_id, options in (("opito-bay", {"deals": 3}), ("dead-mans-draw", {}), ("karibik", {})):
        game = get_game(game_id)
        resolved = game.resolve_options(options)
        shared = codec(game_id, 2, resolved)
        rng = random.Random(5)
        for seed in range(3):
            state = game.new_state(2, seed, resolved)
            kept = KeptTensors(shared, state)
            while state.acting:
                for _ in range(rng.randrange(1, 60)):
                    if not state.acting:
                        break
                    state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
                for seat in range(2):
                    assert np.array_equal(kept.tensor(seat), shared.tensor(state.observation(seat)))


def test_a_game_without_a_kept_tensor_gets_the_codecs_rebuilt():
    """``Rebuilt``, what a game whose descriptor names no ``kept`` piece gets: the codec's tensor
    of the seat's observation at every sync."""
    game = get_game("opito-bay")
    resolved = game.resolve_options({"deals": 1})
    shared = codec("opito-bay", 3, resolved)
    state = game.new_state(3, 4, resolved)
    rebuilt = [Rebuilt(shared, seat) for seat in range(3)]
    rng = random.Random(4)
    while not state.is_terminal():
        for seat in range(3):
            assert np.array_equal(rebuilt[seat].sync(state), shared.tensor(state.observation(seat)))
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
