"""The Dead Man's Draw search: legal, within its time budget, sees the end of the game, beats random."""

import random

import pytest

from bots.dead_mans_draw import _search as search_module
from bots.dead_mans_draw import heuristic, search
from bots._budget import budget
from bots.dead_mans_draw._search import search_action
from engines.dead_mans_draw import DeadMansDrawState
from engines.dead_mans_draw._cards import CARD_NAME, all_cards

from .._clock import StepClock
from ._play import play_game, position, random_policy, request_for, win_share


def quick(request, rng):
    return search_action(request, rng, iterations=4)


@pytest.mark.parametrize("players,options", [(2, {}), (4, {"strange_waters": True, "mermaid_effect": True}),
                                             (5, {"characters": False})])
def test_always_legal(players, options):
    state = play_game([quick] * (players - 1) + [random_policy], seed=players, options=options)
    assert state.is_terminal()


def test_stays_inside_the_time_budget(monkeypatch):
    state = position(row=["S3", "C4"])
    request = request_for(state, 0, move_ms=50, time_left_ms=1000)
    assert budget(request) == pytest.approx(0.02)
    clock = StepClock().install(monkeypatch, search_module)
    assert search(request, random.Random(0)) in ("draw", "collect")
    assert 0.02 <= clock.now <= 0.02 + 2 * clock.step  # stopped at the first read past the deadline


def test_budget_respects_a_short_reserve():
    state = position(row=["S3"])
    assert budget(request_for(state, 0, move_ms=1000, time_left_ms=100)) == pytest.approx(0.025)


def test_collects_when_the_oracle_shows_a_busting_card():
    state = position(draw=["O3", "K4"], row=["K5", "A3"])
    state.apply_action("draw")
    assert state.decision(0) == "oracle"
    assert search_action(request_for(state, 0), random.Random(0), iterations=200) == "collect"


def test_gambles_when_collecting_cannot_win():
    # Two cards left, T5 and K2 in an unknown order; the rest of the deck is in the discard.
    # Collecting N9 K5 makes 39 against 40, and the opponent then banks another card: a sure
    # loss. Drawing wins when T5 comes first (K2 busts). The heuristic weighs 14 points at
    # risk against a 50% bust and collects; the search sees the end of the game and draws.
    banks = [["A7", "C6", "H6", "S6"], ["O7", "S7", "X7", "C7", "H7", "A5"]]
    row, draw = ["N9", "K5"], ["T5", "K2"]
    used = row + draw + banks[0] + banks[1]
    discard = [CARD_NAME[card] for card in sorted(all_cards(False, False)) if CARD_NAME[card] not in used]
    state = DeadMansDrawState.from_setup(draw=draw, discard=discard, banks=banks, row=row)
    assert state.scores() == [25, 40]
    request = request_for(state, 0)
    assert heuristic(request, random.Random(0)) == "collect"
    assert search_action(request, random.Random(0), iterations=40) == "draw"


def test_beats_random_play():
    share = win_share(quick, random_policy, 20)
    assert share >= 0.8, share
