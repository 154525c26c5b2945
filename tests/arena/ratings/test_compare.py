"""compare(): W/D/L, places, pentanomial counts, Elo difference with interval, LOS."""

import math

import pytest

from arena.ratings import GameRecord, compare

WIN, DRAW, LOSS = (1, 2), (1, 1), (2, 1)


def test_two_player_games_give_cutechess_numbers():
    records = [GameRecord(("a", "b"), WIN)] * 6 + [GameRecord(("b", "a"), DRAW)] * 2 + \
              [GameRecord(("a", "b"), LOSS)] * 2 + [GameRecord(("a", "c"), WIN)] * 5
    c = compare(records, "a", "b")
    assert (c.games, c.wins, c.draws, c.losses) == (10, 6, 2, 2)
    assert c.score == pytest.approx(0.7) and not c.virtual
    assert c.elo == pytest.approx(400 * math.log10(0.7 / 0.3))  # 147.2
    se = math.sqrt(1.6 / 9) / math.sqrt(10)  # per-game variance with n - 1, over sqrt(n)
    # cutechess's formula with Student's t for 10 games (9 degrees of freedom: 2.262, not
    # 1.960; the two agree to 0.3 % from 300 games on), and LOS its distribution function
    assert c.error == pytest.approx(2.262157162798205 * se * 400 / math.log(10) / 0.21, rel=1e-6)  # 249.5
    assert c.los == pytest.approx(0.9160746719714625, rel=1e-9)  # T_9(0.2 / se)
    assert c.headline() == "Elo difference: 147.2 +/- 249.5, LOS: 91.6 %"
    assert c.pentanomial is None and c.places == {}
    mirror = compare(records, "b", "a")
    assert mirror.elo == pytest.approx(-c.elo) and mirror.los == pytest.approx(1 - c.los)


@pytest.mark.parametrize("records", [
    [GameRecord(("a", "b"), WIN)],
    [GameRecord(("a", "b"), WIN)] * 10,
    [GameRecord(("a", "b"), DRAW)] * 4,
])
def test_one_sided_results_stay_finite_with_an_open_interval(records):
    c = compare(records, "a", "b")
    assert c.virtual and math.isfinite(c.elo) and 0 < c.error < math.inf
    assert c.elo - c.error < c.elo < c.elo + c.error
    assert "virtual win" in c.lines()[-1]


def test_sweep_of_ten_adds_one_virtual_win_and_loss():
    c = compare([GameRecord(("a", "b"), WIN)] * 10, "a", "b")
    assert c.score == 1.0
    assert c.elo == pytest.approx(400 * math.log10(11))  # 11 of 12 with the virtual pair


def test_duplicate_pairs_give_pentanomial_counts_and_narrower_errors():
    def pair(block, first, second):
        return [GameRecord(("a", "b"), first, block), GameRecord(("b", "a"), second, block)]

    records = (pair("d1", WIN, LOSS) * 1 + pair("d2", WIN, WIN) * 1 + pair("d3", DRAW, LOSS)
               + pair("d4", WIN, WIN) + pair("d5", LOSS, DRAW) + [GameRecord(("a", "b"), WIN, "d6")])
    c = compare(records, "a", "b")
    # d1: 1 + 1 = WW; d2: 1 + 0 = WL; d3: 1/2 + 1 = WD; d4 = WL; d5: 0 + 1/2 = LD; d6 unfinished
    assert c.pentanomial == (0, 1, 2, 1, 1) and c.unpaired == 1
    assert "pentanomial (5 pairs): LL 0, LD 1, WL+DD 2, WD 1, WW 1; 1 games outside complete pairs" in c.lines()


def test_multiplayer_games_show_places():
    records = [GameRecord(("a", "b", "c"), (1, 2, 3)), GameRecord(("c", "b", "a"), (1, 1, 3)),
               GameRecord(("b", "a", "c"), (1, 1, 1))]
    c = compare(records, "a", "b")
    assert (c.wins, c.draws, c.losses) == (1, 1, 1)
    assert c.places == {"a": (2, 0, 1), "b": (2, 1, 0)}
    assert "places of a: 1: 2, 2: 0, 3: 1" in c.lines()


def test_errors():
    with pytest.raises(ValueError, match="both entrants are 'a'"):
        compare([GameRecord(("a", "b"), WIN)], "a", "a")
    with pytest.raises(ValueError, match="'a' and 'c' never played in the same game"):
        compare([GameRecord(("a", "b"), WIN)], "a", "c")
