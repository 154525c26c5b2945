import pytest

from arena.ratings import GameRecord, bootstrap_bradley_terry, fit_bradley_terry


def field():
    out = []
    for a, b, w, l, d in [("a", "b", 6, 3, 3), ("b", "c", 5, 4, 2), ("a", "c", 7, 2, 1), ("c", "d", 6, 5, 0), ("b", "d", 8, 2, 1)]:
        out += [GameRecord((a, b), (1, 2))] * w + [GameRecord((b, a), (1, 2))] * l + [GameRecord((a, b), (1, 1))] * d
    return out


def test_point_estimate_is_the_plain_fit():
    boot = bootstrap_bradley_terry(field(), n_boot=20)
    assert boot.elo == pytest.approx(fit_bradley_terry(field()).elo, abs=1e-9)


def test_same_seed_same_result_other_seed_other_result():
    one = bootstrap_bradley_terry(field(), n_boot=50, seed=7)
    two = bootstrap_bradley_terry(field(), n_boot=50, seed=7)
    three = bootstrap_bradley_terry(field(), n_boot=50, seed=8)
    assert one == two
    assert one.errors != three.errors
    assert all(e.minus > 0 and e.plus > 0 for e in one.errors)


def test_los_is_complementary_and_follows_strength():
    boot = bootstrap_bradley_terry(field(), n_boot=100, seed=1)
    n = len(boot.entrants)
    for i in range(n):
        assert boot.los[i][i] == 0.5
        for j in range(n):
            assert boot.los[i][j] + boot.los[j][i] == pytest.approx(1.0)
    a, d = boot.entrants.index("a"), boot.entrants.index("d")
    assert boot.los[a][d] > 0.95


def test_anchor_has_no_error_bar():
    boot = bootstrap_bradley_terry(field(), n_boot=30, anchor=("b", 1000.0))
    assert boot.error("b") == (boot.error("b").__class__(0.0, 0.0))
    assert boot.elo[boot.entrants.index("b")] == 1000.0


def duplicate_pairs(split, sweep, blocked):
    """Deals played twice with seats swapped; the deal decides most games.

    ``split`` deals are won once by each bot (the seat-1 deal luck cancels
    within the pair), ``sweep`` deals are won twice by "a".
    """
    out = []
    for i in range(split + sweep):
        block = f"deal{i}" if blocked else None
        second = ("a", "b") if i >= split else ("b", "a")
        out.append(GameRecord(("a", "b"), (1, 2), block))
        out.append(GameRecord(second, (1, 2), block))
    return out


@pytest.mark.parametrize("n_boot", [None, 200])
def test_block_bootstrap_removes_deal_luck(n_boot):
    unblocked = bootstrap_bradley_terry(duplicate_pairs(30, 10, False), n_boot=n_boot, seed=3)
    blocked = bootstrap_bradley_terry(duplicate_pairs(30, 10, True), n_boot=n_boot, seed=3)
    assert blocked.elo == unblocked.elo  # same games, same point estimate
    assert blocked.blocked and not unblocked.blocked
    wide, narrow = unblocked.error("a"), blocked.error("a")
    assert narrow.minus + narrow.plus < 0.8 * (wide.minus + wide.plus)


@pytest.mark.parametrize("n_boot", [None, 50])
def test_blocks_that_always_split_give_a_narrow_but_open_interval(n_boot):
    """Every block's score vector is zero at the fit: the resampling sees no spread, and only
    the one-block share of the model's uncertainty is left (1/sqrt(21) of the unblocked width)."""
    boot = bootstrap_bradley_terry(duplicate_pairs(20, 0, True), n_boot=n_boot, seed=0)
    assert boot.elo == pytest.approx((0.0, 0.0), abs=1e-9)
    loose = bootstrap_bradley_terry(duplicate_pairs(20, 0, False), n_boot=n_boot, seed=0)
    assert 40 < loose.error("a").plus < 70  # 40 coin flips
    assert boot.error("a").plus == pytest.approx(loose.error("a").plus / 20**0.5, rel=0.3)


@pytest.mark.parametrize("n_boot", [0, -1, 2.5, True, 10**12])
def test_bad_n_boot(n_boot):
    with pytest.raises(ValueError, match="n_boot must be None or an int from 1 to 100000"):
        bootstrap_bradley_terry(field(), n_boot=n_boot)


def test_perfect_score_replicates_stay_finite():
    records = [GameRecord(("a", "b"), (1, 2))] * 4 + [GameRecord(("b", "c"), (1, 2))] * 4
    boot = bootstrap_bradley_terry(records, n_boot=40)
    assert all(abs(e.minus) < 1e4 and abs(e.plus) < 1e4 for e in boot.errors)
    assert boot.as_dict()["entrants"]["a"]["elo"] == boot.elo[0]
