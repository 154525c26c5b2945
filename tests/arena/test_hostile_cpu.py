"""The burner attack (issue 25): a bot that answers at once but keeps 125 children burning the
CPU while it is not on move, each in a session of its own (``setsid``: a scheduler autogroup of
its own, so without cgroups each weighs as much as the whole victim), must not slow the bot on
move.

The victim spends 10 ms of its own CPU time on every move; its charged time per move must stay
within 1.5x of the same games against a bot that answers at once without burners: the median
at one game at a time and at two, the 95th percentile at one game, and within 2x at two. Without
a cpu cgroup and a freezer the attack made it x30 at one game and x37 at two here (x76 in the
issue's report); with them, x1.01-1.20 (median) and x1.15-1.36 (p95) at load 5-80 from other
work, and at two games p95 x1.57-1.71 while the suite's other worker ran its tests.

Why 2x at two games: there a victim may already be on move when the burner bot replies in the
other game. Its burners go on the moment it has answered, and the freezer stops them only as
each of the 125 gets the CPU to be stopped; a bot's clock waits for that only before its move
starts (at most 50 ms), not during it. On 2 cores with the suite's other worker beside it,
that tail shows in the slowest twentieth of the victim's moves, not in the median.

Timing on a shared machine is noisy: baseline and attack games alternate, four rounds of each,
and a comparison that fails is measured again (at most three times in all) before the test
fails: an attack that works fails every time.
"""

import statistics
import sys
import uuid
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
import trio

import engines
from arena.match._match import MatchSettings, play_match
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from arena.sandbox._detect import detect_sandbox

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

BOTS = Path(__file__).parent / "bots"
#: Dead Man's Draw without its opening character choice: one bot on move at a time
GAME, OPTIONS = engines.get_game("dead-mans-draw"), {"characters": False}
SETTINGS = MatchSettings(TimeControl(move_ms=5000, reserve_ms=0, startup_ms=20_000))
VICTIM_CPU_MS, BURNERS = "10", "125"
ROUNDS, ATTEMPTS, BOUND = 4, 3, 1.5
#: the bound of the 95th percentile by games at once (see the module docstring)
P95_BOUND = {1: 1.5, 2: 2.0}


def bot(mode: str, *args: str) -> BotSpec:
    return BotSpec(mode, (sys.executable, str(BOTS / "cpu.py"), mode, *args, f"pirate-arena-test-{uuid.uuid4().hex}"))


async def charged(victims, others, seed: int, into: list[float]) -> None:
    """Each victim plays the bot beside it, all games at once; the victims' charged ms go ``into``."""
    async def one(victim, other, seed):
        result = await play_match(GAME, [victim, other], seed=seed, options=OPTIONS, settings=SETTINGS)
        assert result.faults == (), result.faults
        into.extend(ms for seat, ms, by_bot in result.moves if seat == 0)

    async with trio.open_nursery() as nursery:
        for number, (victim, other) in enumerate(zip(victims, others)):
            nursery.start_soon(one, victim, other, seed + number)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


@pytest.mark.slow
@pytest.mark.parametrize("concurrency", [1, 2])
async def test_burners_of_a_bot_not_on_move_do_not_slow_the_one_on_move(concurrency):
    box = detect_sandbox("auto")
    try:
        if box.cgroups is None or not (box.cgroups.hierarchy("cpu") and box.cgroups.hierarchy("freezer")):
            pytest.skip("needs writable cgroup cpu and freezer hierarchies (run as root)")
        figures = []
        async with AsyncExitStack() as stack:
            async def started(spec):
                return await stack.enter_async_context(open_player(spec, 20, sandbox=box))

            victims = [await started(bot("busy", VICTIM_CPU_MS)) for _ in range(concurrency)]
            quiet = [await started(bot("busy", "0")) for _ in range(concurrency)]
            # Their burners burn only during their own games (the bot stops them between).
            attackers = [await started(bot("burner", BURNERS)) for _ in range(concurrency)]
            for _ in range(ATTEMPTS):
                base, attacked = [], []
                for number in range(ROUNDS):
                    await charged(victims, quiet, 10 * number, base)
                    await charged(victims, attackers, 10 * number, attacked)
                ratios = (statistics.median(attacked) / statistics.median(base), p95(attacked) / p95(base))
                figures.append(f"median {statistics.median(base):.1f} -> {statistics.median(attacked):.1f} ms, "
                               f"p95 {p95(base):.1f} -> {p95(attacked):.1f} ms (x{ratios[0]:.2f}, x{ratios[1]:.2f})")
                if ratios[0] <= BOUND and ratios[1] <= P95_BOUND[concurrency]:
                    return
    finally:
        box.close()
    pytest.fail(f"the victim's charged time per move with the burners beside it, {ATTEMPTS} times: "
                + "; ".join(figures))
