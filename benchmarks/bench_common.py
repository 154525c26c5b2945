"""What the round-trip benchmarks share (run.py's section 1, bench_match_rtt.py's section 9):
real decisions sampled along random games, their request frames, the raw Python ping-pong of
those frames (the reference), and the quantiles every table shows."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import engines
import protocol

HERE = Path(__file__).resolve().parent


def quantiles(values_ns: list[float]) -> tuple[float, float]:
    """Median and 99th percentile, in microseconds."""
    ordered = sorted(values_ns)
    return ordered[len(ordered) // 2] / 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] / 1000


def sample_decisions(game_id: str, count: int) -> list[tuple[str, dict, list, list]]:
    """(kind, observation, legal, events) of real decisions along random games."""
    game = engines.get_game(game_id)
    rng = random.Random(1)
    samples: list = []
    seed = 0
    while len(samples) < count:
        state = game.new_state(2, seed, {"deals": 1} if game_id == "opito-bay" else {})
        cursors = [0, 0]
        while state.acting and len(samples) < count:
            for seat in state.acting:
                legal = state.legal_actions(seat)
                if legal is not None:
                    events = state.events_for(seat, cursors[seat])
                    cursors[seat] = len(state.log)
                    samples.append((state.decision(seat), state.observation(seat), legal, events))
            state.apply({seat: state.random_action(seat, rng) for seat in state.acting})
        seed += 1
    return samples


def frames_file(samples, folder: Path) -> Path:
    path = folder / "frames.bin"
    path.write_bytes(b"".join(
        protocol.encode(protocol.request(i + 1, kind, obs, events, legal, 1000, 1000))
        for i, (kind, obs, legal, events) in enumerate(samples)))
    return path


def raw_round_trips(frames: Path, rounds: int, codec: bool = False,
                    stamped: bool = False) -> tuple[list[int], int]:
    out = subprocess.run([sys.executable, str(HERE / "pingpong.py"), str(frames), str(rounds)]
                         + (["--codec"] if codec else []) + (["--socket"] if stamped else []),
                         capture_output=True, text=True, check=True).stdout.split("\n")
    return [int(line) for line in out if line and not line.startswith("cpu")], int(out[-2].split()[1])
