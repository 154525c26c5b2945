"""One hostile author's footprint on a running ladder over time (issue 47): what the ladder keeps
because of its bot, sampled while a real ``arena ladder serve`` plays.

The author's bot is the chatty bot of the tests (tests/arena/ladder/bots/chatty: 1 MiB on
stderr at every start, then it exits at its 3rd decision of every game, so every game it plays
is a fault and starts a new process that writes 1 MiB more), entered beside two clean house
bots with ``game_fault_limit = 0`` (never withdrawn: the worst case; by default it is withdrawn
after about 10 games and nothing of it grows after that)::

    python benchmarks/ladder_footprint.py --minutes 8 --every 60 --concurrency 1

Prints, every ``--every`` seconds: its games so far; its stderr logs in ``ladder.db.logs/``
(bytes on disk, and files); the text its faults keep in the database (detail and stderr,
bytes) and its fault rows; and, for comparison, the bytes of its games' rows (replays
included), which grow with the games it plays as anyone's do. Its submission folder and
archive are not here (a house bot has none): the quota bounds those, measured by
benchmarks/ladder_disk.py.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.arena.ladder._server import BOTS, Server, house_bots, ladder_folder, remove  # noqa: E402

NAME = "chatty-v1"
MiB = 2**20


def sample(folder: Path) -> tuple[int, int, int, int, int, int]:
    """(games, log bytes, log files, fault text bytes, fault rows, game row bytes) of NAME."""
    logs = [entry for entry in os.scandir(folder / "ladder.db.logs") if entry.name.startswith(f"{NAME}.")]
    log_bytes = sum(entry.stat().st_blocks * 512 for entry in logs)
    try:
        with sqlite3.connect(f"file:{folder / 'ladder.db'}?mode=ro", uri=True) as conn:
            games, game_bytes = conn.execute(
                "SELECT count(*), COALESCE(SUM(LENGTH(seats) + LENGTH(ranks) + LENGTH(scores) + LENGTH(faults) "
                "+ LENGTH(replay)), 0) FROM games WHERE id IN (SELECT game FROM seats WHERE entrant = ?)",
                (NAME,)).fetchone()
            rows, text = conn.execute(
                "SELECT count(*), COALESCE(SUM(LENGTH(detail) + LENGTH(stderr_tail)), 0) FROM faults "
                "WHERE entrant = ?", (NAME,)).fetchone()
    except sqlite3.Error:
        return 0, log_bytes, len(logs), 0, 0, 0
    return games, log_bytes, len(logs), text, rows, game_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=8)
    parser.add_argument("--every", type=float, default=60)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--logs-mb", type=int, default=8, help="logs_per_version_mb")
    args = parser.parse_args()
    extra = (f"game_fault_limit = 0\nlogs_per_version_mb = {args.logs_mb}\n"
             f'\n[[bots]]\nauthor = "chatty"\nmanifest = "{BOTS}/chatty/bot.toml"\n'
             + house_bots(random="py-random.toml", heuristic="py-heuristic.toml"))
    folder = ladder_folder(extra)
    text = (folder / "ladder.toml").read_text().replace("concurrency = 2", f"concurrency = {args.concurrency}")
    (folder / "ladder.toml").write_text(text)
    server = Server(folder, "auto")
    print(f"{'minute':>6} {'games':>6} {'logs MiB':>9} {'log files':>9} {'fault text KiB':>14} "
          f"{'fault rows':>10} {'game rows KiB':>13}", flush=True)
    start = time.monotonic()
    try:
        while (elapsed := time.monotonic() - start) < args.minutes * 60:
            time.sleep(min(args.every, args.minutes * 60 - elapsed))
            games, logs, files, text, rows, game_bytes = sample(folder)
            print(f"{(time.monotonic() - start) / 60:6.1f} {games:6d} {logs / MiB:9.1f} {files:9d} "
                  f"{text / 1024:14.1f} {rows:10d} {game_bytes / 1024:13.1f}", flush=True)
    finally:
        server.stop()
        remove(folder)


if __name__ == "__main__":
    main()
