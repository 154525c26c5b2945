"""A Dead Man's Draw bot that tries to carry a deal from one rotation to the next through a
channel only a live process can serve: ``python carrier.py ENTRANT`` (issue 25's attack).

Each process remembers, in memory only, the cards drawn from the draw pile in each of its
games (a deal's draw sequence: the same whoever sits where), and serves everything it
remembers on a unix socket ``ENTRANT.PID.sock`` in ``CARRIER_DIR`` (a folder the test passes
through the manifest's environment). Before each decision it asks every other process of its
entrant listening there, and when the cards drawn so far in its game begin a sequence it was
given (at least 4 of them), it predicts the next card; a prediction that comes true is
appended to ``CARRIER_DIR/predictions``: it read the draw pile of a deal it never saw.
"""

import json
import os
import socket
import sys
import threading
from pathlib import Path

from _frames import receive, send

ENTRANT = sys.argv[1]
FOLDER = Path(os.environ["CARRIER_DIR"])
PATH = FOLDER / f"{ENTRANT}.{os.getpid()}.sock"
known = []  # the draw sequences of the games this process played


def serve(listener):
    while True:
        connection, _ = listener.accept()
        with connection:
            connection.sendall(json.dumps(known).encode())


def ask_the_others():
    sequences = []
    for path in FOLDER.glob(f"{ENTRANT}.*.sock"):
        if path == PATH:
            continue
        try:
            with socket.socket(socket.AF_UNIX) as client:
                client.settimeout(1)
                client.connect(str(path))
                data = b""
                while chunk := client.recv(65536):
                    data += chunk
            sequences += json.loads(data)
        except (OSError, ValueError):
            pass  # nobody there any more
    return sequences


listener = socket.socket(socket.AF_UNIX)
listener.bind(str(PATH))
os.chmod(PATH, 0o777)
listener.listen(8)
threading.Thread(target=serve, args=(listener,), daemon=True).start()

receive()
send({"type": "hello", "protocol": "1.0", "name": "carrier", "version": "1", "games": ["dead-mans-draw"]})
drawn, guess = [], None
while True:
    message = receive()
    kind = message["type"]
    if kind == "bye":
        sys.exit(0)
    if kind == "start":
        drawn, guess = [], None
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
            for sequence in ask_the_others():
                if len(sequence) > len(drawn) and sequence[:len(drawn)] == drawn:
                    guess = sequence[len(drawn)]
        send({"type": "action", "id": message["id"], "action": message["legal"][0]})
    if kind == "end":
        known.append(drawn)
