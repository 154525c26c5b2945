"""The baseline maker's gain: the least-squares slope of the results on their luck, kept in
the range the loader takes (no games played)."""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.chance_baseline import fitted_gain  # noqa: E402


def test_the_gain_is_the_slope_that_leaves_the_least_spread():
    rng = np.random.default_rng(5)
    luck = rng.normal(0, 0.3, 4000)
    results = 0.5 + 0.4 * luck + rng.normal(0, 0.2, 4000)  # 40 % of the luck is foreseen
    gain = fitted_gain(list(results), list(luck))
    assert gain == pytest.approx(0.4, abs=0.02)
    spread = {g: np.var(results - g * luck) for g in (0.0, 1.0, gain, gain - 0.1, gain + 0.1)}
    assert min(spread, key=spread.get) == gain


def test_the_gain_stays_in_the_loaders_range():
    luck = [-0.2, 0.1, 0.3, -0.1]
    assert fitted_gain([0.0, 1.0, 1.0, 0.0], [x / 10 for x in luck]) == 2.0  # a steep slope, capped
    assert fitted_gain([1.0, 0.0, 0.0, 1.0], luck) == 0.0  # luck against the result: none taken out
    assert fitted_gain([1.0, 0.0, 0.5], [0.0, 0.0, 0.0]) == 0.0  # a value no chance moves
    assert fitted_gain([1.0], [0.3]) == 0.0
