"""Issue 32: two colluding bots, started as a tournament starts entrants (``--sandbox auto`` as
root: bubblewrap, the system-call filter, their own uids), pass bits through the page cache:
one reads pages of a file both can see, the other tells which pages are cached. It needs
neither two bots running at once nor a live sender, so it carries a deal from one rotation to
the next. The dentry cache is the same kind of channel, through names looked up.

Both are ``bots/pagecache.py`` (how they choose the pages: its docstring). The sender sends
256 bits, as many ones as zeros, drawn from a seed; the receiver prints what it got. A closed
channel leaves the receiver guessing: its agreement with the sender is then binomial (256,
1/2) (or exactly 128 for a receiver that answers all ones), and the tests assert it lies
within :data:`AGREEMENT`, which guessing leaves with a probability below 1e-6. An open
channel agrees on about all 256.

Before each transfer the test puts the pages out of the cache (``POSIX_FADV_DONTNEED``, from
outside the sandbox), as on a machine where nobody read those files lately (nor the arena, whose
stamps of what it made resident go with them): the receiver's
reads cache them, and the next run must not find them so. (A bot may not: the filter refuses
it ``posix_fadvise``.)

The channel tests fail while the channel is open. Two checks of the apparatus pass either way:
with every page and name cached first (what keeping the view in memory does) the receiver
answers all ones, and it decodes only a gap as large as the mechanism's (a disk read), not the
few per cent the CPU's caches leave (``benchmarks/covert_channels.py --channel cpucache``).
"""

import dataclasses
import importlib.util
import json
import math
import os
import shutil
import sys
import uuid
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from arena.match._match import MatchSettings, play_match
from arena.players._manifest import BotSpec
from arena.players._open_player import open_player
from arena.players._timecontrol import TimeControl
from arena.sandbox._images import images_missing
from arena.sandbox._resident import state_folder
from arena.sandbox._detect import detect_sandbox

from ._toy import TOY

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

BOTS = Path(__file__).parent / "bots"
COUNT = 256
SEED = 32
#: a move may take a walk of the view and 288 disk reads on a loaded machine
SETTINGS = MatchSettings(TimeControl(move_ms=20_000, reserve_ms=0, startup_ms=20_000))
#: the channels: a read timed, mincore on a mapping (refused by the filter; before that Linux
#: answered "cached" for every page of a file a bot may not write), a fault's fault-around seen
#: in pagemap, and beside the page cache the dentry cache: ``stat`` of a name nobody looked up
VARIANTS = ("pagecache-timing", "pagecache-mincore", "pagecache-faultaround")
#: the dentry cache: names looked up in a folder the view shows whole (the bot's own, its
#: runtime's) reach the host's dentry cache unless each bot's folders are filesystems of its own
#: (``arena/sandbox/_images.py``); where they cannot be, the channel is open and said so (docs/sandbox.md,
#: "What the sandbox cannot do"), strict so that closing it fails here until docs/sandbox.md says so
DENTRY = ("dentry", "dentry-own", "dentry-runtime")
OPEN_WITHOUT_IMAGES = pytest.mark.xfail(images_missing() is not None, strict=True,
                                        reason=f"the dentry cache of a folder shown whole: {images_missing()}")
OPEN_VARIANTS = [pytest.param(variant, marks=OPEN_WITHOUT_IMAGES) for variant in DENTRY]


def chance_bounds(count: int, p: float) -> range:
    """The agreements ``k`` of ``count`` guessed bits with ``P(|K - count/2| >= |k - count/2|)``
    at least ``p`` under K ~ Binomial(count, 1/2)."""
    def tail(k):  # P(K <= k)
        return sum(math.comb(count, i) for i in range(k + 1)) / 2 ** count
    low = next(k for k in range(count // 2 + 1) if 2 * tail(k) >= p)
    return range(low, count - low + 1)


#: agreement a receiver that learns nothing stays within, but with probability below 1e-6
AGREEMENT = chance_bounds(COUNT, 1e-6)


def party_module():
    spec = importlib.util.spec_from_file_location("pagecache_party", BOTS / "pagecache.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sandbox():
    """The sandbox of a tournament that counts: bubblewrap and bots with their own uids."""
    if os.geteuid() != 0:
        pytest.skip("needs root: bots get their own uids only when the arena runs as root")
    if shutil.which("bwrap") is None:
        pytest.skip("needs bubblewrap (apt-get install bubblewrap)")
    box = detect_sandbox("auto")
    if box.bwrap is None or not box.drop_privileges:
        box.close()
        pytest.skip("bubblewrap cannot make a bot's view here")
    yield box
    box.close()


@pytest.fixture
def cold_pages():
    """The bits the sender sends; the pages it will use, put out of the cache first (see the
    module's docstring)."""
    module = party_module()
    module.evict(module.choose("pagecache-timing", COUNT, SEED))
    # ... and the arena has not read them since: its stamps (arena/sandbox/_resident.py) say
    # when it last made each path of a view resident, and are forgotten with the pages.
    shutil.rmtree(state_folder() / "resident", ignore_errors=True)
    return module.message(SEED, COUNT)


def colluder(name: str, variant: str, tag: str) -> BotSpec:
    """An entrant running ``pagecache.py``: it sends in seat 0, receives in seat 1. ``tag``:
    the dentry channel's names, new in every test (a name once looked up stays cached)."""
    return BotSpec(name, (sys.executable, str(BOTS / "pagecache.py"), variant, str(SEED), str(COUNT), tag), cwd=BOTS)


FILLER = BotSpec("good", (sys.executable, str(BOTS / "scripted.py"), "good"), cwd=BOTS)


async def match(box, specs) -> list[str]:
    """One game of the toy game with these seats; each seat's stderr."""
    async with AsyncExitStack() as stack:
        players = [await stack.enter_async_context(open_player(spec, 30, sandbox=box)) for spec in specs]
        for player in players:
            assert player.usable, player.failure
        result = await play_match(TOY, players, seed=4, options={"target": 10}, settings=SETTINGS)
    assert result.faults == (), result.faults
    return [player.process.stderr.tail(5) for player in players]


def report(stderr: str) -> dict:
    lines = [line for line in stderr.splitlines() if line.startswith("{")]
    assert lines, f"the bot said nothing:\n{stderr}"
    return json.loads(lines[-1])


def assert_nothing_got_through(variant: str, sent: list[int], got: dict) -> None:
    if "refused" in got:
        return  # the system refused a call the channel needs: closed
    agreement = sum(a == b for a, b in zip(sent, got["received"]))
    assert agreement in AGREEMENT, (
        f"{variant}: the receiver got {agreement} of {COUNT} bits right (guessing stays within "
        f"{AGREEMENT.start}-{AGREEMENT.stop - 1} but with probability 1e-6), through {got['files']}")


@pytest.mark.parametrize("variant", [*VARIANTS, *OPEN_VARIANTS])
async def test_an_entrant_learns_nothing_from_another_through_the_page_cache(sandbox, cold_pages, variant):
    # Two entrants: seat 0 sends at its first move; seat 1 reads at its first move after seat 0's.
    tag = uuid.uuid4().hex
    seats = [colluder("colluder-a", variant, tag), colluder("colluder-b", variant, tag)]
    sender, receiver = await match(sandbox, seats)
    assert report(sender)["sent"] == COUNT
    assert_nothing_got_through(variant, cold_pages, report(receiver))


@pytest.mark.parametrize("variant", [*VARIANTS, *OPEN_VARIANTS])
async def test_a_rotation_learns_nothing_from_the_last_through_the_page_cache(sandbox, cold_pages, variant):
    # Two rotations of a deal: one entrant, in seat 0 then in seat 1; its first process has
    # ended before its second starts.
    tag = uuid.uuid4().hex
    entrant = colluder("colluder", variant, tag)
    sender, _ = await match(sandbox, [entrant, FILLER])
    assert report(sender)["sent"] == COUNT
    _, receiver = await match(sandbox, [FILLER, entrant])
    assert_nothing_got_through(variant, cold_pages, report(receiver))


@pytest.mark.parametrize("variant", ["pagecache-timing", "pagecache-faultaround"])
async def test_with_every_page_and_name_cached_first_the_receiver_only_guesses(sandbox, cold_pages, variant):
    # What the tests above see once the channel is closed by keeping the view in memory: the
    # receiver's header shows no uncached page, so it answers all ones: 128 of 256. (Names are
    # not among them: a bot's /usr is the arena's farm, where the test cannot look names up.)
    # Its folders bound as they are: an image of its own starts with nothing cached.
    tag = uuid.uuid4().hex
    module = party_module()
    module.make_resident(module.choose(variant, COUNT, tag))
    _, receiver = await match(dataclasses.replace(sandbox, images_missing="off for this test"), [
        colluder("colluder-a", variant, tag), colluder("colluder-b", variant, tag)])
    got = report(receiver)
    assert "refused" in got or got["received"] == [1] * COUNT, got
    assert_nothing_got_through(variant, cold_pages, got)


@pytest.mark.parametrize("variant", DENTRY)
async def test_without_images_of_their_own_names_pass_between_entrants(sandbox, variant):
    # The control of the dentry tests above: the same two bots, their folders bound as they are
    # (the arena before images): the receiver gets more bits right than guessing could.
    if images_missing() is not None:
        pytest.skip(f"the view's folders cannot be images here: {images_missing()}")
    tag = uuid.uuid4().hex
    bound = dataclasses.replace(sandbox, images_missing="off for this test")
    sender, receiver = await match(bound, [colluder("colluder-a", variant, tag), colluder("colluder-b", variant, tag)])
    assert report(sender)["sent"] == COUNT
    got = report(receiver)
    agreement = sum(a == b for a, b in zip(party_module().message(SEED, COUNT), got["received"]))
    assert agreement >= AGREEMENT.stop, (variant, agreement, got)


def test_the_receiver_decodes_only_the_gap_of_its_mechanism():
    module = party_module()
    header = module.HEADER
    slow_zeros = [1_000 if bit else 80_000 for bit in header]
    bits, threshold = module.decode(slow_zeros + [900, 90_000, 5_000], 4.0)
    assert (bits, round(threshold)) == ([1, 0, 1], 8944)  # the geometric mean of 1,000 and 80,000
    # ten per cent slower (the CPU's caches, say): not the page cache, all ones; cpucache decodes it
    a_little_slower = [1_000 if bit else 1_100 for bit in header] + [900, 1_200]
    assert module.decode(a_little_slower, 4.0) == ([1, 1], None)
    bits, threshold = module.decode(a_little_slower, 1.0)
    assert (bits, round(threshold)) == ([1, 0], 1049)


def test_the_chance_bounds_are_those_of_a_fair_coin():
    assert chance_bounds(COUNT, 1e-6) == AGREEMENT == range(89, 168)
    assert chance_bounds(10, 0.05) == range(2, 9)  # P(K <= 1) = 11/1024: 2 * that < 0.05
