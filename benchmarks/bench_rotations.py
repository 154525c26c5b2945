"""What the rule "no deal crosses rotations" costs (issue 25): bot processes started and wall
time of whole tournaments, this checkout against another (e.g. main before the rule), in
alternating runs of the very same games.

    python benchmarks/bench_rotations.py --other /tmp/arena-main [--repeat 2] [--only quick-2p,...]

(``git archive main | tar -x -C /tmp/arena-main`` makes the other checkout.) For each
tournament and each (concurrency, workers), a database is made once (so both checkouts play
the same deals and bot seeds), then copied and played with ``arena tournament resume`` by
each checkout in turn, ``--repeat`` times, alternating which goes first. Processes started are
counted as the stderr logs in ``DB.logs`` (one per bot process, pre-flight included); wall
time is the command's, end to end (start-up of the arena and its workers included). The
sandbox is the default (``auto``: bubblewrap where it works, own uids and cgroups as root).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

RANDOM = ["python", "-m", "bots.random"]
HEURISTIC = ["python", "-m", "bots.heuristic"]
SEARCH = ["python", "-m", "bots.search"]

#: name -> (players, rounds, move_ms, entrants): quickstart's three bots (examples/quickstart.toml,
#: a fourth for 4 players), and a larger field of the fast bots
TOURNAMENTS = {
    "quick-2p": (2, 10, 100, {"py-random": RANDOM, "py-heuristic": HEURISTIC, "py-search": SEARCH}),
    "quick-4p": (4, 10, 100, {"py-random": RANDOM, "py-heuristic": HEURISTIC, "py-search": SEARCH,
                              "py-random-2": RANDOM}),
    "large-2p": (2, 10, 1000, {f"{kind}-{n}": command for n in range(3)
                               for kind, command in (("random", RANDOM), ("heuristic", HEURISTIC))}),
    "large-4p": (4, 5, 1000, {f"{kind}-{n}": command for n in range(3)
                              for kind, command in (("random", RANDOM), ("heuristic", HEURISTIC))}),
}
#: (concurrency, workers); concurrency 1 on two workers is one worker
SPREADS = [(1, 1), (2, 1), (2, 2)]


def tournament_file(folder: Path, name: str) -> Path:
    players, rounds, move_ms, entrants = TOURNAMENTS[name]
    lines = [f'game = "dead-mans-draw"', f"players = {players}", f"rounds = {rounds}", "seed = 2026",
             f'database = "{name}.db"', "[time]", f"move_ms = {move_ms}", "reserve_ms = 1000"]
    for entrant, command in entrants.items():
        lines += ["[[entrants]]", f'name = "{entrant}"', f"command = {json.dumps(command)}"]
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o600)
    return path


def template(folder: Path, name: str) -> Path:
    """An empty database of tournament ``name`` (its secret key made once, for every run)."""
    from arena.tournament._config import load_config
    from arena.tournament._database import open_store

    store = open_store(load_config(tournament_file(folder, name)))
    store.close()
    return folder / f"{name}.db"


def play(checkout: Path, database: Path, concurrency: int, workers: int, run_folder: Path) -> dict:
    run_folder.mkdir()
    copy = run_folder / database.name
    shutil.copy(database, copy)
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [sys.executable, "-c", "from arena.cli import main; main()", "tournament", "resume", str(copy), "-q",
               "--concurrency", str(concurrency), "--workers", str(workers)]
    load = os.getloadavg()[0]
    started = time.monotonic()
    result = subprocess.run(command, env=env, cwd=run_folder, capture_output=True, text=True, timeout=3600)
    wall = time.monotonic() - started
    if result.returncode != 0:
        raise RuntimeError(f"{checkout}: {result.stderr}")
    import sqlite3

    games = sqlite3.connect(copy).execute("SELECT COUNT(*) FROM games").fetchone()[0]
    processes = len(list(Path(f"{copy}.logs").glob("*.log")))
    return {"wall_s": round(wall, 2), "processes": processes, "games": games, "load": round(load, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True, help="the checkout to compare with (e.g. main)")
    parser.add_argument("--this", type=Path, default=ROOT, help="the checkout measured (default: this one)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated tournament names")
    parser.add_argument("--spreads", default="", help="e.g. 1x1,2x2 (concurrency x workers)")
    parser.add_argument("--out", type=Path, default=HERE / "rotations.jsonl")
    parser.add_argument("--folder", type=Path, default=None, help="where the runs' databases go (default: a "
                        "temporary folder)")
    args = parser.parse_args()
    names = [name for name in TOURNAMENTS if not args.only or name in args.only.split(",")]
    spreads = [tuple(map(int, s.split("x"))) for s in args.spreads.split(",")] if args.spreads else SPREADS
    checkouts = {"this": args.this.resolve(), "other": args.other.resolve()}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    commit = commit if args.this.resolve() == ROOT else str(args.this)
    if args.folder is not None:
        args.folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bench-rotations-", dir=args.folder) as tmp:
        folder = Path(tmp)
        folder.chmod(0o755)
        rows = []
        for name in names:
            database = template(folder, name)
            for concurrency, workers in spreads:
                for repeat in range(args.repeat):
                    order = ["this", "other"] if repeat % 2 == 0 else ["other", "this"]
                    for which in order:
                        run = play(checkouts[which], database, concurrency, workers,
                                   folder / f"{name}-{concurrency}x{workers}-{repeat}-{which}")
                        row = {"tournament": name, "concurrency": concurrency, "workers": workers,
                               "checkout": which, "commit": commit if which == "this" else str(args.other), **run}
                        rows.append(row)
                        print(json.dumps(row), flush=True)
                        with args.out.open("a") as out:
                            out.write(json.dumps(row) + "\n")
    print()
    print(f"{'tournament':10} {'c x w':6} {'games':>5}  {'starts other':>12} {'starts this':>11}  "
          f"{'wall other (s)':>14} {'wall this (s)':>13}  ratio")
    for name in names:
        for concurrency, workers in spreads:
            picked = {which: [r for r in rows if r["tournament"] == name and r["concurrency"] == concurrency
                              and r["workers"] == workers and r["checkout"] == which] for which in checkouts}
            starts = {w: statistics.median(r["processes"] for r in picked[w]) for w in checkouts}
            walls = {w: statistics.median(r["wall_s"] for r in picked[w]) for w in checkouts}
            print(f"{name:10} {concurrency}x{workers:<4} {picked['this'][0]['games']:>5}  {starts['other']:>12g} "
                  f"{starts['this']:>11g}  {walls['other']:>14.1f} {walls['this']:>13.1f}  "
                  f"{walls['this'] / walls['other']:.2f}")


if __name__ == "__main__":
    main()
