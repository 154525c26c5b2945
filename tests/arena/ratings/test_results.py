import numpy as np
import pytest

from arena.ratings import GameRecord
from arena.ratings._encode import encode, ml_exists, pair_scores


def test_lists_become_tuples():
    rec = GameRecord(["a", "b"], [2, 1])
    assert rec.players == ("a", "b") and rec.ranks == (2, 1) and rec.block is None


@pytest.mark.parametrize(
    ("players", "ranks", "message"),
    [
        (("a",), (1,), '"players" has 1 entries; a game needs at least 2'),
        (("a", "b", "c", "d"), (1, 2, 3), '"ranks" has 3 entries but "players" has 4'),
        (("a", "b", "a"), (1, 2, 3), "player 'a' is seated twice in one game"),
        (("a", ""), (1, 2), "player '' is not a non-empty string"),
        (("a", "b"), (0, 1), "rank 0 is not an integer >= 1 (1 = best)"),
        (("a", "b"), (True, 2), "rank True is not an integer >= 1 (1 = best)"),
        (("a", "b"), (1.0, 2), "rank 1.0 is not an integer >= 1 (1 = best)"),
    ],
)
def test_invalid_records_say_why(players, ranks, message):
    with pytest.raises(ValueError) as info:
        GameRecord(players, ranks)
    assert str(info.value) == message


@pytest.mark.parametrize("k", range(2, 9))
def test_k_player_game_decomposes_into_k_choose_2_pairs(k):
    names = [f"p{i}" for i in range(k)]
    enc = encode([GameRecord(names, list(range(1, k + 1)))])
    assert len(enc.pair_score) == k * (k - 1) // 2
    scores = pair_scores(enc)
    # seat i (rank i+1) beats every later seat: it scores k-1-i points
    assert scores.sum(axis=1).tolist() == [float(k - 1 - i) for i in range(k)]


def test_mixed_sizes_and_ties_decompose_with_half_points():
    records = [
        GameRecord(("a", "b", "c", "d"), (1, 2, 2, 4)),
        GameRecord(("c", "a"), (1, 1)),
        GameRecord(("b", "d", "a"), (3, 1, 2)),
    ]
    enc = encode(records)
    assert enc.names == ("a", "b", "c", "d")
    assert len(enc.pair_score) == 6 + 1 + 3
    s = pair_scores(enc)
    # a: 3 (game 1) + 0.5 (game 2) + 1 vs b (game 3) = 4.5 points from 6 pairs
    assert s[0].sum() == 4.5
    assert s[1, 2] == 0.5 and s[2, 1] == 0.5  # b-c tie in game 1
    assert s[3, 0] == 1.0 and s[0, 3] == 1.0  # d lost to a in game 1, beat a in game 3
    met = s + s.T
    assert met[0, 2] == 2 and met[1, 3] == 2 and met[0, 1] == 2


def test_ml_exists_is_strong_connectivity():
    beat = lambda a, b: GameRecord((a, b), (1, 2))  # noqa: E731
    cycle = [beat("a", "b"), beat("b", "c"), beat("c", "a")]
    assert ml_exists(pair_scores(encode(cycle)))
    assert not ml_exists(pair_scores(encode([beat("a", "b"), beat("b", "c")])))
    draw = GameRecord(("a", "b"), (1, 1))
    assert ml_exists(pair_scores(encode([draw])))
    two_groups = [beat("a", "b"), beat("b", "a"), beat("c", "d"), beat("d", "c")]
    assert not ml_exists(pair_scores(encode(two_groups)))


def test_encode_rejects_empty_and_foreign_items():
    with pytest.raises(ValueError, match="at least one GameRecord"):
        encode([])
    with pytest.raises(ValueError, match=r"item 0 is a tuple, not a GameRecord"):
        encode([(("a", "b"), (1, 2))])


def test_blocks_group_games_and_loners_are_their_own_block():
    enc = encode(
        [
            GameRecord(("a", "b"), (1, 2), "d1"),
            GameRecord(("b", "a"), (1, 2), "d1"),
            GameRecord(("a", "b"), (1, 2)),
            GameRecord(("a", "b"), (1, 2), "d2"),
        ]
    )
    assert enc.has_blocks and enc.n_blocks == 3
    assert enc.game_block[0] == enc.game_block[1]
    assert len(np.unique(enc.game_block)) == 3
