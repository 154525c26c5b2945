"""The [sprt] table of a gauntlet, its tests (one rival, several, the field; any table size),
the multiple-comparison correction, and the decision to stop."""

import random

import pytest

from arena.ratings import GameRecord, SprtDecision
from arena.ratings._sprt_stop import SprtStop, SprtTally
from arena.ratings._sprt_watch import SprtWatch, WatchTally, sprt_watch_from_table as sprt_stop_from_table


def test_table_with_defaults():
    watch = sprt_stop_from_table({"elo0": 0, "elo1": 5}, ["new"], ["old"])
    assert watch == SprtWatch((SprtStop("new", "old", 0.0, 5.0, 0.05, 0.05, "logistic"),), "holm")
    full = sprt_stop_from_table({"elo0": -1.5, "elo1": 2, "alpha": 0.1, "beta": 0.2, "model": "normalized",
                                 "baseline": "b"}, ["new"], ["a", "b"], players=3)
    assert full.stops == (SprtStop("new", "b", -1.5, 2.0, 0.1, 0.2, "normalized", 3),)
    several = sprt_stop_from_table({"elo0": 0, "elo1": 5, "baselines": ["a", "b"], "correction": "bonferroni"},
                                   ["new"], ["a", "b"], players=3)
    assert [s.baseline for s in several.stops] == ["a", "b"] and several.correction == "bonferroni"
    field = sprt_stop_from_table({"elo0": 0, "elo1": 5, "field": True}, ["new"], ["a", "b"], players=3)
    assert field.stops[0].baseline is None and field.stops[0].label == "new vs the field"


@pytest.mark.parametrize(("table", "candidates", "field", "message"), [
    ([1], ["new"], ["old"], "[sprt] must be a table, got list"),
    ({"elo0": 0, "elo1": 5, "elo2": 9}, ["new"], ["old"],
     "[sprt] key 'elo2' is unknown; known keys: elo0, elo1, alpha, beta, model, baseline, baselines, field, "
     "correction"),
    ({"elo1": 5}, ["new"], ["old"], "[sprt] needs elo0 (an Elo difference)"),
    ({"elo0": "0", "elo1": 5}, ["new"], ["old"], "[sprt] elo0 must be a number, got '0'"),
    ({"elo0": 0, "elo1": True}, ["new"], ["old"], "[sprt] elo1 must be a number, got True"),
    ({"elo0": 5, "elo1": 0}, ["new"], ["old"], "[sprt] elo0 must be below elo1, got elo0=5.0, elo1=0.0"),
    ({"elo0": 0, "elo1": 5, "alpha": 0}, ["new"], ["old"], "[sprt] alpha must be in (0, 1), got 0.0"),
    ({"elo0": 0, "elo1": 5, "alpha": 0.5, "beta": 0.5}, ["new"], ["old"],
     "[sprt] alpha + beta must be below 1, got 0.5 + 0.5"),
    ({"elo0": 0, "elo1": 5, "model": "bayes"}, ["new"], ["old"],
     "[sprt] model must be one of logistic, normalized, got 'bayes'"),
    ({"elo0": 0, "elo1": 5}, ["x", "y"], ["old"], "[sprt] needs a gauntlet with exactly one candidate, got 2"),
    ({"elo0": 0, "elo1": 5}, ["new"], ["a", "b"], "[sprt] baseline must name the entrant to test against, one of: a, b"),
    ({"elo0": 0, "elo1": 5, "baseline": "c"}, ["new"], ["a", "b"], "[sprt] baseline 'c' is not in the field: a, b"),
    ({"elo0": 0, "elo1": 5, "baselines": ["a", "c"]}, ["new"], ["a", "b"],
     "[sprt] baseline 'c' is not in the field: a, b"),
    ({"elo0": 0, "elo1": 5, "baselines": ["a", "a"]}, ["new"], ["a", "b"],
     "[sprt] baselines must be a list of distinct entrant names, got ['a', 'a']"),
    ({"elo0": 0, "elo1": 5, "baselines": []}, ["new"], ["a", "b"],
     "[sprt] baselines must be a list of distinct entrant names, got []"),
    ({"elo0": 0, "elo1": 5, "baseline": "a", "field": True}, ["new"], ["a", "b"],
     "[sprt] give one of baseline, baselines, field; got baseline and field"),
    ({"elo0": 0, "elo1": 5, "field": 1}, ["new"], ["a", "b"],
     "[sprt] field must be true (the candidate against the whole field), got 1"),
    ({"elo0": 0, "elo1": 5, "field": True, "correction": "sidak"}, ["new"], ["a", "b"],
     "[sprt] correction must be one of holm, bonferroni, got 'sidak'"),
])
def test_bad_tables(table, candidates, field, message):
    with pytest.raises(ValueError) as info:
        sprt_stop_from_table(table, candidates, field)
    assert str(info.value) == message


def test_decided_once_the_bounds_are_crossed_unfinished_pairs_left_out():
    stop = SprtStop("new", "old", 0.0, 200.0, alpha=0.3, beta=0.3)
    games = []
    for d in range(3):  # pairs won twice by "new": LLR 1.26 > 0.85 after three
        games += [GameRecord(("new", "old"), (1, 2), f"d{d}"), GameRecord(("old", "new"), (2, 1), f"d{d}")]
    games.append(GameRecord(("new", "old"), (2, 1), "d3"))  # the first game of a pair still running
    assert not stop.decided(games[:4])
    assert stop.result(games).counts == (0, 0, 0, 0, 3)
    assert stop.decided(games)
    assert not SprtStop("new", "old", 0.0, 200.0).decided(games)  # alpha = beta = 0.05: not yet


def test_tally_game_by_game_equals_the_test_on_all_games():
    stop = SprtStop("new", "old", -50.0, 50.0)
    games = []
    for d, (first, second) in enumerate([((1, 2), (2, 1)), ((1, 1), (1, 2)), ((2, 1), (2, 1)), ((1, 2), (1, 1))] * 3):
        games += [GameRecord(("new", "old"), first, f"d{d}"), GameRecord(("old", "new", "x"), (*second, 3), f"d{d}")]
    games.insert(5, GameRecord(("x", "old"), (1, 2), "other"))
    tally = SprtTally(stop)
    for n, game in enumerate(games, start=1):
        assert tally.add(game) == stop.result(games[:n])
    plain = [GameRecord(("new", "old"), (1, 2))] * 4 + [GameRecord(("old", "new"), (1, 1))]
    tally = SprtTally(stop)
    for game in plain:
        last = tally.add(game)
    assert last == stop.result(plain) and last.counts == (0, 1, 4)


def _rotations(block, table, places):
    """The k rotations of one deal at ``table``; ``places[r]`` = each name's place in rotation r."""
    k = len(table)
    out = []
    for r in range(k):
        seats = table[r:] + table[:r]
        out.append(GameRecord(seats, tuple(places[r][n] for n in seats), block))
    return out


def test_three_player_rotations_make_one_block_of_three_games():
    stop = SprtStop("new", "old", 0.0, 100.0, block_games=3)
    table = ("new", "old", "x")
    games = _rotations("b0", table, [{"new": 1, "old": 2, "x": 3}] * 3)
    tally = SprtTally(stop)
    assert tally.add(games[0]).observations == 0 and tally.add(games[1]).observations == 0  # unfinished
    done = tally.add(games[2])
    assert done.observations == 1 and done.counts == (0, 0, 0, 0, 0, 0, 1) and done.model == "blocks of 3"
    assert stop.result(games) == done


def test_candidate_against_the_field_scores_its_mean_pairwise_result():
    stop = SprtStop("new", None, 0.0, 100.0, block_games=3)
    table = ("new", "a", "b")
    # rotation scores vs (a, b) in half points: 4 (first), 2 (second of three, ahead of b), 1 (tied a, last)
    games = _rotations("b0", table, [{"new": 1, "a": 2, "b": 3}, {"new": 2, "a": 1, "b": 3},
                                     {"new": 2, "a": 2, "b": 1}])
    res = stop.result(games)
    assert len(res.counts) == 13 and res.counts[7] == 1 and res.observations == 1


def _gauntlet(rng, strengths, blocks):
    """Blocks of three-player rotations: 'new' against two of the field, places from noisy strengths."""
    games = []
    field = sorted(n for n in strengths if n != "new")
    for b in range(blocks):
        table = ("new", *rng.sample(field, 2))
        deal = {n: rng.gauss(0, 1) for n in table}  # the deal favours one name in all rotations
        for r in range(3):
            seats = table[r:] + table[:r]
            score = {n: strengths[n] + deal[n] + rng.gauss(0, 1) for n in seats}
            order = sorted(seats, key=lambda n: -score[n])
            games.append(GameRecord(seats, tuple(order.index(n) + 1 for n in seats), f"b{b}"))
    return games


def test_several_rivals_stop_once_all_decide_and_the_correction_tightens_each_test():
    rng = random.Random(3)
    strengths = {"new": 0.0, "weak": -1.5, "strong": 1.5, "peer": -1.4}
    games = _gauntlet(rng, strengths, 300)
    stops = tuple(SprtStop("new", rival, 0.0, 100.0, block_games=3) for rival in ("weak", "strong", "peer"))
    for correction in ("holm", "bonferroni"):
        tally = WatchTally(SprtWatch(stops, correction))
        for n, game in enumerate(games, start=1):
            tally.add(game)
            if tally.decided:
                break
        assert tally.decided
        decisions = [r.decision for r in tally.results]
        assert decisions == [SprtDecision.ACCEPT_H1, SprtDecision.ACCEPT_H0, SprtDecision.ACCEPT_H1]
        # Each test used a bound at least as wide as the uncorrected one.
        assert all(r.upper >= stops[0].result([]).upper for r in tally.results)
        if correction == "bonferroni":
            assert {round(r.upper, 6) for r in tally.results} == {round(stops[0].result([], 0.05 / 3, 0.05 / 3).upper, 6)}
        assert len(tally.lines()) == 3 and tally.lines()[0].endswith(f"[{correction} over 3 tests]")


def test_holm_steps_down_after_a_decision():
    stops = (SprtStop("new", "a", 0.0, 100.0), SprtStop("new", "b", 0.0, 100.0))
    # 'a' is beaten in every pair, 'b' is even: after 'a' is decided (at alpha/2), 'b' runs at alpha.
    games = []
    for d in range(40):
        games += [GameRecord(("new", "a"), (1, 2), f"a{d}"), GameRecord(("a", "new"), (2, 1), f"a{d}")]
    tally = WatchTally(SprtWatch(stops, "holm"))
    for game in games:
        tally.add(game)
    first, second = tally.results
    assert first.decision is SprtDecision.ACCEPT_H1 and first.alpha == 0.025
    assert second.alpha == 0.05 and second.beta == 0.025 and not second.decided
    bonf = WatchTally(SprtWatch(stops, "bonferroni"))
    for game in games:
        bonf.add(game)
    assert bonf.results[1].alpha == 0.025


@pytest.mark.slow
def test_family_wise_error_rate_of_several_rivals_when_all_are_equal():
    """Three rivals as strong as the candidate, H0 "at most 0" true for each: the chance that
    any test accepts H1 stays under the stated alpha with the correction, and the uncorrected
    tests exceed it (same simulated games)."""
    rng = random.Random(11)
    strengths = {"new": 0.0, "a": 0.0, "b": 0.0, "c": 0.0}
    stops = tuple(SprtStop("new", r, 0.0, 60.0, alpha=0.2, beta=0.2, block_games=3) for r in ("a", "b", "c"))
    wrong = {"holm": 0, "none": 0}
    runs = 30
    for _ in range(runs):
        games = _gauntlet(rng, strengths, 150)
        for correction in ("holm", "none"):
            if correction == "none":
                tallies = [WatchTally(SprtWatch((s,), "holm")) for s in stops]
            else:
                tallies = [WatchTally(SprtWatch(stops, "holm"))]
            for game in games:
                for t in tallies:
                    if not t.decided:
                        t.add(game)
            results = [r for t in tallies for r in t.results]
            wrong[correction] += any(r.decision is SprtDecision.ACCEPT_H1 for r in results)
    assert wrong == {"holm": 6, "none": 15}  # seeded: these very games (of 60 runs: 9 and 32)
    # at most alpha plus two standard errors of a share of 30 runs (0.35; uncorrected: 0.5)
    assert wrong["holm"] / runs <= 0.2 + 2 * (0.2 * 0.8 / runs) ** 0.5
    assert wrong["none"] > wrong["holm"]
