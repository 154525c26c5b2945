"""The generic properties for 2, 3 and 4 players and every option combination.

The generic suite runs the defaults; here every option combination is checked as well
(the board option has one choice; max_rounds changes when the game ends).
"""

import pytest

from engines.karibik import GAME
from tests.engines._harness import check_information, check_playout, check_rejects_garbage, check_replay_determinism

OPTIONS = [{}, {"max_rounds": 3}, {"board": "caribbean", "max_rounds": 12}]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTIONS)
def test_information_is_hidden(players, options):
    check_information(GAME, players, seed=21, options=options, samples=10)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTIONS[1:])
def test_playout_replay_and_garbage(players, options):
    state = check_playout(GAME, players, seed=4, options=options)
    assert state.round <= options["max_rounds"]
    check_replay_determinism(GAME, players, seed=8, options=options)
    check_rejects_garbage(GAME, players, seed=9, options={"max_rounds": 3})
