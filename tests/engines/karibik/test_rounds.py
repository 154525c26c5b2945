"""End of round, new chests, end thresholds, the round cap and the outcome."""

import random

import pytest

from engines.karibik import GAME
from engines.karibik._rules import ON_PORT, RESERVE

from ._positions import STARTS, area, arriba_to_seat0, events, play, position

QUIET = STARTS


def quiet_round(players=2, **kwargs):
    """Every ship tied with every tie-breaker used: no ship moves, the round just ends."""
    bids = [[5, 0, 1, 2, 3, 4]] * players
    return position(players, ships=QUIET, bids=bids, used_tiebreakers=range(players), **kwargs)


def test_round_end_places_the_next_reserve_pair_in_order():
    state = quiet_round(on_ports=["Veracruz"], reserve=["Havana", "Trujillo", "Campeche", "Belize"])
    assert state.round == 2 and state.phase == "bribe" and state.acting == (0, 1)
    assert state.chest_status[area("Havana")] == ON_PORT and state.chest_status[area("Trujillo")] == ON_PORT
    assert state.chest_status[area("Campeche")] == RESERVE
    assert state.reserve == [area("Campeche"), area("Belize")]
    assert events(state, kind="round_end") == [{"type": "round_end", "round": 1,
                                                "chests": [area("Havana"), area("Trujillo")]}]


def test_players_take_their_cards_back_and_ships_stay():
    state = quiet_round(on_ports=["Veracruz"], reserve=["Havana", "Trujillo"])
    assert state.bids == [None, None] and state.tb_revealed == [False, False]
    assert [state.board.areas[a].name for a in state.ship_area] == QUIET
    assert state.observation(0)["revealed"] == [None, None]


def test_after_round_five_every_chest_is_placed():
    # [R] 8
    state = GAME.new_state(2, seed=3)
    rng = random.Random(3)
    while state.round < 6 and not state.is_terminal():
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
    assert state.round == 6 and state.reserve == []
    assert "reserve" not in state.observation(0)["chests"]


@pytest.mark.parametrize("players,target", [(2, 62000), (3, 41000), (4, 31000)])
def test_targets_by_player_count(players, target):
    assert GAME.new_state(players, seed=1).target == target


@pytest.mark.parametrize("players,start", [(2, 62000 - 8000), (3, 41000 - 8000), (4, 31000 - 8000)])
def test_game_ends_after_the_round_in_which_the_target_is_reached(players, start):
    # Seat 0 delivers Havana (8000) with Arriba and reaches the target; the other ships still
    # take their turns (Bravo's move is offered), then the game ends.
    scores = [start] + [0] * (players - 1)
    state = arriba_to_seat0(2, players=players, ships=["Trinidad"] + STARTS[:5],
                            cargo={0: "Havana"}, on_ports=["Veracruz"], reserve=["Trujillo", "Campeche"],
                            scores=scores)
    play(state, ["move", area("Dry Tortugas")], ["end"])
    assert state.scores[0] == start + 8000 and not state.is_terminal() and state.ship == 1
    while not state.is_terminal():
        assert state.round == 1 and state.phase != "bribe"
        state.apply({seat: "keep" if state.phase == "tiebreak" else ["end"] for seat in state.acting})
    assert state.round == 1 and state.reserve == [area("Trujillo"), area("Campeche")]
    assert state.outcome().ranks[0] == 1
    assert events(state, kind="game_end")[0]["scores"] == state.scores


def test_no_end_below_the_target():
    state = quiet_round(scores=[61000, 0], on_ports=["Veracruz"])
    assert not state.is_terminal() and state.round == 2


def test_game_ends_after_the_round_cap():
    state = quiet_round(round=30, on_ports=["Veracruz"], reserve=["Havana", "Trujillo"])
    assert state.is_terminal() and state.observation(0)["phase"] == "over"
    shorter = quiet_round(round=2, on_ports=["Veracruz"], options={"max_rounds": 2})
    assert shorter.is_terminal()


def test_game_ends_when_no_chest_is_left_anywhere():
    # [R] engine-only end: nothing left in the reserve, on a port or on a ship.
    state = quiet_round()
    assert state.is_terminal() and state.round == 1


def test_outcome_ranks_share_ties():
    state = quiet_round(players=3, scores=[5000, 5000, 1000])
    assert state.outcome().ranks == (1, 1, 3) and state.outcome().scores == (5000, 5000, 1000)


def test_random_games_reach_an_end_for_every_player_count():
    for players in (2, 3, 4):
        state = GAME.new_state(players, seed=players)
        rng = random.Random(players)
        while not state.is_terminal():
            state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
        assert max(state.scores) >= state.target or state.round == 30 or not state.reserve
