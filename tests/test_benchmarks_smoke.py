"""The benchmark suite still runs (smoke sizes). No figure is asserted: timing is not a test."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_benchmarks_run_in_smoke_mode():
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--smoke"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    for heading in ("1. per-move round trip", "2. engine cost", "3. throughput", "4. start-up",
                    "5. ratings", "6. timing fairness", "7. throughput scaling", "8. fairness in a real tournament",
                    "9. per-move round trip in real matches", "10. environments"):
        assert heading in result.stdout
