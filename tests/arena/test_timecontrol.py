"""TimeControl validation and GameClock arithmetic: per-move limit plus a reserve.

Times are binary fractions (0.25, 0.5, 1.5 ...) so every expected value is exact."""

import dataclasses

import pytest

from arena.players._timecontrol import GameClock, TimeControl


def test_defaults():
    control = TimeControl()
    assert (control.move_ms, control.reserve_ms, control.startup_ms) == (1000, 0, 10_000)


def test_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        TimeControl().move_ms = 5


@pytest.mark.parametrize("kwargs,error", [
    ({"move_ms": 0}, "move_ms must be positive, got 0"),
    ({"move_ms": -250}, "move_ms must be positive, got -250"),
    ({"reserve_ms": -1}, "reserve_ms must be >= 0 and startup_ms > 0"),
    ({"startup_ms": 0}, "reserve_ms must be >= 0 and startup_ms > 0"),
    ({"startup_ms": -10}, "reserve_ms must be >= 0 and startup_ms > 0"),
])
def test_invalid_values(kwargs, error):
    with pytest.raises(ValueError) as caught:
        TimeControl(**kwargs)
    assert str(caught.value) == error


def test_smallest_valid_values():
    assert TimeControl(move_ms=1, reserve_ms=0, startup_ms=1).new_clock().budget() == 0.001


@pytest.mark.parametrize("move_ms,reserve_ms,limit,reserve", [
    (1000, 0, 1.0, 0.0), (500, 2500, 0.5, 2.5), (250, 5000, 0.25, 5.0), (1, 1, 0.001, 0.001),
])
def test_new_clock_converts_to_seconds(move_ms, reserve_ms, limit, reserve):
    clock = TimeControl(move_ms, reserve_ms).new_clock()
    assert (clock.move_limit, clock.reserve) == (limit, reserve)
    assert clock.budget() == limit + reserve


def test_every_clock_is_new():
    control = TimeControl(500, 1000)
    first, second = control.new_clock(), control.new_clock()
    assert first is not second
    first.update(1.0)
    assert (first.reserve, second.reserve) == (0.5, 1.0)


def test_clock_has_only_two_fields():
    with pytest.raises(AttributeError):
        GameClock(1.0, 0.0).spent = 3


@pytest.mark.parametrize("elapsed", [0.0, 0.25, 0.5, 0.9999, 1.0])
def test_under_or_at_the_limit_costs_nothing(elapsed):
    clock = GameClock(1.0, 2.0)
    assert clock.update(elapsed) is True
    assert (clock.reserve, clock.budget()) == (2.0, 3.0)


def test_negative_elapsed_is_free():
    clock = GameClock(0.5, 1.0)
    assert clock.update(-3.0) is True
    assert clock.reserve == 1.0


def test_overage_is_taken_from_the_reserve():
    clock = GameClock(0.5, 2.0)
    assert clock.update(0.75) is True
    assert (clock.reserve, clock.budget()) == (1.75, 2.25)
    assert clock.update(1.5) is True
    assert clock.reserve == 0.75
    assert clock.update(0.5) is True
    assert clock.reserve == 0.75


@pytest.mark.parametrize("elapsed,ok", [(1.75, True), (1.875, False)], ids=["whole-budget", "over-budget"])
def test_the_whole_budget_is_ok_more_is_a_timeout_and_either_empties_the_reserve(elapsed, ok):
    clock = GameClock(0.5, 1.25)
    assert clock.update(elapsed) is ok
    assert (clock.reserve, clock.budget()) == (0.0, 0.5)


def test_exhausted_reserve_then_any_overage_is_a_timeout():
    clock = GameClock(0.25, 0.5)
    assert clock.update(0.75) is True
    assert clock.reserve == 0.0
    assert clock.update(0.25) is True
    assert clock.update(0.3125) is False
    assert clock.reserve == 0.0


def test_without_reserve_the_limit_is_hard():
    clock = TimeControl(move_ms=1000).new_clock()
    assert clock.update(1.0) is True
    assert clock.update(1.0 + 2**-20) is False


def test_a_game_of_moves():
    clock = TimeControl(move_ms=500, reserve_ms=1000).new_clock()
    moves = [0.25, 0.75, 0.5, 1.0, 0.125, 0.75, 0.5]
    results = [(clock.update(elapsed), clock.reserve) for elapsed in moves]
    assert results == [(True, 1.0), (True, 0.75), (True, 0.75), (True, 0.25), (True, 0.25),
                       (True, 0.0), (True, 0.0)]
    assert clock.update(0.625) is False


def test_margin_forgives_lateness_but_charges_it():
    clock = TimeControl(500, 250, margin_ms=125).new_clock()
    assert (clock.budget(), clock.deadline()) == (0.75, 0.875)
    assert clock.update(0.875)  # late by the margin, after the reserve: charged, not a timeout
    assert clock.reserve == 0.0
    assert clock.update(0.625) and not clock.update(0.75)  # the margin again, then beyond it


def test_margin_is_not_negative():
    with pytest.raises(ValueError, match="margin_ms must be >= 0, got -1"):
        TimeControl(margin_ms=-1)
