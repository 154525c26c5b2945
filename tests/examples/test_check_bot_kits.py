"""Every starter kit and every Python reference bot passes `arena check-bot`, in the sandbox
a tournament would use."""

import pytest

from arena.match._checkbot import check_bot
from arena.players._manifest import load_manifest
from arena.players._timecontrol import TimeControl
from arena.sandbox._detect import detect_sandbox

from ._kits import EXAMPLES, KITS, prepare


@pytest.fixture(scope="module")
def sandbox():
    box = detect_sandbox("auto")
    yield box
    box.close()


#: Kits and reference bots are checked at tables of 3 (every game has them: a bot meets more than
#: one rival), each with every option flipped: what a kit could get wrong by table size is how it
#: reads a view, the same at 3 as at 8. Every table size of every game is check-bot's own test
#: (tests/arena/test_checkbot.py, the reference bot), at a third of the suite's time here.
TABLE = 3


@pytest.mark.parametrize("name", sorted(KITS))
async def test_kit_passes_check_bot(name, sandbox):
    report = await check_bot(prepare(name), games_per=2, sandbox=sandbox, players=TABLE)
    assert report.passed, "\n".join(report.lines())


@pytest.mark.parametrize("name", ["python-random", "py-random", "py-heuristic", "py-search"])
async def test_python_reference_bot_passes_check_bot(name, sandbox):
    spec = load_manifest(EXAMPLES / f"{name}.toml")
    # A short move limit: the search bot thinks for a share of it, and the check is about
    # conformance, not strength.
    # The search bot thinks for a share of every move: check it on the shortest game only.
    games = ["karibik"] if name == "py-search" else []
    report = await check_bot(spec, games, games_per=2, time_control=TimeControl(50, 1000, 10_000), sandbox=sandbox,
                             players=TABLE)
    assert report.passed, "\n".join(report.lines())
