"""A bot for the toy game that notes, for each simultaneous vote, when its request arrived
and when it answered (the monotonic clock, which every process shares), spending
``argv[1]`` ms on each vote, and prints the windows as JSON on stderr at the game's end."""

import json
import sys
import time

from _frames import receive, send

spend = float(sys.argv[1]) / 1000
windows = []
while True:
    message = receive()
    if message["type"] == "hello":
        send({"type": "hello", "name": "voter", "version": "1", "protocol": "1.0", "games": []})
    elif message["type"] == "request":
        if message["kind"] == "vote":
            arrived = time.monotonic()
            time.sleep(spend)
            windows.append((arrived, time.monotonic()))
        send({"type": "action", "id": message["id"], "action": message["legal"][0]})
    elif message["type"] == "end":
        print(json.dumps(windows), file=sys.stderr, flush=True)
    elif message["type"] == "bye":
        break
