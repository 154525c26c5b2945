"""The Dead Man's Draw heuristic: always legal, sensible choices, and it beats random play."""

import random

import pytest

from bots.dead_mans_draw import heuristic

from ._play import play_game, position, random_policy, request_for, win_share

OPTION_SETS = [
    {},
    {"characters": False},
    {"strange_waters": True, "mermaid_effect": True},
    {"mermaid_effect": True, "party": True},
]


@pytest.mark.parametrize("players", [2, 4, 8])
@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "plain", "strange-mermaid", "mermaid-party"])
def test_always_legal(players, options):
    for seed in range(2):
        state = play_game([heuristic] * (players - 1) + [random_policy], seed, options)
        assert state.is_terminal()  # apply would have raised on an illegal action


def test_collects_when_the_oracle_shows_a_busting_card():
    state = position(draw=["O3", "K4"], row=["K5", "A3"], characters=[None, None])
    state.apply_action("draw")
    assert state.decision(0) == "oracle" and state.observation(0)["draw_known"] == ["K4"]
    assert heuristic(request_for(state, 0), random.Random(0)) == "collect"


def test_hook_avoids_a_stack_that_busts():
    state = position(draw=["H3"], row=["N5"], banks=[["N9", "K3"]])
    state.apply_action("draw")
    assert state.decision(0) == "hook"
    assert heuristic(request_for(state, 0), random.Random(0)) == "K"


def test_draws_on_a_small_row_and_collects_a_big_risky_one():
    small = position(row=["S3"])
    assert heuristic(request_for(small, 0), random.Random(0)) == "draw"
    risky = position(row=["A7", "C7", "K7", "M7", "S7", "O7"])
    assert heuristic(request_for(risky, 0), random.Random(0)) == "collect"


def test_beats_random_play():
    share = win_share(heuristic, random_policy, 200)
    assert share >= 0.88, share
