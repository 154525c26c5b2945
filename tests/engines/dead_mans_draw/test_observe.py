"""Observations, events' audiences, resampling and determinization, for every option set."""

import itertools
import random

import msgpack
import pytest

from engines.dead_mans_draw import GAME, determinize
from tests.engines._harness import check_information, check_playout, check_replay_determinism

FLAGS = ("characters", "strange_waters", "mermaid_effect", "party")
ALL_OPTIONS = [dict(zip(FLAGS, values)) for values in itertools.product((False, True), repeat=4)]


def option_cases(players):
    """Every option combination; for 5+ players ``party`` is implied, so it is not varied."""
    return [options for options in ALL_OPTIONS if players <= 4 or options["party"]]


CASES = [(players, options) for players in (2, 4, 8) for options in option_cases(players)]


def case_id(case):
    players, options = case
    return f"{players}p-" + "-".join(flag for flag in FLAGS if options[flag]) if any(options.values()) else f"{players}p"


@pytest.mark.parametrize("players,options", CASES, ids=map(case_id, CASES))
def test_information_every_option_combination(players, options):
    check_information(GAME, players, seed=7, options=options, samples=4)


@pytest.mark.parametrize("players,options", CASES, ids=map(case_id, CASES))
def test_playout_and_replay_every_option_combination(players, options):
    check_playout(GAME, players, seed=3, options=options)
    check_replay_determinism(GAME, players, seed=4, options=options)


def pack(value):
    return msgpack.packb(value, use_bin_type=True)


@pytest.mark.parametrize("players,options", CASES[::3], ids=map(case_id, CASES[::3]))
def test_determinize_reproduces_the_observation_and_plays_on(players, options):
    rng = random.Random(players)
    state = GAME.new_state(players, seed=players, options=options)
    checked = 0
    while not state.is_terminal():
        for seat in range(players):
            if rng.random() < 0.15:
                obs = state.observation(seat)
                other = determinize(obs, random.Random(checked))
                assert pack(other.observation(seat)) == pack(obs)
                if seat in state.acting:
                    assert other.legal_actions(seat) == state.legal_actions(seat)
                while not other.is_terminal():
                    other.apply({s: other.random_action(s, rng) for s in other.acting})
                checked += 1
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
    assert checked > 5


def test_determinize_keeps_a_seers_look_and_hides_it_from_others():
    from ._helpers import make, play

    from engines.dead_mans_draw._cards import names, one_set

    pile, rest = map(names, one_set(mermaid_effect=False))
    top = ["O3", "K4", "T5", "S6"]
    rest = [card for card in rest if card not in top + ["N5"]]
    state = make(draw=top + rest, row=["N5"], discard=pile, characters=["seer", None])
    play(state, ("draw", "draw"))
    for seed in range(5):
        mine = determinize(state.observation(0), random.Random(seed))
        assert mine.draw[-3:] == state.draw[-3:]
    tops = {tuple(determinize(state.observation(1), random.Random(seed)).draw[-3:]) for seed in range(20)}
    assert len(tops) > 1


def test_observation_is_msgpack_and_shows_dealt_only_to_its_seat():
    state = GAME.new_state(4, seed=2)
    for seat in range(4):
        obs = state.observation(seat)
        pack(obs)
        assert obs["seat"] == seat and obs["players"] == 4 and obs["phase"] == "characters"
        assert obs["dealt"] == state.dealt[seat]
