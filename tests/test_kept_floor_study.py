"""The kept-floor study times a PettingZoo step with the kept tensors replaced by recorded
stores: that stand-in must hand out exactly the observations the kept tensors do, or the floor
it measures is the floor of other work."""

import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import kept_floor_study as study  # noqa: E402
from envs.pettingzoo import env  # noqa: E402


def _observations(environment, games, writes=None) -> list[np.ndarray]:
    stream = iter(writes) if writes is not None else None
    seen = []
    for seed, ids, _history in games:
        environment.reset(seed=seed)
        if stream is not None:
            environment._kept = study.JournalTensors(environment.codec.layout.size, environment.num_players, stream)
        for _agent, number in zip(environment.agent_iter(), ids):
            seen.append(environment.last()[0]["observation"])
            environment.step(number)
    return seen


@pytest.mark.parametrize("game_id, options", study.GAMES)
def test_the_journal_hands_out_the_kept_tensors_observations(game_id, options):
    environment = env(game_id.replace("-", "_"), players=study.PLAYERS, **options)
    games = study.record_games(environment, 3, random.Random(5))
    writes = study.record_writes(environment, games)
    kept = _observations(environment, games)
    journal = _observations(environment, games, writes)
    assert len(journal) == len(kept) == len(writes)
    assert all(np.array_equal(a, b) for a, b in zip(kept, journal))
    assert sum(len(indices) for _seat, indices, _values in writes) > len(writes)  # it writes, not replays zeros


def test_the_journal_refuses_to_run_out_of_step():
    journal = study.JournalTensors(4, 2, iter([(1, [0], [1.0])]))
    with pytest.raises(AssertionError, match="out of step"):
        journal.tensor(0)


def test_an_empty_study_is_refused_with_one_error_line(capsys):
    with pytest.raises(SystemExit) as exit_info:
        study.main(["--games", "0"])
    assert exit_info.value.code == 2
    assert "error: --games and --blocks must be at least 1" in capsys.readouterr().err
