"""Error bars and LOS in small and odd cases, the groups of a disconnected field, and the
coverage of the 95 % interval in simulation (slow)."""

import math

import numpy as np
import pytest

from arena.ratings import ELO_PER_NAT, GameRecord, bootstrap_bradley_terry, compute_standings
from arena.ratings._bradley_terry import solve_bradley_terry
from arena.ratings._encode import encode, ml_exists, pair_scores
from arena.ratings._fit import resolve_prior
from arena.ratings._intervals import (
    elo_covariance, half_widths, information, model_covariance, score_spread, seat_gradients,
)

WIN = (1, 2)


def test_one_game_has_an_open_interval_around_the_estimate():
    boot = bootstrap_bradley_terry([GameRecord(("a", "b"), WIN)])
    assert boot.elo == pytest.approx((131.384, -131.384), abs=1e-3)  # the prior's one draw each
    for err in boot.errors:
        assert err.minus == err.plus == pytest.approx(356.742, abs=1e-3)
    assert boot.los[0][1] == pytest.approx(0.7648, abs=1e-4)


@pytest.mark.parametrize("n_boot", [None, 1, 2, 200])
def test_a_sweep_is_never_zero_or_negative_width(n_boot):
    boot = bootstrap_bradley_terry([GameRecord(("a", "b"), WIN)] * 10, n_boot=n_boot, seed=4)
    for elo, err in zip(boot.elo, boot.errors):
        assert err.minus == err.plus > 30  # about +-100 Elo
        assert elo - err.minus < elo < elo + err.plus
    assert boot.los[0][1] > 0.999


def test_anchor_fixes_one_rating_and_keeps_the_los():
    records = [GameRecord(("a", "b"), WIN)] * 6 + [GameRecord(("b", "c"), WIN)] * 5 + \
              [GameRecord(("c", "a"), WIN)] * 2 + [GameRecord(("b", "a"), WIN)] * 2
    free = bootstrap_bradley_terry(records)
    pinned = bootstrap_bradley_terry(records, anchor=("b", 1000.0))
    assert (pinned.error("b").minus, pinned.error("b").plus) == (0.0, 0.0)
    assert pinned.error("a").plus > free.error("a").plus  # a's rating relative to b: two uncertainties
    assert np.allclose(np.array(free.los), np.array(pinned.los))


def test_bootstrap_and_analytic_intervals_agree_on_plenty_of_games():
    rng = np.random.default_rng(3)
    truth = {"a": 150.0, "b": 50.0, "c": -50.0, "d": -150.0}
    names = list(truth)
    records = []
    for _ in range(600):
        i, j = rng.choice(4, 2, replace=False)
        p = 1.0 / (1.0 + 10 ** (-(truth[names[i]] - truth[names[j]]) / 400))
        records.append(GameRecord((names[i], names[j]), WIN if rng.random() < p else (2, 1)))
    analytic = bootstrap_bradley_terry(records)
    resampled = bootstrap_bradley_terry(records, n_boot=400, seed=1)
    for a, b in zip(analytic.errors, resampled.errors):
        assert a.plus == pytest.approx(b.plus, rel=0.12)


def brute_force_spread(enc, strength):
    """sum_b g_b g_b^T with a dense gradient vector per block."""
    g = np.zeros((enc.n_blocks, enc.n))
    for group, seat in seat_gradients(enc, strength):
        np.add.at(g, (enc.game_block[group.game][:, None], group.players), seat)
    return g.T @ g


@pytest.mark.parametrize("blocked", [False, True])
def test_score_spread_matches_dense_block_vectors(blocked):
    rng = np.random.default_rng(8)
    names = "abcdefg"
    records = []
    for g in range(120):
        k = int(rng.integers(2, 6))
        seats = rng.choice(7, k, replace=False)
        ranks = tuple(int(r) for r in rng.integers(1, k + 1, k))
        records.append(GameRecord(tuple(names[s] for s in seats), ranks, f"d{g // 3}" if blocked and g % 5 else None))
    enc = encode(records)
    strength = rng.normal(0.0, 0.5, enc.n)
    assert np.allclose(score_spread(enc, strength), brute_force_spread(enc, strength))


def test_groups_that_never_met_have_no_los_between_them():
    records = [GameRecord(("a", "b"), WIN), GameRecord(("b", "a"), WIN), GameRecord(("a", "b"), WIN),
               GameRecord(("c", "d"), WIN), GameRecord(("d", "e"), (1, 1))]
    st = compute_standings(records)
    assert st.groups == (("a", "b"), ("c", "d", "e"))
    names = [row.name for row in st.rows]
    for i, x in enumerate(names):
        for j, y in enumerate(names):
            same = ({x, y} <= {"a", "b"}) or ({x, y} <= {"c", "d", "e"})
            assert (st.los[i][j] is None) is (not same)
    assert st.as_dict()["los"]["a"]["c"] is None
    one = compute_standings(records[:3])
    assert one.groups == (("a", "b"),)


# --- a newcomer among many blocks ----------------------------------------------------------

def established_field(n=20, blocks=2000, seed=5):
    """Duplicate pairs (two games, seats swapped) among ``n`` entrants ``e00 ..`` of spread-out
    strength: every one of them plays about 200 blocks."""
    rng = np.random.default_rng(seed)
    worth = np.linspace(-1.5, 1.5, n)
    records = []
    for d in range(blocks):
        i, j = rng.choice(n, 2, replace=False)
        for a, b in ((i, j), (j, i)):
            first = rng.random() < 1.0 / (1.0 + math.exp(-(worth[a] - worth[b])))
            records.append(GameRecord((f"e{a:02d}", f"e{b:02d}"), WIN if first else (2, 1), f"d{d}"))
    return records


NEWCOMER = {
    "one duplicate pair, 1-1": [GameRecord(("new", "e10"), WIN, "n"), GameRecord(("e10", "new"), WIN, "n")],
    "one duplicate pair, 2-0": [GameRecord(("new", "e10"), WIN, "n"), GameRecord(("e10", "new"), (2, 1), "n")],
    "one game": [GameRecord(("new", "e10"), WIN)],
    "one four-player game": [GameRecord(("e03", "new", "e10", "e15"), (2, 1, 4, 3))],
    "a four-player duplicate block": [GameRecord(("e03", "new", "e10", "e15"), (2, 1, 4, 3), "n"),
                                      GameRecord(("new", "e10", "e15", "e03"), (3, 2, 1, 4), "n")],
}


def model_half_width(records, name):
    """The model-based 95 % half-width of ``name`` (mean-0 Elo): from ``H^-1`` alone."""
    enc = encode(records)
    scores = pair_scores(enc)
    prior = resolve_prior(None, ml_exists(scores))
    strength, _ = solve_bradley_terry(scores, prior)
    cov = elo_covariance(model_covariance(information(scores, prior, strength), prior), None)
    return half_widths(cov)[enc.names.index(name)]


@pytest.fixture(scope="module")
def field():
    return established_field()


@pytest.mark.parametrize("n_boot", [None, 20])
@pytest.mark.parametrize("case", list(NEWCOMER))
def test_a_newcomer_with_one_block_is_as_uncertain_as_the_model_says(field, case, n_boot):
    """Issue 15 item 8, found by the ladder: one block among 4000 games used to give the
    newcomer +-35 Elo (its own score vector is about zero after a 1-1 split, and the shrink
    was divided by the tournament's 2001 blocks) where the model says +-460."""
    records = field + NEWCOMER[case]
    boot = bootstrap_bradley_terry(records, n_boot=n_boot, seed=3)
    model = model_half_width(records, "new")
    assert model > 250  # +-296 Elo to +-536 Elo
    assert boot.error("new").plus >= 0.99 * model
    assert all(err.plus < 80 for name, err in zip(boot.entrants, boot.errors) if name != "new")


# --- coverage in simulation -------------------------------------------------------------

TRUE_ELO = np.array([-210.0, -150.0, -90.0, -30.0, 30.0, 90.0, 150.0, 210.0])
NAMES = [f"p{i}" for i in range(8)]  # sorted like the entrants of a fit


def simulate(design, rng):
    """One tournament of the 8 players of TRUE_ELO, games drawn from the model:
    ``(records, truth)``, truth the true mean-0 ratings of the entrants as sorted.

    The newcomer designs add a 9th entrant ``q`` (true Elo uniform in -210 .. 210) who
    plays a few duplicate pairs (two games against one opponent, seats swapped) after
    500 two-player games of the others."""
    worth = TRUE_ELO / ELO_PER_NAT
    truth = duplicate_truth() if design == "250 duplicate pairs" else TRUE_ELO
    records = []
    if design == "round robin, 56 games":
        pairs = [(i, j) for i in range(8) for j in range(8) if i != j and i < j] * 2
    elif design == "500 two-player games" or design.startswith("newcomer"):
        pairs = [tuple(rng.choice(8, 2, replace=False)) for _ in range(500)]
    if design == "300 four-player games":
        for _ in range(300):
            seats = rng.choice(8, 4, replace=False)
            order = np.argsort(np.argsort(-(worth[seats] + rng.gumbel(size=4)))) + 1  # Plackett-Luce
            records.append(GameRecord(tuple(NAMES[s] for s in seats), tuple(int(r) for r in order)))
        return records, truth
    if design == "250 duplicate pairs":
        for d in range(250):  # the deal favours seat 0 by a random amount, in both games of the pair
            i, j = rng.choice(8, 2, replace=False)
            luck = rng.normal(0.0, 1.0)
            for a, b in ((i, j), (j, i)):
                first = rng.random() < 1.0 / (1.0 + math.exp(-(worth[a] - worth[b] + luck)))
                records.append(GameRecord((NAMES[a], NAMES[b]), WIN if first else (2, 1), f"d{d}"))
        return records, truth
    names = NAMES
    if design.startswith("newcomer"):
        names = NAMES + ["q"]
        truth = np.append(TRUE_ELO, rng.uniform(-210.0, 210.0))
        worth = truth / ELO_PER_NAT
        for d in range(int(design.split()[1])):
            opponent = int(rng.integers(8))
            pairs += [(8, opponent, f"q{d}"), (opponent, 8, f"q{d}")]
    for i, j, *block in pairs:
        first = rng.random() < 1.0 / (1.0 + math.exp(-(worth[i] - worth[j])))
        records.append(GameRecord((names[i], names[j]), WIN if first else (2, 1), *block))
    return records, truth - truth.mean()


def duplicate_truth():
    """What Bradley-Terry estimates from the duplicate pairs: the deal's luck pulls every
    expected score towards 1/2, so the target is the fit to the expected scores of
    uniformly drawn pairs, each ``E sigma(d + luck)`` (Gauss-Hermite, 40 nodes)."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(40)
    d = (TRUE_ELO[:, None] - TRUE_ELO[None, :]) / ELO_PER_NAT
    expected = (weights / weights.sum() / (1.0 + np.exp(-(d[:, :, None] + nodes)))).sum(axis=2)
    np.fill_diagonal(expected, 0.0)
    strength, _ = solve_bradley_terry(expected, 0.0)
    elo = ELO_PER_NAT * strength
    return elo - elo.mean()


def coverage(design, tournaments, seed=2026):
    """Share of (tournament, player) intervals holding the true rating (mean 0); of the
    newcomer designs, the newcomer's intervals only."""
    rng = np.random.default_rng(seed)
    hits = total = 0
    for _ in range(tournaments):
        records, truth = simulate(design, rng)
        boot = bootstrap_bradley_terry(records)
        if len(boot.entrants) < len(truth):
            continue
        rows = zip(boot.elo, boot.errors, truth)
        for elo, err, true in list(rows)[8:] if design.startswith("newcomer") else rows:
            hits += elo - err.minus <= true <= elo + err.plus
            total += 1
    return hits / total


@pytest.mark.slow
@pytest.mark.parametrize(("design", "tournaments", "low", "high"), [
    ("round robin, 56 games", 500, 0.93, 0.97),
    ("500 two-player games", 125, 0.94, 0.96),
    ("300 four-player games", 125, 0.94, 0.96),
    ("250 duplicate pairs", 125, 0.93, 0.97),
    ("newcomer 2 pairs", 125, 0.93, 0.995),  # the newcomer's intervals only; 71 % before the fix
])
def test_interval_covers_the_truth_95_percent_of_the_time(design, tournaments, low, high):
    """Measured (seed 2026): 94.6 %, 94.4 %, 95.3 %, 95.8 %, 98.4 % (twice these tournaments:
    94.8 %, 94.8 %, 94.9 %, 94.9 %, 98.4 %); docs/ratings.md has 2000 each."""
    assert low <= coverage(design, tournaments) <= high
