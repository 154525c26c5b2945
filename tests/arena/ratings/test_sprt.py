import math

import pytest

from arena.ratings import GameRecord, SprtDecision, sprt, sprt_from_counts

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
    records = [GameRecord(("new", "old"), (1, 2), "d1")] * 3
    with pytest.raises(ValueError) as info:
        sprt(records, "new", "old", elo0=0, elo1=5)
    assert str(info.value) == (
        "block 'd1' holds 3 games of 'new' against 'old'; the pentanomial SPRT needs "
        "exactly 2 per block (drop unfinished pairs, or remove the block ids for a trinomial SPRT)"
    )
    mixed = [GameRecord(("new", "old"), (1, 2), "d1"), GameRecord(("new", "old"), (1, 2))]
    with pytest.raises(ValueError, match="has no block id while others do"):
        sprt(mixed, "new", "old", elo0=0, elo1=5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"counts": (1, 2), "elo0": 0, "elo1": 5}, "counts needs 3 (L, D, W) or 5 (pentanomial) numbers, got 2"),
        ({"counts": (1, -2, 3), "elo0": 0, "elo1": 5}, "counts must be >= 0, got (1, -2, 3)"),
        ({"counts": (1, 2, 3), "elo0": 5, "elo1": 5}, "elo0 must be below elo1, got elo0=5, elo1=5"),
        ({"counts": (1, 2, 3), "elo0": 0, "elo1": 5, "alpha": 0}, "alpha must be in (0, 1), got 0"),
    ],
)
def test_bad_parameters(kwargs, message):
    counts = kwargs.pop("counts")
    with pytest.raises(ValueError) as info:
        sprt_from_counts(counts, **kwargs)
    assert str(info.value) == message
