"""Benchmarks of worker processes (issue 14), used by run.py:

7. throughput scaling: one tournament of echo bots on 1, 2, 4 ... cores worker processes (two
   games at once per worker), games per second end to end, the ratio to one worker, and the
   largest RSS of a worker process and of the coordinator;
   Also the Dask executor against local workers: the same tournament on a Dask LocalCluster of as
   many worker processes (started beforehand, so its start-up is not counted) and on local
   workers, alternately; games/s end to end and in steady state (first to last game stored).
8. fairness in a real tournament: Dead Man's Draw among instant echo bots plus a probe that
   sleeps 20 ms and logs what it used, at concurrency 2x cores on one worker per core, with the
   store writing; charged minus used, and the instant bots' timeouts at move_ms = 30.
"""

from __future__ import annotations

import os
import resource
import sys
import threading
import time
from pathlib import Path

import trio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from arena.players._faults import FaultKind  # noqa: E402
from arena.tournament._config import config_from_dict  # noqa: E402
from arena.tournament._runner import TournamentRunner, log_dir_of  # noqa: E402
from arena.tournament._schedule import build_schedule  # noqa: E402
from arena.tournament._store import ResultsStore  # noqa: E402
from arena.tournament._workers import default_workers  # noqa: E402

ECHO = [sys.executable, str(HERE / "echo_bot.py")]


def _worker_rss_kib(parent: int) -> list[int]:
    """VmRSS of each worker process (``arena.tournament._worker_process``) whose parent is ``parent``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if b"arena.tournament._worker_process" not in Path(f"/proc/{entry}/cmdline").read_bytes():
                continue
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields["PPid"]) == parent and "VmRSS" in fields:
            found.append(int(fields["VmRSS"].split()[0]))
    return found


def _play(folder: Path, raw: dict, on_progress=None) -> tuple[float, TournamentRunner, ResultsStore, int]:
    """Run a tournament; seconds end to end, the runner, the (closed) store, peak worker RSS (KiB)."""
    config = config_from_dict(raw, folder / "bench.toml")
    store = ResultsStore.create(folder / raw["database"], config.fingerprint(), raw, config.path, [])
    log_dir_of(store.path).mkdir(exist_ok=True)
    peak = [0]
    running = threading.Event()
    running.set()

    def sample() -> None:
        while running.is_set():
            peak[0] = max([peak[0], *_worker_rss_kib(os.getpid())])
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    runner = TournamentRunner(config, store, on_progress)
    start = time.perf_counter()
    trio.run(runner.run)
    seconds = time.perf_counter() - start
    running.clear()
    sampler.join()
    return seconds, runner, store, peak[0]


def bench_scaling(games: int, folder: Path) -> dict:
    cores = default_workers()
    counts = sorted({1, *(2 ** i for i in range(1, cores.bit_length()) if 2 ** i <= cores), cores})
    rows = []
    for workers in counts:
        raw = {"game": "dead-mans-draw", "players": 2, "rounds": max(1, games // 2), "seed": 3,
               "concurrency": 2 * workers, "workers": workers, "database": f"scale-{workers}.db",
               "time": {"move_ms": 5000},
               "entrants": [{"name": "a", "command": ECHO}, {"name": "b", "command": ECHO}]}
        seconds, _, store, peak = _play(folder, raw)
        played = len(store.completed_keys())
        store.close()
        rows.append({"workers": workers, "games": played, "games_per_s": played / seconds,
                     "worker_rss_mb": peak / 1024})
    for row in rows:
        row["speedup"] = row["games_per_s"] / rows[0]["games_per_s"]
    coordinator_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"cores": cores, "rows": rows, "coordinator_rss_mb": coordinator_mb}


def bench_dask(games: int, folder: Path, repeats: int = 2) -> dict:
    """Dask LocalCluster / local workers, same workers count, echo bots."""
    try:
        import distributed
    except ImportError:
        return {"skipped": "Dask is not installed: pip install 'pirate-arena[cluster]'"}
    import logging

    workers = max(2, default_workers())
    rows = []
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                                  scheduler_kwargs={"dashboard_address": ":0"}, silence_logs=logging.CRITICAL,
                                  preload=["arena.tournament._dask"]) as cluster:
        for run in range(repeats):
            for executor in ("local", "dask"):
                raw = {"game": "dead-mans-draw", "players": 2, "rounds": max(1, games // 2), "seed": 3,
                       "concurrency": 2 * workers, "workers": workers, "database": f"dask-{executor}-{run}.db",
                       "executor": executor, "time": {"move_ms": 5000},
                       "entrants": [{"name": "a", "command": ECHO}, {"name": "b", "command": ECHO}]}
                if executor == "dask":
                    raw["scheduler"] = cluster.scheduler_address
                ends: list[float] = []
                seconds, _, store, _ = _play(folder, raw, lambda progress: ends.append(time.perf_counter()))
                played = len(store.completed_keys())
                store.close()
                rows.append({"executor": executor, "run": run, "games": played, "games_per_s": played / seconds,
                             "steady_games_per_s": (len(ends) - 1) / (ends[-1] - ends[0])})
    ratio = {key: sum(r[key] for r in rows if r["executor"] == "dask") / sum(r[key] for r in rows if r["executor"] == "local")
             for key in ("games_per_s", "steady_games_per_s")}
    return {"workers": workers, "rows": rows, "ratio": ratio, "load": os.getloadavg()[0]}


def bench_tournament_fairness(games: int, folder: Path) -> dict:
    cores = default_workers()
    raw = {"game": "dead-mans-draw", "players": 2, "rounds": 1, "seed": 5, "concurrency": 2 * cores,
           "workers": cores, "database": "fair.db", "time": {"move_ms": 30},
           "entrants": [{"name": "probe", "command": ECHO, "env": {"SLEEP_MS": "20", "PROBE_LOG": "1"}},
                        *({"name": f"e{i}", "command": ECHO} for i in range(3))]}
    # 4 entrants: 6 tables x 2 seatings per round; enough rounds for `games`
    raw["rounds"] = max(1, -(-games // 12))
    charged: dict[tuple[int, int], list[float]] = {}  # (game seed, seat) -> ms charged per move
    timeouts = [0]
    results = []

    def collect(progress) -> None:
        results.append(progress.last)

    seconds, runner, store, _ = _play(folder, raw, collect)
    schedule = build_schedule(runner.config.schedule, store.seed_key())
    store.close()
    bot_seeds = {(game.seed, game.seats): game.bot_seeds for game in schedule}
    for result in results:
        seeds = bot_seeds[(result.seed, result.bots)]
        for seat, elapsed_ms, by_bot in result.moves:
            if by_bot:
                charged.setdefault(seeds[seat], []).append(elapsed_ms)
        timeouts[0] += sum(1 for fault in result.faults
                           if fault.kind is FaultKind.TIMEOUT and result.bots[fault.seat] != "probe")
    used: dict[int, list[float]] = {}
    for log in log_dir_of(folder / raw["database"]).glob("probe.*.log"):
        for line in log.read_text().splitlines():
            seed, used_ns = line.split()
            used.setdefault(int(seed), []).append(int(used_ns) / 1e6)
    spreads = sorted(c - u for seed, moves in used.items() for c, u in zip(charged.get(seed, []), moves))
    return {"concurrency": 2 * cores, "workers": cores, "games": len(results), "seconds": seconds,
            "probe_moves": len(spreads), "median_ms": spreads[len(spreads) // 2],
            "p99_ms": spreads[int(len(spreads) * 0.99)], "max_ms": spreads[-1],
            "instant_timeouts": timeouts[0]}


def report_dask(dask: dict | None) -> str:
    if dask is None:
        return "   Dask LocalCluster / local workers: not measured in --smoke (starting a cluster takes seconds)"
    if "skipped" in dask:
        return f"   Dask LocalCluster / local workers: not measured ({dask['skipped']})"
    runs = ", ".join(f"{r['executor']} {r['games_per_s']:.1f} ({r['steady_games_per_s']:.1f})" for r in dask["rows"])
    return (f"   Dask LocalCluster / local workers, {dask['workers']} workers each, games/s end to end (steady): "
            f"{dask['ratio']['games_per_s']:.2f}x ({dask['ratio']['steady_games_per_s']:.2f}x); runs: {runs}; "
            f"load average {dask['load']:.1f}")


def report_workers(scaling: dict | None, fairness: dict | None, dask: dict | None = None) -> list[str]:
    from tabulate import tabulate

    out = []
    if scaling is not None:
        out.append(f"\n7. throughput scaling on worker processes (Dead Man's Draw, echo bots, 2 games at once per "
                   f"worker; {scaling['cores']} cores; peak RSS of this process so far, earlier sections "
                   f"included: {scaling['coordinator_rss_mb']:.0f} MB)")
        out.append(tabulate([[r["workers"], r["games"], f"{r['games_per_s']:.1f}", f"{r['speedup']:.2f}x",
                              f"{r['worker_rss_mb']:.0f}" if r["workers"] > 1 else "in-process"]
                             for r in scaling["rows"]],
                            headers=["workers", "games", "games/s", "vs 1 worker", "worker RSS MB"]))
        out.append(report_dask(dask))
    if fairness is not None:
        f = fairness
        out.append(f"\n8. fairness in a real tournament (Dead Man's Draw, store writing) at concurrency "
                   f"{f['concurrency']} on {f['workers']} workers, {f['games']} games: probe (sleeps 20 ms) charged "
                   f"minus used over {f['probe_moves']} moves: median {f['median_ms']:.2f} ms, p99 {f['p99_ms']:.2f} ms, "
                   f"max {f['max_ms']:.2f} ms; timeouts of instant bots at move_ms = 30: {f['instant_timeouts']}")
    return out
