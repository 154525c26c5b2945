"""A bot that checks, at the start of each game, that no other live process of its entrant has
seen the game's deal (the pool's rule). ``python timeline.py ENTRANT``.

The test passes, through the manifest's environment, ``TIMELINE_DIR`` (a folder every bot uid
may write) and ``TIMELINE_BLOCKS`` (a JSON file: each game's ``bot_seed`` -> its duplicate
block, which the test works out from the tournament's schedule). Each process keeps a record
``ENTRANT.PID.STARTTIME`` there: its start time, then one line per game (block and time). At
each ``start`` it first adds the block to its record, then looks at every other record of its
entrant holding that block: if that process still runs (same pid and start time in /proc, not a
zombie), it appends a line to ``violations``. Otherwise it plays the first legal action.
"""

import json
import os
import sys
import time
from pathlib import Path

from _frames import receive, send

ENTRANT = sys.argv[1]
FOLDER = Path(os.environ["TIMELINE_DIR"])
BLOCKS = json.loads(Path(os.environ["TIMELINE_BLOCKS"]).read_text())


def stat(pid):
    """(state, start time) of process ``pid``, or None when there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    return fields[0], fields[19]


def alive(pid, started):
    found = stat(pid)
    return found is not None and found[1] == started and found[0] not in "ZXx"


_, STARTED = stat(os.getpid())
RECORD = FOLDER / f"{ENTRANT}.{os.getpid()}.{STARTED}"


def note(line):
    with open(RECORD, "a") as record:
        record.write(line + "\n")


note(f"start {time.time():.6f}")
receive()
send({"type": "hello", "protocol": "1.0", "name": "timeline", "version": "1", "games": []})
while True:
    message = receive()
    kind = message["type"]
    if kind == "bye":
        sys.exit(0)
    if kind == "start":
        block = BLOCKS[str(message["bot_seed"])]
        note(f"game {block} {time.time():.6f}")
        for other in FOLDER.glob(f"{ENTRANT}.*"):
            if other == RECORD:
                continue
            _, pid, started = other.name.rsplit(".", 2)
            if block in [line.split()[1] for line in other.read_text().splitlines() if line.startswith("game ")] \
                    and alive(int(pid), started):
                with open(FOLDER / "violations", "a") as violations:
                    violations.write(f"{RECORD.name} started a game of {block} while {other.name}, which saw it, "
                                     f"was alive\n")
    if kind == "request":
        send({"type": "action", "id": message["id"], "action": message["legal"][0] if message["legal"] else None})
