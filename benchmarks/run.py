"""pirate-arena benchmarks: the arena's costs beside their physical references.

    python benchmarks/run.py            # full run (about a minute and a half), writes benchmarks/results.json
    python benchmarks/run.py --smoke    # seconds: proves every benchmark still works (CI)
    python benchmarks/run.py --awake    # with one core kept busy at the lowest priority (VMs)

1. per-move round trip: arena request -> trivial bot -> reply, with real observations of each
   game, against a raw blocking-pipe ping-pong of the same bytes between two Python processes,
   the same ping-pong packing and unpacking the messages with msgpack, and (when a C compiler is
   present) between two C processes; in alternating blocks, with each asker's CPU;
2. engine cost per decision (the match's calls: kind, events, legal actions, observation,
   apply), in-process, as a share of (1);
3. throughput of real tournaments of trivial bots at several concurrencies, in steady state,
   against raw ping-pong pairs (as many) in steady state, and the arena's own CPU time per move;
4. start-up of a bot process (Python, JavaScript, C) against reusing one;
5. ratings: fitting 10^4..10^6 games among 100 entrants, and the bootstrap;
6. timing fairness under load: what a bot is charged minus what it used, at 2x cores;
7. throughput scaling on 1..cores worker processes, and their memory (bench_workers.py);
8. timing fairness in a real tournament on worker processes, the store writing (bench_workers.py);
9. per-move round trip in real matches, protocol 1.0 against 1.1, against raw Python + msgpack
   ping-pong of the same frames (bench_match_rtt.py);
10. environments: random play steps/s per core through the bare engine, the OpenSpiel adapter
   and the PettingZoo environment, and copies (clone, resample) per second (bench_envs.py;
   needs the [openspiel] and [pettingzoo] extras, else skipped).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio
from tabulate import tabulate

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import engines  # noqa: E402
import protocol  # noqa: E402
from arena.players._manifest import BotSpec  # noqa: E402
from arena.players._open_player import open_player  # noqa: E402
from arena.players._timecontrol import GameClock  # noqa: E402
from arena.tournament._config import config_from_dict  # noqa: E402
from arena.tournament._runner import TournamentRunner  # noqa: E402
from arena.tournament._store import ResultsStore  # noqa: E402
from bench_common import frames_file, quantiles, raw_round_trips, sample_decisions  # noqa: E402
from bench_envs import bench_envs, report_envs  # noqa: E402
from bench_match_rtt import bench_match_round_trip, report_match_round_trip  # noqa: E402
from bench_workers import bench_dask, bench_scaling, bench_tournament_fairness, report_workers  # noqa: E402

ECHO = BotSpec("echo", (sys.executable, str(HERE / "echo_bot.py")))
GAMES = ("dead-mans-draw", "opito-bay", "karibik")


# -- 1. round trip -------------------------------------------------------------------------------

async def arena_round_trips(samples, rounds: int, sandbox=None, ponder: bool = False) -> tuple[list[int], int]:
    """Round-trip times (ns) of ``Player.decide`` with the echo bot, and the CPU ns they used."""
    times = []
    clock = time.perf_counter_ns
    async with open_player(ECHO, sandbox=sandbox) as player:
        game_clock = GameClock(60.0, 0.0, ponder=ponder)
        cpu = time.process_time_ns()
        for index in range(rounds):
            kind, observation, legal, events = samples[index % len(samples)]
            start = clock()
            await player.decide(kind, observation, events, legal, game_clock)
            times.append(clock() - start)
        cpu = time.process_time_ns() - cpu
    return times, cpu


def c_pingpong(folder: Path) -> Path | None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    binary = folder / "pingpong"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(HERE / "pingpong.c")], check=True)
    return binary


def c_round_trips(binary: Path, frames: Path, rounds: int) -> list[int]:
    out = subprocess.run([str(binary), str(frames), str(rounds), "40"], capture_output=True, text=True,
                         check=True).stdout
    return [int(line) for line in out.split()]


@contextlib.contextmanager
def cgroup_sandbox(mode: str):
    """``--cgroups``: bots in cgroups of their own (as root; no uid, no bubblewrap), frozen
    while not on move (``freeze``) or not (``ponder``); ``None`` for ``off``."""
    if mode == "off":
        yield None
        return
    from arena.sandbox._cgroups import find_cgroups
    from arena.sandbox._sandbox import Sandbox

    layout = find_cgroups()
    if layout is None:
        raise SystemExit("--cgroups needs root and a writable cgroup filesystem")
    box = Sandbox(cgroups=layout)
    try:
        yield box
    finally:
        box.close()


def bench_round_trip(rounds: int, blocks: int, folder: Path, sandbox=None, ponder: bool = False) -> dict:
    """Arena, raw Python and raw C round trips, measured in alternating blocks so that a
    machine whose speed drifts (a shared VM) slows all three alike; the first tenth of each
    block (warm-up) is dropped."""
    binary = c_pingpong(folder)
    results = {}
    per_block = max(20, rounds // blocks)
    warm = per_block // 10
    for game_id in GAMES:
        samples = sample_decisions(game_id, 200)
        frames = frames_file(samples, folder)
        arena, raw, codec, stamped, c = [], [], [], [], []
        arena_cpu = raw_cpu = codec_cpu = stamped_cpu = 0
        for _ in range(blocks):
            times, cpu = trio.run(arena_round_trips, samples, per_block, sandbox, ponder)
            arena += times[warm:]
            arena_cpu += cpu
            times, cpu = raw_round_trips(frames, per_block)
            raw += times[warm:]
            raw_cpu += cpu
            times, cpu = raw_round_trips(frames, per_block, codec=True)
            codec += times[warm:]
            codec_cpu += cpu
            times, cpu = raw_round_trips(frames, per_block, codec=True, stamped=True)
            stamped += times[warm:]
            stamped_cpu += cpu
            if binary:
                c += c_round_trips(binary, frames, per_block)[warm:]
        arena_q, raw_q = quantiles(arena), quantiles(raw)
        size = statistics.median(len(f) for f in [protocol.encode(protocol.request(
            1, k, o, e, l, 1000, 1000)) for k, o, l, e in samples])
        rounds_done = blocks * per_block
        results[game_id] = {"frame_bytes": size, "arena_us": arena_q, "raw_python_us": raw_q,
                            "raw_c_us": quantiles(c) if binary else None, "ratio_median": arena_q[0] / raw_q[0],
                            "raw_codec_us": quantiles(codec), "ratio_codec": arena_q[0] / quantiles(codec)[0],
                            "raw_socket_us": quantiles(stamped),
                            "ratio_socket": arena_q[0] / quantiles(stamped)[0],
                            "raw_socket_cpu_us": stamped_cpu / 1000 / rounds_done,
                            "arena_cpu_us": arena_cpu / 1000 / rounds_done,
                            "raw_python_cpu_us": raw_cpu / 1000 / rounds_done,
                            "raw_codec_cpu_us": codec_cpu / 1000 / rounds_done}
    return results


# -- 2. engine cost ------------------------------------------------------------------------------

def bench_engine(decisions: int) -> dict:
    """What the match asks of the engine per decision, call for call (``arena/match/_match.py``):
    the decision kind, its events, the legal actions, the observation, the look-up of the
    bot's action in the listed legal actions (``State.check`` only for unlisted kinds), and
    applying the step. Choosing the action is the bot's cost and is left out of the timing."""
    results = {}
    for game_id in GAMES:
        game = engines.get_game(game_id)
        rng = random.Random(2)
        times, seed = [], 0
        clock = time.perf_counter_ns
        while len(times) < decisions:
            state = game.new_state(2, seed, {"deals": 1} if game_id == "opito-bay" else {})
            cursors = [0] * state.num_players
            seed += 1
            while state.acting and len(times) < decisions:
                choices = {seat: state.random_action(seat, rng) for seat in state.acting}
                start = clock()
                for seat in state.acting:
                    state.decision(seat)
                    state.events_for(seat, cursors[seat])
                    cursors[seat] = len(state.log)
                    legal = state.legal_actions(seat)
                    state.observation(seat)
                    if legal is None or not any(engines.same_value(choices[seat], c) for c in legal):
                        state.check(seat, choices[seat])
                state.apply_checked(choices)
                times.append(clock() - start)
        results[game_id] = {"per_decision_us": quantiles(times)}
    return results


# -- 3. throughput -------------------------------------------------------------------------------

def tournament_config(folder: Path, game_id: str, concurrency: int, games: int) -> dict:
    return {
        "game": game_id, "players": 2, "rounds": max(1, games // 2), "seed": 3, "concurrency": concurrency,
        "workers": 1,  # one arena process: section 7 spreads over workers
        "database": f"bench-{game_id}-{concurrency}.db", "options": {"deals": 1} if game_id == "opito-bay" else {},
        "time": {"move_ms": 5000, "reserve_ms": 0},
        "entrants": [{"name": "a", "command": list(ECHO.command)}, {"name": "b", "command": list(ECHO.command)}],
    }


def run_tournament(folder: Path, raw: dict) -> dict:
    """Seconds end to end, bot moves, arena CPU seconds, and the steady rate: moves per second
    between the first and the last game's end (every worker has started its bots by then)."""
    config = config_from_dict(raw, folder / "bench.toml")
    store = ResultsStore.create(folder / raw["database"], config.fingerprint(), raw, config.path, [])
    ends: list[tuple[float, int]] = []  # (time a game ended, bot moves so far)

    def count(progress):
        moves = sum(1 for _, _, by_bot in progress.last.moves if by_bot)
        ends.append((time.perf_counter(), (ends[-1][1] if ends else 0) + moves))

    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    trio.run(TournamentRunner(config, store, count).run)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    store.close()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    (first, first_moves), (last, moves) = ends[0], ends[-1]
    return {"seconds": seconds, "moves": moves, "cpu": cpu,
            "steady_moves_per_s": (moves - first_moves) / (last - first), "steady_s": last - first}


def raw_throughput(frames: Path, pairs: int, seconds: float) -> float:
    """Round trips per second of ``pairs`` raw ping-pong pairs running at once, in steady state:
    all pairs start their processes, then ping-pong in the same window of ``seconds``."""
    start_ns = time.monotonic_ns() + int((0.3 + 0.1 * pairs) * 1e9)  # time to start 2 x pairs processes
    end_ns = start_ns + int(seconds * 1e9)
    processes = [subprocess.Popen([sys.executable, str(HERE / "pingpong.py"), str(frames), "--window",
                                   str(start_ns), str(end_ns)], stdout=subprocess.PIPE, text=True)
                 for _ in range(pairs)]
    rounds = sum(int(process.communicate()[0].split()[1]) for process in processes)
    return rounds / seconds


def bench_throughput(concurrencies, games: int, folder: Path) -> dict:
    results = {}
    for game_id in GAMES:
        frames = frames_file(sample_decisions(game_id, 200), folder)
        rows = []
        for concurrency in concurrencies:
            played = max(games, 4 * concurrency)
            tournament = run_tournament(folder, tournament_config(folder, game_id, concurrency, played))
            raw = raw_throughput(frames, concurrency, max(0.5, tournament["steady_s"]))
            rows.append({"concurrency": concurrency, "games_per_s": played / tournament["seconds"],
                         "moves_per_s": tournament["steady_moves_per_s"], "raw_moves_per_s": raw,
                         "share_of_raw": tournament["steady_moves_per_s"] / raw,
                         "arena_cpu_us_per_move": 1e6 * tournament["cpu"] / max(tournament["moves"], 1)})
        results[game_id] = rows
    return results


# -- 4. start-up ---------------------------------------------------------------------------------

async def startup_times(spec: BotSpec, count: int) -> list[int]:
    times = []
    for _ in range(count):
        start = time.perf_counter_ns()
        async with open_player(spec) as player:
            assert player.usable, player.failure
            times.append(time.perf_counter_ns() - start)
    return times


def bench_startup(count: int, reuse_us: float) -> dict:
    bots = {"python (SDK random)": BotSpec("py", (sys.executable, "-m", "bots.random"), cwd=ROOT),
            "python (raw echo)": ECHO}
    if shutil.which("node") and (ROOT / "examples/bots/js-random/node_modules").is_dir():
        bots["javascript"] = BotSpec("js", ("node", "bot.js"), cwd=ROOT / "examples/bots/js-random")
    if (ROOT / "examples/bots/c-random/c-random").is_file():
        bots["c"] = BotSpec("c", ("./c-random",), cwd=ROOT / "examples/bots/c-random")
    results = {}
    for name, spec in bots.items():
        median, _ = quantiles(trio.run(startup_times, spec, count))
        results[name] = {"start_ms": median / 1000, "reuse_us": reuse_us, "ratio": median / reuse_us}
    return results


# -- 5. ratings ----------------------------------------------------------------------------------

def bench_ratings(sizes, n_boot: int) -> dict:
    import numpy as np

    sys.path.insert(0, str(HERE))
    from bench_ratings import make_games  # noqa: E402

    from arena.ratings import bootstrap_bradley_terry, fit_bradley_terry

    results = {}
    for size in sizes:
        records, _ = make_games(size, 2, np.random.default_rng(size))
        start = time.perf_counter()
        fit_bradley_terry(records)
        fit_s = time.perf_counter() - start
        start = time.perf_counter()
        bootstrap_bradley_terry(records, n_boot=n_boot)
        results[str(size)] = {"fit_s": fit_s, "bootstrap_s": time.perf_counter() - start, "n_boot": n_boot}
    return results


# -- 6. fairness ---------------------------------------------------------------------------------

async def fairness(concurrency: int, moves: int, sleep_ms: int) -> list[float]:
    """Charged minus really used, in ms. The bot measures what it used itself (from reading the
    request to writing the reply) and answers with it, when REPORT_USED is set."""
    spec = BotSpec("sleeper", ECHO.command, env={"SLEEP_MS": str(sleep_ms), "REPORT_USED": "1"})
    spreads: list[float] = []

    async def worker() -> None:
        async with open_player(spec) as player:
            clock = GameClock(60.0, 0.0)
            for _ in range(moves):
                used_ns, elapsed = await player.decide("draw", {"seat": 0}, [], ["draw", "collect"], clock)
                spreads.append(elapsed * 1000 - used_ns / 1e6)

    async with trio.open_nursery() as nursery:
        for _ in range(concurrency):
            nursery.start_soon(worker)
    return spreads


def bench_fairness(moves: int) -> dict:
    concurrency = 2 * (os.cpu_count() or 1)
    spreads = sorted(trio.run(fairness, concurrency, moves, 20))
    return {"concurrency": concurrency, "sleep_ms": 20, "bot_answers": concurrency * moves,
            "median_ms": spreads[len(spreads) // 2],
            "p99_ms": spreads[int(len(spreads) * 0.99)], "max_ms": spreads[-1]}


# -- report --------------------------------------------------------------------------------------

def report(results: dict) -> str:
    out = [f"machine: {results['machine']}; load average {results['load'][0]:.1f} at the start, "
           f"{results['load'][-1]:.1f} at the end"]
    if "round_trip" in results:
        out += report_round_trip(results["round_trip"])
    if "engine" in results:
        out.append("\n2. engine cost per decision (what the match calls: kind, events, legal, observation, apply)")
        out.append(tabulate([[g, "%.1f / %.1f" % tuple(r["per_decision_us"]),
                              f"{100 * r['per_decision_us'][0] / results['round_trip'][g]['arena_us'][0]:.0f}%"
                              if "round_trip" in results else "-"]
                             for g, r in results["engine"].items()],
                            headers=["game", "us median / p99", "share of arena round trip"]))
    if "throughput" in results:
        out.append("\n3. throughput of tournaments between trivial bots (first legal action); games/s end to end,"
                   "\n   moves/s in steady state (first to last game end) against raw pairs in steady state")
        out.append(tabulate([[g, r["concurrency"], f"{r['games_per_s']:.1f}", f"{r['moves_per_s']:.0f}",
                              f"{r['raw_moves_per_s']:.0f}", f"{100 * r['share_of_raw']:.0f}%",
                              f"{r['arena_cpu_us_per_move']:.1f}"]
                             for g, rows in results["throughput"].items() for r in rows],
                            headers=["game", "conc.", "games/s", "moves/s", "raw moves/s", "of raw",
                                     "arena CPU us/move"]))
    if "startup" in results:
        out.append("\n4. start-up of a bot process")
        out.append(tabulate([[n, f"{r['start_ms']:.1f}", f"{r['reuse_us']:.1f}", f"{r['ratio']:.0f}x"]
                             for n, r in results["startup"].items()],
                            headers=["bot", "start + hello (ms)", "reuse: one round trip (us)", "ratio"]))
    if "ratings" in results:
        out.append("\n5. ratings (100 entrants, 2-player games)")
        out.append(tabulate([[n, f"{r['fit_s']:.2f}", f"{r['bootstrap_s']:.2f}", r["n_boot"]]
                             for n, r in results["ratings"].items()],
                            headers=["games", "BT fit (s)", "bootstrap (s)", "replicates"]))
    if "fairness" in results:
        f = results["fairness"]
        out.append(f"\n6. timing fairness at concurrency {f['concurrency']} (bot sleeps {f['sleep_ms']} ms): "
                   f"charged minus what the bot measured it used: median {f['median_ms']:.2f} ms, "
                   f"p99 {f['p99_ms']:.2f} ms, max {f['max_ms']:.2f} ms")
    if "scaling" in results or "tournament_fairness" in results:
        out += report_workers(results.get("scaling"), results.get("tournament_fairness"), results.get("dask"))
    if "match_round_trip" in results:
        out += report_match_round_trip(results["match_round_trip"])
    if "envs" in results:
        out += report_envs(results["envs"])
    return "\n".join(out)


def report_round_trip(round_trip: dict) -> list[str]:
    out = ["\n1. per-move round trip (microseconds, median / p99)"]
    out.append(tabulate([[g, r["frame_bytes"], "%.1f / %.1f" % tuple(r["arena_us"]),
                          "%.1f / %.1f" % tuple(r["raw_python_us"]),
                          "%.1f / %.1f" % tuple(r["raw_codec_us"]),
                          "%.1f / %.1f" % tuple(r["raw_socket_us"]),
                          "%.1f / %.1f" % tuple(r["raw_c_us"]) if r["raw_c_us"] else "-",
                          f"{r['ratio_median']:.2f}x", f"{r['ratio_codec']:.2f}x", f"{r['ratio_socket']:.2f}x"]
                         for g, r in round_trip.items()],
                        headers=["game", "bytes", "arena", "raw python", "raw py + msgpack", "raw + msgpack, socket",
                                 "raw C", "arena/raw py", "arena/raw+msgpack", "arena/raw socket"]))
    out.append("   raw + msgpack, socket: the same with the bot's stdout a stamping TCP socket read by recvmsg, as"
               "\n   the arena's (the transport the clock needs, without the arena)")
    out.append("   CPU of the asking process per round trip (microseconds): " + "; ".join(
        f"{g} arena {r['arena_cpu_us']:.1f}, raw {r['raw_python_cpu_us']:.1f}, raw + msgpack {r['raw_codec_cpu_us']:.1f}, "
        f"socket {r['raw_socket_cpu_us']:.1f}"
        for g, r in round_trip.items()))
    return out


@contextlib.contextmanager
def awake_core(enabled: bool):
    """With ``enabled``, keep one spinning process at the lowest priority for the duration.

    On a VM an idle vCPU is slow to wake (this project's VM: a raw Python ping-pong takes
    about 65 us idle and 21 us with a core kept busy), so latencies measured on an idle VM
    say more about the hypervisor than about the code; a tournament keeps its cores busy."""
    if not enabled:
        yield
        return
    spinner = subprocess.Popen([sys.executable, "-c", "import os\nos.nice(19)\nwhile True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: seconds, for CI")
    parser.add_argument("--json", type=Path, default=HERE / "results.json", help="where to write the figures")
    parser.add_argument("--awake", action="store_true",
                        help="keep a core busy with a lowest-priority spinner (VMs whose idle vCPUs wake slowly)")
    parser.add_argument("--cgroups", choices=("off", "freeze", "ponder"), default="off",
                        help="sections 1 and 9: bots in cgroups of their own (root), frozen while not on move "
                             "(freeze) or not (ponder)")
    parser.add_argument("--only", metavar="SECTIONS",
                        help="comma-separated section numbers to run alone, e.g. 1,9 (figures not written "
                             "to --json unless it is given; section 4 needs 1)")
    args = parser.parse_args()
    smoke = args.smoke
    only = {int(part) for part in args.only.split(",")} if args.only else set(range(1, 11))
    if 4 in only:
        only.add(1)
    ponder = args.cgroups == "ponder"
    with tempfile.TemporaryDirectory() as tmp, awake_core(args.awake), cgroup_sandbox(args.cgroups) as box:
        folder = Path(tmp)
        results = {"machine": f"{platform.node()} {platform.machine()} {os.cpu_count()} cores, "
                              f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}"
                              + (", one core kept awake (--awake)" if args.awake else "")
                              + (f", bots in cgroups (--cgroups {args.cgroups})" if box else ""),
                   "load": [os.getloadavg()[0]]}
        if 1 in only:
            results["round_trip"] = bench_round_trip(200 if smoke else 10000, 2 if smoke else 10, folder, box, ponder)
        if 2 in only:
            results["engine"] = bench_engine(200 if smoke else 20000)
        if 3 in only:
            results["throughput"] = bench_throughput([1, 2] if smoke else [1, 2, 4, 8, 16], 4 if smoke else 60,
                                                     folder)
        if 4 in only:
            reuse = results["round_trip"]["dead-mans-draw"]["arena_us"][0]
            results["startup"] = bench_startup(2 if smoke else 10, reuse)
        if 5 in only:
            results["ratings"] = bench_ratings([10_000] if smoke else [10_000, 100_000, 1_000_000],
                                               20 if smoke else 100)
        if 6 in only:
            results["fairness"] = bench_fairness(10 if smoke else 100)
        if 7 in only:
            results["scaling"] = bench_scaling(8 if smoke else 400, folder)
            results["dask"] = None if smoke else bench_dask(400, folder)
        if 8 in only:
            results["tournament_fairness"] = bench_tournament_fairness(12 if smoke else 1000, folder)
        if 9 in only:
            results["match_round_trip"] = bench_match_round_trip(1 if smoke else 6, 50 if smoke else 2000,
                                                                 1 if smoke else 5, folder, box, ponder)
        if 10 in only:
            results["envs"] = bench_envs(0.05 if smoke else 2.0, 1 if smoke else 3)
        results["load"].append(os.getloadavg()[0])
    if not smoke and (args.only is None or "--json" in sys.argv):
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    print(report(results))


if __name__ == "__main__":
    main()
