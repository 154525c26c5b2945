"""Scoring: treasure values, 3s, 7s, Kings, Queens, Aces, Jokers; the seed's figures."""

from fractions import Fraction

from engines.opito_bay import Table, deal_points

from ._helpers import act, scores, setup


def table_scores(aces, cards):
    """Scores of a table built from ``(card, rank, on, owner)`` rows."""
    table = Table()
    for card, rank, on, owner in cards:
        if on is None:
            table.place(card, rank, owner)
        else:
            table.lay(card, rank, on)
    return table.scores(aces)


def test_treasures_are_worth_rank_times_100_doubled_in_the_ace_suit():
    # seed figure 2: a West (hearts) player with 8 of diamonds, 8 of hearts, 10, 2
    rows = [("8D", "8", None, 0), ("8H", "8", None, 0), ("TC", "T", None, 0), ("2S", "2", None, 0),
            ("6H", "6", None, 1)]
    assert table_scores(["H", "D"], rows) == [800 + 1600 + 1000 + 200, 600]


def test_a_three_doubles_and_the_ace_doubles_again():
    # seed figure 3: 8D with 3C is worth 3200 to the diamonds player, 1600 to the hearts player
    assert table_scores(["D", "H"], [("8D", "8", None, 0), ("3C", "3", 0, None)]) == [3200, 0]
    assert table_scores(["D", "H"], [("8D", "8", None, 1), ("3C", "3", 0, None)]) == [0, 1600]


def test_eight_of_clubs_with_two_sevens_is_worth_200():
    rows = [("8C", "8", None, 0), ("7H", "7", 0, None), ("7C", "7", 0, None)]
    assert table_scores(["D", "H"], rows) == [200, 0]


def test_nine_swap_from_the_seed_makes_the_new_treasure_worth_3200():
    # You (Ace of diamonds) own 8C + 7H + 7C (200); the hearts player owns 8D + 3C (1600).
    state = setup(["D", "H"], [["9H", "2C"], ["4S"]], library=["5S", "6S"],
                  table=[("8D", "8", None, 1), ("3C", "3", 0, None),
                         ("8C", "8", None, 0), ("7H", "7", 2, None), ("7C", "7", 2, None)])
    assert scores(state) == [200, 1600]
    act(state, "9H")
    assert state.decision(0) == "swap" and state.legal_actions(0) == [2]
    act(state, 2)
    assert state.decision(0) == "swap_with" and state.legal_actions(0) == [0]
    act(state, 0)
    assert scores(state) == [3200, 200]
    assert state.graveyard == ["9H"]
    assert [state.table.owner_of(node) for node in range(5)] == [0, 0, 1, 1, 1]


def test_king_on_a_seven_restores_half_the_value():
    # The seed's King example: 8D (owner's Ace not diamonds) with 7H and 7C is 200; K on 7C: 400.
    state = setup(["S", "H"], [["KS", "2C"], ["4S"]], library=["5S", "6S"],
                  table=[("8D", "8", None, 0), ("7H", "7", 0, None), ("7C", "7", 0, None)])
    assert scores(state) == [200, 0]
    act(state, "KS")
    assert state.legal_actions(0) == [0, 1, 2]
    act(state, 2)
    assert scores(state) == [400, 0]
    assert state.table.nodes[3] == ("KS", "K", 2, 0)


def test_ten_of_hearts_with_a_king_is_zero_and_a_king_on_that_king_restores_it():
    state = setup(["D", "S"], [["KD", "2C"], ["KH", "4S"]], library=["5S", "6S", "6C"],
                  table=[("TH", "T", None, 0)])
    assert scores(state) == [1000, 0]
    act(state, "KD", 0)
    assert scores(state) == [0, 0]
    act(state, "KH", 1)
    assert scores(state) == [1000, 0]
    assert state.table.live() == [True, False, True]


def test_joker_played_as_three_on_an_ace_suit_eight_is_worth_3200():
    state = setup(["D", "H"], [["X", "2C"], ["4S"]], library=["5S", "6S"], table=[("8D", "8", None, 0)])
    act(state, "X3", 0)
    assert scores(state) == [3200, 0]
    assert state.table.nodes[1] == ("X", "3", 0, 0)


def test_joker_as_three_on_the_hearts_players_eight_with_a_three_is_worth_3200():
    # seed figure 5 a) on figure 3's treasure: (800 x 2) x 2
    rows = [("8D", "8", None, 1), ("3C", "3", 0, None), ("X", "3", 0, None)]
    assert table_scores(["D", "H"], rows) == [0, 3200]


def test_joker_played_as_king_cancels_what_it_covers():
    # seed figure 5 b): the Joker as King on the 3C leaves 800
    state = setup(["D", "H"], [["4S"], ["X", "2C"]], library=["5S", "6S"], turn=1,
                  table=[("8D", "8", None, 1), ("3C", "3", 0, None)])
    assert scores(state) == [0, 1600]
    act(state, "XK", 1)
    assert scores(state) == [0, 800]
    assert state.table.nodes[2] == ("X", "K", 1, 0)


def test_stacked_kings_alternate():
    rows = [("6C", "6", None, 0), ("KD", "K", 0, None), ("KH", "K", 1, None), ("KS", "K", 2, None)]
    assert table_scores(["H", "D"], rows) == [0, 0]
    assert table_scores(["H", "D"], rows[:3]) == [600, 0]
    assert table_scores(["H", "D"], rows + [("KC", "K", 3, None)]) == [600, 0]


def test_king_on_a_three_or_seven_cancels_it_and_king_on_a_queen_removes_the_penalty():
    rows = [("4C", "4", None, 0), ("3D", "3", 0, None), ("7S", "7", 0, None), ("KH", "K", 1, None)]
    assert table_scores(["H", "D"], rows) == [200, 0]
    rows = [("4C", "4", None, 0), ("3D", "3", 0, None), ("7S", "7", 0, None), ("KH", "K", 2, None)]
    assert table_scores(["H", "D"], rows) == [800, 0]
    queen = [("QH", "Q", None, 0)]
    assert table_scores(["H", "D"], queen) == [-4000, 0]
    assert table_scores(["H", "D"], queen + [("KC", "K", 0, None)]) == [0, 0]


def test_queen_costs_2000_or_4000_in_the_owners_ace_suit():
    rows = [("QH", "Q", None, 0), ("QD", "Q", None, 0), ("QS", "Q", None, 1)]
    assert table_scores(["H", "D"], rows) == [-6000, -2000]


def test_joker_treasure_has_no_suit_and_is_never_doubled_by_an_ace():
    assert table_scores(["H", "D"], [("X", "T", None, 0), ("X", "8", None, 1)]) == [1000, 800]


def test_arithmetic_is_exact_and_only_the_deal_total_is_rounded_down():
    # [R]6: 200 / 16 = 12.5 twice makes exactly 25; a lone 12.5 minus a Queen floors to -1988
    sevens = [("7D", "7", 0, None), ("7S", "7", 0, None), ("7C", "7", 0, None), ("7H", "7", 0, None)]
    rows = [("2C", "2", None, 0)] + sevens
    exact = table_scores(["D", "S"], rows)
    assert exact == [Fraction(25, 2), 0]
    assert deal_points(exact) == [12, 0]
    two = rows + [("2H", "2", None, 0), ("7D", "7", 5, None), ("7S", "7", 5, None), ("7C", "7", 5, None),
                  ("7H", "7", 5, None)]
    assert deal_points(table_scores(["D", "S"], two)) == [25, 0]
    assert deal_points(table_scores(["D", "S"], rows + [("QC", "Q", None, 0)])) == [-1988, 0]


def test_a_cancelled_treasure_keeps_its_threes_and_sevens_dead_with_it():
    rows = [("8D", "8", None, 0), ("3C", "3", 0, None), ("KH", "K", 0, None)]
    assert table_scores(["D", "H"], rows) == [0, 0]


def reference_scores(table, aces):
    """The scoring rule written the slow, obvious way with fractions: the oracle for the engine's
    integer arithmetic."""
    nodes = table.nodes
    live = [True] * len(nodes)
    for node_id in reversed(range(len(nodes))):
        _card, rank, on, _root = nodes[node_id]
        if rank == "K" and live[node_id]:
            live[on] = False
    scores = [Fraction(0)] * len(aces)
    for node_id, (card, rank, on, _root) in enumerate(nodes):
        if on is not None or not live[node_id]:
            continue
        seat = table.owner[node_id]
        suited = len(card) == 2 and card[1] == aces[seat]
        if rank == "Q":
            scores[seat] -= 4000 if suited else 2000
            continue
        power = Fraction(2) ** suited
        for other_id, (_c, other_rank, other_on, _r) in enumerate(nodes):
            if other_on == node_id and live[other_id] and other_rank in "37":
                power *= 2 if other_rank == "3" else Fraction(1, 2)
        scores[seat] += int(rank.replace("T", "10")) * 100 * power
    return scores


def test_exact_scores_and_rounded_points_agree_with_a_fraction_oracle_along_random_deals():
    import random

    from engines import get_game
    from engines.opito_bay._table import scaled_scores

    rng = random.Random(7)
    checked = halved = 0
    for seed in range(60):
        state = get_game("opito-bay").new_state(2 + seed % 3, seed, {"deals": 1})
        while state.acting:
            expected = reference_scores(state.table, state.aces)
            assert state.table.scores(state.aces) == expected
            assert state.table.points(state.aces) == deal_points(expected)
            checked += 1
            halved += scaled_scores(state.table.nodes, state.table.owner, state.aces)[1] > 0
            state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
    assert checked > 2000 and halved > 50  # many positions need the power-of-two denominator
