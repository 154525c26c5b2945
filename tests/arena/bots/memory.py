"""A Dead Man's Draw bot that tries to remember deals. ``python memory.py MODE TOKEN``.

It plays the first legal action and collects the cards drawn from the draw pile (the
``draw`` events). At each game's ``end`` the first 8 of them identify the deal (the same
deal draws the same cards first, whoever sits where), and the bot writes one stderr line:
``NEW <deal>`` or ``SEEN <deal>`` (a deal it remembers from an earlier game).

MODE ``memory`` remembers in the process only. MODE ``disk`` also remembers in files
``pirate-memo-TOKEN-<pid>`` in every folder it can write (HOME, TMPDIR, /tmp, /dev/shm,
/var/tmp, its working folder), reads every such file of any process before deciding, and
says once where it could write: ``WROTE <folder>`` or ``READONLY <folder>``.
"""

import os
import sys
from pathlib import Path

from _frames import receive, send

MODE, TOKEN = sys.argv[1], sys.argv[2]
PLACES = [os.environ.get("HOME", ""), os.environ.get("TMPDIR", ""), "/tmp", "/dev/shm", "/var/tmp", os.getcwd()]
PREFIX = f"pirate-memo-{TOKEN}-"


def log(line):
    print(line, file=sys.stderr, flush=True)


def remembered():
    deals = set()
    for place in dict.fromkeys(filter(None, PLACES)):
        try:
            for path in Path(place).glob(PREFIX + "*"):
                deals.update(path.read_text().split())
        except OSError:
            pass
    return deals


def remember(deal, first):
    for place in dict.fromkeys(filter(None, PLACES)):
        try:
            with open(Path(place) / f"{PREFIX}{os.getpid()}", "a") as file:
                file.write(deal + "\n")
            if first:
                log(f"WROTE {place}")
        except OSError:
            if first:
                log(f"READONLY {place}")


receive()
send({"type": "hello", "protocol": "1.0", "name": "memory", "version": "1", "games": ["dead-mans-draw"]})
memory = set()
games = 0
drawn = []
while True:
    message = receive()
    kind = message["type"]
    if kind == "bye":
        sys.exit(0)
    if kind == "start":
        drawn = []
    if kind in ("request", "end"):
        drawn += [event["card"] for event in message["events"] if event.get("type") == "draw"]
    if kind == "request":
        send({"type": "action", "id": message["id"], "action": message["legal"][0]})
    if kind == "end":
        deal = "-".join(drawn[:8])
        known = memory | (remembered() if MODE == "disk" else set())
        log(f"{'SEEN' if deal in known else 'NEW'} {deal}")
        memory.add(deal)
        if MODE == "disk":
            remember(deal, games == 0)
        games += 1
