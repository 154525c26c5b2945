"""How much a rival's CPU burners slow the bot on move (issue 32, point 3).

    python benchmarks/bench_rival_slowing.py [--rounds 6] [--burners 124]

As root with cgroups (the arena's default sandbox). The victim (``tests/arena/bots/cpu.py
busy 10``) spends 10 ms of its own CPU time per move in Dead Man's Draw without characters;
it plays a quiet bot that answers at once (the baseline) and a bot that answers at once but
keeps N ``setsid`` children burning the CPU while it is not on move (the attack), one game at a
time, the two alternating, round after round. Four ways, each its own rounds, interleaved:
frozen off move (the default) with the arena's wait for the freeze to take hold before the
next bot's clock starts (``FREEZE_WAIT_S``) and without it, and ``ponder = true`` (nobody
frozen) likewise. It prints the victim's charged ms per move, median and 95th percentile, and
their ratios to the baseline.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import uuid
from contextlib import AsyncExitStack
from pathlib import Path

import trio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import engines  # noqa: E402
from arena.match._match import MatchSettings, play_match  # noqa: E402
from arena.players import _player  # noqa: E402
from arena.players._manifest import BotSpec  # noqa: E402
from arena.players._open_player import open_player  # noqa: E402
from arena.players._timecontrol import TimeControl  # noqa: E402
from arena.sandbox._detect import detect_sandbox  # noqa: E402

BOTS = HERE.parent / "tests" / "arena" / "bots"
GAME, OPTIONS = engines.get_game("dead-mans-draw"), {"characters": False}
SETTINGS = MatchSettings(TimeControl(move_ms=5000, reserve_ms=0, startup_ms=20_000))


def bot(mode: str, *args: str) -> BotSpec:
    return BotSpec(mode, (sys.executable, str(BOTS / "cpu.py"), mode, *args, f"pirate-arena-bench-{uuid.uuid4().hex}"))


async def victim_ms(victim, other, seed: int, settings: MatchSettings) -> list[float]:
    result = await play_match(GAME, [victim, other], seed=seed, options=OPTIONS, settings=settings)
    assert result.faults == (), result.faults
    return [ms for seat, ms, _ in result.moves if seat == 0]


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--burners", type=int, default=124)
    arguments = parser.parse_args()
    box = detect_sandbox("auto")
    if box.cgroups is None:
        raise SystemExit("needs cgroups (run as root)")
    ways = {"frozen, wait": (False, _player.FREEZE_WAIT_S), "frozen, no wait": (False, 0.0),
            "ponder, wait": (True, _player.FREEZE_WAIT_S), "ponder, no wait": (True, 0.0)}
    figures = {way: ([], []) for way in ways}
    print(f"load {os.getloadavg()[0]:.1f}; {arguments.rounds} rounds, {arguments.burners} burners")
    try:
        async with AsyncExitStack() as stack:
            async def started(spec):
                return await stack.enter_async_context(open_player(spec, 20, sandbox=box))

            victim = await started(bot("busy", "10"))
            quiet = await started(bot("busy", "0"))
            attacker = await started(bot("burner", str(arguments.burners)))
            for number in range(arguments.rounds):
                for way, (ponder, wait) in ways.items():
                    _player.FREEZE_WAIT_S = wait
                    settings = dataclasses.replace(SETTINGS, time_control=dataclasses.replace(SETTINGS.time_control, ponder=ponder))
                    base, attacked = figures[way]
                    base += await victim_ms(victim, quiet, 10 * number, settings)
                    attacked += await victim_ms(victim, attacker, 10 * number, settings)
    finally:
        box.close()
    for way, (base, attacked) in figures.items():
        print(f"{way:16} median {statistics.median(base):6.1f} -> {statistics.median(attacked):6.1f} ms "
              f"(x{statistics.median(attacked) / statistics.median(base):.2f}), p95 {p95(base):6.1f} -> "
              f"{p95(attacked):6.1f} ms (x{p95(attacked) / p95(base):.2f}); {len(attacked)} moves")


if __name__ == "__main__":
    trio.run(main)
