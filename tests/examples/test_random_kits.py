"""The random starter kits (examples/bots/*-random) play every game legally through the arena.

For each kit and each registered game: full games against the Python random bot, in both
seats and at a bigger table, with no fault; the same seeds give the same games; and every kit
draws the same choices as js-random (they share one generator, seeded with ``bot_seed``).
Each kit also answers SPEC.md's example frames (a ``bot_seed`` above 2**63) exactly as the
reference generator predicts, and builds Karibik's non-enumerated bribe.
"""

import subprocess

import pytest

import protocol
from engines import game_ids, get_game
from protocol.tools import dumps

from ._kits import KITS, PY_RANDOM, describe, play, prepare

pytestmark = pytest.mark.slow
GAMES = game_ids()
#: The games a kit plays against the Python random bot, one process of each for all three:
#: seeds 11 and 12 with the kit in seat 0 (the second shows it seeds its generator from each
#: game's ``bot_seed``, not once per process), then seed 12 with the kit in seat 1.
SEEDS = [11, 12, 12]
SEATINGS = [(0, 1), (0, 1), (1, 0)]
#: how many of them have the kit in seat 0 (the games compared with js-random's)
IN_SEAT_0 = 2


def _supported(spec, game_id):
    if spec.games is not None and game_id not in spec.games:
        pytest.skip(f"{spec.name} does not play {game_id} yet: its manifest lists {list(spec.games)} "
                    f"(see the TODO in examples/bots/{spec.name}/)")


async def _games(kit, game_id):
    """``kit``'s games of ``SEEDS`` against the Python random bot, in fresh processes;
    skips if the kit does not play ``game_id``."""
    spec = prepare(kit)
    _supported(spec, game_id)
    return await play(game_id, [spec, PY_RANDOM], SEEDS, SEATINGS)


#: The first run of each kit and game: a module runs in one worker (``--dist loadfile``), so
#: the test that checks these games and the one that compares them with js-random's share them,
#: whichever runs first.
_FIRST_RUNS = {}


async def _first_run(kit, game_id):
    """:func:`_games`, played once per test run."""
    key = (kit, game_id)
    if key not in _FIRST_RUNS:
        _FIRST_RUNS[key] = await _games(kit, game_id)
    return _FIRST_RUNS[key]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("kit", list(KITS))
async def test_kit_plays_full_games_without_faults_and_reproducibly(kit, game_id):
    spec = prepare(kit)
    first = await _first_run(kit, game_id)
    assert all(not r.faults for r in first), describe(first)
    assert all(r.reason.value == "normal" for r in first), describe(first)
    assert all(any(by_bot for _, _, by_bot in r.moves) for r in first)
    assert [r.bots.index(spec.name) for r in first] == [seating.index(0) for seating in SEATINGS]
    again = await _games(kit, game_id)
    assert [r.replay.steps for r in again] == [r.replay.steps for r in first]
    assert [r.ranks for r in again] == [r.ranks for r in first]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("kit", list(KITS))
async def test_kit_plays_at_a_full_table(kit, game_id):
    spec = prepare(kit)
    _supported(spec, game_id)
    players = min(get_game(game_id).max_players, 4)
    specs = [spec if seat % 2 == 0 else PY_RANDOM for seat in range(players)]
    results = await play(game_id, specs, [5])
    assert not results[0].faults, describe(results)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("kit", [name for name in KITS if name != "js-random"])
async def test_kit_makes_the_same_choices_as_js_random(kit, game_id):
    # play() gives each seat the same bot_seed in both runs, so the kits draw the same numbers.
    # A bot's name is not in the replay's steps (seat and action), nor in its seed.
    ours = await _first_run(kit, game_id)
    theirs = await _first_run("js-random", game_id)
    assert [r.replay.steps for r in ours[:IN_SEAT_0]] == [r.replay.steps for r in theirs[:IN_SEAT_0]]


class SplitMix64:
    """The kits' shared generator (SplitMix64), the reference their choices are checked against."""

    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) % 2**64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        return z ^ (z >> 31)

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.next() % (i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def _exchange(spec, messages):
    """Send ``messages`` to a fresh process of ``spec``, then ``bye``; return its replies."""
    frames = b"".join(protocol.encode(m) for m in [*messages, protocol.bye()])
    done = subprocess.run(spec.argv(), cwd=spec.cwd, input=frames, capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    decoder = protocol.FrameDecoder()
    decoder.feed(done.stdout)
    replies = []
    while (message := decoder.next()) is not None:
        replies.append(message)
    assert decoder.pending() == 0, "the bot wrote bytes that are not whole frames"
    return replies


@pytest.mark.parametrize("kit", list(KITS))
def test_kit_answers_the_spec_examples_with_the_shared_generator(kit):
    spec = prepare(kit)
    examples = dumps.examples()
    hello, action = _exchange(spec, [examples["hello-arena"], examples["start"], examples["request"]])
    assert protocol.parse_hello(hello).protocol == "1.0"
    legal = examples["request"]["legal"]
    expected = legal[SplitMix64(dumps.EXAMPLE_BOT_SEED).next() % len(legal)]
    assert protocol.parse_action(action) == protocol.ActionReply(id=7, action=expected)


@pytest.mark.parametrize("kit", list(KITS))
def test_kit_builds_the_karibik_bribe(kit):
    spec = prepare(kit)
    _supported(spec, "karibik")
    examples = dumps.examples()
    start = dict(examples["start"], game="karibik", options={})
    request = examples["request-unenumerated"]
    _, action = _exchange(spec, [examples["hello-arena"], start, request])
    expected = SplitMix64(dumps.EXAMPLE_BOT_SEED).shuffle([-1, 0, 1, 2, 3, 4, 5])[:6]
    assert protocol.parse_action(action) == protocol.ActionReply(id=request["id"], action=expected)
