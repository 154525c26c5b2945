"""The chance correction: zero mean by construction, less spread, and its baseline file."""

import dataclasses
import json
import random
import statistics
from pathlib import Path

import pytest

from arena.ratings import _baseline
from arena.ratings._baseline import (BaselineError, ValueModel, baseline_path, content_hash, game_baseline,
                                        load_baseline, make_baseline_file)
from arena.ratings._chance import game_luck
from engines import Replay, game_ids, game_package, get_game

DMD = ValueModel(weight=0.0, progress=1.5, scale=16.0, length=55.0)


def _random_game(game_id, seed, players=2):
    state = get_game(game_id).new_state(players, seed, {})
    rng = random.Random(seed + 1)
    while not state.is_terminal():
        state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
    return state, Replay.of(state, game_id, seed)


def test_mean_correction_is_zero_within_its_standard_error_and_it_removes_spread():
    """160 Dead Man's Draw games of random bots, seed fixed: the mean luck of seat 0 against
    seat 1 is within 3 standard errors of 0 (it is 0 in expectation whatever the value), and
    the corrected results spread less than the raw ones (the benchmark measures how much less
    between reference bots). Here: 1.14 standard errors, variance ratio 0.77; the luck negated
    gives 2.10, the luck of the next game 1.46, a bias of 0.3 of its spread 4.9 errors."""
    raw, luck = [], []
    for seed in range(160):
        state, replay = _random_game("dead-mans-draw", seed)
        ranks = state.outcome().ranks
        raw.append(1.0 if ranks[0] < ranks[1] else 0.5 if ranks[0] == ranks[1] else 0.0)
        luck.append(game_luck(replay, DMD, samples=4, seed=1)[0][1])
    mean, se = statistics.fmean(luck), statistics.stdev(luck) / len(luck) ** 0.5
    assert abs(mean) < 3 * se
    corrected = [r - x for r, x in zip(raw, luck)]
    # random bots: much of the spread is their own random choices, which no correction removes
    assert statistics.variance(corrected) < 0.9 * statistics.variance(raw)
    # the two means differ by the mean luck: within two raw standard errors here
    assert abs(statistics.fmean(corrected) - statistics.fmean(raw)) < 2 * statistics.stdev(raw) / len(raw) ** 0.5


def test_luck_is_antisymmetric_deterministic_and_three_players_work():
    _, replay = _random_game("dead-mans-draw", 3, players=3)
    model = ValueModel(0.0, 1.4, 14.6, 55.0)
    luck = game_luck(replay, model, samples=2, seed=5)
    assert luck == game_luck(replay.as_dict(), model, samples=2, seed=5)
    assert all(luck[i][j] == pytest.approx(-luck[j][i]) for i in range(3) for j in range(3))
    assert all(luck[i][i] == 0.0 for i in range(3))
    with pytest.raises(ValueError, match="samples must be at least 1, got 0"):
        game_luck(replay, model, samples=0)


def test_the_gain_scales_the_luck_and_nothing_else():
    """``score - gain * luck``: the luck of a model with gain g is g times that of the same
    model with gain 1, to the last bit of a product (the samples are the same draws)."""
    _, replay = _random_game("dead-mans-draw", 6)
    whole = game_luck(replay, DMD, samples=3, seed=2)
    assert any(abs(x) > 0.01 for row in whole for x in row)
    for gain in (0.0, 0.37, 1.6):
        scaled = game_luck(replay, dataclasses.replace(DMD, gain=gain), samples=3, seed=2)
        assert scaled == [[gain * x for x in row] for row in whole]


def test_a_replay_that_does_not_replay_is_one_clear_error():
    _, replay = _random_game("dead-mans-draw", 4)
    data = replay.as_dict()
    data["steps"][3] = [[0, ["no such action"]]]
    for model in (DMD, dataclasses.replace(DMD, gain=0.0)):  # a gain of 0 samples nothing, but checks
        with pytest.raises(ValueError, match="the replay does not replay at step 3"):
            game_luck(data, model, samples=1)


def test_each_game_carries_its_baseline_with_the_numbers_it_had():
    tables = {}
    for game in (game for game in game_ids() if get_game(game).pieces.has("chance_baseline")):
        baseline = game_baseline(game)
        for players in range(get_game(game).min_players, get_game(game).max_players + 1):  # every table size
            assert baseline.model(game, players).length > 0
        assert baseline.label.startswith("v2 sha256:") and len(baseline.label) == len("v2 sha256:") + 12
        # every model's gain fitted (not the default) and inside the loader's range
        assert all(0 <= model.gain <= 2 and model.gain != 1.0 for model in baseline.models.values())
        assert baseline_path(game) == Path(game_package(game).__file__).parent / "chance_baseline.json"
        tables[game] = json.loads(baseline_path(game).read_text())["games"][game]
    assert sorted(tables) == ["dead-mans-draw", "karibik", "opito-bay"]
    # the numbers of the one file they were split from (arena/ratings/chance_baseline.json at be1082e)
    assert content_hash(tables) == "1bee60c8d0a2dd4208fa33ccabcadf8d9d416c93936cc3165f5ec1968192db44"
    with pytest.raises(BaselineError, match="no baseline value for karibik with 7 players"):
        game_baseline("karibik").model("karibik", 7)


def test_a_game_file_holding_another_games_values_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "b.json"
    path.write_text(json.dumps(make_baseline_file({"karibik": {"2": {"weight": 0, "progress": 1, "scale": 16,
                                                                     "length": 55, "gain": 0.5}}})))
    monkeypatch.setattr(_baseline, "baseline_path", lambda game: path)
    with pytest.raises(BaselineError, match="b.json: the chance baseline of opito-bay holds values of karibik"):
        game_baseline("opito-bay")


def test_a_changed_or_foreign_baseline_file_is_refused(tmp_path):
    good = make_baseline_file({"dead-mans-draw": {"2": {"weight": 0, "progress": 1, "scale": 16, "length": 55,
                                                        "gain": 0.5}}})
    path = tmp_path / "b.json"
    path.write_text(json.dumps(good))
    assert load_baseline(path).model("dead-mans-draw", 2) == ValueModel(0.0, 1.0, 16.0, 55.0, 0.5)
    assert load_baseline(path).label.startswith("v2 sha256:")
    # version 1 (before gains): the same numbers without one, read as a gain of 1
    old = {**good, "version": 1, "games": {"dead-mans-draw": {"2": {"weight": 0, "progress": 1, "scale": 16,
                                                                    "length": 55}}}}
    old["sha256"] = content_hash(old["games"])
    path.write_text(json.dumps(old))
    assert load_baseline(path).model("dead-mans-draw", 2) == ValueModel(0.0, 1.0, 16.0, 55.0, 1.0)
    assert load_baseline(path).label.startswith("v1 sha256:")
    for fields, problem in (({"weight": 0, "progress": 1, "scale": 16, "length": 55}, "needs numbers weight, "
                             "progress, scale, length, gain"),
                            ({"weight": 0, "progress": 1, "scale": 16, "length": 55, "gain": 2.5},
                             "the gain must be from 0 to 2, got 2.5"),
                            ({"weight": 0, "progress": 1, "scale": 16, "length": 55, "gain": float("nan")},
                             "the gain must be from 0 to 2, got nan")):
        path.write_text(json.dumps(make_baseline_file({"dead-mans-draw": {"2": fields}})))
        with pytest.raises(BaselineError, match=f"dead-mans-draw/2.*{problem}"):
            load_baseline(path)
    path.write_text(json.dumps(good))
    edited = json.loads(json.dumps(good))
    edited["games"]["dead-mans-draw"]["2"]["weight"] = 3
    path.write_text(json.dumps(edited))
    with pytest.raises(BaselineError, match="content does not match its sha256"):
        load_baseline(path)
    path.write_text(json.dumps({**good, "version": 3}))
    with pytest.raises(BaselineError, match="chance baseline version 3; this arena reads versions 1, 2"):
        load_baseline(path)
    path.write_text("[1]")
    with pytest.raises(BaselineError, match="not a chance baseline"):
        load_baseline(path)
    with pytest.raises(BaselineError, match="cannot read the chance baseline"):
        load_baseline(tmp_path / "missing.json")


def test_opito_luck_features_read_what_the_viewer_may_know():
    """The hook reads a state as ``viewer`` knows it: its own hand card by card, the others'
    by size alone (for engines without ``resample_chance``); without a viewer, every hand."""
    state = get_game("opito-bay").new_state(2, 5, {})
    assert state.hands == [["KD", "8S", "JD", "5H", "X"], ["5C", "JH", "3H", "6S", "6H"]]
    assert state.luck_features(None) == [3600, 3200]  # no totals or table yet: the hands alone
    # seat 0 (Ace of clubs): K 800, 8 800 (not clubs), J 200, 5 300, Joker 1500
    assert state.luck_features(0) == [3600, 650 * 5]
    # seat 1 (Ace of hearts): 5 300, J 200, 3 900, 6 600, 6 of hearts doubled 1200
    assert state.luck_features(1) == [650 * 5, 3200]


@pytest.mark.parametrize("game_id", ["dead-mans-draw", "opito-bay", "karibik"])
def test_resample_chance_keeps_every_hand_and_redraws_only_the_unseen_deck(game_id):
    state, replay = _random_game(game_id, 8)
    state = get_game(game_id).new_state(2, 8, {})
    # half way, or in Karibik its third round (the reserve of 10 chests is empty by the sixth)
    # at its third ship, with the bribes for ships 3-5 still hidden
    for t, step in enumerate(replay.steps):
        if t == len(replay.steps) // 2 if game_id != "karibik" else len(state.reserve) == 6 and state.ship == 2:
            break
        state.apply(step)
    rng = random.Random(2)
    copies = [state.resample_chance(rng) for _ in range(20)]
    pile = {"opito-bay": "library", "karibik": "reserve"}.get(game_id, "draw")
    assert any(getattr(c, pile) != getattr(state, pile) for c in copies)
    for c in copies:
        assert sorted(getattr(c, pile)) == sorted(getattr(state, pile))
        if game_id == "opito-bay":
            assert c.hands == state.hands
        if game_id == "karibik":  # every seat's secret bids and tie-breaker stay: they are choices
            assert c.bids == state.bids and c.tiebreaker == state.tiebreaker
        assert c.observation(0) == state.observation(0) and c.observation(1) == state.observation(1)
