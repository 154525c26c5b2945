"""The variance benchmark's resampling on a constructed data set (no games played): the three
analyses, their ratio and the coverage line. No figure of real games is asserted."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from bench_variance import formula_games, games_to_verdict, report  # noqa: E402


def _data(blocks=400, seed=3):
    """A duplicate pair per block: A wins 60 % of games, 95 % or 25 % after the chance event,
    whose luck (+-0.35, mean zero) is known: half of each result's variance."""
    rng = np.random.default_rng(seed)
    pairs = []
    for _ in range(blocks):
        pair = []
        for _ in range(2):
            luck = 0.35 if rng.random() < 0.5 else -0.35
            score = float(rng.random() < 0.6 + luck)
            pair.append([score, luck])
        pairs.append(pair)
    return {"game": "toy", "blocks": blocks, "share": 0.0, "samples": 1, "baseline": "none", "cpu_s": 0.0,
            "pairs": pairs}


def test_formula_and_resampled_games_to_a_verdict():
    values = np.array([[1.0, 0.0], [1.0, 1.0]] * 50)  # mean 3/4
    # per game: sd of the 200 scores; blocks: sd of the block means (0.5 and 1.0)
    assert formula_games(values, per_game=True) == (1.959963984540054 * values.std(ddof=1) / 0.25) ** 2
    assert formula_games(values, per_game=False) == 2 * (1.959963984540054 * np.array([0.5, 1.0] * 50).std(ddof=1)
                                                          / 0.25) ** 2
    games, undecided, wrong = games_to_verdict(values, False, np.random.default_rng(1), 200, 200)
    assert undecided == 0.0 and wrong == 0.0 and 16 <= games < 100


def test_report_has_three_analyses_and_the_coverage_line():
    lines = report(_data(), tournaments=300, coverage_blocks=40, seed=1)
    assert [line.split(" | ")[1] for line in lines[:3]] == ["plain duplicate", "duplicate block unit",
                                                             "block unit + corrected"]
    ratio = float(lines[2].split(" | ")[3].split("x")[0])
    assert ratio > 1.4  # the luck removed half of the spread
    # the share arena compare would fit: the luck here is all of the chance, so all of it
    assert lines[3].split(" | ")[1] == "block unit + corrected, fitted share 1.00"
    assert "coverage of 95 % intervals of 40 blocks: corrected" in lines[4]
