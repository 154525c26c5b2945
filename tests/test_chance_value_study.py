"""The chance-value study of issue 35 still runs, and its lookahead reads a copy (smoke sizes;
no figure is asserted: BENCHMARKS.md holds them)."""

import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_variance_play import mixed_policy, request_for  # noqa: E402
from benchmarks.chance_value_study import resolved  # noqa: E402
from engines import get_game  # noqa: E402


def test_every_family_runs_at_smoke_size():
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "chance_value_study.py"), "--blocks", "3",
                             "--fit", "10"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    for family in ("shipped", "logistic", "lookahead", "variates", "mlp"):
        assert f"\n{family}: fewer games than plain duplicate: block unit " in result.stdout, result.stdout


def test_the_playout_family_and_the_fitted_scale_run_at_smoke_size():
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "chance_value_study.py"), "--blocks", "3",
                             "--fit", "4", "--beta-games", "4", "--families", "playout", "--playouts", "2"],
                            capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "\nplayout: fewer games than plain duplicate: block unit " in result.stdout, result.stdout
    assert "fitted on 4 self-play games (not these)" in result.stdout, result.stdout


def test_the_lookahead_leaves_the_state_and_stops_at_a_draw():
    policy = mixed_policy("dead-mans-draw", 0.0)
    rng = random.Random(4)
    state = get_game("dead-mans-draw").new_state(2, 11, {})
    seen = set()
    while not state.is_terminal():
        before = [state.observation(seat) for seat in range(2)]
        after = resolved(state)
        assert [state.observation(seat) for seat in range(2)] == before
        if after is not state:
            assert after.is_terminal() or after.pending[1] == "draw" or len(after.acting) != 1
            seen.add(state.pending[1])
        state.apply({seat: policy(request_for(state, seat), rng) for seat in state.acting})
    assert "draw" in seen  # a collect was made ahead at least once
