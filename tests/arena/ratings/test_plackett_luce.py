import math
from collections import defaultdict
from pathlib import Path

import pytest

from arena.ratings import ELO_PER_NAT, GameRecord, fit_bradley_terry, fit_plackett_luce

DATA = Path(__file__).parent / "data"

# Hunter (2004), Table 2: log-worths relative to driver 1 (see /work/shared/data/README.md)
HUNTER_2004 = {"58": 4.15, "68": 3.62, "51": 2.08, "15": 0.03, "17": -0.31, "40": -0.15}


def nascar_races():
    races = defaultdict(list)
    lines = (DATA / "nascar2002.txt").read_text().splitlines()
    assert lines[0].split() == ["DriverID", "Race", "Place"]
    for line in lines[1:]:
        driver, race, place = line.split()
        races[int(race)].append((driver, int(place)))
    return [GameRecord([d for d, _ in races[r]], [p for _, p in races[r]]) for r in sorted(races)]


def test_reproduces_hunter_2004_nascar_log_worths():
    races = nascar_races()
    assert len(races) == 36
    fit = fit_plackett_luce(races)
    assert fit.prior_draws == 0.0  # maximum likelihood exists for these 83 drivers
    assert len(fit.entrants) == 83
    base = fit.rating("1") / ELO_PER_NAT
    for driver, log_worth in HUNTER_2004.items():
        assert round(fit.rating(driver) / ELO_PER_NAT - base, 2) == log_worth


def test_two_player_games_give_bradley_terry_ratings_ties_included():
    records = (
        [GameRecord(("a", "b"), (1, 2))] * 3
        + [GameRecord(("b", "a"), (1, 2))]
        + [GameRecord(("a", "c"), (1, 1))] * 2
        + [GameRecord(("c", "b"), (1, 2))]
    )
    assert fit_plackett_luce(records).elo == pytest.approx(fit_bradley_terry(records).elo, abs=1e-9)


def test_three_wins_one_loss_is_400_log10_3_apart():
    records = [GameRecord(("a", "b"), (1, 2))] * 3 + [GameRecord(("b", "a"), (1, 2))]
    fit = fit_plackett_luce(records)
    assert fit.rating("a") - fit.rating("b") == pytest.approx(400 * math.log10(3), abs=1e-9)


def test_rotated_orders_give_equal_ratings():
    records = [
        GameRecord(("a", "b", "c"), (1, 2, 3)),
        GameRecord(("a", "b", "c"), (3, 1, 2)),
        GameRecord(("a", "b", "c"), (2, 3, 1)),
    ]
    assert fit_plackett_luce(records).elo == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)


def reference_log_likelihood(records, worth):
    """The documented likelihood, written independently: each tie group is one
    choice from the unplaced entrants, credited to its mean log-worth."""
    total = 0.0
    for rec in records:
        unplaced = set(rec.players)
        for rank in sorted(set(rec.ranks)):
            group = [p for p, r in zip(rec.players, rec.ranks) if r == rank]
            total += sum(worth[p] for p in group) / len(group)
            total -= math.log(sum(math.exp(worth[p]) for p in unplaced))
            unplaced -= set(group)
    return total


def test_fit_maximises_the_documented_tie_likelihood():
    records = [
        GameRecord(("a", "b", "c", "d"), (1, 2, 2, 4)),
        GameRecord(("a", "b", "c", "d"), (4, 1, 3, 1)),
        GameRecord(("a", "b", "c", "d"), (2, 2, 2, 1)),
        GameRecord(("a", "c", "d"), (3, 1, 1)),
        GameRecord(("b", "d"), (1, 1)),
        GameRecord(("d", "c", "a", "b"), (1, 2, 3, 4)),
    ]
    fit = fit_plackett_luce(records)
    assert fit.prior_draws == 0.0
    worth = {n: e / ELO_PER_NAT for n, e in zip(fit.entrants, fit.elo)}
    h = 1e-5
    for name in worth:
        up = dict(worth, **{name: worth[name] + h})
        down = dict(worth, **{name: worth[name] - h})
        slope = (reference_log_likelihood(records, up) - reference_log_likelihood(records, down)) / (2 * h)
        assert slope == pytest.approx(0.0, abs=1e-7)
    best = reference_log_likelihood(records, worth)
    for name in worth:
        moved = dict(worth, **{name: worth[name] + 0.05})
        assert reference_log_likelihood(records, moved) < best


def test_always_last_entrant_is_finite_with_the_prior():
    records = [GameRecord(("a", "b", "z"), (1, 2, 3)), GameRecord(("b", "a", "z"), (1, 2, 3))]
    fit = fit_plackett_luce(records)
    assert fit.prior_draws == 1.0
    assert fit.rating("a") == pytest.approx(fit.rating("b"), abs=1e-9)
    assert fit.rating("z") < fit.rating("a")
    assert all(math.isfinite(x) for x in fit.elo)
    assert fit.as_dict()["model"] == "plackett-luce"


def test_anchor():
    records = [GameRecord(("a", "b", "c"), (1, 2, 3)), GameRecord(("c", "a", "b"), (1, 2, 3)), GameRecord(("b", "c", "a"), (1, 3, 2))]
    fit = fit_plackett_luce(records, anchor=("c", 2000))
    assert fit.rating("c") == 2000
