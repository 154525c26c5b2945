"""``in_turn``: the seats of a simultaneous decision are asked one after another, so no two
bots of a game run at once (nothing can pass between them while they decide); by default
they are asked together. Real processes, the toy game's simultaneous votes."""

import json
import sys
from contextlib import AsyncExitStack
from pathlib import Path

from arena.match._match import MatchSettings, play_match
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from arena.sandbox._detect import detect_sandbox

from ._toy import TOY

BOTS = Path(__file__).parent / "bots"


async def vote_windows(in_turn: bool) -> list[list[tuple[float, float]]]:
    """Each seat's (request arrived, reply sent) times for the game's votes."""
    sandbox = detect_sandbox("auto")
    specs = [BotSpec(f"voter{seat}", (sys.executable, str(BOTS / "voter.py"), "60"), cwd=BOTS) for seat in (0, 1)]
    settings = MatchSettings(TimeControl(move_ms=5000, in_turn=in_turn))
    try:
        async with AsyncExitStack() as stack:
            players = [await stack.enter_async_context(open_player(spec, 10, sandbox=sandbox)) for spec in specs]
            result = await play_match(TOY, players, seed=3, options={"target": 6}, settings=settings)
        assert result.faults == ()
        return [json.loads(player.stderr_tail().splitlines()[-1]) for player in players]
    finally:
        sandbox.close()


def overlaps(first: list, second: list) -> int:
    return sum(1 for (a0, a1), (b0, b1) in zip(first, second) if a0 < b1 and b0 < a1)


async def test_in_turn_no_two_seats_decide_at_once():
    windows = await vote_windows(in_turn=True)
    assert len(windows[0]) == len(windows[1]) >= 1
    assert overlaps(*windows) == 0


async def test_by_default_the_seats_of_a_vote_decide_together():
    windows = await vote_windows(in_turn=False)
    assert len(windows[0]) == len(windows[1]) >= 1
    assert overlaps(*windows) == len(windows[0])
