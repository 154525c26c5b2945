import json
import math
from pathlib import Path

import pytest

from arena.ratings import ELO_PER_NAT, GameRecord, fit_bradley_terry, read_pgn

DATA = Path(__file__).parent / "data"


def games(a, b, wins, losses, draws=0):
    return (
        [GameRecord((a, b), (1, 2))] * wins
        + [GameRecord((b, a), (1, 2))] * losses
        + [GameRecord((a, b), (1, 1))] * draws
    )


def test_three_wins_one_loss_is_400_log10_3_apart():
    fit = fit_bradley_terry(games("a", "b", 3, 1))
    assert fit.prior_draws == 0.0
    assert fit.rating("a") - fit.rating("b") == pytest.approx(400 * math.log10(3), abs=1e-9)
    assert fit.rating("a") + fit.rating("b") == pytest.approx(0.0, abs=1e-9)


def test_draws_count_half():
    # 2 wins, 2 draws, 1 loss: 3 points of 5 -> odds 3:2
    fit = fit_bradley_terry(games("a", "b", 2, 1, draws=2))
    assert fit.rating("a") - fit.rating("b") == pytest.approx(400 * math.log10(1.5), abs=1e-9)


def test_symmetric_results_give_equal_ratings():
    records = games("a", "b", 2, 2) + games("b", "c", 1, 1, 3) + games("c", "a", 4, 4)
    fit = fit_bradley_terry(records)
    assert fit.elo == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)


def test_seat_order_does_not_matter():
    one = fit_bradley_terry([GameRecord(("a", "b", "c"), (2, 1, 3)), GameRecord(("c", "a", "b"), (1, 2, 3))])
    two = fit_bradley_terry([GameRecord(("b", "c", "a"), (1, 3, 2)), GameRecord(("a", "b", "c"), (2, 3, 1))])
    assert one.elo == pytest.approx(two.elo, abs=1e-9)


def test_anchor_pins_one_entrant_and_keeps_differences():
    records = games("a", "b", 3, 1) + games("b", "c", 2, 2)
    free = fit_bradley_terry(records)
    pinned = fit_bradley_terry(records, anchor=("b", 1500.0))
    assert pinned.rating("b") == 1500.0
    for name in "ac":
        assert pinned.rating(name) - 1500.0 == pytest.approx(free.rating(name) - free.rating("b"), abs=1e-9)
    assert sum(free.elo) == pytest.approx(0.0, abs=1e-9)


def test_unknown_anchor_names_the_entrants():
    with pytest.raises(ValueError) as info:
        fit_bradley_terry(games("a", "b", 1, 1), anchor=("zed", 0.0))
    assert str(info.value) == "anchor 'zed' played no game here; entrants are 'a', 'b'"


def test_perfect_scores_get_finite_ordered_ratings_from_the_prior():
    records = games("a", "b", 5, 0) + games("b", "c", 5, 0)
    fit = fit_bradley_terry(records)
    assert fit.prior_draws == 1.0
    a, b, c = fit.elo
    assert all(math.isfinite(x) for x in fit.elo)
    assert a > b > c
    with pytest.raises(ValueError, match="maximum-likelihood ratings are infinite"):
        fit_bradley_terry(records, prior_draws=0)


def test_prior_solution_satisfies_its_likelihood_equations():
    # a beat b once; with one virtual draw each against a rating-0 opponent the
    # solution is x_a = -x_b = x with 1 - s(2x) + 1/2 - s(x) = 0, s = logistic.
    fit = fit_bradley_terry(games("a", "b", 1, 0))
    x = fit.rating("a") / ELO_PER_NAT
    s = lambda t: 1 / (1 + math.exp(-t))  # noqa: E731
    assert fit.rating("b") == pytest.approx(-fit.rating("a"), abs=1e-9)
    assert 1 - s(2 * x) + 0.5 - s(x) == pytest.approx(0.0, abs=1e-12)


def test_disconnected_groups_are_finite_and_placed_alike():
    fit = fit_bradley_terry(games("a", "b", 2, 1) + games("c", "d", 2, 1))
    assert fit.prior_draws == 1.0
    assert fit.rating("a") == pytest.approx(fit.rating("c"), abs=1e-9)
    assert fit.rating("b") == pytest.approx(fit.rating("d"), abs=1e-9)
    assert fit.rating("a") > fit.rating("b")


def test_explicit_prior_is_used_even_when_ml_exists():
    fit = fit_bradley_terry(games("a", "b", 3, 1), prior_draws=2.0)
    assert fit.prior_draws == 2.0
    assert 0 < fit.rating("a") - fit.rating("b") < 400 * math.log10(3)
    with pytest.raises(ValueError, match="prior_draws must be >= 0"):
        fit_bradley_terry(games("a", "b", 3, 1), prior_draws=-1)


def test_agrees_with_ordo_reference_within_a_tenth():
    reference = json.loads((DATA / "ordo_fixture_reference.json").read_text())
    records = read_pgn(DATA / "ordo_fixture.pgn")
    assert len(records) == reference["games"] == 2000
    fit = fit_bradley_terry(records)
    assert fit.prior_draws == 0.0
    for name, elo in reference["elo"].items():
        assert fit.rating(name) == pytest.approx(elo, abs=0.1)


def test_as_dict_is_json_ready():
    fit = fit_bradley_terry(games("a", "b", 3, 1))
    data = json.loads(json.dumps(fit.as_dict()))
    assert data["model"] == "bradley-terry"
    assert data["elo"]["a"] == pytest.approx(200 * math.log10(3))
    with pytest.raises(KeyError):
        fit.rating("nobody")


def test_agrees_with_ordo_prototype_run_within_a_tenth():
    # ordo_prototype_output.csv is the ordo.csv written by Ordo's first
    # program (michiguel/Ordo, ordo.c), compiled and run on the fixture
    # without its one "*" game (that program scores "*" as a draw). Its scale
    # is hard-wired: P = 1 / (1 + exp(-d / 173)), pool average 2300. See
    # docs/ratings.md.
    fit = fit_bradley_terry(read_pgn(DATA / "ordo_fixture.pgn"))
    rows = (DATA / "ordo_prototype_output.csv").read_text().splitlines()
    assert len(rows) == 8
    for row in rows:
        name, rating = row.split(",")[:2]
        ours = 2300 + fit.rating(name.strip().strip('"').strip()) * 173 / ELO_PER_NAT
        assert ours == pytest.approx(float(rating), abs=0.1)
