"""One hostile author's footprint on a running ladder over time (issue 47): what the ladder keeps
because of its bots, sampled while a real ``arena ladder serve`` plays.

The author, ``mallory``, uploads its bot through the ladder's API as any author would (a token,
``POST /api/submissions``), and uploads it again every ``--upload-every`` minutes (a new version,
which supersedes the last one; ``submissions_per_hour`` allows 10). The bot is the sleeper of
the tests (tests/arena/ladder/bots/sleeper): its build notes the time; it prints 1 MiB on stderr
at every start; from 2 minutes after its build (so it passes vetting) it exits at its 3rd
decision of every game, so every game it plays is a fault and starts a new process that writes
1 MiB more. Two clean house bots play beside it, at ``concurrency`` tables, with
``game_fault_limit = 0`` (never withdrawn: the worst case; by default a version is withdrawn
after about 10 games and nothing of it grows after that)::

    python benchmarks/ladder_footprint.py --minutes 60 --every 300 --concurrency 1 --upload-every 10

``--house`` enters the chatty bot of the tests from the ladder file instead (a house bot, one
version, armed from the start; no upload, no submission folder).

Prints, every ``--every`` seconds, of all the author's versions together: versions uploaded so
far and its games; its stderr logs in ``ladder.db.logs/`` (bytes on disk, and files); the text
its faults keep in the database (detail and stderr) and its fault rows; its submissions' folders
and stored archives not removed (what ``author_disk_mb`` counts); and, for comparison, the bytes
of its games' rows (replays included), which grow with the games it plays as anyone's do.
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

from tests.arena.ladder._server import (BOTS, Server, archive, arena, house_bots, ladder_folder,  # noqa: E402
                                        remove)

MiB = 2**20


def sample(folder: Path, author: str) -> tuple[int, int, int, int, int, int, int]:
    """(games, log bytes, log files, fault text bytes, fault rows, kept submission bytes, game
    row bytes) of all ``author``'s versions."""
    logs = [entry for entry in os.scandir(folder / "ladder.db.logs") if entry.name.startswith(f"{author}-v")]
    log_bytes = sum(entry.stat().st_blocks * 512 for entry in logs)
    like = f"{author}-v%"
    try:
        with sqlite3.connect(f"file:{folder / 'ladder.db'}?mode=ro", uri=True) as conn:
            games, game_bytes = conn.execute(
                "SELECT count(*), COALESCE(SUM(LENGTH(seats) + LENGTH(ranks) + LENGTH(scores) + LENGTH(faults) "
                "+ LENGTH(replay)), 0) FROM games WHERE id IN (SELECT game FROM seats WHERE entrant LIKE ?)",
                (like,)).fetchone()
            rows, text = conn.execute(
                "SELECT count(*), COALESCE(SUM(LENGTH(detail) + LENGTH(stderr_tail)), 0) FROM faults "
                "WHERE entrant LIKE ?", (like,)).fetchone()
            kept = conn.execute(
                "SELECT COALESCE(SUM(disk_bytes + COALESCE(LENGTH(archive), 0)), 0) FROM submissions "
                "WHERE author = ? AND removed IS NULL", (author,)).fetchone()[0]
    except sqlite3.Error:
        return 0, log_bytes, len(logs), 0, 0, 0, 0
    return games, log_bytes, len(logs), text, rows, kept, game_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=8)
    parser.add_argument("--every", type=float, default=60)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--logs-mb", type=int, default=8, help="logs_per_version_mb")
    parser.add_argument("--upload-every", type=float, default=10, help="minutes between the author's uploads")
    parser.add_argument("--house", action="store_true", help="the chatty house bot instead of uploads")
    args = parser.parse_args()
    author = "chatty" if args.house else "mallory"
    extra = f"game_fault_limit = 0\nlogs_per_version_mb = {args.logs_mb}\n"
    if args.house:
        extra += f'\n[[bots]]\nauthor = "chatty"\nmanifest = "{BOTS}/chatty/bot.toml"\n'
    folder = ladder_folder(extra + house_bots(random="py-random.toml", heuristic="py-heuristic.toml"))
    text = (folder / "ladder.toml").read_text().replace("concurrency = 2", f"concurrency = {args.concurrency}")
    (folder / "ladder.toml").write_text(text)
    token = None if args.house else arena("ladder", "token", "add", str(folder / "ladder.toml"), author).strip()
    data = archive("sleeper")
    server = Server(folder, "auto")
    print(f"{'minute':>6} {'versions':>8} {'games':>6} {'logs MiB':>9} {'log files':>9} {'fault text KiB':>14} "
          f"{'fault rows':>10} {'kept MiB':>8} {'game rows KiB':>13}", flush=True)
    start = time.monotonic()
    uploads, next_sample = 0, args.every
    try:
        while (elapsed := time.monotonic() - start) < args.minutes * 60:
            if token is not None and elapsed >= uploads * args.upload_every * 60:
                status, body = server.post("/api/submissions", {"archive": data}, token)
                uploads += status == 202
                if status != 202:
                    print(f"upload refused: {status} {body[:300]!r}", flush=True)
            if elapsed >= next_sample:
                next_sample += args.every
                games, logs, files, text, rows, kept, game_bytes = sample(folder, author)
                print(f"{elapsed / 60:6.1f} {uploads if token else 1:8d} {games:6d} {logs / MiB:9.1f} {files:9d} "
                      f"{text / 1024:14.1f} {rows:10d} {kept / MiB:8.2f} {game_bytes / 1024:13.1f}", flush=True)
            time.sleep(1)
        games, logs, files, text, rows, kept, game_bytes = sample(folder, author)
        print(f"{args.minutes:6.1f} {uploads if token else 1:8d} {games:6d} {logs / MiB:9.1f} {files:9d} "
              f"{text / 1024:14.1f} {rows:10d} {kept / MiB:8.2f} {game_bytes / 1024:13.1f}", flush=True)
        if token is not None:
            print(server.get(f"/api/bots/{author}")[1][:2000].decode(errors="replace"), flush=True)
    finally:
        server.stop()
        remove(folder)


if __name__ == "__main__":
    main()
