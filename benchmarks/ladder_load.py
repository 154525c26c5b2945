"""Ladder load: leaderboard and bot pages over localhost with 50 active bots and 100,000
stored games (issue 18: target < 200 ms a page).

Builds a ladder database with synthetic games (direct inserts: seats, ranks from true
strengths, 1 % of games with a fault and its stderr tail, a small replay blob each), fits the
ratings as the runner does (a few fits, so the rating history has points), then serves the
web app alone (``build_app``, no runner: nothing else competes for the loop) in a child
process and times GET requests from this one, one at a time (the figure is one page's
latency, not throughput)::

    python benchmarks/ladder_load.py                      # 50 bots, 100,000 games
    python benchmarks/ladder_load.py --bots 10 --games 2000 --requests 3    # smoke size

Prints a table (median, p95 and max ms per page) and the build time.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.ladder._matchmaking import LadderGame  # noqa: E402
from arena.ladder._runner import fit_ratings  # noqa: E402
from arena.ladder._store import LadderStore  # noqa: E402

GAME = "dead-mans-draw"


def build(path: Path, bots: int, games: int, seed: int = 1, fits: int = 5) -> list[str]:
    """A ladder database at ``path`` with ``bots`` active versions and ``games`` games;
    returns the entrant names."""
    rng = random.Random(seed)
    store = LadderStore.open(path, GAME, 2)
    try:
        names = [store.add_submission(f"author{i:02d}", None, ROOT / "examples" / "bots" / "py-random.toml")[1]
                 for i in range(bots)]
        store.activate(1)
        strength = {name: rng.gauss(0, 1) for name in names}
        db = store._db
        records, blocks = [], []
        now = time.time()
        with db:
            db.execute("BEGIN")
            game_id = 0
            for block in range(1, games // 2 + 1):
                a, b = rng.sample(names, 2)
                deal = rng.getrandbits(53)
                for rotation, seats in enumerate(((a, b), (b, a))):
                    game_id += 1
                    p = 1 / (1 + math.exp(strength[seats[1]] - strength[seats[0]]))
                    ranks = (1, 2) if rng.random() < p else (2, 1)
                    faults = []
                    if rng.random() < 0.01:
                        seat = rng.randrange(2)
                        faults = [{"seat": seat, "bot": seats[seat], "kind": "timeout", "step": 7,
                                   "detail": "no reply within 100 ms", "stderr_tail": "thinking...\n" * 20}]
                        db.execute("INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?)",
                                   (game_id, seats[seat], "timeout", 7, faults[0]["detail"], faults[0]["stderr_tail"]))
                    replay = {"game": GAME, "players": 2, "seed": deal, "options": {}, "steps": []}
                    db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (
                        game_id, f"b{block}s{rotation}", f"b{block}", rotation, deal, json.dumps(list(seats)),
                        json.dumps(list(ranks)), json.dumps([60, 40]), json.dumps(faults),
                        "forfeit" if faults else "normal", 50, 0.05, now, msgpack.packb(replay)))
                    db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)",
                                   [(name, game_id, seat, rank) for seat, (name, rank) in enumerate(zip(seats, ranks))])
                    records.append(LadderGame(seats, ranks))
                    blocks.append(f"b{block}")
        for part in range(1, fits + 1):
            count = len(records) * part // fits
            store.save_fit(count, fit_ratings(records[:count], blocks[:count]))
        return names
    finally:
        store.close()


async def _serve(path: Path) -> None:
    import trio
    from hypercorn.config import Config
    from hypercorn.trio import serve

    from arena.ladder._app import build_app
    from arena.ladder._config import load_ladder

    folder = Path(tempfile.mkdtemp())
    (folder / "ladder.toml").write_text(f'game = "{GAME}"\nport = 0\n', encoding="utf-8")
    config = load_ladder(folder / "ladder.toml")
    web = Config()
    web.bind = ["127.0.0.1:0"]
    web.accesslog = None
    web.loglevel = "WARNING"
    async with trio.open_nursery() as nursery:
        urls = await nursery.start(lambda task_status: serve(build_app(LadderStore.open(path), config, lambda: None),
                                                             web, shutdown_trigger=trio.sleep_forever,
                                                             task_status=task_status))
        print(urls[0], flush=True)


def measure(path: Path, names: list[str], requests: int) -> dict[str, list[float]]:
    """Serve ``path`` in a child process; time ``requests`` GETs of each page (ms)."""
    child = subprocess.Popen([sys.executable, __file__, "--serve", str(path)], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        url = child.stdout.readline().strip()
        best = names[0]
        pages = {"/": "leaderboard page", "/api/leaderboard": "leaderboard JSON", f"/bots/{best}": "bot page",
                 f"/api/bots/{best}": "bot JSON", f"/api/games?bot={best}": "games JSON",
                 f"/bots/{best.rsplit('-v', 1)[0]}": "author page"}
        times: dict[str, list[float]] = {}
        for page, label in pages.items():
            urllib.request.urlopen(url + page, timeout=60).read()  # warm: first-use imports
            for _ in range(requests):
                start = time.perf_counter()
                with urllib.request.urlopen(url + page, timeout=60) as response:
                    response.read()
                    assert response.status == 200
                times.setdefault(label, []).append(1000 * (time.perf_counter() - start))
        return times
    finally:
        child.terminate()
        child.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=50)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--serve", metavar="DB", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        import trio

        trio.run(_serve, Path(args.serve))
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ladder.db"
        start = time.perf_counter()
        names = build(path, args.bots, args.games)
        built = time.perf_counter() - start
        times = measure(path, names, args.requests)
        print(f"ladder load: {args.bots} active bots, {args.games} games "
              f"(built and fitted in {built:.1f} s; {path.stat().st_size / 1e6:.0f} MB)")
        print(f"{'page':<18} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
        for label, values in times.items():
            values.sort()
            p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
            print(f"{label:<18} {statistics.median(values):>10.1f} {p95:>8.1f} {values[-1]:>8.1f}")


if __name__ == "__main__":
    main()
