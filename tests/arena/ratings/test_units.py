"""Duplicate blocks as the unit of every interval, and chance-corrected comparisons."""

import math

import numpy as np
import pytest

from arena.ratings import GameRecord, compare

#: Student's t quantiles of a two-sided 95 % interval by degrees of freedom (units - 1, or
#: units - 2 after a fitted share of luck), from tables (scipy.stats.t.ppf(0.975, df)).
T95 = {2: 4.302652729749464, 3: 3.1824463052837078, 4: 2.7764451051977934, 7: 2.364624251592784,
       10: 2.2281388519649385, 11: 2.200985160082949}

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
    assert by_block.error == pytest.approx(T95[3] * se_block * slope, rel=1e-9)
    assert by_game.error == pytest.approx(T95[7] * se_game * slope, rel=1e-9)
    # the blocks' standard error is the smaller; with 4 blocks against 8 games their t quantile
    # is the larger (3 degrees of freedom against 7)
    assert by_block.error / T95[3] < by_game.error / T95[7]
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
    assert res.error == pytest.approx(T95[4] * se * SLOPE / (0.65 * 0.35), rel=1e-9)


def _lucky(blocks):
    """Duplicate pairs with A's luck against B in each game: ``(block, (s1, s2), (l1, l2))``, the
    luck doubled."""
    records = []
    for block, scores, lucks in blocks:
        for rec, luck in zip(_pair(block, *scores), lucks):
            i, j = rec.players.index("A"), rec.players.index("B")
            matrix = [[0.0, 0.0], [0.0, 0.0]]
            matrix[i][j], matrix[j][i] = 2 * luck, -2 * luck
            records.append(GameRecord(rec.players, rec.ranks, rec.block, matrix))
    return records


BLOCKS = [("b1", (1, 0), (0.4, -0.3)), ("b2", (1, 1), (0.2, 0.1)), ("b3", (0, 1), (-0.5, 0.45)),
          ("b4", (0.5, 1), (0.0, 0.2)), ("b5", (1, 0), (0.3, -0.2)), ("b6", (0, 0), (-0.3, -0.2)),
          ("b7", (1, 0.5), (0.3, 0.05)), ("b8", (0, 1), (-0.1, 0.4)), ("b9", (1, 1), (0.1, 0.2)),
          ("b10", (0.5, 0), (0.0, -0.4)), ("b11", (1, 0), (0.05, -0.1)), ("b12", (0, 1), (0.1, 0.3))]


def test_corrected_scores_are_the_headline_and_the_raw_ones_stay_beside_them():
    """The corrected figures are a regression's intercept: block totals of A's score on block
    totals of its luck (numpy's least squares here, the module's own sums there). Its variance
    takes the slope's error at the luck mean expected over draws, not at the one met: the
    residual sum of squares over n - 3, over n blocks (t with n - 2 degrees of freedom)."""
    records = _lucky(BLOCKS)
    res = compare(records, "A", "B", baseline="v1 sha256:abc")
    raw = compare(records, "A", "B", correct=False)
    assert res.corrected and not raw.corrected and raw.raw is None
    assert res.raw == {key: getattr(raw, key) for key in ("score", "elo", "error", "los")}
    y = np.array([s1 + s2 for _, (s1, s2), _ in BLOCKS])
    x = np.array([2 * (l1 + l2) for _, _, (l1, l2) in BLOCKS])
    design = np.column_stack([np.ones(12), x])
    coef, rss, _, _ = np.linalg.lstsq(design, y, rcond=None)
    mean, se = coef[0] / 2, math.sqrt(rss[0] / (12 - 3) / 12) / 2  # per game: a block is two games
    assert 0 < coef[1] < 1 and res.coefficient == pytest.approx(coef[1], rel=1e-9)
    assert res.score == pytest.approx(mean, rel=1e-9) and raw.score == y.sum() / 24
    assert res.error == pytest.approx(T95[10] * se * SLOPE / (mean * (1 - mean)), rel=1e-9)
    assert res.error < raw.error  # the luck explained part of the spread
    assert res.luck[0] == pytest.approx(x.sum() / 24)
    assert res.lines()[1].endswith("(chance-corrected; duplicate blocks (all rotations of one deal) as the unit)")
    assert res.lines()[4].startswith("raw: Elo difference: ")
    assert res.lines()[4].endswith(f"(baseline v1 sha256:abc), {coef[1]:.2f} of it taken out (fitted on these blocks)")
    # one game without luck: no correction at all (never a mix)
    mixed = records[:-1] + [GameRecord(records[-1].players, records[-1].ranks, records[-1].block)]
    assert not compare(mixed, "A", "B").corrected


def test_luck_that_does_not_narrow_the_interval_is_left_in():
    """Luck unrelated to the results (here: against them) would widen the interval whatever
    share of it were taken out: the corrected figures are the raw ones, coefficient 0."""
    against = [(block, scores, (-l1, -l2)) for block, scores, (l1, l2) in BLOCKS]
    res = compare(_lucky(against), "A", "B")
    assert res.corrected and res.coefficient == 0.0
    assert (res.score, res.elo, res.error, res.los) == tuple(res.raw[k] for k in ("score", "elo", "error", "los"))
    # three blocks: too few to fit a share (its variance divides by n - 3)
    few = compare(_lucky(BLOCKS[:3]), "A", "B")
    assert few.coefficient == 0.0 and few.error == few.raw["error"]


def test_bad_unit_and_bad_luck_shape_are_refused():
    with pytest.raises(ValueError, match="unit must be 'block' or 'game', got 'deal'"):
        compare(_pair("b", 1, 0), "A", "B", unit="deal")
    with pytest.raises(ValueError, match="luck must be a 2 x 2 matrix"):
        GameRecord(("A", "B"), (1, 2), None, [[0.0]])
