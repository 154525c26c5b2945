"""9. Per-move round trip in real matches, protocol 1.0 against 1.1 (issue 14), used by run.py.

For every game: real games (``play_match``: engine, events, observations, the clock, ``start``
and ``end``) between two echo bots that say protocol 1.0, and the same between two that say 1.1
(which get a game's static observation fields once, in ``start.static``), in alternating blocks
with a raw Python + msgpack ping-pong (``pingpong.py --codec``: two plain processes, each round
packs the request and unpacks the reply) of that protocol's request frames. Per move:

- charged: what the clock measured, request written to reply read (``MatchResult.moves``);
- cycle: the game's duration over its bot moves, everything the arena does per move;
- bytes: what the arena wrote to one bot per game over its requests (``Connection.written``),
  and the median request frame of the sampled decisions;
- CPU: the arena process's CPU time per bot move over the games, against the raw asker's CPU per
  round (less dependent on how loaded the machine is than every time above).
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path

import trio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import engines  # noqa: E402
import protocol  # noqa: E402
from arena.match._match import MatchSettings, play_match  # noqa: E402
from arena.players._manifest import BotSpec  # noqa: E402
from arena.players._open_player import open_player  # noqa: E402
from arena.players._timecontrol import TimeControl  # noqa: E402
from bench_common import frames_file, quantiles, raw_round_trips, sample_decisions  # noqa: E402
from protocol.tools.sample import without_static  # noqa: E402

VERSIONS = ("1.0", "1.1")
SETTINGS = MatchSettings(TimeControl(move_ms=5000, reserve_ms=0, startup_ms=20_000))


def echo(version: str) -> BotSpec:
    return BotSpec(f"echo-{version}", (sys.executable, str(HERE / "echo_bot.py")), env={"PROTOCOL": version})


async def _games(game_id: str, version: str, count: int, seed: int, sandbox=None, ponder: bool = False) -> dict:
    """``count`` games between two echo bots saying ``version``: charged ms per move, cycle
    seconds per move, and bytes written per bot per game."""
    game = engines.get_game(game_id)
    options = {"deals": 1} if game_id == "opito-bay" else {}
    charged, cycles, written = [], [], []
    async with AsyncExitStack() as stack:
        bots = [await stack.enter_async_context(open_player(echo(version), 20, sandbox=sandbox)) for _ in range(2)]
        settings = dataclasses.replace(SETTINGS, time_control=dataclasses.replace(SETTINGS.time_control, ponder=ponder))
        cpu = time.process_time_ns()
        for number in range(count):
            before = [bot.connection.written for bot in bots]
            result = await play_match(game, bots, seed + number, options, settings)
            assert not result.faults, result.faults
            moves = [ms for _, ms, by_bot in result.moves if by_bot]
            charged += moves
            cycles.append(result.duration_s / len(moves))
            written += [bot.connection.written - start for bot, start in zip(bots, before)]
        cpu = time.process_time_ns() - cpu
    return {"charged_ms": charged, "cycle_s": cycles, "written": written, "cpu_ns": [cpu]}


def bench_match_round_trip(games: int, rounds: int, blocks: int, folder: Path, sandbox=None,
                           ponder: bool = False) -> dict:
    """Real matches of each game under both protocol versions against raw Python + msgpack
    ping-pong of the same version's frames, in ``blocks`` alternating blocks."""
    results = {}
    for game_id in ("dead-mans-draw", "opito-bay", "karibik"):
        samples = sample_decisions(game_id, 200)
        frames = {}
        for version in VERSIONS:
            lean = [(k, o if version == "1.0" else without_static(game_id, o), l, e) for k, o, l, e in samples]
            (folder / version).mkdir(exist_ok=True)
            frames[version] = frames_file(lean, folder / version)
        found = {version: {"charged_ms": [], "cycle_s": [], "written": [], "raw_ns": [], "cpu_ns": [],
                           "raw_cpu_ns": []} for version in VERSIONS}
        for block in range(blocks):
            for version in VERSIONS:
                played = trio.run(_games, game_id, version, games, 100 * block, sandbox, ponder)
                for key, values in played.items():
                    found[version][key] += values
                raw_ns, raw_cpu = raw_round_trips(frames[version], rounds, codec=True)
                found[version]["raw_ns"] += raw_ns[rounds // 10:]
                found[version]["raw_cpu_ns"].append(raw_cpu / rounds)
        row = {}
        for version, data in found.items():
            raw_us = quantiles(data["raw_ns"])
            charged_us = quantiles([ms * 1e6 for ms in data["charged_ms"]])
            cycle_us = statistics.median(data["cycle_s"]) * 1e6
            sizes = [len(protocol.encode(protocol.request(1, k, o if version == "1.0" else without_static(game_id, o),
                                                          e, l, 1000, 1000))) for k, o, l, e in samples]
            row[version] = {"request_bytes": statistics.median(sizes),
                            "bytes_per_game": statistics.median(data["written"]),
                            "moves": len(data["charged_ms"]), "charged_us": charged_us, "cycle_us": cycle_us,
                            "raw_codec_us": raw_us, "charged_ratio": charged_us[0] / raw_us[0],
                            "cycle_ratio": cycle_us / raw_us[0],
                            "arena_cpu_us": sum(data["cpu_ns"]) / len(data["charged_ms"]) / 1000,
                            "raw_cpu_us": statistics.median(data["raw_cpu_ns"]) / 1000}
        results[game_id] = row
    return results


def report_match_round_trip(results: dict) -> list[str]:
    from tabulate import tabulate
    out = ["\n9. per-move round trip in real matches of two echo bots, protocol 1.0 against 1.1 (microseconds;"
           "\n   charged: request written to reply read, median / p99; cycle: game duration per bot move,"
           "\n   median of games; raw: Python + msgpack ping-pong of the same version's frames, median / p99;"
           "\n   CPU: the arena process's per bot move, the raw asker's per round)"]
    out.append(tabulate([[game_id, version, f"{r['request_bytes']:.0f}", f"{r['bytes_per_game']:.0f}", r["moves"],
                          "%.1f / %.1f" % tuple(r["charged_us"]), f"{r['cycle_us']:.1f}",
                          "%.1f / %.1f" % tuple(r["raw_codec_us"]),
                          f"{r['charged_ratio']:.2f}x", f"{r['cycle_ratio']:.2f}x",
                          f"{r['arena_cpu_us']:.1f}", f"{r['raw_cpu_us']:.1f}"]
                         for game_id, rows in results.items() for version, r in rows.items()],
                        headers=["game", "protocol", "request bytes", "bytes/game/bot", "moves", "charged",
                                 "cycle", "raw py + msgpack", "charged/raw", "cycle/raw", "arena CPU/move",
                                 "raw CPU/round"],
                        disable_numparse=True))
    return out
