"""Ladder throughput with a bot that faults in every game (issue 47): games per minute of a
real ``arena ladder serve`` with three house bots, clean, then with one of them replaced by
the time bomb of the tests (tests/arena/ladder/bots/timebomb: exits at its 3rd decision of
every game, so each of its games forfeits and starts a new process)::

    python benchmarks/ladder_faults.py --seconds 60 --concurrency 2 [--warmup 30]

Prints, per run, the games stored in the measured window, the games/min, and the share of
games with the time bomb seated. ``--limit 0`` keeps it playing (no withdrawal), to measure
what one such bot costs while it plays. ``--warmup S``: the window starts S seconds after the
first game, and the first S seconds are printed on their own line: the ladder's first window
of tables (64 games here) is chosen before any game is played, so before anyone is benched.
``--buckets S`` also prints, per S seconds after the first game, the games stored and the time
bomb's share of them (from the games' ``finished_at``): where in the first minute time goes.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.arena.ladder._server import BOTS, Server, house_bots, ladder_folder, remove  # noqa: E402


def count(db: Path, name: str) -> tuple[int, int]:
    try:
        with sqlite3.connect(db) as conn:
            total = conn.execute("SELECT count(*) FROM games").fetchone()[0]
            seated = conn.execute("SELECT count(*) FROM seats WHERE entrant = ?", (name,)).fetchone()[0]
            return total, seated
    except sqlite3.Error:
        return 0, 0


def timeline(db: Path, name: str, bucket: float) -> list[tuple[int, int]]:
    """(games, games seating ``name``) per ``bucket`` seconds after the first game."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT finished_at, EXISTS (SELECT 1 FROM seats WHERE game = games.id AND entrant = ?) "
                            "FROM games ORDER BY finished_at", (name,)).fetchall()
    counts: list[list[int]] = []
    for at, seated in rows:
        index = int((at - rows[0][0]) / bucket)
        counts.extend([0, 0] for _ in range(index + 1 - len(counts)))
        counts[index][0] += 1
        counts[index][1] += seated
    return [(games, seated) for games, seated in counts]


def run(bomb: bool, seconds: float, concurrency: int, limit: int, warmup: float = 0.0,
        bucket: float = 0.0) -> tuple[list[tuple[int, float, float]], list[tuple[int, int]]]:
    """(games, games/min, the time bomb's share of them) of the warm-up, if any, then of the
    window; and the :func:`timeline` of ``bucket`` seconds (none without)."""
    extra = f"game_fault_limit = {limit}\n" + house_bots(random="py-random.toml", heuristic="py-heuristic.toml")
    if bomb:
        extra += f'\n[[bots]]\nauthor = "timebomb"\nmanifest = "{BOTS}/timebomb/bot.toml"\n'
    else:
        extra += house_bots(random2="py-random.toml")
    folder = ladder_folder(extra.replace("concurrency = 2", ""))
    text = (folder / "ladder.toml").read_text().replace("concurrency = 2", f"concurrency = {concurrency}")
    (folder / "ladder.toml").write_text(text)
    server = Server(folder, "auto")
    db = folder / "ladder.db"
    try:
        while count(db, "")[0] < 1:
            time.sleep(0.1)
        marks = [(time.monotonic(), *count(db, "timebomb-v1"))]
        for length in ([warmup] if warmup else []) + [seconds]:
            time.sleep(length)
            marks.append((time.monotonic(), *count(db, "timebomb-v1")))
        buckets = timeline(db, "timebomb-v1", bucket) if bucket else []
    finally:
        server.stop()
        remove(folder)
    rows = []
    for (start, first, seated0), (end, last, seated1) in zip(marks, marks[1:]):
        games = last - first
        rows.append((games, games / (end - start) * 60, (seated1 - seated0) / games if games else 0.0))
    return rows, buckets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="game_fault_limit (0: never withdrawn)")
    parser.add_argument("--warmup", type=float, default=0, help="seconds after the first game not in the window")
    parser.add_argument("--buckets", type=float, default=0, help="seconds a line of the timeline (0: none)")
    args = parser.parse_args()
    for bomb in (False, True):
        rows, buckets = run(bomb, args.seconds, args.concurrency, args.limit, args.warmup, args.buckets)
        for part, (games, rate, share) in zip(["warm-up", "window"][-len(rows):], rows):
            print(f"{'time bomb' if bomb else 'clean':9}  {part:7}  {games:6d} games  {rate:8.0f} games/min  "
                  f"time bomb seated in {100 * share:.0f} % of games", flush=True)
        for number, (games, seated) in enumerate(buckets):
            print(f"{'':9}  {number * args.buckets:5.0f} s  {games:6d} games  {games / args.buckets * 60:8.0f} games/min  "
                  f"time bomb seated in {seated}", flush=True)


if __name__ == "__main__":
    main()
