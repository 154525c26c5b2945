import math
import random

import pytest

from arena.ratings import GameRecord, SprtDecision, sprt, sprt_from_counts
from arena.ratings._sprt import MAX_LOGISTIC_ELO, MAX_NORMALIZED_ELO

# LLR values from fishtest's LLRcalc.LLR_logistic (server/fishtest/stats/LLRcalc.py,
# scipy brentq), computed once with that code; counts worst outcome first.
FISHTEST = [
    ((-3, 1), (10789, 19328, 33806, 19402, 10543), 2.1310678117940807, SprtDecision.CONTINUE),
    ((0, 5), (5026, 15699, 5019), -7.088346352567046, SprtDecision.ACCEPT_H0),
    ((0, 6), (591, 2163, 716), 4.361801249289509, SprtDecision.ACCEPT_H1),
    ((0.2, 0.9), (39, 2226, 31451, 2412, 40), 2.1625425800490437, SprtDecision.CONTINUE),
    ((0, 10), (10, 30, 60), 2.0055439913016593, SprtDecision.CONTINUE),
    ((0, 10), (0, 1, 2, 3, 0), 0.15698931373760366, SprtDecision.CONTINUE),
]


@pytest.mark.parametrize(("elos", "counts", "llr", "decision"), FISHTEST)
def test_llr_matches_fishtest(elos, counts, llr, decision):
    res = sprt_from_counts(counts, elo0=elos[0], elo1=elos[1])
    assert res.llr == pytest.approx(llr, rel=1e-9, abs=1e-9)
    assert res.decision is decision
    assert res.model == ("trinomial" if len(counts) == 3 else "pentanomial")


def test_wald_bounds():
    res = sprt_from_counts((1, 1, 1), elo0=0, elo1=5, alpha=0.05, beta=0.1)
    assert res.lower == pytest.approx(math.log(0.1 / 0.95))
    assert res.upper == pytest.approx(math.log(0.9 / 0.05))


def test_no_games_is_zero_and_continue():
    res = sprt_from_counts((0, 0, 0), elo0=0, elo1=5)
    assert res.llr == 0.0 and res.decision is SprtDecision.CONTINUE


def test_records_give_trinomial_counts_from_the_candidates_view():
    records = (
        [GameRecord(("new", "old"), (1, 2))] * 60
        + [GameRecord(("old", "new"), (1, 1))] * 30
        + [GameRecord(("old", "new", "x"), (1, 2, 3))] * 10  # a loss; "x" is ignored
        + [GameRecord(("x", "old"), (1, 2))] * 5  # not a game of the two
    )
    res = sprt(records, "new", "old", elo0=0, elo1=10)
    assert res.counts == (10, 30, 60)
    assert res.llr == pytest.approx(2.0055439913016593, rel=1e-9)


def test_blocks_give_pentanomial_counts():
    def pair(block, first, second):
        return [GameRecord(("new", "old"), first, block), GameRecord(("old", "new"), second, block)]

    records = (
        pair("d1", (1, 2), (2, 1))  # win + win = 2
        + pair("d2", (1, 2), (1, 2))  # win + loss = 1
        + pair("d3", (1, 1), (2, 1))  # draw + win = 3/2
        + pair("d4", (2, 1), (1, 1))  # loss + draw = 1/2
        + pair("d5", (1, 1), (1, 1))  # draw + draw = 1
    )
    res = sprt(records, "new", "old", elo0=0, elo1=10)
    assert res.model == "pentanomial"
    assert res.counts == (0, 1, 2, 1, 1)
    assert res.as_dict()["decision"] == "continue"


def test_incomplete_pair_is_an_error_that_says_what_to_do():
    pairs = [GameRecord(("new", "old"), (1, 2), "d0"), GameRecord(("old", "new"), (2, 1), "d0")]
    records = pairs + [GameRecord(("new", "old"), (1, 2), "d1")]
    with pytest.raises(ValueError) as info:
        sprt(records, "new", "old", elo0=0, elo1=5)
    assert str(info.value) == (
        "block 'd1' holds 1 game of 'new' against 'old'; the block SPRT needs 2 per block, as the fullest "
        "block holds (finish the tournament first, or remove the block ids for a trinomial SPRT)"
    )
    skipped = sprt(records, "new", "old", elo0=0, elo1=5, unfinished="skip")
    assert skipped.counts == (0, 0, 0, 0, 1)
    mixed = [GameRecord(("new", "old"), (1, 2), "d1"), GameRecord(("new", "old"), (1, 2))]
    with pytest.raises(ValueError, match="has no block id while others do"):
        sprt(mixed, "new", "old", elo0=0, elo1=5)


def test_a_three_player_block_of_rotations_is_one_observation_of_seven_levels():
    def block(name, places):  # three rotations of one deal; places of (new, old, x) per rotation
        seats = [("new", "old", "x"), ("old", "x", "new"), ("x", "new", "old")]
        return [GameRecord(s, tuple(places[r][("new", "old", "x").index(p)] for p in s), name)
                for r, s in enumerate(seats)]
    records = (block("b0", [(1, 2, 3), (1, 3, 2), (2, 1, 3)])  # new vs old: W W L = 2 of 3
               + block("b1", [(1, 1, 3), (2, 3, 1), (3, 2, 1)])  # D W L = 1.5
               + block("b2", [(1, 2, 3), (1, 2, 3), (1, 2, 3)]))  # 3
    res = sprt(records, "new", "old", elo0=0, elo1=50)
    assert res.model == "blocks of 3" and res.counts == (0, 0, 0, 1, 1, 0, 1) and res.observations == 3
    assert "3 independent observations (duplicate blocks of 3)" in res.verdict()
    assert "block scores 3/6: 1, 4/6: 1, 6/6: 1" in res.verdict()
    # The same games without blocks are nine independent games: a longer LLR from the same data.
    plain = sprt([GameRecord(r.players, r.ranks) for r in records], "new", "old", elo0=0, elo1=50)
    assert plain.counts == (2, 1, 6) and plain.observations == 9


def test_block_counts_equal_the_pentanomial_for_pairs():
    a = sprt_from_counts((3, 5, 9, 7, 2), elo0=-10, elo1=10, elo_model="normalized")
    b = sprt_from_counts((3, 5, 9, 7, 2), elo0=-10, elo1=10, elo_model="normalized", games=2)
    assert a == b and a.model == "pentanomial"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"counts": (1, 2), "elo0": 0, "elo1": 5}, "counts needs 3 (L, D, W), 5 (pentanomial) or more numbers, got 2"),
        ({"counts": (1, -2, 3), "elo0": 0, "elo1": 5}, "counts must be >= 0, got (1, -2, 3)"),
        ({"counts": (1, 2, 3), "elo0": 5, "elo1": 5}, "elo0 must be below elo1, got elo0=5, elo1=5"),
        ({"counts": (1, 2, 3), "elo0": 0, "elo1": 5, "alpha": 0}, "alpha must be in (0, 1), got 0"),
        ({"counts": (1, 2, 3), "elo0": 0, "elo1": 5, "beta": 2}, "beta must be in (0, 1), got 2"),
        ({"counts": (1, 2, 3), "elo0": 0, "elo1": 5, "alpha": 0.5, "beta": 0.5},
         "alpha + beta must be below 1, got 0.5 + 0.5"),
        ({"counts": (1, 2, 3), "elo0": 0, "elo1": float("inf")}, "elo0 and elo1 must be finite, got elo0=0, elo1=inf"),
        ({"counts": (1, 2, 3), "elo0": 0, "elo1": 5, "elo_model": "bayes"},
         "elo_model must be one of logistic, normalized, got 'bayes'"),
        ({"counts": (1, 2, 3), "elo0": 0, "elo1": 10000},
         "elo1 must lie within -2000 .. 2000 logistic Elo (an expected score of 0.00001 .. 0.99999), got 10000"),
        ({"counts": (1, 2, 3), "elo0": -2000.5, "elo1": 0},
         "elo0 must lie within -2000 .. 2000 logistic Elo (an expected score of 0.00001 .. 0.99999), got -2000.5"),
        ({"counts": (1, 2, 3), "elo0": 0, "elo1": 1000, "elo_model": "normalized"},
         "elo1 must lie within -347 .. 347 normalized Elo (a t-value of at most 1 per game; the logistic model "
         "takes larger differences), got 1000"),
    ],
)
def test_bad_parameters(kwargs, message):
    counts = kwargs.pop("counts")
    with pytest.raises(ValueError) as info:
        sprt_from_counts(counts, **kwargs)
    assert str(info.value) == message


# LLR values from fishtest's LLRcalc.LLR_normalized (server/fishtest/stats/LLRcalc.py: MLE_t_value
# with scipy brentq), computed once with that code; normalized Elo, counts worst outcome first.
FISHTEST_NORMALIZED = [
    ((0, 2), (10789, 19328, 33806, 19402, 10543), -6.070429067588585, SprtDecision.ACCEPT_H0),
    ((0, 5), (5026, 15699, 5019), -2.8270700736560648, SprtDecision.CONTINUE),
    ((0, 5), (591, 2163, 716), 2.572287463158173, SprtDecision.CONTINUE),
    ((0.5, 2.5), (39, 2226, 31451, 2412, 40), 2.3379000175366507, SprtDecision.CONTINUE),
    ((0, 10), (10, 30, 60), 1.6800774420668383, SprtDecision.CONTINUE),
    ((0, 10), (0, 1, 2, 3, 0), 0.09380245270302438, SprtDecision.CONTINUE),
    ((-1.75, 0.25), (1200, 9000, 19000, 9100, 1250), 2.921443445682618, SprtDecision.CONTINUE),
]


@pytest.mark.parametrize(("elos", "counts", "llr", "decision"), FISHTEST_NORMALIZED)
def test_normalized_llr_matches_fishtest(elos, counts, llr, decision):
    res = sprt_from_counts(counts, elo0=elos[0], elo1=elos[1], elo_model="normalized")
    assert res.llr == pytest.approx(llr, rel=1e-9, abs=1e-9)
    assert res.decision is decision
    assert res.elo_model == "normalized"


def _extreme_counts(levels: int) -> list[list[int]]:
    """Outcome counts that push the maximum likelihood to its edges: everything worst, everything
    best, one middle outcome, one of each, a few outcomes, and two seeded mixtures."""
    rng = random.Random(levels)
    vectors = [[5] + [0] * (levels - 1), [0] * (levels - 1) + [5], [0] * (levels // 2) + [7] + [0] * (levels // 2),
               [1] * levels, [3, 0, 1] + [0] * (levels - 4) + [100]]
    vectors += [[rng.choice([0, 0, 1, 3, 100]) for _ in range(levels)] for _ in range(2)]
    return vectors


@pytest.mark.parametrize(("model", "widest"), [("logistic", MAX_LOGISTIC_ELO), ("normalized", MAX_NORMALIZED_ELO)])
@pytest.mark.parametrize(("levels", "games"), [(3, 1), (5, 2), (7, 3), (17, 8), (113, 8)])
def test_every_elo_the_checks_allow_gives_a_finite_llr(model, widest, levels, games):
    """At the edges of the range check_parameters allows, for every table size (113 levels: an
    8-player table's block against the field), the LLR is a number: logistic Elo beyond about
    6,400 made the expected score round to 1 (ZeroDivisionError), and a normalized t-value
    near 1 per observation left fishtest's iteration without a root (math domain error)."""
    vectors = _extreme_counts(levels)
    if levels > 100 and model == "normalized":  # up to a second per LLR here: two vectors, not seven
        vectors = vectors[3:5]
    for counts in vectors:
        for elo0, elo1 in [(-widest, widest), (widest - 1, widest), (-widest, 1 - widest)]:
            res = sprt_from_counts(counts, elo0=elo0, elo1=elo1, elo_model=model, games=games)
            assert math.isfinite(res.llr), (counts, elo0, elo1)


def test_a_large_normalized_t_value_meets_its_constraint():
    """Where fishtest's single solve has no root, the stepped one still finds a distribution
    whose t-value is the one asked for, and the likelihood ratio follows the data."""
    from arena.ratings._sprt_llr import frequencies as _frequencies, mle_with_t_value as _mle_with_t_value

    _, values, probs = _frequencies((1, 4, 10, 30, 200))
    for t in (-2.0, 1.4, 2.83):
        p = _mle_with_t_value(values, probs, t)
        mu = sum(q * a for q, a in zip(p, values))
        sd = math.sqrt(sum(q * (a - mu) ** 2 for q, a in zip(p, values)))
        assert min(p) > 0 and sum(p) == pytest.approx(1.0) and (mu - 0.5) / sd == pytest.approx(t, abs=1e-7)
    strong = sprt_from_counts((1, 4, 10, 30, 200), elo0=0, elo1=340, elo_model="normalized")
    assert strong.decision is SprtDecision.ACCEPT_H1


def test_same_numbers_are_a_different_test_in_the_two_models():
    counts = (591, 2163, 716)
    logistic = sprt_from_counts(counts, elo0=0, elo1=5)
    normalized = sprt_from_counts(counts, elo0=0, elo1=5, elo_model="normalized")
    assert logistic.decision is SprtDecision.ACCEPT_H1 and normalized.decision is SprtDecision.CONTINUE


def test_verdict_is_one_line_for_a_person():
    res = sprt_from_counts((591, 2163, 716), elo0=0, elo1=5)
    assert res.verdict() == (
        "H1 accepted: the Elo difference is at least 5 (logistic Elo [0, 5], alpha 0.05, beta 0.05); "
        f"LLR {res.llr:.2f} in (-2.94, 2.94); 3470 independent observations (games); L 591, D 2163, W 716")
    h0 = sprt_from_counts((5026, 15699, 5019), elo0=0, elo1=5)
    assert h0.verdict().startswith("H0 accepted: the Elo difference is at most 0 (")
    assert sprt_from_counts((1, 1, 1), elo0=0, elo1=5).verdict().startswith("no decision yet: play more games (")
