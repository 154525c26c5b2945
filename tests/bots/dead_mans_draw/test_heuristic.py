"""The Dead Man's Draw heuristic: always legal, sensible choices, and it beats random play."""

import random

import pytest

from bots.dead_mans_draw import heuristic
from engines import get_game

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


def test_the_character_order_names_every_character_once():
    from bots.dead_mans_draw._heuristic import CHARACTER_RANK, CHARACTER_RANK_MANY
    from engines.dead_mans_draw._cards import CHARACTERS, SIREN

    assert sorted(CHARACTER_RANK) == sorted(CHARACTER_RANK_MANY) == sorted({*CHARACTERS, SIREN})


def test_a_pair_is_picked_by_the_measured_order():
    # benchmarks/dmd_characters.py: Misfire's owner scored 64 % of the points, Greedy's 47 %
    # (the old order picked Greedy first); Captain Hook's the least.
    state = get_game("dead-mans-draw").new_state(2, 0, {})
    state.dealt = [["greedy", "misfire"], ["captain_hook", "seer"]]
    assert heuristic(request_for(state, 0), random.Random(0)) == "misfire"
    assert heuristic(request_for(state, 1), random.Random(0)) == "seer"
    # At a table of four a Cannon is aimed at one of three: Misfire is worth less (52 %) than
    # the Living Shield (56 %).
    state = get_game("dead-mans-draw").new_state(4, 0, {})
    state.dealt[0] = ["misfire", "living_shield"]
    assert heuristic(request_for(state, 0), random.Random(0)) == "living_shield"


def test_the_character_measurement_runs_at_smoke_size():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    result = subprocess.run([sys.executable, str(root / "benchmarks" / "dmd_characters.py"), "--games", "60"],
                            capture_output=True, text=True, timeout=300, cwd=root)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "picking from the pair: by the shipped order" in result.stdout and "\norder: " in result.stdout
