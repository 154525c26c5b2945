"""The [sprt] table of a gauntlet and the decision to stop."""

import pytest

from arena.ratings import GameRecord
from arena.ratings._sprt_stop import SprtStop, SprtTally, sprt_stop_from_table


def test_table_with_defaults():
    stop = sprt_stop_from_table({"elo0": 0, "elo1": 5}, ["new"], ["old"])
    assert stop == SprtStop("new", "old", 0.0, 5.0, 0.05, 0.05, "logistic")
    full = sprt_stop_from_table({"elo0": -1.5, "elo1": 2, "alpha": 0.1, "beta": 0.2, "model": "normalized",
                                 "baseline": "b"}, ["new"], ["a", "b"])
    assert full == SprtStop("new", "b", -1.5, 2.0, 0.1, 0.2, "normalized")


@pytest.mark.parametrize(("table", "candidates", "field", "message"), [
    ([1], ["new"], ["old"], "[sprt] must be a table, got list"),
    ({"elo0": 0, "elo1": 5, "elo2": 9}, ["new"], ["old"],
     "[sprt] key 'elo2' is unknown; known keys: elo0, elo1, alpha, beta, model, baseline"),
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
