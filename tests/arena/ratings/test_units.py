"""Duplicate blocks as the unit of every interval, and chance-corrected comparisons."""

import math

import pytest

from arena.ratings import GameRecord, compare
from arena.ratings._intervals import Z95

SLOPE = 400.0 / math.log(10.0)


def _pair(block, first, second):
    """Two games of one deal, seats swapped: A's score 1, 1/2 or 0 in each."""
    rank = {1.0: (1, 2), 0.5: (1, 1), 0.0: (2, 1)}
    return [GameRecord(("A", "B"), rank[first], block), GameRecord(("B", "A"), rank[second][::-1], block)]


def test_block_interval_is_the_cluster_formula_and_differs_from_the_per_game_one():
    records = _pair("b1", 1, 1) + _pair("b2", 1, 0) + _pair("b3", 0.5, 0.5) + _pair("b4", 1, 0.5)
    by_block = compare(records, "A", "B")
    by_game = compare(records, "A", "B", unit="game")
    mean = 5.5 / 8
    # blocks: totals 2, 1, 1, 1.5 of 2 games; spread sum (t - 2 mean)^2 = 0.6875, 4 units
    se_block = math.sqrt(0.6875 * 4 / 3) / 8
    # games: the eight scores' spread about the mean: 0.96875, 8 units
    se_game = math.sqrt(0.96875 * 8 / 7) / 8
    slope = SLOPE / (mean * (1 - mean))
    assert by_block.error == pytest.approx(Z95 * se_block * slope, rel=1e-12)
    assert by_game.error == pytest.approx(Z95 * se_game * slope, rel=1e-12)
    assert by_block.error < by_game.error
    assert (by_block.observations, by_game.observations) == (4, 8)
    spread = 0.96875 / 7
    assert by_block.worth == pytest.approx(spread / se_block**2) and by_game.worth == pytest.approx(8.0)
    lines = by_block.lines()
    assert lines[1].endswith("(raw; duplicate blocks (all rotations of one deal) as the unit)")
    assert lines[3] == f"independent observations: 4 blocks, worth {spread / se_block**2:.0f} independent games"
    assert by_block.as_dict()["observations"] == 4 and by_block.as_dict()["unit"] == "block"


def test_a_k_player_table_block_is_one_observation():
    """Four-player tables, four rotations each: A and B share all four games of a block."""
    records = []
    for d, wins in enumerate([4, 3, 1, 2, 3]):
        for r in range(4):
            seats = ("A", "B", "C", "D")[r:] + ("A", "B", "C", "D")[:r]
            a_ahead = r < wins
            order = ["A", "B", "C", "D"] if a_ahead else ["B", "A", "C", "D"]
            records.append(GameRecord(seats, tuple(order.index(p) + 1 for p in seats), f"d{d}"))
    res = compare(records, "A", "B")
    assert res.games == 20 and res.observations == 5 and res.score == 13 / 20
    totals = [4, 3, 1, 2, 3]
    se = math.sqrt(sum((t - 4 * 13 / 20) ** 2 for t in totals) * 5 / 4) / 20
    assert res.error == pytest.approx(Z95 * se * SLOPE / (0.65 * 0.35), rel=1e-12)


def test_corrected_scores_are_the_headline_and_the_raw_ones_stay_beside_them():
    records = []
    for block, (s1, s2), (l1, l2) in [("b1", (1, 0), (0.4, -0.3)), ("b2", (1, 1), (0.2, 0.1)),
                                      ("b3", (0, 1), (-0.5, 0.45)), ("b4", (0.5, 1), (0.0, 0.2))]:
        for (rec, luck) in zip(_pair(block, s1, s2), (l1, l2)):
            i, j = rec.players.index("A"), rec.players.index("B")
            matrix = [[0.0, 0.0], [0.0, 0.0]]
            matrix[i][j], matrix[j][i] = luck, -luck
            records.append(GameRecord(rec.players, rec.ranks, rec.block, matrix))
    res = compare(records, "A", "B", baseline="v1 sha256:abc")
    raw = compare(records, "A", "B", correct=False)
    corrected = [1 - 0.4, 0 + 0.3, 1 - 0.2, 1 - 0.1, 0 + 0.5, 1 - 0.45, 0.5 - 0.0, 1 - 0.2]
    assert res.corrected and not raw.corrected and raw.raw is None
    assert res.score == pytest.approx(sum(corrected) / 8) and raw.score == 5.5 / 8
    assert res.raw == {key: getattr(raw, key) for key in ("score", "elo", "error", "los")}
    assert res.luck[0] == pytest.approx((0.4 - 0.3 + 0.2 + 0.1 - 0.5 + 0.45 + 0.0 + 0.2) / 8)
    totals = [corrected[0] + corrected[1], corrected[2] + corrected[3], corrected[4] + corrected[5],
              corrected[6] + corrected[7]]
    mean = sum(corrected) / 8
    se = math.sqrt(sum((t - 2 * mean) ** 2 for t in totals) * 4 / 3) / 8
    assert res.error == pytest.approx(Z95 * se * SLOPE / (mean * (1 - mean)), rel=1e-12)
    assert res.error < raw.error  # the luck explained part of the spread
    assert res.lines()[1].endswith("(chance-corrected; duplicate blocks (all rotations of one deal) as the unit)")
    assert res.lines()[4].startswith("raw: Elo difference: ") and res.lines()[4].endswith("(baseline v1 sha256:abc)")
    # one game without luck: no correction at all (never a mix)
    mixed = records[:-1] + [GameRecord(records[-1].players, records[-1].ranks, records[-1].block)]
    assert not compare(mixed, "A", "B").corrected


def test_bad_unit_and_bad_luck_shape_are_refused():
    with pytest.raises(ValueError, match="unit must be 'block' or 'game', got 'deal'"):
        compare(_pair("b", 1, 0), "A", "B", unit="deal")
    with pytest.raises(ValueError, match="luck must be a 2 x 2 matrix"):
        GameRecord(("A", "B"), (1, 2), None, [[0.0]])
