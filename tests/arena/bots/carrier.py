"""A Dead Man's Draw bot that tries to carry a deal from one rotation to the next through a
channel only a live process can serve: ``python carrier.py ENTRANT`` (issue 25's attack).

Each process remembers, in memory only, the cards drawn from the draw pile in each of its
games (a deal's draw sequence: the same whoever sits where), and serves everything it
remembers through a named pipe ``ENTRANT.PID.fifo`` in ``CARRIER_DIR`` (a folder the test
passes through the manifest's environment): a thread opens it for writing, which waits for a
reader, writes and closes, again and again. (A FIFO, because the bots' seccomp filter refuses
``bind`` and ``connect`` with or without bubblewrap; a reader of a FIFO whose writer is gone
reads nothing.) When the cards drawn so far in its game first number 4, it asks every other
live process of its entrant, and whenever those cards begin a sequence it was given, it
predicts the next card; a prediction that comes true is appended to
``CARRIER_DIR/predictions``: it read the draw pile of a deal it never saw.
"""

import json
import os
import sys
import threading
import time
from pathlib import Path

from _frames import receive, send

ENTRANT = sys.argv[1]
FOLDER = Path(os.environ["CARRIER_DIR"])
PATH = FOLDER / f"{ENTRANT}.{os.getpid()}.fifo"
known = []  # the draw sequences of the games this process played


def serve():
    while True:
        try:
            with open(PATH, "wb") as fifo:  # waits for a reader
                fifo.write(json.dumps(known).encode())
        except BrokenPipeError:
            pass  # the reader gave up
        time.sleep(0.01)  # let the reader see the end of this answer


def running(pid):
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return False
    return fields[0] not in "ZXx"


def ask(path):
    """What the process serving ``path`` remembers ([] when nobody serves it)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return []
    data, deadline = b"", time.monotonic() + 0.3
    try:
        while time.monotonic() < deadline:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                chunk = None  # a writer, nothing written yet
            if chunk:
                data += chunk
            elif chunk == b"" and data:
                break  # the writer closed after its answer
            else:
                time.sleep(0.002)  # no writer yet, or nothing yet
    finally:
        os.close(fd)
    try:
        return json.loads(data) if data else []
    except ValueError:
        return []


def ask_the_others():
    sequences = []
    for path in FOLDER.glob(f"{ENTRANT}.*.fifo"):
        if path != PATH and running(path.name.split(".")[-2]):
            sequences += ask(path)
    return sequences


os.mkfifo(PATH)
os.chmod(PATH, 0o666)
threading.Thread(target=serve, daemon=True).start()

receive()
send({"type": "hello", "protocol": "1.0", "name": "carrier", "version": "1", "games": ["dead-mans-draw"]})
drawn, guess, given = [], None, None
while True:
    message = receive()
    kind = message["type"]
    if kind == "bye":
        sys.exit(0)
    if kind == "start":
        drawn, guess, given = [], None, None
    if kind in ("request", "end"):
        for event in message["events"]:
            if event.get("type") == "draw":
                if guess is not None and event["card"] == guess:
                    with open(FOLDER / "predictions", "a") as predictions:
                        predictions.write(f"{PATH.name} predicted {guess} after {len(drawn)} cards\n")
                guess = None
                drawn.append(event["card"])
    if kind == "request":
        if len(drawn) >= 4:
            if given is None:
                given = ask_the_others()
            for sequence in given:
                if len(sequence) > len(drawn) and sequence[:len(drawn)] == drawn:
                    guess = sequence[len(drawn)]
        send({"type": "action", "id": message["id"], "action": message["legal"][0]})
    if kind == "end":
        known.append(drawn)
