"""Seats, deals, turns, every rank's play and the legal-play test ([R]1-5, [R]7)."""

import random

import pytest

from engines import IllegalAction
from engines.opito_bay import DECK, GAME, OpitoState

from ._helpers import act, scores, setup


# -- seats and deals -----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_seats_draw_aces_and_north_or_the_next_point_clockwise_starts(players):
    starters = set()
    for seed in range(40):
        state = GAME.new_state(players, seed)
        assert len(set(state.aces)) == players and set(state.aces) <= set("DSCH")
        order_suits = ["DSCH".index(state.aces[seat]) for seat in state.order]
        assert order_suits == sorted(order_suits) and sorted(state.order) == list(range(players))
        assert state.acting == (state.order[0],)
        first_suit = state.aces[state.order[0]]
        assert first_suit == min(state.aces, key="DSCH".index)
        starters.add(first_suit)
        assert [len(hand) for hand in state.hands] == [5] * players
        assert len(state.library) == 51 - 5 * players
        assert sorted(state.library + sum(state.hands, [])) == sorted(DECK)
    assert "D" in starters and len(starters) > 1 if players < 4 else starters == {"D"}


def test_play_passes_clockwise_by_compass_not_by_seat_number():
    # seat 0 West, seat 1 South, seat 2 North: N (2) -> S (1) -> W (0)
    state = setup(["H", "C", "D"], [["2D", "4D"], ["2S", "4S"], ["2C", "4C"]], library=["6D"] * 0)
    assert state.order == (2, 1, 0) and state.acting == (2,)
    act(state, "2C")
    assert state.acting == (1,)
    act(state, "2S")
    assert state.acting == (0,)


def test_undrawn_aces_are_inert_and_never_targets():
    state = setup(["S", "H"], [["KD", "3D"], ["2C"]], library=["5S"])
    # no card on the table: neither a King nor a 3 has a target, so neither is playable
    assert state.decision(0) == "discard"
    assert all(not card.startswith("A") for card in DECK)


def test_player_draws_after_playing_and_not_from_an_empty_library():
    state = setup(["D", "S"], [["2D", "4D"], ["2S"]], library=["6C"])
    act(state, "2D")
    assert state.hands[0] == ["4D", "6C"] and state.library == []
    act(state, "2S")
    assert state.hands[1] == []


def test_empty_hands_are_skipped_and_the_deal_ends_when_every_hand_is_empty():
    state = setup(["D", "S", "C"], [["2D", "4D"], ["2S"], ["TC"]], options={"deals": 1})
    act(state, "2D", "2S", "TC")
    assert state.acting == (0,) and state.turn == 0
    act(state, "4D")
    assert state.is_terminal()
    assert state.totals == [200 * 2 + 400 * 2, 200 * 2, 1000 * 2]
    assert state.outcome().ranks == (2, 3, 1)


# -- each rank ------------------------------------------------------------------------------------

def test_treasures_go_in_front_of_the_player():
    state = setup(["D", "S"], [["TH", "2C"], ["4S"]], library=["5S", "6S"])
    act(state, "TH")
    assert state.table.nodes == [("TH", "T", None, 0)] and state.table.owner == [0]


@pytest.mark.parametrize("card", ["3C", "7C"])
def test_three_and_seven_go_on_any_treasure_never_on_a_queen_or_other_card(card):
    # [R]2 and [R]1: a cancelled treasure is still a target
    table = [("4D", "4", None, 0), ("QH", "Q", None, 1), ("6S", "6", None, 1), ("KC", "K", 2, None),
             ("3D", "3", 0, None)]
    state = setup(["D", "S"], [[card, "2C"], ["4S"]], library=["5S", "6C"], table=table)
    act(state, card)
    assert state.decision(0) == "target" and state.legal_actions(0) == [0, 2]
    with pytest.raises(IllegalAction):
        state.apply_action(1)
    act(state, 2)
    assert state.table.nodes[5] == (card, card[0], 2, 2)


def test_king_goes_on_any_card_on_the_table():
    table = [("4D", "4", None, 0), ("QH", "Q", None, 1), ("3D", "3", 0, None), ("KC", "K", 2, None)]
    state = setup(["D", "S"], [["KH", "2C"], ["4S"]], library=["5S", "6C"], table=table)
    act(state, "KH")
    assert state.legal_actions(0) == [0, 1, 2, 3]


def test_queen_goes_in_front_of_any_player_including_oneself():
    state = setup(["D", "S"], [["QD", "2C"], ["QS", "4S"]], library=["5S", "6C"])
    act(state, "QD")
    assert state.decision(0) == "player" and state.legal_actions(0) == [0, 1]
    act(state, 1)
    act(state, "QS", 1)
    assert scores(state) == [0, -2000 - 4000]


def test_nine_needs_a_treasure_of_yours_and_one_of_another_player():
    state = setup(["D", "S"], [["9C", "3C"], ["4S"]], library=["5S"], table=[("4D", "4", None, 0)])
    assert state.decision(0) == "play" and state.legal_actions(0) == ["3C"]
    state = setup(["D", "S"], [["9C", "7C"]], library=["5S"], table=[("4S", "4", None, 1)])
    assert state.legal_actions(0) == ["7C"]


def test_queen_is_not_a_treasure_so_nine_cannot_move_it():
    # [R]7
    table = [("4D", "4", None, 0), ("QH", "Q", None, 1), ("6S", "6", None, 1)]
    state = setup(["D", "S"], [["9C", "2C"], ["4S"]], library=["5S", "6C"], table=table)
    act(state, "9C", 0)
    assert state.legal_actions(0) == [2]


def test_nine_moves_a_cancelled_treasure_and_a_joker_treasure_with_everything_on_it():
    # [R]1, [R]3
    table = [("X", "6", None, 0), ("3D", "3", 0, None), ("7H", "7", 0, None), ("KC", "K", 2, None),
             ("TS", "T", None, 1), ("KH", "K", 4, None)]
    state = setup(["D", "S"], [["9C", "2C"], ["4S"]], library=["5S", "6C"], table=table)
    assert scores(state) == [1200, 0]
    act(state, "9C", 0, 4)
    assert scores(state) == [0, 1200]
    assert [state.table.owner_of(node) for node in range(6)] == [1, 1, 1, 1, 0, 0]


def test_joker_may_be_any_rank_but_ace_and_queen_when_that_rank_is_playable():
    state = setup(["D", "S"], [["X", "X", "2C"], ["4S"]], library=["5S", "6C"])
    assert state.legal_actions(0) == ["X2", "X4", "X5", "X6", "X8", "XT", "XJ", "2C"]
    state = setup(["D", "S"], [["X", "2C"], ["4S"]], library=["5S", "6C"],
                  table=[("4D", "4", None, 0), ("4S", "4", None, 1)])
    assert state.legal_actions(0) == ["X2", "X3", "X4", "X5", "X6", "X7", "X8", "X9", "XT", "XJ", "XK", "2C"]


@pytest.mark.parametrize("rank", ["5", "9", "J"])
def test_joker_played_as_five_nine_or_jack_goes_to_the_graveyard(rank):
    table = [("4D", "4", None, 0), ("4S", "4", None, 1)]
    state = setup(["D", "S"], [["X", "2C"], ["4C"]], library=["5S", "6C", "6H", "8H", "8C", "TD"], table=table)
    act(state, "X" + rank)
    while state.turn == 0:
        act(state, state.legal_actions(0)[0])
    assert state.graveyard == ["X"] and len(state.table.nodes) == 2


def test_forced_discard_only_when_no_card_has_a_legal_play():
    state = setup(["D", "S"], [["3C", "7D", "KH", "9S"], ["4S"]], library=["5S", "6C"])
    assert state.decision(0) == "discard" and state.legal_actions(0) == ["3C", "7D", "KH", "9S"]
    act(state, "KH")
    assert state.graveyard == ["KH"] and state.hands[0] == ["3C", "7D", "9S", "5S"]
    state = setup(["D", "S"], [["3C", "QD"], ["4S"]], library=["5S", "6C"])
    assert state.decision(0) == "play" and state.legal_actions(0) == ["QD"]
    with pytest.raises(IllegalAction):
        state.apply_action("3C")


def test_five_and_jack_are_always_playable_even_without_effect():
    # [R]4: a 5 with an empty library, a Jack with fewer than 5 library cards
    state = setup(["D", "S"], [["5C", "JD"], ["4S"]], library=["6C", "6H", "8H", "8C"])
    act(state, "JD")
    assert state.turn == 1 and state.hands[0] == ["5C", "6C"] and state.graveyard == ["JD"]
    state = setup(["D", "S"], [["5C", "JD"], ["4S"]])
    act(state, "5C")
    assert state.turn == 1 and state.graveyard == ["5C"]
    assert state.log[-1].data == {"type": "play", "seat": 0, "card": "5C", "as": "5", "look": 0, "drew": False}


# -- the Jack (Kraken) --------------------------------------------------------------------------------

def test_jack_with_five_library_cards_replaces_the_targets_hand():
    library = ["6C", "6H", "8H", "8C", "TD"]
    state = setup(["D", "S"], [["JD", "2C"], ["4S", "QS"]], library=library)
    act(state, "JD")
    assert state.decision(0) == "player" and state.legal_actions(0) == [0, 1]
    act(state, 1)
    assert state.hands[1] == library
    assert state.library[::-1] == ["QS"] and state.hands[0] == ["2C", "4S"]


def test_jack_on_oneself_returns_the_rest_of_the_hand_draws_five_then_the_normal_draw():
    # [R]5
    library = ["6C", "6H", "8H", "8C", "TD", "2H", "4H"]
    state = setup(["D", "S"], [["JD", "2C", "4C"], ["4S"]], library=library)
    act(state, "JD", 0)
    assert state.hands[0] == library[:6]
    assert state.library[::-1] == ["4H", "2C", "4C"]


# -- the 5 (Spyglass) ---------------------------------------------------------------------------------

def test_five_looks_at_the_top_five_and_puts_them_back_in_the_chosen_order():
    library = ["6C", "6H", "8H", "8C", "TD", "2H"]
    state = setup(["D", "S"], [["5C", "2C"], ["4S"]], library=library)
    act(state, "5C")
    assert state.decision(0) == "spyglass"
    legal = state.legal_actions(0)
    assert len(legal) == 120 and legal[0] == library[:5]
    assert state.observation(0)["looking"] == library[:5]
    assert state.observation(1)["looking"] == [] and state.observation(1)["window"] == 5
    seen = state.log[-1]
    assert seen.audience == frozenset({0}) and seen.data["cards"] == library[:5]
    act(state, ["TD", "8C", "8H", "6H", "6C"])
    # the player drew the new top card, and knows the next four
    assert state.hands[0] == ["2C", "TD"]
    assert state.library[::-1] == ["8C", "8H", "6H", "6C", "2H"]
    assert state.observation(0)["library_top"] == ["8C", "8H", "6H", "6C"]
    assert state.observation(1)["library_top"] == []


def test_five_with_fewer_cards_looks_at_all_and_identical_jokers_are_one_order():
    state = setup(["D", "S"], [["5C", "2C"], ["4S"]], library=["X", "X", "6C"])
    act(state, "5C")
    assert state.legal_actions(0) == [["X", "X", "6C"], ["X", "6C", "X"], ["6C", "X", "X"]]
    with pytest.raises(IllegalAction):
        state.apply_action(["X", "6C", "6C"])
    state = setup(["D", "S"], [["5C", "2C"], ["4S"]], library=["X", "X"])
    act(state, "5C")
    assert state.turn == 1 and state.observation(0)["library_top"] == ["X"]


def test_knowledge_follows_draws_into_other_hands_until_the_card_is_played():
    library = ["6C", "6H", "8H", "8C", "TD", "2H"]
    state = setup(["D", "S"], [["5C", "2C"], ["4S", "QS"]], library=library)
    act(state, "5C", library[:5])
    assert state.observation(0)["library_top"] == ["6H", "8H", "8C", "TD"]
    act(state, "4S")  # seat 1 draws 6H, which seat 0 saw
    assert state.observation(0)["seen_in_hands"] == [[], ["6H"]]
    assert state.observation(0)["library_top"] == ["8H", "8C", "TD"]
    act(state, "2C")
    act(state, "6H")  # seat 1 plays the 6H it drew, and draws the 8C
    assert state.observation(0)["seen_in_hands"] == [[], ["8C"]]
    assert state.observation(0)["library_top"] == ["TD"]


def test_another_players_five_hides_the_order_one_knew():
    library = ["6C", "6H", "8H", "8C", "TD", "2H", "2D", "2S"]
    state = setup(["D", "S"], [["5C", "2C"], ["5S", "QS"]], library=library)
    act(state, "5C", library[:5])
    act(state, "5S", ["8H", "6H", "8C", "TD", "2H"])
    assert state.observation(0)["library_top"] == []
    assert state.observation(1)["library_top"] == ["6H", "8C", "TD", "2H"]


# -- legality and rejection ---------------------------------------------------------------------------

def test_wrong_types_are_rejected_with_the_legal_actions_named():
    state = setup(["D", "S"], [["3C", "2C"], ["4S"]], library=["5S"], table=[("4D", "4", None, 0)])
    act(state, "3C")
    for bad in [True, 0.0, "0", [0]]:
        with pytest.raises(IllegalAction, match=r"legal: \[0\]"):
            state.check(0, bad)
    with pytest.raises(IllegalAction, match="not your decision"):
        state.check(1, 0)


# -- the game -------------------------------------------------------------------------------------

def finish_deal(state, rng):
    deal = state.deal
    while not state.is_terminal() and state.deal == deal:
        state.apply_action(state.random_action(state.turn, rng))


def test_game_ends_after_the_deal_in_which_a_total_first_exceeds_the_target():
    state = setup(["D", "S"], [["2D"], ["4S"]], totals=[49_800, 0])
    act(state, "2D", "4S")
    assert state.totals == [50_200, 800] and state.is_terminal()
    state = setup(["D", "S"], [["2D"], ["2C"]], totals=[49_600, 0])
    act(state, "2D", "2C")
    assert state.totals == [50_000, 200] and not state.is_terminal() and state.deal == 2


def test_a_new_deal_reshuffles_everything_but_the_aces_and_keeps_totals():
    state = setup(["D", "S"], [["2D"], ["4S"]], options={"deals": 2})
    act(state, "2D", "4S")
    assert state.deal == 2 and state.totals == [400, 800] and state.deal_history == [[400, 800]]
    assert not state.table.nodes and not state.graveyard and state.acting == (0,)
    assert sorted(state.library + sum(state.hands, [])) == sorted(DECK)


@pytest.mark.parametrize("deals", [1, 3])
def test_deals_option_plays_exactly_that_many_deals(deals):
    state = GAME.new_state(3, 4, {"deals": deals, "target": 1})
    rng = random.Random(0)
    for _ in range(deals):
        assert not state.is_terminal()
        finish_deal(state, rng)
    assert state.is_terminal() and state.deal == deals and len(state.deal_history) == deals


def test_a_game_stops_after_40_deals_whatever_the_totals():
    state = setup(["D", "S"], [["QD"], ["QS"]], deal=40)
    act(state, "QD", 0, "QS", 1)
    assert state.totals == [-4000, -4000] and state.is_terminal() and state.outcome().ranks == (1, 1)
    state = setup(["D", "S"], [["QD"], ["QS"]], deal=39)
    act(state, "QD", 0, "QS", 1)
    assert not state.is_terminal()


def test_options_are_validated():
    with pytest.raises(Exception, match="deals"):
        GAME.new_state(2, 1, {"deals": 41})
    with pytest.raises(Exception, match="target"):
        GAME.new_state(2, 1, {"target": 0})
    with pytest.raises(Exception):
        GAME.new_state(5, 1)


def test_same_seed_and_actions_give_the_same_game():
    first, second = GAME.new_state(4, 9, {"deals": 1}), GAME.new_state(4, 9, {"deals": 1})
    rng_a, rng_b = random.Random(2), random.Random(2)
    while not first.is_terminal():
        first.apply_action(first.random_action(first.turn, rng_a))
        second.apply_action(second.random_action(second.turn, rng_b))
    assert first.totals == second.totals and first.history == second.history


def test_clone_is_independent():
    state = GAME.new_state(3, 1)
    copy = state.clone()
    rng = random.Random(1)
    for _ in range(30):
        copy.apply_action(copy.random_action(copy.turn, rng))
    assert state.history == [] and len(state.library) == 36 and state.hands != copy.hands
    assert isinstance(state, OpitoState)


def test_clones_share_no_randomness_across_deals():
    def play(state):
        rng = random.Random(5)
        while not state.is_terminal():
            state.apply_action(state.random_action(state.turn, rng))
        return state.history, state.totals

    original = GAME.new_state(2, 3, {"deals": 3})
    copy = original.clone()
    assert play(copy) == play(original) == play(GAME.new_state(2, 3, {"deals": 3}))
