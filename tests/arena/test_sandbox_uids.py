"""Bot uids are leased machine-wide: never shared by two live bot processes, never handed out
while a process of that uid lives, whichever arena asks."""

import os
import sqlite3
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from arena.sandbox._uids import UidAllocator, UidError

#: what only an arena run as root has (own uids, cgroups, images): .ci/run runs these as root too
pytestmark = pytest.mark.root

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="bots get uids of their own only when the arena runs as root")
#: a range of its own for each test run, away from the arena's (61000-64999)
BASE = 70000 + os.getpid() % 5000 * 3


def test_two_allocators_on_one_lock_folder_never_hand_out_the_same_uid(tmp_path):
    first, second = UidAllocator(BASE, 3, tmp_path), UidAllocator(BASE, 3, tmp_path)
    a, b, c = first.acquire(), second.acquire(), second.acquire()
    assert sorted(lease.uid for lease in (a, b, c)) == [BASE, BASE + 1, BASE + 2]
    with pytest.raises(UidError, match=f"^all 3 bot uids from {BASE} are in use"):
        first.acquire()
    b.release()
    assert first.acquire().uid == b.uid
    for lease in (a, c):
        lease.release()


def test_uids_are_not_reused_sooner_than_needed(tmp_path):
    allocator = UidAllocator(BASE, 3, tmp_path)
    uids = []
    for _ in range(4):
        lease = allocator.acquire()
        uids.append(lease.uid)
        lease.release()
    assert uids == [BASE, BASE + 1, BASE + 2, BASE]


@as_root
def test_a_uid_with_a_leftover_process_is_skipped(tmp_path):
    leftover = subprocess.Popen(["sleep", "60"], user=BASE, group=BASE, extra_groups=[])
    try:
        lease = UidAllocator(BASE, 3, tmp_path).acquire()
        assert lease.uid == BASE + 1
        lease.release()
    finally:
        leftover.kill()
        leftover.wait()
    lease = UidAllocator(BASE, 3, tmp_path).acquire()
    assert lease.uid == BASE
    lease.release()


def uids_of(markers: dict[str, str]) -> dict[str, set[int]]:
    """For each arena (by the marker in its bots' environment): the uids of its live bots."""
    found = {arena: set() for arena in markers}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            status = (entry / "status").read_text()
        except OSError:
            continue
        for arena, marker in markers.items():
            if marker.encode() in environ:
                uid = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("Uid:"))
                found[arena].add(uid)
    return found


@as_root
@pytest.mark.parametrize("sandbox", ["auto", "none"])
def test_two_arenas_at_once_never_share_a_uid_nor_kill_each_others_bots(tmp_path, sandbox):
    markers = {arena: f"{arena}-{uuid.uuid4().hex}" for arena in ("a", "b")}
    runs = {}
    for arena, marker in markers.items():
        entrants = "".join(f'\n[[entrants]]\nname = "r{i}"\ncommand = "python -m bots.random"\n'
                           f'env = {{ PIRATE_ARENA_TEST = "{marker}" }}\n' for i in range(3))
        path = tmp_path / f"{arena}.toml"
        path.write_text(textwrap.dedent(f"""\
            game = "dead-mans-draw"
            players = 2
            rounds = 3
            concurrency = 2
            database = "{arena}.db"
            [options]
            characters = false
            """) + entrants)
        path.chmod(0o600)
        runs[arena] = subprocess.Popen(["arena", "tournament", "run", str(path), "--quiet", "--sandbox", sandbox],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    shared, both_live = [], 0
    while any(run.poll() is None for run in runs.values()):
        live = uids_of(markers)
        shared += sorted(live["a"] & live["b"])
        both_live += bool(live["a"] and live["b"])
        time.sleep(0.01)
    for arena, run in runs.items():
        assert run.wait() == 0, run.stderr.read()
        with sqlite3.connect(tmp_path / f"{arena}.db") as db:
            faults = [row[0] for row in db.execute("SELECT faults FROM games")]
        assert faults == ["[]"] * 18, f"arena {arena}: {faults}"
    assert shared == [], "two live bots of different arenas had one uid"
    assert both_live > 0, "the arenas never ran bots at the same time; the test proved nothing"
