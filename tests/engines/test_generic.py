"""Generic properties run on every registered game (OpenSpiel-style)."""

import pytest

from engines import get_game, game_ids

from ._harness import (check_information, check_legal_actions_are_copies, check_playout, check_rejects_garbage,
                       check_replay_determinism)

GAMES = game_ids()


def player_counts(game_id):
    game = get_game(game_id)
    return sorted({game.min_players, game.max_players, min(game.max_players, game.min_players + 1)})


CASES = [(g, n) for g in GAMES for n in player_counts(g)]


@pytest.mark.parametrize("game_id,players", CASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playout_ends_with_outcome(game_id, players, seed):
    check_playout(get_game(game_id), players, seed)


@pytest.mark.parametrize("game_id,players", CASES)
def test_replay_reproduces_game(game_id, players):
    check_replay_determinism(get_game(game_id), players, seed=11)


@pytest.mark.parametrize("game_id,players", CASES)
def test_observation_hides_what_player_may_not_know(game_id, players):
    check_information(get_game(game_id), players, seed=5)


@pytest.mark.parametrize("game_id,players", CASES)
def test_illegal_actions_rejected_without_change(game_id, players):
    check_rejects_garbage(get_game(game_id), players, seed=3)


@pytest.mark.parametrize("game_id,players", CASES)
def test_legal_actions_do_not_alias_the_state(game_id, players):
    check_legal_actions_are_copies(get_game(game_id), players, seed=4)
